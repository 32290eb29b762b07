/**
 * The flat layout of a block of ORANGE sentences for the batched kernels: every sentence's candidates, then its u
 * references, as one CSR of "items", each item belonging to its sentence's segment; the segment's references are
 * the u reference rows (pair kernels) or, for the n-gram kernels' max-merged clipping, the u − 1 rows of one
 * leave-one-out set ({@link referencesExcept}).
 */
import type { Csr } from '../../text/csr.js';

/** A block of sentences laid out for the kernels. */
export interface OrangeItems {
  /** Candidates then references of each sentence, sentence after sentence. */
  readonly items: Csr;
  /** Block-local sentence of each item (non-decreasing). */
  readonly hypSegment: Int32Array;
  /** `b + 1` offsets: sentence `i`'s items start at `itemOffsets[i]`; its references are its last `u` items. */
  readonly itemOffsets: Int32Array;
  /** The u reference rows of each sentence of the block, sentence-major. */
  readonly refs: Csr;
  /** `i * u` for i = 0 … b. */
  readonly segRefOffsets: Int32Array;
}

/** Appends row `r` of `src` to `tokens` at `at`; returns the new end. */
function copyRow(src: Csr, r: number, tokens: Int32Array, at: number): number {
  const from = src.offsets[r];
  const to = src.offsets[r + 1];
  tokens.set(src.tokens.subarray(from, to), at);
  return at + to - from;
}

/**
 * Lays a block out.
 * @param candidates candidate token rows of the block, sentence after sentence.
 * @param candidateOffsets `b + 1` offsets into the rows of `candidates`.
 * @param allRefs reference rows of the whole test set, row `s · u + j` = reference j of sentence s.
 * @param sentences the block's sentence ids (rows of `allRefs` / u).
 */
export function layOutBlock(
  candidates: Csr,
  candidateOffsets: Int32Array,
  allRefs: Csr,
  sentences: Int32Array,
  u: number,
): OrangeItems {
  const b = sentences.length;
  let refTokens = 0;
  for (const s of sentences) refTokens += allRefs.offsets[(s + 1) * u] - allRefs.offsets[s * u];
  const nCand = candidateOffsets[b];
  const nItems = nCand + b * u;
  const items = { tokens: new Int32Array(candidates.offsets[nCand] + refTokens), offsets: new Int32Array(nItems + 1) };
  const refs = { tokens: new Int32Array(refTokens), offsets: new Int32Array(b * u + 1) };
  const hypSegment = new Int32Array(nItems);
  const itemOffsets = new Int32Array(b + 1);
  const segRefOffsets = new Int32Array(b + 1);
  let item = 0;
  let at = 0;
  let refAt = 0;
  for (let i = 0; i < b; i++) {
    itemOffsets[i] = item;
    segRefOffsets[i + 1] = (i + 1) * u;
    for (let c = candidateOffsets[i]; c < candidateOffsets[i + 1]; c++) {
      at = copyRow(candidates, c, items.tokens, at);
      hypSegment[item] = i;
      items.offsets[++item] = at;
    }
    for (let j = 0; j < u; j++) {
      const r = sentences[i] * u + j;
      at = copyRow(allRefs, r, items.tokens, at);
      hypSegment[item] = i;
      items.offsets[++item] = at;
      refAt = copyRow(allRefs, r, refs.tokens, refAt);
      refs.offsets[i * u + j + 1] = refAt;
    }
  }
  itemOffsets[b] = item;
  return { items, hypSegment, itemOffsets, refs, segRefOffsets };
}

/** The references of a block without reference `k` of each sentence: u − 1 rows per sentence. */
export function referencesExcept(block: OrangeItems, u: number, k: number): { refs: Csr; segRefOffsets: Int32Array } {
  const b = block.itemOffsets.length - 1;
  const src = block.refs;
  let total = 0;
  for (let i = 0; i < b; i++) total += src.offsets[i * u + k + 1] - src.offsets[i * u + k];
  const tokens = new Int32Array(src.tokens.length - total);
  const offsets = new Int32Array(b * (u - 1) + 1);
  const segRefOffsets = new Int32Array(b + 1);
  let row = 0;
  let at = 0;
  for (let i = 0; i < b; i++) {
    for (let j = 0; j < u; j++) {
      if (j === k) continue;
      at = copyRow(src, i * u + j, tokens, at);
      offsets[++row] = at;
    }
    segRefOffsets[i + 1] = row;
  }
  return { refs: { tokens, offsets }, segRefOffsets };
}
