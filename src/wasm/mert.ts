/**
 * MERT's model scores and envelope walks on the WebAssembly kernel of `assembly/mert.ts`: a problem's features are
 * copied by column into a kernel instance of their own, once; a line search is then one call that, sentence after
 * sentence, computes the candidates' slopes and intercepts (SIMD dot products over the columns) and walks the
 * sentence's upper envelope while those are in cache, leaving only the walks' few entries for TypeScript to merge.
 * The numbers are those of the TypeScript loops in src/tuning/mert/line-search.ts (Moses' single-precision products
 * summed in double, in term order; the walk's float and double arithmetic, operation for operation).
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
  /** One sentence's envelope walk over `n` lines (f32 slopes and intercepts); returns its entries. */
  mertEnvelope(slope: number, f0: number, n: number, active: number, stepX: number, stepRow: number, rowBase: number): number;
  /**
   * Every sentence's envelope walk, slopes (column `unit`, or scores under `w2`) and intercepts (the floats at
   * `intercepts`, or scores under `w1`) computed a sentence at a time; returns the entries of all walks.
   */
  mertEnvelopes(
    cols: number, stride: number, idx: number, terms: number, w1: number, w2: number, unit: number, intercepts: number,
    offsets: number, sentences: number, sentenceSlope: number, sentenceF0: number, active: number,
    counts: number, stepX: number, stepRow: number,
  ): number;
}

/** Whether a kernel instance has the MERT kernel (a build made before it existed does not). */
export function hasMertKernels(kernels: KernelExports): kernels is MertKernelExports {
  const k = kernels as Partial<MertKernelExports>;
  return typeof k.mertDots === 'function' && typeof k.mertEnvelopes === 'function';
}

/**
 * The features of one problem by column in a kernel instance of their own, its dot products, and the envelope walks
 * of its sentences along a line.
 */
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
  private readonly sentences: number;
  private readonly largest: number;
  private readonly offsetsAt: number;
  private readonly sentenceSlopeAt: number;
  private readonly sentenceF0At: number;
  private readonly activeAt: number;
  private readonly countsAt: number;
  private readonly stepXAt: number;
  private readonly stepRowAt: number;
  private readonly sentenceSlope: Float32Array;
  private readonly sentenceF0: Float32Array;
  /** After {@link walks}: each sentence's number of entries. */
  readonly walkCounts: Int32Array;
  /**
   * After {@link walks}: the walks' entries, sentence after sentence; a sentence's first entry is its first 1-best
   * (its x unused), each later one a change of 1-best at x to the row.
   */
  readonly walkX: Float32Array;
  readonly walkRow: Int32Array;

  /**
   * Copies `features` (`candidates` rows of `dimensions` floats) by column into the instance `kernels`, which
   * this object then owns (its memory is grown once, here, and never again, so the views stay valid). Sentence s
   * is rows `offsets[s] .. offsets[s + 1]` (increasing from 0 to `candidates`).
   */
  constructor(
    kernels: MertKernelExports, features: Float32Array, readonly dimensions: number, readonly candidates: number, offsets: Int32Array,
  ) {
    this.kernels = kernels;
    const stride = Math.ceil(candidates / 4) * 4;
    this.stride = stride;
    this.sentences = offsets.length - 1;
    let largest = 0;
    for (let s = 0; s < this.sentences; s++) largest = Math.max(largest, offsets[s + 1] - offsets[s]);
    this.largest = largest;
    const layout = new Layout(kernels.heapBase());
    this.colsAt = layout.place(dimensions * stride * 4);
    this.idxAt = layout.place(dimensions * 4);
    this.w1At = layout.place(dimensions * 4);
    this.w2At = layout.place(dimensions * 4);
    this.out1At = layout.place(stride * 4);
    this.out2At = layout.place(stride * 4);
    this.offsetsAt = layout.place(offsets.length * 4);
    // A sentence's rows from the block of four it starts in to the end of the block it ends in: at most 6 more.
    this.sentenceSlopeAt = layout.place((largest + 8) * 4);
    this.sentenceF0At = layout.place((largest + 8) * 4);
    this.activeAt = layout.place(largest * 4);
    this.countsAt = layout.place(this.sentences * 4);
    // A walk has at most one entry per line of its sentence.
    this.stepXAt = layout.place(candidates * 4);
    this.stepRowAt = layout.place(candidates * 4);
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
    new Int32Array(buffer, this.offsetsAt, offsets.length).set(offsets);
    this.sentenceSlope = new Float32Array(buffer, this.sentenceSlopeAt, largest);
    this.sentenceF0 = new Float32Array(buffer, this.sentenceF0At, largest);
    this.walkCounts = new Int32Array(buffer, this.countsAt, this.sentences);
    this.walkX = new Float32Array(buffer, this.stepXAt, candidates);
    this.walkRow = new Int32Array(buffer, this.stepRowAt, candidates);
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

  /**
   * Every sentence's envelope walk along a line (line-search.ts `envelope`'s numbers, on the kernel), into
   * {@link walkCounts}, {@link walkX} and {@link walkRow}; returns the number of entries. The candidates' slopes are
   * feature `unit` when it is ≥ 0, else their scores under the weights `direction` on the features `idx` (as in
   * {@link dots}); their intercepts are `intercepts` when given, else their scores under `origin`. Each sentence's
   * slopes and intercepts are computed just before its walk, while its features are in cache.
   */
  walks(idx: Int32Array, origin: Float32Array | undefined, intercepts: Float32Array | undefined, unit: number, direction: Float32Array | undefined): number {
    const terms = idx.length;
    if (terms > this.dimensions) throw new RangeError(`a dot product takes at most ${this.dimensions} terms`);
    this.idx.set(idx);
    if (intercepts !== undefined) {
      if (intercepts.length !== this.candidates) throw new RangeError(`intercepts must hold ${this.candidates} values (got ${intercepts.length})`);
      this.out1.set(intercepts);
    } else {
      if (origin?.length !== terms) throw new RangeError('the origin takes one weight per term');
      this.w1.set(origin);
    }
    if (unit >= 0) {
      if (!Number.isInteger(unit) || unit >= this.dimensions) throw new RangeError(`feature ${unit} is not in 0..${this.dimensions - 1}`);
    } else {
      if (direction?.length !== terms) throw new RangeError('the direction takes one weight per term');
      this.w2.set(direction);
    }
    return this.kernels.mertEnvelopes(
      this.colsAt, this.stride, this.idxAt, terms, this.w1At, this.w2At, unit < 0 ? -1 : unit, intercepts === undefined ? 0 : this.out1At,
      this.offsetsAt, this.sentences, this.sentenceSlopeAt, this.sentenceF0At, this.activeAt,
      this.countsAt, this.stepXAt, this.stepRowAt,
    );
  }

  /**
   * The kernel's envelope walk of one sentence's lines, given as slopes and intercepts (at most as many as the
   * problem's largest sentence): the first 1-best and each change, as line-search.ts `envelope` writes them.
   */
  envelope(slope: Float32Array, f0: Float32Array): { readonly rows: Int32Array; readonly xs: Float32Array } {
    const n = slope.length;
    if (f0.length !== n || n < 1 || n > this.largest) throw new RangeError(`a walk takes 1 to ${this.largest} lines, as many slopes as intercepts`);
    this.sentenceSlope.set(slope);
    this.sentenceF0.set(f0);
    const steps = this.kernels.mertEnvelope(this.sentenceSlopeAt, this.sentenceF0At, n, this.activeAt, this.stepXAt, this.stepRowAt, 0);
    return { rows: this.walkRow.slice(0, steps), xs: this.walkX.slice(0, steps) };
  }
}

/**
 * The kernel's dot products and walks for `features` (sentences by `offsets`), or null where the kernels cannot be had (no WebAssembly module was
 * loaded, a build made before the MERT kernel, or features beyond wasm32's 4 GiB): the caller then computes them in
 * TypeScript, to the same numbers.
 */
export function mertDotsOrNull(features: Float32Array, dimensions: number, candidates: number, offsets: Int32Array): MertDots | null {
  try {
    const kernels = instantiateKernels();
    return hasMertKernels(kernels) ? new MertDots(kernels, features, dimensions, candidates, offsets) : null;
  } catch (cause) {
    // No module loaded, or more memory than wasm32 gives.
    if (cause instanceof PaletteError && cause.code === 'E_WASM') return null;
    throw cause;
  }
}
