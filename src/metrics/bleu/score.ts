/**
 * The BLEU reduction (Papineni et al. 2002) from sufficient statistics, with sacrebleu 2.6.0's smoothing methods
 * (Chen & Cherry 2014: `floor` = method 1, `add-k` = method 2, `exp` = method 3 / mteval-v13a) and effective order.
 * Pure and text-free: tuning loops and resampling call it once per selection of rows.
 *
 * The arithmetic is sacrebleu's, operation for operation, so the same doubles come out: precisions are
 * `100 * correct / total`, the score is `bp * exp(Σ log p / order)` summed left to right with `log 0` taken as
 * −9999999999, which is why a perfect match scores 100.00000000000004 and never exactly 100. `exp` and `log` are
 * the correctly rounded ones of src/util/correctly-rounded.ts (what the C library sacrebleu calls returns, V8's
 * are not).
 *
 * Statistics row layout (one segment, or column sums over segments), `2 + 2N` numbers for max order N:
 * `[hyp_len, ref_len, correct_1 … correct_N, total_1 … total_N]`.
 */

import { expCR, logCR } from '../../util/correctly-rounded.js';

/** Smoothing methods of sacrebleu's BLEU. */
export type BleuSmoothMethod = 'none' | 'floor' | 'add-k' | 'exp';

/** The smoothing methods, in sacrebleu's order. */
export const BLEU_SMOOTH_METHODS: readonly BleuSmoothMethod[] = ['none', 'floor', 'add-k', 'exp'];

/** Default smoothing value per method (sacrebleu `BLEU.SMOOTH_DEFAULTS`); `null` = the method takes none. */
export const BLEU_SMOOTH_DEFAULTS: Readonly<Record<BleuSmoothMethod, number | null>> = {
  none: null,
  floor: 0.1,
  'add-k': 1,
  exp: null,
};

/** The default maximum n-gram order. */
export const BLEU_DEFAULT_MAX_ORDER = 4;

/** `log 0` as sacrebleu takes it (`my_log`): a huge negative number instead of −∞. */
const LOG_ZERO = -9999999999;

/** How to reduce statistics to a score. */
export interface BleuReduction {
  /** Maximum n-gram order N (the row has `2 + 2N` columns). */
  readonly maxNgramOrder: number;
  /** Smoothing method. */
  readonly smoothMethod: BleuSmoothMethod;
  /**
   * Smoothing value for `floor` and `add-k`; ignored by `none` and `exp`.
   * @default 0.1 for `floor`, 1 for `add-k` ({@link BLEU_SMOOTH_DEFAULTS})
   */
  readonly smoothValue?: number | null;
  /** Average only over the orders up to the last one with a non-zero total. */
  readonly effectiveOrder: boolean;
}

/** A BLEU score with everything sacrebleu's `BLEUScore` carries. */
export interface BleuResult {
  /** BLEU on the 0–100 scale. */
  readonly score: number;
  /** Correct n-gram counts per order (after add-k smoothing, as sacrebleu reports them). */
  readonly counts: number[];
  /** Hypothesis n-gram totals per order (after add-k smoothing). */
  readonly totals: number[];
  /** Smoothed n-gram precisions per order, 0–100 scale. */
  readonly precisions: number[];
  /** Brevity penalty (a factor in [0, 1]). */
  readonly bp: number;
  /** Hypothesis length (tokens). */
  readonly sysLen: number;
  /** Reference length (tokens). */
  readonly refLen: number;
  /** `sysLen / refLen`, or 0 when `refLen` is 0. */
  readonly ratio: number;
}

/** sacrebleu's brevity penalty: 1 unless the hypothesis is shorter; 0 for an empty hypothesis. */
export function brevityPenalty(sysLen: number, refLen: number): number {
  if (sysLen < refLen) return sysLen > 0 ? expCR(1 - refLen / sysLen) : 0.0;
  return 1.0;
}

function resolveSmoothValue(r: BleuReduction): number {
  const v = r.smoothValue ?? BLEU_SMOOTH_DEFAULTS[r.smoothMethod];
  return v ?? 0;
}

/**
 * Fills `precisions[0..N)` (0–100 scale) and, with add-k, adds k to `correct`/`total` in place for n > 1.
 * Returns the number of orders the geometric mean runs over. Shared by {@link bleuScore} and
 * {@link bleuFromTotals} so both produce the same doubles.
 */
function smoothedPrecisions(
  correct: Float64Array | number[],
  total: Float64Array | number[],
  r: BleuReduction,
  precisions: Float64Array | number[],
  cAt = 0,
  tAt = 0,
  pAt = 0,
): number {
  // Order i lives at `cAt + i`, `tAt + i`, `pAt + i`: one scratch buffer can hold the three side by side.
  const n = r.maxNgramOrder;
  const k = resolveSmoothValue(r);
  let smoothMteval = 1;
  let effOrder = n;
  for (let i = 0; i < n; i++) {
    const c = cAt + i;
    const t = tAt + i;
    if (r.smoothMethod === 'add-k' && i > 0) {
      correct[c] += k;
      total[t] += k;
    }
    if (total[t] === 0) break;
    if (r.effectiveOrder) effOrder = i + 1;
    if (correct[c] === 0) {
      if (r.smoothMethod === 'exp') {
        smoothMteval *= 2;
        precisions[pAt + i] = 100 / (smoothMteval * total[t]);
      } else if (r.smoothMethod === 'floor') {
        precisions[pAt + i] = (100 * k) / total[t];
      }
    } else {
      precisions[pAt + i] = (100 * correct[c]) / total[t];
    }
  }
  return effOrder;
}

function geometricMean(precisions: Float64Array | number[], effOrder: number, at = 0): number {
  let sum = 0;
  for (let i = 0; i < effOrder; i++) {
    const p = precisions[at + i];
    sum += p === 0 ? LOG_ZERO : logCR(p);
  }
  return expCR(sum / effOrder);
}

function anyNonZero(a: ArrayLike<number>, from: number, count: number): boolean {
  for (let i = 0; i < count; i++) if (a[from + i] !== 0) return true;
  return false;
}

/**
 * BLEU from separate totals, as sacrebleu's `BLEU.compute_bleu`.
 * @param correct correct (clipped) n-gram counts per order, at least `maxNgramOrder` entries (not modified).
 * @param total hypothesis n-gram counts per order (not modified).
 */
export function bleuFromTotals(
  correct: ArrayLike<number>,
  total: ArrayLike<number>,
  sysLen: number,
  refLen: number,
  reduction: BleuReduction,
): BleuResult {
  const n = reduction.maxNgramOrder;
  const counts = Array.from({ length: n }, (_, i) => correct[i]);
  const totals = Array.from({ length: n }, (_, i) => total[i]);
  const precisions = new Array<number>(n).fill(0);
  const bp = brevityPenalty(sysLen, refLen);
  const ratio = refLen ? sysLen / refLen : 0;
  // No correct n-gram of any order: BLEU is 0 whatever the smoothing (sacrebleu #141).
  if (!anyNonZero(counts, 0, n)) return { score: 0, counts, totals, precisions, bp, sysLen, refLen, ratio };
  const effOrder = smoothedPrecisions(counts, totals, reduction, precisions);
  const score = bp * geometricMean(precisions, effOrder);
  return { score, counts, totals, precisions, bp, sysLen, refLen, ratio };
}

/**
 * BLEU from one statistics row `[hyp_len, ref_len, correct_1..N, total_1..N]` (a segment or column sums).
 * @param offset index of `hyp_len` in `stats` (rows of a row-major matrix can be read in place).
 */
export function bleuFromStats(stats: ArrayLike<number>, reduction: BleuReduction, offset = 0): BleuResult {
  const n = reduction.maxNgramOrder;
  const correct = new Float64Array(n);
  const total = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    correct[i] = stats[offset + 2 + i];
    total[i] = stats[offset + 2 + n + i];
  }
  return bleuFromTotals(correct, total, stats[offset], stats[offset + 1], reduction);
}

/**
 * The BLEU score alone (0–100) from a statistics row, without building a result object: the inner-loop form for
 * tuning and resampling. Same doubles as {@link bleuFromStats}.
 * @param scratch optional reusable buffer of at least `3 * maxNgramOrder` numbers.
 */
export function bleuScore(
  stats: ArrayLike<number>,
  reduction: BleuReduction,
  offset = 0,
  scratch?: Float64Array,
): number {
  const n = reduction.maxNgramOrder;
  if (!anyNonZero(stats, offset + 2, n)) return 0;
  // One buffer, three blocks of N: correct, total, precisions (offsets, not subarray views: no allocation per call).
  const buf = scratch !== undefined && scratch.length >= 3 * n ? scratch : new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    buf[i] = stats[offset + 2 + i];
    buf[n + i] = stats[offset + 2 + n + i];
    buf[2 * n + i] = 0;
  }
  const effOrder = smoothedPrecisions(buf, buf, reduction, buf, 0, n, 2 * n);
  return brevityPenalty(stats[offset], stats[offset + 1]) * geometricMean(buf, effOrder, 2 * n);
}
