/**
 * BLEUS-1 … BLEUS-N of one hypothesis from one set of clipped n-gram counts, for ORANGE's millions of sentence
 * scores: the same doubles as `bleuScore(row, linOchReduction(n))` (src/metrics/bleu/score.ts, sacrebleu's
 * arithmetic with correctly rounded `log`/`exp`), computed once for every order instead of once per order.
 *
 * Why it is cheaper and still identical: with add-one smoothing for orders > 1 and no effective order, the
 * geometric mean of BLEUS-n is exp(Σ_{i<n} log p_i / n) with the log-sum taken left to right from 0 — the prefix
 * sums of one left-to-right pass serve every n. A precision p_i = 100·c/t is a function of two small integers, and
 * the brevity penalty of two lengths, so their correctly rounded logs and exps are memoised; what remains per
 * order is one `exp`.
 */
import { brevityPenalty } from '../../metrics/bleu/score.js';
import { expCR, logCR } from '../../util/correctly-rounded.js';

/** sacrebleu's `log 0`. */
const LOG_ZERO = -9999999999;

/** Memoised BLEUS arithmetic up to a maximum order. */
export class BleusSeries {
  private readonly logs = new Map<number, number>();
  private readonly penalties = new Map<number, number>();
  private readonly prefix: Float64Array;

  /** @param maxOrder the highest order any call asks for. */
  constructor(readonly maxOrder: number) {
    this.prefix = new Float64Array(maxOrder + 1);
  }

  /** log(100·c/t) as `geometricMean` takes it (`LOG_ZERO` for c = 0). */
  private logPrecision(c: number, t: number): number {
    if (c === 0) return LOG_ZERO;
    if (t >= 0x100000) return logCR((100 * c) / t);
    const key = c * 0x100000 + t;
    let v = this.logs.get(key);
    if (v === undefined) {
      v = logCR((100 * c) / t);
      this.logs.set(key, v);
    }
    return v;
  }

  private penalty(sysLen: number, refLen: number): number {
    if (sysLen >= refLen) return 1;
    if (refLen >= 0x100000) return brevityPenalty(sysLen, refLen);
    const key = sysLen * 0x100000 + refLen;
    let v = this.penalties.get(key);
    if (v === undefined) {
      v = brevityPenalty(sysLen, refLen);
      this.penalties.set(key, v);
    }
    return v;
  }

  /**
   * Writes BLEUS-`orders[q]` to `out[outAt + q]` for each q.
   * @param counts clipped counts: `correct_1..N` at `at`, `total_1..N` at `at + stride` (N ≥ every requested order).
   */
  scores(
    counts: Float64Array,
    at: number,
    stride: number,
    hypLen: number,
    refLen: number,
    orders: Int32Array,
    out: Float64Array,
    outAt: number,
  ): void {
    let top = 0;
    for (let q = 0; q < orders.length; q++) top = Math.max(top, orders[q]);
    const prefix = this.prefix;
    // anyCorrect[n]: some order ≤ n has a match (sacrebleu returns 0 before smoothing otherwise). prefix[0] = 0.
    let firstCorrect = Infinity;
    let sum = 0;
    prefix[0] = 0;
    for (let i = 0; i < top; i++) {
      const raw = counts[at + i];
      if (raw !== 0 && firstCorrect === Infinity) firstCorrect = i + 1;
      const k = i > 0 ? 1 : 0;
      const total = counts[at + stride + i] + k;
      // total is 0 only for order 1 of an empty hypothesis, which has no match at any order: scored 0 below.
      sum += total === 0 ? LOG_ZERO : this.logPrecision(raw + k, total);
      prefix[i + 1] = sum;
    }
    const bp = firstCorrect === Infinity ? 0 : this.penalty(hypLen, refLen);
    for (let q = 0; q < orders.length; q++) {
      const n = orders[q];
      out[outAt + q] = n < firstCorrect ? 0 : bp * expCR(prefix[n] / n);
    }
  }
}
