/**
 * Corpus BLEU from summed statistics without allocating: the tuning inner loop's reduction. It repeats the
 * arithmetic of src/metrics/bleu-score.ts (`bleuScore`) operation for operation — precisions `100 * c / t`, `exp`
 * smoothing halving, add-k on orders > 1, `log 0` as −9999999999, the geometric mean summed left to right, the
 * correctly rounded exp/log — on a scratch buffer owned by the scorer, because `bleuScore` takes `subarray` views
 * of its scratch on every call (three small allocations). The tests check both give the same doubles.
 */
import { brevityPenalty, type BleuReduction } from '../metrics/bleu-score.js';
import { BLEU_SMOOTH_DEFAULTS } from '../metrics/bleu-score.js';
import { expCR, logCR } from '../util/correctly-rounded.js';

/** `log 0` as sacrebleu takes it. */
const LOG_ZERO = -9999999999;

/** Scores rows `[hyp_len, ref_len, correct_1..N, total_1..N]` with one fixed BLEU reduction. Not reentrant. */
export class BleuTotalsScorer {
  private readonly n: number;
  private readonly k: number;
  private readonly exp: boolean;
  private readonly floor: boolean;
  private readonly addK: boolean;
  private readonly effective: boolean;
  /** precisions[0..N), then smoothed correct[N..2N), total[2N..3N). */
  private readonly scratch: Float64Array;

  constructor(reduction: BleuReduction) {
    this.n = reduction.maxNgramOrder;
    this.k = reduction.smoothValue ?? BLEU_SMOOTH_DEFAULTS[reduction.smoothMethod] ?? 0;
    this.exp = reduction.smoothMethod === 'exp';
    this.floor = reduction.smoothMethod === 'floor';
    this.addK = reduction.smoothMethod === 'add-k';
    this.effective = reduction.effectiveOrder;
    this.scratch = new Float64Array(3 * this.n);
  }

  /** Width of the rows this scorer reads (`2 + 2N`). */
  get width(): number {
    return 2 + 2 * this.n;
  }

  /** BLEU (0–100) of the row starting at `offset` of `stats`; same doubles as `bleuScore`. */
  score(stats: ArrayLike<number>, offset = 0): number {
    const n = this.n;
    const c0 = offset + 2;
    const t0 = offset + 2 + n;
    let any = false;
    for (let i = 0; i < n; i++) {
      if (stats[c0 + i] !== 0) {
        any = true;
        break;
      }
    }
    // No correct n-gram of any order: 0 whatever the smoothing (as sacrebleu).
    if (!any) return 0;
    const p = this.scratch;
    for (let i = 0; i < n; i++) {
      p[i] = 0;
      p[n + i] = stats[c0 + i];
      p[2 * n + i] = stats[t0 + i];
    }
    let smoothMteval = 1;
    let effOrder = n;
    for (let i = 0; i < n; i++) {
      if (this.addK && i > 0) {
        p[n + i] += this.k;
        p[2 * n + i] += this.k;
      }
      const total = p[2 * n + i];
      if (total === 0) break;
      if (this.effective) effOrder = i + 1;
      const correct = p[n + i];
      if (correct === 0) {
        if (this.exp) {
          smoothMteval *= 2;
          p[i] = 100 / (smoothMteval * total);
        } else if (this.floor) {
          p[i] = (100 * this.k) / total;
        }
      } else {
        p[i] = (100 * correct) / total;
      }
    }
    let sum = 0;
    for (let i = 0; i < effOrder; i++) {
      const v = p[i];
      sum += v === 0 ? LOG_ZERO : logCR(v);
    }
    return brevityPenalty(stats[offset], stats[offset + 1]) * expCR(sum / effOrder);
  }
}
