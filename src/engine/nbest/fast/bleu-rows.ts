/**
 * Moses BLEU statistics (`BleuScorer`, what `mosesBleuStats` gives) from the chunk ids of the fast path: Moses cuts a
 * line at U+0020 and drops empty pieces, so its tokens are exactly the chunks of ./chunk-memo.ts, and a chunk id
 * serves as the token id for the candidates and the references alike. Candidate n-grams no reference has count
 * nowhere, so their distinct ids (where `mosesBleuStats` maps them all to one unknown id) change nothing.
 *
 * Row (`2 · order + 1`): `m1 t1 … m_order t_order reflen`, reflen Moses' closest reference length (the shorter on a
 * tie). Only the defaults `palette nbest` uses take this path: closest reference length, no lowercasing.
 */
import type { Csr } from '../../../text/csr.js';
import { clippedNgramCounts } from '../../../wasm/ngram.js';

/** Candidates (with their segment map) and references as chunk ids. */
export interface ChunkIdBatch {
  readonly hyps: Csr;
  readonly hypSegment: Int32Array;
  readonly refs: Csr;
  readonly segRefOffsets: Int32Array;
}

/**
 * Writes the Moses BLEU row of every candidate (`2 · order + 1` columns at `column` of rows `stride` wide).
 * Candidates must be grouped by segment in non-decreasing order (a task's are).
 */
export function writeMosesBleuRows(batch: ChunkIdBatch, order: number, out: Float64Array, column: number, stride: number): void {
  const counts = clippedNgramCounts(batch, order);
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
    let best = ro[first + 1] - ro[first];
    let bestDistance = Math.abs(best - hypLen);
    for (let r = first + 1; r < segRefOffsets[s + 1]; r++) {
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
