/**
 * Edit statistics over interned token ids — word-level Levenshtein distances with the alignment counts jiwer reports
 * (WER) and GTM's greedy run statistics — computed by the WebAssembly kernels `assembly/edit.ts` and `assembly/gtm.ts`.
 *
 * Results are defined by the plain reference implementations in `test/reference/edit.ts`; property tests check that
 * the kernels give exactly their values. Both calls take the batch shape of the n-gram kernels (hypotheses grouped by
 * segment, a segment's references built into one table and reused by all of its hypotheses) and give values per
 * (hypothesis, reference of its segment), hypothesis-major.
 *
 * Each {@link EditEngine} owns a kernel instance (its own linear memory); every call lays its inputs, scratch and
 * outputs out from the heap base and copies the results out.
 */
import type { KernelExports } from './kernels.js';
import { LinearMemory, ResultStore, alignUp } from './linear-memory.js';
import { instantiateKernels } from './load.js';
import { checkScratch, longestRow, placeMatchVectors, placePairBatch, type PairBatch } from './placed-batch.js';

/** The edit kernels' exports (pointers are byte addresses in the instance's memory; see the kernel files). */
export interface EditKernelExports extends KernelExports {
  /** Writes the smallest and largest of `count` i32 ids at `tokens` as two i32 at `out`. */
  idRange(tokens: number, count: number, out: number): void;
  /** Sizes the match vectors of each segment: 4 f64 at `plan` (key capacity, vector bytes, slot bytes, references). */
  planMatchVectors(refOffsets: number, segRefOffsets: number, nSegments: number, words: number, plan: number): void;
  /** Distance per (hypothesis, reference of its segment) as i32 at `out`; with `ops`, 5 i32 per hypothesis there. */
  editDistances(
    hypTokens: number, hypOffsets: number, nHyps: number, hypSegments: number,
    refTokens: number, refOffsets: number, segRefOffsets: number,
    keys: number, keysCapacity: number, vectors: number, directBytes: number, info: number, state: number,
    columns: number, out: number, ops: number,
  ): void;
  /** GTM rows `[Σ L^e, Σ L]` per (hypothesis, reference of its segment): 2 f64 each at `out`. */
  gtmRunStats(
    hypTokens: number, hypOffsets: number, nHyps: number, hypSegments: number,
    refTokens: number, refOffsets: number, segRefOffsets: number, weights: number, scratch: number, out: number,
  ): void;
}

/**
 * Hypotheses with their references, as CSR token ids (the shape of the n-gram batches).
 * Hypothesis `h` belongs to segment `hypSegment[h]`, or to segment `h` when `hypSegment` is null; the references of
 * segment `s` are rows `segRefOffsets[s] .. segRefOffsets[s + 1]` of `refs`. Hypotheses of one segment should be
 * consecutive: the segment's table is rebuilt whenever the segment changes.
 */
export type EditBatch = PairBatch;

/** Columns of {@link EditDistances.ops}, per hypothesis. */
export const EDIT_OPS_COLUMNS = ['best', 'hits', 'substitutions', 'deletions', 'insertions'] as const;

/** Levenshtein distances of a batch, with the alignment counts when asked for. */
export interface EditDistances {
  /** One distance per (hypothesis, reference of its segment); those of hypothesis `h` are `rowOffsets[h] .. rowOffsets[h + 1]`. */
  readonly distances: Int32Array;
  /** `nHyps + 1` offsets into `distances`: the references of hypothesis `h`'s segment, in order. */
  readonly rowOffsets: Int32Array;
  /**
   * With `alignment`, 5 integers per hypothesis ({@link EDIT_OPS_COLUMNS}): the index within its segment of the
   * reference with the fewest edits (the first on ties; -1 when the segment has no reference), then hits,
   * substitutions, deletions and insertions of RapidFuzz's alignment against it (jiwer's counts); otherwise null.
   */
  readonly ops: Int32Array | null;
}

/** GTM statistics of a batch. */
export interface GtmRunStats {
  /** `[Σ L^e, Σ L]` per (hypothesis, reference of its segment): rows `rowOffsets[h] .. rowOffsets[h + 1]` of hypothesis `h`. */
  readonly rows: Float64Array;
  /** `nHyps + 1` offsets of pairs (2 values each in `rows`): the references of hypothesis `h`'s segment, in order. */
  readonly rowOffsets: Int32Array;
}

/** Bytes of a hypothesis' alignment counts. */
const OPS_BYTES = 20;

/** Checks a GTM exponent. */
function checkExponent(exponent: number): void {
  if (typeof exponent !== 'number' || !Number.isFinite(exponent) || !(exponent > 0)) {
    throw new RangeError(`exponent must be a positive finite number (got ${String(exponent)})`);
  }
}

/** Options of {@link EditEngine.editDistances}. */
export interface EditDistanceOptions {
  /** Also recover the alignment counts against each hypothesis' closest reference. @default false */
  readonly alignment?: boolean;
  /**
   * The results in the engine's reusable stores, not new arrays: valid until the engine's next call with `reuse`
   * (for a caller that reads them at once, a row writer). @default false
   */
  readonly reuse?: boolean;
}

/** The edit kernels bound to one kernel instance. */
export class EditEngine {
  /** The instance's memory. */
  readonly memory: LinearMemory;
  private readonly base: number;
  private readonly distanceStore = new ResultStore<Int32Array>((n) => new Int32Array(n));
  private readonly opsStore = new ResultStore<Int32Array>((n) => new Int32Array(n));

  /** Binds the kernels of one instance (see {@link defaultEditEngine} for the shared one). */
  constructor(
    /** The instance's exports. */
    readonly kernels: EditKernelExports,
  ) {
    this.memory = new LinearMemory(kernels.memory);
    this.base = alignUp(kernels.heapBase(), 16);
  }

  /**
   * Levenshtein distance (unit costs) of every (hypothesis, reference of its segment) pair, bit-parallel with the
   * reference as pattern; with `options.alignment`, also the alignment counts of each hypothesis against its closest
   * reference.
   * @throws RangeError/TypeError for inconsistent offsets or segment indices.
   */
  editDistances(batch: EditBatch, options: EditDistanceOptions = {}): EditDistances {
    const alignment = options?.alignment ?? false;
    if (typeof alignment !== 'boolean') throw new TypeError(`options.alignment must be a boolean (got ${String(alignment)})`);
    const { kernels, memory } = this;
    const call = placePairBatch(this.memory, this.base, batch);
    const nSegments = batch.segRefOffsets.length - 1;
    const { keys, vectors, info, directBytes, capacity, strideBytes } = placeMatchVectors(kernels, memory, call, nSegments);
    const state = call.layout.place(4 * strideBytes);
    const words = Math.max(1, Math.ceil(longestRow(batch.refs) / 64));
    const longestHyp = longestRow(batch.hyps);
    const columnBytes = Math.max((longestHyp + 1) * 16 * words, 4 * longestHyp * strideBytes);
    const columns = alignment ? call.layout.place(checkScratch(columnBytes, 'the alignment columns of a pair')) : 0;
    const n = call.rowOffsets[call.nHyps];
    const out = call.layout.place(n * 4);
    const ops = alignment ? call.layout.place(call.nHyps * OPS_BYTES) : 0;
    checkScratch(call.layout.end, 'an edit-distance call');
    memory.reserve(call.layout.end);
    kernels.editDistances(
      call.hypTokens, call.hypOffsets, call.nHyps, call.hypSegments, call.refTokens, call.refOffsets,
      call.segRefOffsets, keys, directBytes ? 0 : capacity, vectors, directBytes, info, state, columns, out, ops,
    );
    const i32 = memory.i32;
    const reuse = options.reuse === true;
    const copy = (store: ResultStore<Int32Array>, from: number, to: number): Int32Array =>
      reuse ? store.copy(i32, from, to) : i32.slice(from, to);
    return {
      distances: copy(this.distanceStore, out >> 2, (out >> 2) + n),
      rowOffsets: call.rowOffsets,
      ops: alignment ? copy(this.opsStore, ops >> 2, (ops >> 2) + 5 * call.nHyps) : null,
    };
  }

  /**
   * GTM's greedy run statistics of every (hypothesis, reference of its segment) pair with run weight L^exponent:
   * rows `[Σ L^exponent, Σ L]` over the runs taken (see `assembly/gtm.ts` for the exact greedy order). The weights
   * are JavaScript's `Math.pow(L, exponent)`, summed longest run first.
   * @throws RangeError/TypeError for inconsistent offsets or segment indices, or an exponent that is not > 0.
   */
  gtmRunStats(batch: EditBatch, exponent: number): GtmRunStats {
    checkExponent(exponent);
    const { kernels, memory } = this;
    const call = placePairBatch(this.memory, this.base, batch);
    const maxHyp = longestRow(batch.hyps);
    const maxRef = longestRow(batch.refs);
    const maxRun = Math.min(maxHyp, maxRef);
    const weights = call.layout.place((maxRun + 1) * 8);
    const scratchBytes = Math.max(24 * maxHyp, maxHyp + maxRef + 8 * (maxRef + 1) + 4);
    const scratch = call.layout.place(checkScratch(scratchBytes, 'the GTM scratch of a pair'));
    const n = call.rowOffsets[call.nHyps];
    const out = call.layout.place(n * 16);
    checkScratch(call.layout.end, 'a GTM call');
    memory.reserve(call.layout.end);
    const f64 = memory.f64;
    for (let length = 0; length <= maxRun; length++) f64[(weights >> 3) + length] = Math.pow(length, exponent);
    kernels.gtmRunStats(
      call.hypTokens, call.hypOffsets, call.nHyps, call.hypSegments, call.refTokens, call.refOffsets,
      call.segRefOffsets, weights, scratch, out,
    );
    return { rows: memory.f64.slice(out >> 3, (out >> 3) + 2 * n), rowOffsets: call.rowOffsets };
  }

}

let defaultEngine: EditEngine | null = null;

/**
 * The engine the functions below use: one kernel instance of its own per thread, created on first use from the
 * default build (on Node, the one `PALETTE_WASM` selects). Its memory grows to the largest call seen and stays that
 * size.
 */
export function defaultEditEngine(): EditEngine {
  defaultEngine ??= new EditEngine(instantiateKernels() as EditKernelExports);
  return defaultEngine;
}

/** {@link EditEngine.editDistances} on the default engine. */
export function editDistances(batch: EditBatch, options?: EditDistanceOptions): EditDistances {
  return defaultEditEngine().editDistances(batch, options);
}

/** {@link EditEngine.gtmRunStats} on the default engine. */
export function gtmRunStats(batch: EditBatch, exponent: number): GtmRunStats {
  return defaultEditEngine().gtmRunStats(batch, exponent);
}
