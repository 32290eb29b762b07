/**
 * The pairwise stage of a metric: the statistics row of every (hypothesis, reference) pair of two sets of texts,
 * each text tokenized once, every pair scored as the row `segmentStats` gives that hypothesis against that single
 * reference. What MBR decoding, self-BLEU and all-pairs studies need: |A| × |B| sentence scores.
 *
 * A metric offers it through `Metric.pairwise()`; its implementation is a batching of the metric's own kernels
 * (references of many "segments" of one reference each, hypotheses replicated as token ids, never re-tokenized),
 * and the score of a pair is the metric's `sentenceScoreFromStats` of that row. The helpers below build those
 * batches.
 */
import type { Csr } from '../text/csr.js';

/**
 * Texts prepared for pairwise statistics. Opaque to callers; `count` is the number of texts.
 */
export interface PairwiseTexts {
  /** Number of texts. */
  readonly count: number;
}

/**
 * A metric's pairwise statistics (see the file comment). `R` are texts prepared as references, `H` texts prepared
 * as hypotheses against them.
 */
export interface PairwiseStage<H extends PairwiseTexts = PairwiseTexts, R extends PairwiseTexts = PairwiseTexts> {
  /** Width of a statistics row (the metric's `statsWidth`). */
  readonly statsWidth: number;
  /** Prepares texts as references, each text one reference (tokenized and interned once). */
  references(texts: readonly string[]): R;
  /** Prepares texts as hypotheses against prepared references (tokenized once, looked up in their vocabulary). */
  hypotheses(texts: readonly string[], refs: R): H;
  /**
   * Statistics rows of every pair (hypothesis `i` of `[hypFrom, hypTo)`, reference `j` of `[refFrom, refTo)`),
   * row-major by `i` then `j`: row `(i - hypFrom) · (refTo - refFrom) + (j - refFrom)` is the row `segmentStats`
   * gives text `i` as hypothesis against text `j` as its only reference.
   * @throws RangeError for ranges outside the prepared texts.
   */
  pairStats(hyps: H, hypFrom: number, hypTo: number, refs: R, refFrom: number, refTo: number): Float64Array;
  /**
   * The sentence score of the row at `rows[at .. at + statsWidth)`: the metric's `sentenceScoreFromStats(row).score`
   * through the same score function, without building the score object (the inner loop of a matrix).
   */
  score(rows: Float64Array, at: number): number;
  /**
   * Optional fast path: the sentence scores of hypotheses `[from, to)` against every prepared reference, row-major
   * into `out` from `at` (`(to - from) × refs.count` numbers) — the numbers `pairStats` and `score` give, without
   * building the statistics rows.
   */
  scoreRows?(hyps: H, from: number, to: number, refs: R, out: Float64Array, at: number): void;
  /**
   * Optional, for n-gram metrics (reference aggregation, Vamvas & Sennrich 2024): each hypothesis's sentence score
   * against one aggregate reference whose n-gram counts and totals are the weighted means of the references'
   * (`weights` undefined: uniform); with `leaveOutSelf`, hypothesis `i`'s aggregate leaves reference `i` out.
   * @throws RangeError when the weights counted for a hypothesis sum to zero.
   */
  aggregateScores?(hyps: H, refs: R, options: AggregateOptions): Float64Array;
}

/** Options of {@link PairwiseStage.aggregateScores}. */
export interface AggregateOptions {
  /** A non-negative weight per reference; undefined: every weight 1. */
  readonly weights?: ArrayLike<number>;
  /** Leave reference `i` out of hypothesis `i`'s aggregate (the references are the hypotheses themselves). */
  readonly leaveOutSelf: boolean;
}

/**
 * Checks a range `[from, to)` of `count` prepared texts.
 * @throws RangeError otherwise.
 */
export function checkPairRange(what: string, from: number, to: number, count: number): void {
  if (!(Number.isInteger(from) && Number.isInteger(to) && from >= 0 && from <= to && to <= count)) {
    throw new RangeError(`${what} range [${from}, ${to}) is not within the ${count} prepared texts`);
  }
}

/** Rows `[from, to)` of a CSR store as a store of their own (offsets from 0). */
export function csrSlice(csr: Csr, from: number, to: number): Csr {
  const base = csr.offsets[from];
  const offsets = new Int32Array(to - from + 1);
  for (let r = from; r <= to; r++) offsets[r - from] = csr.offsets[r] - base;
  return { tokens: csr.tokens.slice(base, csr.offsets[to]), offsets };
}

/**
 * Rows `[from, to)` of `csr`, the whole run repeated `times` times (copies of token ids: the texts are not
 * tokenized again).
 */
export function csrRepeat(csr: Csr, from: number, to: number, times: number): Csr {
  const base = csr.offsets[from];
  const span = csr.offsets[to] - base;
  const n = to - from;
  const tokens = new Int32Array(span * times);
  const offsets = new Int32Array(n * times + 1);
  const run = csr.tokens.subarray(base, base + span);
  for (let t = 0; t < times; t++) {
    tokens.set(run, t * span);
    for (let r = 0; r < n; r++) offsets[t * n + r + 1] = t * span + csr.offsets[from + r + 1] - base;
  }
  return { tokens, offsets };
}

/**
 * Each row of `[from, to)` repeated `times` times in place (row `from` `times` times, then row `from + 1` …).
 */
export function csrRepeatEach(csr: Csr, from: number, to: number, times: number): Csr {
  const n = to - from;
  const tokens = new Int32Array((csr.offsets[to] - csr.offsets[from]) * times);
  const offsets = new Int32Array(n * times + 1);
  let at = 0;
  for (let r = 0; r < n; r++) {
    const row = csr.tokens.subarray(csr.offsets[from + r], csr.offsets[from + r + 1]);
    for (let t = 0; t < times; t++) {
      tokens.set(row, at);
      at += row.length;
      offsets[r * times + t + 1] = at;
    }
  }
  return { tokens, offsets };
}

/**
 * The reference blocks of an n-gram kernel batch over `refs` references: `ceil(refs / block)` "segments" of at most
 * `block` references each (the per-reference kernel counts up to 4 references of a segment in one vector probe).
 */
export function referenceBlocks(refs: number, block: number): Int32Array {
  const n = Math.ceil(refs / block);
  const offsets = new Int32Array(n + 1);
  for (let b = 0; b < n; b++) offsets[b + 1] = Math.min(refs, (b + 1) * block);
  return offsets;
}

/**
 * The hypothesis side of such a batch: `hyps` rows `[from, to)` once per block, block-major, and the block
 * ("segment") of each replicated row.
 */
export function hypothesesPerBlock(
  hyps: Csr,
  from: number,
  to: number,
  blocks: number,
): { hyps: Csr; segment: Int32Array } {
  const n = to - from;
  const segment = new Int32Array(n * blocks);
  for (let b = 0; b < blocks; b++) segment.fill(b, b * n, (b + 1) * n);
  return { hyps: csrRepeat(hyps, from, to, blocks), segment };
}

/** References per block of the per-reference kernel's packed path. */
export const PAIR_BLOCK = 4;
