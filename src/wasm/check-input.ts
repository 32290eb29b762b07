/**
 * Argument checks of the kernel bindings. Kernels never validate and read and write linear memory at the offsets
 * they are given, so every offset and segment index is checked here, in one linear pass, before a call.
 */
import type { Csr } from '../text/csr.js';

/** Checks that `csr` has Int32Array tokens and non-decreasing offsets from 0 within the tokens. */
export function checkCsr(name: string, csr: Csr): void {
  if (!(csr?.tokens instanceof Int32Array) || !(csr.offsets instanceof Int32Array)) {
    throw new TypeError(`${name} must be a Csr of Int32Array tokens and offsets`);
  }
  const { offsets } = csr;
  if (offsets.length < 1 || offsets[0] !== 0) throw new RangeError(`${name}.offsets must start with 0`);
  for (let i = 1; i < offsets.length; i++) {
    if (offsets[i] < offsets[i - 1]) {
      throw new RangeError(`${name}.offsets must be non-decreasing (offsets[${i}] = ${offsets[i]} < ${offsets[i - 1]})`);
    }
  }
  if (offsets[offsets.length - 1] > csr.tokens.length) {
    throw new RangeError(`${name}.offsets must end within the ${csr.tokens.length} tokens (got ${offsets[offsets.length - 1]})`);
  }
}

/** Checks segment → reference-row offsets: non-decreasing, from within `[0, nRefs]`. */
export function checkSegmentOffsets(name: string, segRefOffsets: Int32Array, nRefs: number): void {
  if (!(segRefOffsets instanceof Int32Array) || segRefOffsets.length < 1) {
    throw new TypeError(`${name} must be an Int32Array of at least one offset`);
  }
  for (let s = 0; s < segRefOffsets.length; s++) {
    const at = segRefOffsets[s];
    if (at < 0 || at > nRefs || (s > 0 && at < segRefOffsets[s - 1])) {
      throw new RangeError(`${name} must be non-decreasing offsets within [0, ${nRefs}] (${name}[${s}] = ${at})`);
    }
  }
}

/** Checks the segment of every hypothesis (`null`: hypothesis `h` is segment `h`) against `nSegments`. */
export function checkHypSegments(name: string, hypSegment: Int32Array | null, nHyps: number, nSegments: number): void {
  if (hypSegment === null) {
    if (nHyps > nSegments) {
      throw new RangeError(`${name} may be null only with one segment per hypothesis (${nHyps} hypotheses, ${nSegments} segments)`);
    }
    return;
  }
  if (!(hypSegment instanceof Int32Array) || hypSegment.length !== nHyps) {
    throw new TypeError(`${name} must be null or an Int32Array of ${nHyps} segment indices`);
  }
  for (let h = 0; h < nHyps; h++) {
    const s = hypSegment[h];
    if (s < 0 || s >= nSegments) {
      throw new RangeError(`${name}[${h}] must be a segment index in [0, ${nSegments}) (got ${s})`);
    }
  }
}

/** Checks an n-gram order: an integer ≥ 0 (0 gives empty rows). */
export function checkMaxOrder(maxOrder: number): void {
  if (!Number.isInteger(maxOrder) || maxOrder < 0 || maxOrder > 0x7fffffff) {
    throw new RangeError(`maxOrder must be a non-negative integer (got ${maxOrder})`);
  }
}
