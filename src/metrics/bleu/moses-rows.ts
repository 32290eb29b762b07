/**
 * Moses BLEU statistics rows (`BleuScorer`, what `extractor` writes) from token ids: clipped n-gram counts of the
 * kernels and the reference length of Moses' `reflen` strategy. Every Moses BLEU path writes its rows here: the
 * metric's `segmentStats` and `mosesBleuStats` (one map entry per candidate) and its token stage (n-best
 * candidates with a candidate→segment map).
 *
 * Row (`2 · order + 1`): `m1 t1 … m_order t_order reflen`. Ids only need to be equal for equal tokens: a candidate
 * n-gram no reference has counts nowhere, so distinct ids for unknown tokens (where `mosesBleuStats` maps them all
 * to one unknown id) change nothing.
 */
import type { Csr } from '../../text/csr.js';
import { clippedNgramCountsReused } from '../../wasm/ngram.js';

/** Reference-length strategies of Moses' `reflen` scorer option. */
export type MosesRefLength = 'closest' | 'shortest' | 'average';

/** Moses' `Reference::CalcClosest/CalcShortest/CalcAverage`. */
export function mosesRefLength(strategy: MosesRefLength, hypLen: number, lengths: number[]): number {
  if (strategy === 'shortest') return Math.min(...lengths);
  if (strategy === 'average') {
    let total = 0;
    for (const l of lengths) total += l;
    // static_cast<int>(static_cast<float>(total) / size): single-precision quotient, truncated.
    return Math.trunc(Math.fround(Math.fround(total) / lengths.length));
  }
  let best = lengths[0];
  for (const l of lengths) {
    const d = Math.abs(l - hypLen);
    const bd = Math.abs(best - hypLen);
    if (d < bd || (d === bd && l < best)) best = l;
  }
  return best;
}

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
  // Read at once: the engine's reusable store rather than a new array per batch.
  const counts = clippedNgramCountsReused(batch, order);
  const { hyps, hypSegment, refs, segRefOffsets } = batch;
  const n = hypSegment.length;
  const ro = refs.offsets;
  for (let h = 0; h < n; h++) {
    const row = h * stride + column;
    const at = h * 2 * order;
    for (let i = 0; i < order; i++) {
      out[row + 2 * i] = counts[at + i];
      out[row + 2 * i + 1] = counts[at + order + i];
    }
    const hypLen = hyps.offsets[h + 1] - hyps.offsets[h];
    const s = hypSegment[h];
    const first = segRefOffsets[s];
    const last = segRefOffsets[s + 1];
    if (refLength !== 'closest' || last <= first) {
      const lengths: number[] = [];
      for (let r = first; r < last; r++) lengths.push(ro[r + 1] - ro[r]);
      out[row + 2 * order] = mosesRefLength(refLength, hypLen, lengths);
      continue;
    }
    // Closest (the shorter on a tie) without a lengths array: the common case.
    let best = ro[first + 1] - ro[first];
    let bestDistance = Math.abs(best - hypLen);
    for (let r = first + 1; r < last; r++) {
      const length = ro[r + 1] - ro[r];
      const d = Math.abs(length - hypLen);
      if (d < bestDistance || (d === bestDistance && length < best)) {
        best = length;
        bestDistance = d;
      }
    }
    out[row + 2 * order] = best;
  }
}
