/**
 * Moses BLEU statistics rows (`BleuScorer`, what `extractor` writes) from token ids: clipped n-gram counts and the
 * reference length of Moses' `reflen` strategy, both from one kernel call (`mosesBleuRows` of the n-gram engine).
 * Every Moses BLEU path writes its rows here: the metric's `segmentStats` and `mosesBleuStats` (one map entry per
 * candidate) and its token stage (n-best candidates with a candidate→segment map).
 *
 * Row (`2 · order + 1`): `m1 t1 … m_order t_order reflen`. Ids only need to be equal for equal tokens: a candidate
 * n-gram no reference has counts nowhere, so distinct ids for unknown tokens (where `mosesBleuStats` maps them all
 * to one unknown id) change nothing.
 */
import type { Csr } from '../../text/csr.js';
import { defaultNgramEngine } from '../../wasm/ngram.js';

/**
 * Reference-length strategies of Moses' `reflen` scorer option: `Reference::CalcClosest` (the shorter on a tie),
 * `CalcShortest`, `CalcAverage` (the single-precision quotient, truncated).
 */
export type MosesRefLength = 'closest' | 'shortest' | 'average';

/** The kernel's number of each strategy. */
const REF_LENGTH_CODES: Readonly<Record<MosesRefLength, 0 | 1 | 2>> = { closest: 0, shortest: 1, average: 2 };

/** Candidates (with their segment map) and references as token ids. */
export interface MosesIdBatch {
  readonly hyps: Csr;
  readonly hypSegment: Int32Array;
  readonly refs: Csr;
  readonly segRefOffsets: Int32Array;
}

/**
 * Writes the Moses BLEU row of every candidate (`2 · order + 1` columns at `column` of rows `stride` wide).
 * Candidates must be grouped by segment in non-decreasing order.
 */
export function writeMosesBleuRows(
  batch: MosesIdBatch,
  order: number,
  refLength: MosesRefLength,
  out: Float64Array,
  column: number,
  stride: number,
): void {
  defaultNgramEngine().mosesBleuRows(batch, order, REF_LENGTH_CODES[refLength], out, column, stride);
}
