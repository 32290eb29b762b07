/**
 * MERT's model scores on the WebAssembly kernel of `assembly/mert.ts`: a problem's features are copied by column
 * into a kernel instance of their own, once, and every dot product of a line search (the candidates' intercepts at
 * the origin, their slopes along the direction) is then one SIMD pass over the columns. The numbers are those of the
 * scalar loops in src/tuning/mert/line-search.ts (Moses' single-precision products summed in double, in term order).
 */
import { PaletteError } from '../errors.js';
import type { KernelExports } from './kernels.js';
import { Layout, LinearMemory } from './linear-memory.js';
import { instantiateKernels } from './load.js';

/** The MERT kernel's exports (pointers are byte addresses in the instance's memory; see assembly/mert.ts). */
export interface MertKernelExports extends KernelExports {
  /**
   * Scores of candidates `0 .. count` (a multiple of 4): Σ_t f32(w1[t] · column idx[t]) into `out1`, and the same
   * for `w2` into `out2` when `w2` is not 0.
   */
  mertDots(cols: number, stride: number, idx: number, terms: number, w1: number, out1: number, w2: number, out2: number, count: number): void;
}

/** Whether a kernel instance has the MERT kernel (a build made before it existed does not). */
export function hasMertKernels(kernels: KernelExports): kernels is MertKernelExports {
  return typeof (kernels as Partial<MertKernelExports>).mertDots === 'function';
}

/** The features of one problem by column in a kernel instance of their own, and its dot products. */
export class MertDots {
  private readonly kernels: MertKernelExports;
  private readonly stride: number;
  private readonly colsAt: number;
  private readonly idxAt: number;
  private readonly w1At: number;
  private readonly w2At: number;
  private readonly out1At: number;
  private readonly out2At: number;
  private readonly idx: Int32Array;
  private readonly w1: Float32Array;
  private readonly w2: Float32Array;
  private readonly out1: Float32Array;
  private readonly out2: Float32Array;
  private readonly columns: Float32Array[] = [];

  /**
   * Copies `features` (`candidates` rows of `dimensions` floats) by column into the instance `kernels`, which
   * this object then owns (its memory is grown once, here, and never again, so the views stay valid).
   */
  constructor(kernels: MertKernelExports, features: Float32Array, readonly dimensions: number, readonly candidates: number) {
    this.kernels = kernels;
    const stride = Math.ceil(candidates / 4) * 4;
    this.stride = stride;
    const layout = new Layout(kernels.heapBase());
    this.colsAt = layout.place(dimensions * stride * 4);
    this.idxAt = layout.place(dimensions * 4);
    this.w1At = layout.place(dimensions * 4);
    this.w2At = layout.place(dimensions * 4);
    this.out1At = layout.place(stride * 4);
    this.out2At = layout.place(stride * 4);
    new LinearMemory(kernels.memory).reserve(layout.end);
    const buffer = kernels.memory.buffer;
    const cols = new Float32Array(buffer, this.colsAt, dimensions * stride);
    // Row by row (the features are read once, in order; each column is written in order). + 0 turns −0 into +0: a
    // coordinate's slopes are its column (see column()), and the scalar slope loop gives +0 there; products and
    // sums do not see the difference (a sum starts at +0).
    for (let r = 0, i = 0; r < candidates; r++) {
      for (let k = 0, at = r; k < dimensions; k++, i++, at += stride) cols[at] = features[i] + 0;
    }
    for (let k = 0; k < dimensions; k++) this.columns.push(cols.subarray(k * stride, k * stride + candidates));
    this.idx = new Int32Array(buffer, this.idxAt, dimensions);
    this.w1 = new Float32Array(buffer, this.w1At, dimensions);
    this.w2 = new Float32Array(buffer, this.w2At, dimensions);
    this.out1 = new Float32Array(buffer, this.out1At, candidates);
    this.out2 = new Float32Array(buffer, this.out2At, candidates);
  }

  /** Feature `k` of every candidate (a view into the instance: read it, do not keep or change it). */
  column(k: number): Float32Array {
    return this.columns[k];
  }

  /**
   * The scores of every candidate under the weights `w1` on the features `idx` (term t: `w1[t]` × feature
   * `idx[t]`, summed in that order), and under `w2` on the same features when given. The results are views into the
   * instance, valid until the next call: copy them to keep them.
   */
  dots(idx: Int32Array, w1: Float32Array, w2?: Float32Array): { readonly first: Float32Array; readonly second: Float32Array | undefined } {
    const terms = idx.length;
    if (terms > this.dimensions || w1.length !== terms || (w2 !== undefined && w2.length !== terms)) {
      throw new RangeError(`a dot product takes one weight per term and at most ${this.dimensions} terms`);
    }
    this.idx.set(idx);
    this.w1.set(w1);
    if (w2 !== undefined) this.w2.set(w2);
    this.kernels.mertDots(
      this.colsAt, this.stride, this.idxAt, terms, this.w1At, this.out1At, w2 === undefined ? 0 : this.w2At, this.out2At,
      this.stride,
    );
    return { first: this.out1, second: w2 === undefined ? undefined : this.out2 };
  }
}

/**
 * The kernel's dot products for `features`, or null where the kernels cannot be had (no WebAssembly module was
 * loaded, a build made before the MERT kernel, or features beyond wasm32's 4 GiB): the caller then computes them in
 * TypeScript, to the same numbers.
 */
export function mertDotsOrNull(features: Float32Array, dimensions: number, candidates: number): MertDots | null {
  try {
    const kernels = instantiateKernels();
    return hasMertKernels(kernels) ? new MertDots(kernels, features, dimensions, candidates) : null;
  } catch (cause) {
    // No module loaded, or more memory than wasm32 gives.
    if (cause instanceof PaletteError && cause.code === 'E_WASM') return null;
    throw cause;
  }
}
