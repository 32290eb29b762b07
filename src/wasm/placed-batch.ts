/**
 * Placing a batch of (hypothesis, references) pairs into a kernel instance's linear memory, shared by the pairwise
 * kernels' engines (ROUGE, edit distance): the checks, the per-hypothesis row offsets and the copy, and the sizing
 * of directly indexed match vectors.
 */
import type { Csr } from '../text/csr.js';
import { checkCsr, checkHypSegments, checkSegmentOffsets } from './check-input.js';
import { Layout, type LinearMemory } from './linear-memory.js';

/**
 * Hypotheses with their references as CSR token ids: hypothesis `h` belongs to segment `hypSegment[h]`
 * (non-decreasing), or to segment `h` when `hypSegment` is null; the references of segment `s` are rows
 * `segRefOffsets[s] .. segRefOffsets[s + 1]` of `refs`.
 */
export interface PairBatch {
  readonly hyps: Csr;
  readonly hypSegment: Int32Array | null;
  readonly refs: Csr;
  readonly segRefOffsets: Int32Array;
}

/** Byte addresses of a batch placed in linear memory, and what the kernels need to know about it. */
export interface PlacedBatch {
  readonly layout: Layout;
  readonly hypTokens: number;
  readonly hypOffsets: number;
  readonly hypSegments: number;
  readonly refTokens: number;
  readonly refOffsets: number;
  readonly segRefOffsets: number;
  readonly nHyps: number;
  /** Tokens covered by the hypotheses and by the references. */
  readonly hypCount: number;
  readonly refCount: number;
  /** Output rows of hypothesis `h` are `rowOffsets[h] .. rowOffsets[h + 1]` (one per reference of its segment). */
  readonly rowOffsets: Int32Array;
}

/** The tokens a CSR actually covers (a view, no copy). */
export function coveredTokens(csr: Csr): Int32Array {
  return csr.tokens.subarray(0, csr.offsets[csr.offsets.length - 1]);
}

/** Longest row of a CSR store. */
export function longestRow(csr: Csr): number {
  let longest = 0;
  for (let i = 0; i + 1 < csr.offsets.length; i++) longest = Math.max(longest, csr.offsets[i + 1] - csr.offsets[i]);
  return longest;
}

/** Refuses a scratch region that no wasm32 memory can hold. */
export function checkScratch(bytes: number, what: string): number {
  if (!(bytes < 2 ** 32)) {
    throw new RangeError(`${what} of ${bytes} bytes does not fit in WebAssembly memory: split the batch`);
  }
  return bytes;
}

/** Checks a batch, computes its row offsets and copies it into `memory` from byte `base` on. */
export function placePairBatch(memory: LinearMemory, base: number, batch: PairBatch): PlacedBatch {
  const { hyps, refs, hypSegment, segRefOffsets } = batch;
  checkCsr('batch.hyps', hyps);
  checkCsr('batch.refs', refs);
  checkSegmentOffsets('batch.segRefOffsets', segRefOffsets, refs.offsets.length - 1);
  const nHyps = hyps.offsets.length - 1;
  checkHypSegments('batch.hypSegment', hypSegment, nHyps, segRefOffsets.length - 1);
  const rowOffsets = new Int32Array(nHyps + 1);
  for (let h = 0; h < nHyps; h++) {
    const s = hypSegment === null ? h : hypSegment[h];
    rowOffsets[h + 1] = rowOffsets[h] + segRefOffsets[s + 1] - segRefOffsets[s];
  }
  const layout = new Layout(base);
  const arrays = [coveredTokens(hyps), hyps.offsets, coveredTokens(refs), refs.offsets, segRefOffsets];
  const at = arrays.map((a) => layout.place(a.byteLength));
  const hypSegments = hypSegment === null ? 0 : layout.place(hypSegment.byteLength);
  memory.reserve(layout.end);
  const i32 = memory.i32;
  arrays.forEach((a, i) => i32.set(a, at[i] >> 2));
  if (hypSegment !== null) i32.set(hypSegment, hypSegments >> 2);
  return {
    layout, hypTokens: at[0], hypOffsets: at[1], hypSegments, refTokens: at[2], refOffsets: at[3],
    segRefOffsets: at[4], nHyps, hypCount: arrays[0].length, refCount: arrays[2].length, rowOffsets,
  };
}

/**
 * Bytes of directly indexed vectors (slots indexed by token id, see `assembly/common/match-vectors.ts`) for a
 * placed batch, or 0 when its ids are not small non-negative integers: the V slots of `strideBytes` must cost no
 * more than a mebibyte or 16 bytes per token of the batch, so that clearing them once per call stays small.
 */
export function directVectorBytes(
  kernels: { idRange(tokens: number, count: number, out: number): void },
  memory: LinearMemory,
  call: PlacedBatch,
  strideBytes: number,
): number {
  const rangeAt = call.layout.place(16);
  memory.reserve(call.layout.end);
  kernels.idRange(call.hypTokens, call.hypCount, rangeAt);
  kernels.idRange(call.refTokens, call.refCount, rangeAt + 8);
  const [hypLow, hypHigh, refLow, refHigh] = memory.i32.slice(rangeAt >> 2, (rangeAt >> 2) + 4);
  const bytes = (Math.max(hypHigh, refHigh) + 1) * strideBytes;
  const limit = Math.max(1 << 20, 16 * (call.hypCount + call.refCount));
  return Math.min(hypLow, refLow) >= 0 && bytes > 0 && bytes <= limit ? bytes : 0;
}

/** Kernel export that plans the match vectors of a placed batch (see `assembly/common/match-vectors.ts`). */
export interface MatchVectorPlanner {
  idRange(tokens: number, count: number, out: number): void;
  planMatchVectors(refOffsets: number, segRefOffsets: number, nSegments: number, words: number, plan: number): void;
}

/** Where the match vectors of a placed batch live, and their geometry. */
export interface PlacedMatchVectors {
  /** Token table (0 when the vectors are indexed directly by token id). */
  readonly keys: number;
  readonly vectors: number;
  /** Per-reference info records. */
  readonly info: number;
  readonly directBytes: number;
  readonly capacity: number;
  readonly strideBytes: number;
}

const PLAN_BYTES = 32;
const TOKEN_KEY_BYTES = 8;
const INFO_BYTES = 12;

/**
 * Plans and places the per-segment match vectors of a placed batch (references as patterns): small dense ids
 * (interned vocabularies) index the vectors directly — no token table, one load per token — others go through a
 * token table.
 */
export function placeMatchVectors(
  kernels: MatchVectorPlanner,
  memory: LinearMemory,
  call: PlacedBatch,
  nSegments: number,
): PlacedMatchVectors {
  const planAt = call.layout.place(PLAN_BYTES);
  memory.reserve(call.layout.end);
  kernels.planMatchVectors(call.refOffsets, call.segRefOffsets, nSegments, 0, planAt);
  const [capacity, vectorBytes, strideBytes, refs] = memory.f64.slice(planAt >> 3, (planAt >> 3) + 4);
  const directBytes = directVectorBytes(kernels, memory, call, strideBytes);
  const keys = directBytes ? 0 : call.layout.place(checkScratch(capacity * TOKEN_KEY_BYTES, 'a reference token table'));
  const vectors = call.layout.place(checkScratch(directBytes || vectorBytes, 'the match vectors of a segment'));
  const info = call.layout.place(refs * INFO_BYTES);
  return { keys, vectors, info, directBytes, capacity, strideBytes };
}
