/**
 * The n-gram kernels bound to one kernel instance: lays out each call in linear memory, runs the kernel, copies the
 * rows out. Long-lived data — a NIST weights table, a prepared reference set — stays resident in the memory
 * between calls and is copied in again only when another one took its place.
 *
 * Memory of an engine, upward from the heap base: [weights region][reference-set region][scratch of the call].
 * The weights region keeps the size of the largest weights table placed so far, so placing another one does not
 * move a resident reference set unless it is larger.
 */
import type { Csr } from '../text/csr.js';
import { checkCsr, checkHypSegments, checkMaxOrder, checkSegmentOffsets } from './check-input.js';
import type { KernelExports } from './kernels.js';
import { Layout, LinearMemory, alignUp } from './linear-memory.js';
import { coveredTokens } from './placed-batch.js';

/**
 * A batch of hypotheses with their references, all as CSR token ids.
 * Hypothesis `h` belongs to segment `hypSegment[h]` (non-decreasing), or to segment `h` when `hypSegment` is null;
 * the references of segment `s` are rows `segRefOffsets[s] .. segRefOffsets[s + 1]` of `refs`.
 */
export interface NgramBatch {
  readonly hyps: Csr;
  readonly hypSegment: Int32Array | null;
  readonly refs: Csr;
  readonly segRefOffsets: Int32Array;
}

/**
 * Information weights of n-grams over a whole reference set (NIST): `info(g) = log2(count(prefix g) / count(g))`,
 * with `count(prefix)` of a unigram being the total number of reference tokens.
 */
export interface NgramWeights {
  readonly maxOrder: number;
  /** Weight of an n-gram (token ids), or 0 when the n-gram never occurs in the references. */
  weight(tokens: ArrayLike<number>, start: number, n: number): number;
}

/** Bytes of a compact weights slot, and of the per-entry pair of the per-reference list. */
const WEIGHTS_SLOT_BYTES = 16;
const LIST_PAIR_BYTES = 8;

/** Reference rows and the segment → reference-row offsets of a batch, as the kernels read them. */
interface ReferenceArrays {
  /** Exactly the tokens covered by `offsets`. */
  readonly tokens: Int32Array;
  readonly offsets: Int32Array;
  readonly segRefOffsets: Int32Array;
}

/** Addresses of reference arrays placed in linear memory. */
interface PlacedReferences {
  readonly tokens: number;
  readonly offsets: number;
  readonly segRefOffsets: number;
}

/** A clipped-count call laid out in linear memory (addresses), as `runClipped` hands it to a kernel. */
interface ClippedCall {
  readonly hypTokens: number;
  readonly hypOffsets: number;
  readonly nHyps: number;
  readonly hypSegments: number;
  readonly refs: PlacedReferences;
  readonly capacities: number;
  readonly table: number;
  readonly tableBytes: number;
  readonly localIds: number;
  readonly firstId: number;
  readonly idCount: number;
}

/** Largest id span of a direct token map: 8 MiB of u16. */
const DIRECT_MAX_IDS = 1 << 22;

/**
 * The span of reference ids `[first, first + count)` for the kernel's direct token map, or null when it is empty or
 * too wide to pay: the map is cleared once per call, so its span stays within 16 entries per token of the call (and
 * at most {@link DIRECT_MAX_IDS}). Ids from an interning table are dense, so the span is about the vocabulary.
 */
function directIdRange(refTokens: Int32Array, hypTokenCount: number): { first: number; count: number } | null {
  if (refTokens.length === 0) return null;
  let lo = refTokens[0];
  let hi = lo;
  for (let i = 1; i < refTokens.length; i++) {
    const t = refTokens[i];
    if (t < lo) lo = t;
    else if (t > hi) hi = t;
  }
  const count = hi - lo + 1;
  const budget = Math.min(DIRECT_MAX_IDS, 16 * (refTokens.length + hypTokenCount) + 65536);
  return count <= budget ? { first: lo, count } : null;
}

/** Places the three reference arrays in a layout. */
function placeReferences(layout: Layout, refs: ReferenceArrays): PlacedReferences {
  return {
    tokens: layout.place(refs.tokens.byteLength),
    offsets: layout.place(refs.offsets.byteLength),
    segRefOffsets: layout.place(refs.segRefOffsets.byteLength),
  };
}

/** Writes the three reference arrays where they were placed (memory must already be reserved). */
function writeReferences(memory: LinearMemory, at: PlacedReferences, refs: ReferenceArrays): void {
  const i32 = memory.i32;
  i32.set(refs.tokens, at.tokens >> 2);
  i32.set(refs.offsets, at.offsets >> 2);
  i32.set(refs.segRefOffsets, at.segRefOffsets >> 2);
}

/**
 * NIST information weights held as the kernels' compact weights table (an image of its bytes), usable with any
 * engine: it is copied into an engine's memory when that engine needs it.
 */
export class KernelNgramWeights implements NgramWeights {
  /** @internal */
  constructor(
    private readonly engine: NgramEngine,
    readonly maxOrder: number,
    /** The weights table, byte for byte (never modified: it may be resident in an engine). */
    readonly image: Uint8Array,
    /** Slots of the weights table. */
    readonly capacity: number,
  ) {}

  /** Weight of `tokens[start .. start + n]`, or 0 when that n-gram never occurs in the references. */
  weight(tokens: ArrayLike<number>, start: number, n: number): number {
    return this.engine.weightOf(this, tokens, start, n);
  }
}

/**
 * References of many segments copied once into an engine's memory and reused by every call made through it, e.g.
 * the hypotheses of many systems scored against the same references. Holds its own copy of the arrays, so later
 * changes to the caller's arrays do not affect it.
 */
export class NgramReferenceSet implements ReferenceArrays {
  /** Number of segments. */
  readonly segments: number;
  /** @internal The set's own copy of the reference tokens (never modified: it may be resident in the engine). */
  readonly tokens: Int32Array;
  /** @internal The set's own copy of the reference offsets. */
  readonly offsets: Int32Array;
  /** @internal The set's own copy of the segment → reference-row offsets. */
  readonly segRefOffsets: Int32Array;

  /** @internal */
  constructor(
    private readonly engine: NgramEngine,
    refs: Csr,
    segRefOffsets: Int32Array,
  ) {
    checkCsr('refs', refs);
    checkSegmentOffsets('segRefOffsets', segRefOffsets, refs.offsets.length - 1);
    this.tokens = coveredTokens(refs).slice();
    this.offsets = refs.offsets.slice();
    this.segRefOffsets = segRefOffsets.slice();
    this.segments = segRefOffsets.length - 1;
  }

  /** {@link NgramEngine.clippedNgramCounts} of `hyps` against these references. */
  clippedNgramCounts(hyps: Csr, hypSegment: Int32Array | null, maxOrder: number, weights?: NgramWeights): Float64Array {
    return this.engine.clippedCounts(hyps, hypSegment, this, maxOrder, weights);
  }

  /** {@link NgramEngine.perReferenceNgramCounts} of `hyps` against these references. */
  perReferenceNgramCounts(
    hyps: Csr,
    hypSegment: Int32Array | null,
    maxOrder: number,
    weights?: NgramWeights,
  ): { rows: Float64Array; rowOffsets: Int32Array } {
    return this.engine.perReferenceCounts(hyps, hypSegment, this, maxOrder, weights);
  }
}

/** The n-gram statistics of `src/wasm/ngram.ts` on one kernel instance. */
export class NgramEngine {
  /** The instance's memory. */
  readonly memory: LinearMemory;
  private readonly base: number;
  private weights: KernelNgramWeights | null = null;
  private weightsEnd: number;
  private references: NgramReferenceSet | null = null;
  private referencesAt: PlacedReferences | null = null;
  private referencesEnd = 0;

  constructor(readonly kernels: KernelExports) {
    this.memory = new LinearMemory(kernels.memory);
    this.base = alignUp(kernels.heapBase(), 16);
    this.weightsEnd = this.base;
  }

  /** Clipped n-gram counts of a batch; see `clippedNgramCounts` in `src/wasm/ngram.ts`. */
  clippedNgramCounts(batch: NgramBatch, maxOrder: number, weights?: NgramWeights): Float64Array {
    return this.clippedCounts(batch.hyps, batch.hypSegment, this.batchReferences(batch), maxOrder, weights);
  }

  /** Per-reference n-gram counts of a batch; see `perReferenceNgramCounts` in `src/wasm/ngram.ts`. */
  perReferenceNgramCounts(
    batch: NgramBatch,
    maxOrder: number,
    weights?: NgramWeights,
  ): { rows: Float64Array; rowOffsets: Int32Array } {
    return this.perReferenceCounts(batch.hyps, batch.hypSegment, this.batchReferences(batch), maxOrder, weights);
  }

  /** Copies references into a reusable {@link NgramReferenceSet} scored through this engine. */
  prepareReferences(refs: Csr, segRefOffsets: Int32Array): NgramReferenceSet {
    return new NgramReferenceSet(this, refs, segRefOffsets);
  }

  /** NIST information weights over every row of `refs`; see `ngramWeights` in `src/wasm/ngram.ts`. */
  ngramWeights(refs: Csr, maxOrder: number): KernelNgramWeights {
    checkCsr('refs', refs);
    checkMaxOrder(maxOrder);
    const { kernels, memory } = this;
    const nRefs = refs.offsets.length - 1;
    const layout = new Layout(this.place(null, null));
    const arrays = { tokens: coveredTokens(refs), offsets: refs.offsets, segRefOffsets: new Int32Array(0) };
    const at = placeReferences(layout, arrays);
    memory.reserve(layout.end);
    writeReferences(memory, at, arrays);
    const slots = this.tableSlotsNeeded(kernels.planCountTable(at.offsets, nRefs, maxOrder));
    const table = layout.place(kernels.ngramTableBytes(slots));
    const order = layout.place(slots * 4);
    memory.reserve(layout.end);
    const distinct = kernels.countReferenceNgrams(at.tokens, at.offsets, nRefs, maxOrder, table, slots, order);
    const capacity = kernels.tableSlots(distinct) >>> 0;
    const weightsAt = layout.place(capacity * WEIGHTS_SLOT_BYTES);
    memory.reserve(layout.end);
    // The unigram numerator is the length of the token array, as in the reference implementation.
    kernels.compactNgramWeights(table, slots, order, distinct, refs.tokens.length, weightsAt, capacity);
    const image = memory.u8.slice(weightsAt, weightsAt + capacity * WEIGHTS_SLOT_BYTES);
    return new KernelNgramWeights(this, maxOrder, image, capacity);
  }

  /** @internal Weight of one n-gram (see {@link KernelNgramWeights.weight}). */
  weightOf(weights: KernelNgramWeights, tokens: ArrayLike<number>, start: number, n: number): number {
    // As the reference implementation: no n-gram of length ≤ 0 or reaching past the tokens is in the references.
    if (!(n > 0) || !(start >= 0) || start + n > tokens.length) return 0;
    const weightsAt = this.base;
    const layout = new Layout(this.place(weights, null));
    const at = layout.place(n * 4);
    this.memory.reserve(layout.end);
    const i32 = this.memory.i32;
    for (let j = 0; j < n; j++) i32[(at >> 2) + j] = tokens[start + j];
    return this.kernels.ngramWeight(at, n, weightsAt, weights.capacity);
  }

  /** @internal Clipped counts against transient or prepared references. */
  clippedCounts(
    hyps: Csr,
    hypSegment: Int32Array | null,
    refs: ReferenceArrays,
    maxOrder: number,
    weights: NgramWeights | undefined,
  ): Float64Array {
    const w = this.kernelWeights(weights);
    const width = (w ? 3 : 2) * maxOrder;
    const out = this.runClipped(hyps, hypSegment, refs, maxOrder, w, width, (call, out) => {
      this.kernels.clippedNgramCounts(
        call.hypTokens, call.hypOffsets, call.nHyps, call.hypSegments, call.refs.tokens, call.refs.offsets,
        call.refs.segRefOffsets, call.capacities, maxOrder, w ? this.base : 0, w ? w.capacity : 0, call.table,
        call.tableBytes, call.localIds, call.firstId, call.idCount, out,
      );
    });
    const from = out >> 3;
    const to = from + (hyps.offsets.length - 1) * width;
    return this.memory.f64.slice(from, to);
  }

  /**
   * Moses BLEU rows of a batch (`m_1 t_1 … m_N t_N reflen`, `2 · maxOrder + 1` numbers per hypothesis; see
   * `mosesBleuRows` in `assembly/ngram.ts`) at `target[h · stride + column ..]`; the other columns of those rows
   * keep their values. `refLength`: 0 closest, 1 shortest, 2 average.
   */
  mosesBleuRows(
    batch: NgramBatch,
    maxOrder: number,
    refLength: 0 | 1 | 2,
    target: Float64Array,
    column: number,
    stride: number,
  ): void {
    const { hyps, hypSegment } = batch;
    const nHyps = hyps.offsets.length - 1;
    const width = 2 * maxOrder + 1;
    if (!(Number.isInteger(column) && column >= 0 && Number.isInteger(stride) && column + width <= stride)) {
      throw new RangeError(`rows of ${width} numbers do not fit at column ${column} of rows ${stride} wide`);
    }
    if (target.length < nHyps * stride) {
      throw new RangeError(`the target holds ${target.length} numbers, fewer than ${nHyps} rows of ${stride}`);
    }
    // The kernel writes into whole rows of the target's layout, so that the rows go in and out as two block copies
    // (an element loop in JavaScript costs several times more per number); the copy in keeps the other columns.
    const span = nHyps * stride;
    const out = this.runClipped(hyps, hypSegment, this.batchReferences(batch), maxOrder, null, stride, (call, out) => {
      if (stride > width) this.memory.f64.set(target.subarray(0, span), out >> 3);
      this.kernels.mosesBleuRows(
        call.hypTokens, call.hypOffsets, call.nHyps, call.hypSegments, call.refs.tokens, call.refs.offsets,
        call.refs.segRefOffsets, call.capacities, maxOrder, call.table, call.tableBytes, call.localIds, call.firstId,
        call.idCount, refLength, out + 8 * column, 8 * stride,
      );
    });
    target.set(this.memory.f64.subarray(out >> 3, (out >> 3) + span));
  }

  /**
   * Lays out a clipped-count call (with the dense path's scratch where segments take it), runs `kernel` on it with
   * the address of `nHyps` rows of `width` f64, and returns that address.
   */
  private runClipped(
    hyps: Csr,
    hypSegment: Int32Array | null,
    refs: ReferenceArrays,
    maxOrder: number,
    w: KernelNgramWeights | null,
    width: number,
    kernel: (call: ClippedCall, out: number) => void,
  ): number {
    const call = this.layOut(hyps, hypSegment, refs, maxOrder, w);
    const { kernels, memory } = this;
    const nHyps = hyps.offsets.length - 1;
    // Segments shared by many hypotheses (n-best lists) take the kernel's dense path when their reference ids span
    // a range small enough for its direct token map.
    let denseBytes = 0;
    let ids: { first: number; count: number } | null = null;
    if (w === null && hypSegment !== null) {
      denseBytes = kernels.planDenseScratch(call.hypSegments, nHyps, call.refs.offsets, call.refs.segRefOffsets, maxOrder);
      if (denseBytes > 0) ids = directIdRange(refs.tokens, hyps.offsets[nHyps]);
    }
    const tableBytes = Math.max(kernels.ngramTableBytes(call.largest), ids === null ? 0 : denseBytes);
    const table = call.layout.place(tableBytes);
    // One u16 per id of the span and one more, always 0, that ids outside the span read.
    const localIds = ids === null ? 0 : call.layout.place((ids.count + 1) * 2);
    const out = call.layout.place(nHyps * width * 8);
    memory.reserve(call.layout.end);
    kernel({
      ...call, nHyps, table, tableBytes, localIds, firstId: ids === null ? 0 : ids.first, idCount: ids === null ? 0 : ids.count,
    }, out);
    return out;
  }

  /** @internal Per-reference counts against transient or prepared references. */
  perReferenceCounts(
    hyps: Csr,
    hypSegment: Int32Array | null,
    refs: ReferenceArrays,
    maxOrder: number,
    weights: NgramWeights | undefined,
  ): { rows: Float64Array; rowOffsets: Int32Array } {
    const w = this.kernelWeights(weights);
    const call = this.layOut(hyps, hypSegment, refs, maxOrder, w);
    const { kernels, memory } = this;
    const nHyps = hyps.offsets.length - 1;
    const width = (w ? 4 : 3) * maxOrder;
    const seg = refs.segRefOffsets;
    const rowOffsets = new Int32Array(nHyps + 1);
    for (let h = 0; h < nHyps; h++) {
      const s = hypSegment === null ? h : hypSegment[h];
      rowOffsets[h + 1] = rowOffsets[h] + seg[s + 1] - seg[s];
    }
    // Per-reference counts need `capacity × max(references, 4)` i32 for the largest segment: up to 4 references
    // share one 16-byte count vector per entry (the kernel's packed path).
    const capacities = memory.u32;
    let countWords = 0;
    for (let s = 0; s + 1 < seg.length; s++) {
      countWords = Math.max(countWords, capacities[(call.capacities >> 2) + s] * Math.max(seg[s + 1] - seg[s], 4));
    }
    const rowOffsetsAt = call.layout.place(rowOffsets.byteLength);
    const table = call.layout.place(kernels.ngramTableBytes(call.largest));
    const counts = call.layout.place(countWords * 4);
    const list = call.layout.place(call.largest * LIST_PAIR_BYTES);
    const out = call.layout.place(rowOffsets[nHyps] * width * 8);
    memory.reserve(call.layout.end);
    memory.i32.set(rowOffsets, rowOffsetsAt >> 2);
    kernels.perReferenceNgramCounts(
      call.hypTokens, call.hypOffsets, nHyps, call.hypSegments,
      call.refs.tokens, call.refs.offsets, call.refs.segRefOffsets, call.capacities, maxOrder,
      w ? this.base : 0, w ? w.capacity : 0, rowOffsetsAt, table, counts, list, out,
    );
    const rows = memory.f64.slice(out >> 3, (out >> 3) + rowOffsets[nHyps] * width);
    return { rows, rowOffsets };
  }

  /** Checks a plain batch's references; they are copied into the scratch of the call. */
  private batchReferences(batch: NgramBatch): ReferenceArrays {
    checkCsr('batch.refs', batch.refs);
    checkSegmentOffsets('batch.segRefOffsets', batch.segRefOffsets, batch.refs.offsets.length - 1);
    return { tokens: coveredTokens(batch.refs), offsets: batch.refs.offsets, segRefOffsets: batch.segRefOffsets };
  }

  /** The weights as kernel weights. */
  private kernelWeights(weights: NgramWeights | undefined): KernelNgramWeights | null {
    if (weights === undefined) return null;
    if (!(weights instanceof KernelNgramWeights)) {
      throw new TypeError('weights must come from ngramWeights() of src/wasm (a KernelNgramWeights)');
    }
    return weights;
  }

  /**
   * Checks the hypotheses, makes the weights and a prepared reference set resident, writes the hypotheses (and
   * transient references) into the scratch, and sizes the segment tables.
   */
  private layOut(
    hyps: Csr,
    hypSegment: Int32Array | null,
    refs: ReferenceArrays,
    maxOrder: number,
    weights: KernelNgramWeights | null,
  ): {
    layout: Layout; hypTokens: number; hypOffsets: number; hypSegments: number; refs: PlacedReferences;
    capacities: number; largest: number;
  } {
    checkMaxOrder(maxOrder);
    checkCsr('hyps', hyps);
    const nHyps = hyps.offsets.length - 1;
    const nSegments = refs.segRefOffsets.length - 1;
    checkHypSegments('hypSegment', hypSegment, nHyps, nSegments);
    const { kernels, memory } = this;
    const prepared = refs instanceof NgramReferenceSet ? refs : null;
    const layout = new Layout(this.place(weights, prepared));
    const hypTokens = coveredTokens(hyps);
    const placedRefs = prepared ? this.referencesAt! : placeReferences(layout, refs);
    const tokensAt = layout.place(hypTokens.byteLength);
    const offsetsAt = layout.place(hyps.offsets.byteLength);
    const segmentsAt = hypSegment === null ? 0 : layout.place(hypSegment.byteLength);
    const capacities = layout.place(4 * nSegments);
    memory.reserve(layout.end);
    if (!prepared) writeReferences(memory, placedRefs, refs);
    const i32 = memory.i32;
    i32.set(hypTokens, tokensAt >> 2);
    i32.set(hyps.offsets, offsetsAt >> 2);
    if (hypSegment !== null) i32.set(hypSegment, segmentsAt >> 2);
    const largest = this.tableSlotsNeeded(
      kernels.planSegmentTables(placedRefs.offsets, placedRefs.segRefOffsets, nSegments, maxOrder, capacities),
    );
    return {
      layout, hypTokens: tokensAt, hypOffsets: offsetsAt, hypSegments: segmentsAt, refs: placedRefs, capacities, largest,
    };
  }

  /** A planned table capacity, refused when no memory could hold it. */
  private tableSlotsNeeded(slots: number): number {
    if (!(this.kernels.ngramTableBytes(slots) < 2 ** 32)) {
      throw new RangeError(`a reference table of ${slots} slots does not fit in WebAssembly memory: split the segment's references`);
    }
    return slots;
  }

  /**
   * Makes `weights` and `refs` resident (copying only what is not there already) and returns where the scratch of
   * the call starts. `null` leaves the current resident data in place.
   */
  private place(weights: KernelNgramWeights | null, refs: NgramReferenceSet | null): number {
    const { memory } = this;
    if (weights !== null && weights !== this.weights) {
      const end = alignUp(this.base + weights.image.byteLength, 16);
      if (end > this.weightsEnd) {
        this.weightsEnd = end;
        this.references = null;
        this.referencesAt = null;
      }
      memory.reserve(end);
      memory.u8.set(weights.image, this.base);
      this.weights = weights;
    }
    if (refs !== null && refs !== this.references) {
      const layout = new Layout(this.weightsEnd);
      const at = placeReferences(layout, refs);
      memory.reserve(layout.end);
      writeReferences(memory, at, refs);
      this.referencesAt = at;
      this.referencesEnd = layout.end;
      this.references = refs;
    }
    return this.references === null ? this.weightsEnd : this.referencesEnd;
  }
}
