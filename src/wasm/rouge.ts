/**
 * ROUGE statistics over interned token ids — LCS lengths (ROUGE-L), LCS hit masks (ROUGE-L summary level), weighted
 * LCS (ROUGE-W) and skip-bigram counts (ROUGE-S/SU) — computed by the WebAssembly kernels `assembly/lcs.ts`,
 * `assembly/wlcs.ts` and `assembly/skip-bigram.ts`.
 *
 * Results are defined by the plain reference implementations in `test/reference/rouge.ts`; property tests check that
 * the kernels give exactly their values. Pair kernels take the batch shape of the n-gram kernels (hypotheses grouped
 * by segment, a segment's references built into one table and reused by all of its hypotheses) and give one row per
 * (hypothesis, reference of its segment), hypothesis-major. Mask kernels take summary units of sentences.
 *
 * Each {@link RougeEngine} owns a kernel instance (its own linear memory); every call lays its inputs, scratch and
 * outputs out from the heap base and copies the results out. The row methods (`lcsRows`, `skipBigramRows`) go one
 * step further: the pair kernel writes the pair rows of ./rouge-rows.ts, the same instance's row kernel reduces them
 * where they are, and only each hypothesis' 7-number row is copied out.
 */
import type { Csr } from '../text/csr.js';
import { checkCsr } from './check-input.js';
import { Layout, LinearMemory, alignUp } from './linear-memory.js';
import { instantiateKernels } from './load.js';
import {
  checkScratch, placeMatchVectors, coveredTokens, directVectorBytes, longestRow, placePairBatch, type PairBatch,
  type PlacedBatch,
} from './placed-batch.js';
import { ROW_WIDTH, copyRows, rowKernelArgs, type RougeRowExports, type RougeRowSettings } from './rouge-rows.js';

/**
 * The ROUGE kernels' exports (pointers are byte addresses in the instance's memory; see the kernel files), the
 * row kernel of ./rouge-rows.ts among them.
 */
export interface RougeKernelExports extends RougeRowExports {
  /** Writes the smallest and largest of `count` i32 ids at `tokens` as two i32 at `out`. */
  idRange(tokens: number, count: number, out: number): void;
  /** Sizes the LCS match vectors of each segment (or, `words` = 1, of each row in the words layout): 4 f64 at `plan`. */
  planMatchVectors(refOffsets: number, segRefOffsets: number, nSegments: number, words: number, plan: number): void;
  /** LCS length per (hypothesis, reference of its segment): i32 at `out`, or pair rows (`pairRows` = 1). */
  lcsLengths(
    hypTokens: number, hypOffsets: number, nHyps: number, hypSegments: number,
    refTokens: number, refOffsets: number, segRefOffsets: number,
    keys: number, keysCapacity: number, vectors: number, directBytes: number, info: number, state: number, out: number,
    pairRows: number,
  ): void;
  /** Union LCS hit masks of summary units: one byte per reference token at `out`. */
  lcsUnionMasks(
    hypTokens: number, hypOffsets: number, refTokens: number, refOffsets: number, units: number, nUnits: number,
    keys: number, keysCapacity: number, vectors: number, info: number, columns: number, out: number,
  ): void;
  /** x^w with the kernels' `pow`. */
  wlcsWeight(x: number, w: number): number;
  /** x^(1/w) with the kernels' `pow`. */
  wlcsWeightInverse(x: number, w: number): number;
  /** WLCS rows `[hitWeight, hits, wlcs]` per (hypothesis, reference of its segment): 3 f64 each at `out`. */
  wlcsPairStats(
    hypTokens: number, hypOffsets: number, nHyps: number, hypSegments: number,
    refTokens: number, refOffsets: number, segRefOffsets: number,
    w: number, maxLength: number, weights: number, table: number, runs: number, mask: number,
    keys: number, keysCapacity: number, vectors: number, directBytes: number, info: number, out: number,
  ): void;
  /** Union WLCS hit masks of summary units: one byte per reference token at `out`. */
  wlcsUnionMasks(
    hypTokens: number, hypOffsets: number, refTokens: number, refOffsets: number, units: number, nUnits: number,
    w: number, maxLength: number, weights: number, table: number, runs: number,
    keys: number, keysCapacity: number, vectors: number, info: number, out: number,
  ): void;
  /** Sizes the skip-bigram tables of each segment: 5 f64 at `plan`. */
  planSkipBigramTables(
    refOffsets: number, segRefOffsets: number, nSegments: number, maxGap: number, unigrams: number, plan: number,
  ): void;
  /**
   * Skip-bigram rows `[hits, hypUnits, refUnits]` per (hypothesis, reference of its segment): 3 f64 each at `out`,
   * or pair rows (`pairRows` = 1: a fourth f64, 0).
   */
  skipBigramCounts(
    hypTokens: number, hypOffsets: number, nHyps: number, hypSegments: number,
    refTokens: number, refOffsets: number, segRefOffsets: number, maxGap: number, unigrams: number,
    tokenKeys: number, tokenKeysCapacity: number, localIds: number, locals: number, tokenLocals: number,
    tokenLocalSlots: number, direct: number, directEntries: number, directStride: number,
    keys: number, keysCapacity: number, data: number, hits: number, out: number, pairRows: number,
  ): void;
}

/**
 * Hypotheses with their references, as CSR token ids (the shape of the n-gram batches).
 * Hypothesis `h` belongs to segment `hypSegment[h]`, or to segment `h` when `hypSegment` is null; the references of
 * segment `s` are rows `segRefOffsets[s] .. segRefOffsets[s + 1]` of `refs`. Hypotheses of one segment should be
 * consecutive: the segment's table is rebuilt whenever the segment changes.
 */
export type RougeBatch = PairBatch;

/**
 * Summary-level units over sentences: each row of `hyps` and `refs` is one sentence. Unit `u` is the four integers
 * `units[4u .. 4u + 4]` = reference rows `refFrom, refTo` and hypothesis rows `hypFrom, hypTo` (half-open ranges);
 * units may share rows (e.g. one peer summary against several model summaries).
 */
export interface SentenceUnits {
  readonly hyps: Csr;
  readonly refs: Csr;
  readonly units: Int32Array;
}

/** One row (or value) per (hypothesis, reference of its segment): those of hypothesis `h` are rows `rowOffsets[h] .. rowOffsets[h + 1]`. */
export interface PairRows<T extends Int32Array | Float64Array> {
  readonly rows: T;
  readonly rowOffsets: Int32Array;
}

/**
 * Masks over the reference sentences of units: one byte per reference token, 1 where the token is on the union LCS.
 * The masks of unit `u` are bytes `maskOffsets[u] .. maskOffsets[u + 1]`: its reference rows' tokens in order.
 */
export interface UnionMasks {
  readonly masks: Uint8Array;
  readonly maskOffsets: Int32Array;
}

/**
 * Which unigrams ROUGE-SU counts besides the skip-bigrams: `none` (ROUGE-S), `all` (every token, as the paper
 * defines ROUGE-SU), `rouge155` (every token but the last, as ROUGE-1.5.5's `-u` counts them).
 */
export type SkipBigramUnigrams = 'none' | 'all' | 'rouge155';

/** Options of {@link RougeEngine.skipBigramCounts}. */
export interface SkipBigramOptions {
  /** Most tokens between the two words of a pair (ROUGE-1.5.5 `-2`); negative: any gap (ROUGE-S*). */
  readonly maxGap: number;
  /** Unigrams counted as units besides the pairs. @default 'none' */
  readonly unigrams?: SkipBigramUnigrams;
}

/** Kernel codes of {@link SkipBigramUnigrams} (`assembly/skip-bigram.ts`). */
const UNIGRAM_CODES: Record<SkipBigramUnigrams, number> = { none: 0, all: 1, rouge155: 2 };

/** Bytes of a token key, of a skip-bigram key slot, of the scratch plan, and of a reference's match-vector info. */
const TOKEN_KEY_BYTES = 8;
const KEY_SLOT_BYTES = 16;
const PLAN_BYTES = 32;
const INFO_BYTES = 12;
/** Bytes of a pair row of the row kernel (hit, hypothesis count, reference count, select). */
const PAIR_ROW_BYTES = 32;

/** Checks the units of a summary-level call against the sentence stores. */
function checkUnits(name: string, units: Int32Array, nRefs: number, nHyps: number): void {
  if (!(units instanceof Int32Array) || units.length % 4 !== 0) {
    throw new TypeError(`${name} must be an Int32Array of 4 integers per unit`);
  }
  for (let at = 0; at < units.length; at += 4) {
    const u = at / 4;
    const [refFrom, refTo, hypFrom, hypTo] = [units[at], units[at + 1], units[at + 2], units[at + 3]];
    if (refFrom < 0 || refFrom > refTo || refTo > nRefs) {
      throw new RangeError(`${name}[${u}] must have reference rows 0 <= from <= to <= ${nRefs} (got ${refFrom}..${refTo})`);
    }
    if (hypFrom < 0 || hypFrom > hypTo || hypTo > nHyps) {
      throw new RangeError(`${name}[${u}] must have hypothesis rows 0 <= from <= to <= ${nHyps} (got ${hypFrom}..${hypTo})`);
    }
  }
}

/** Checks a WLCS weight exponent. */
function checkWeight(weight: number): void {
  if (typeof weight !== 'number' || !Number.isFinite(weight) || !(weight > 0)) {
    throw new RangeError(`weight must be a positive finite number (got ${String(weight)})`);
  }
}

/** Checks skip-bigram options and returns the kernel's unigram code. */
function checkSkipBigramOptions(options: SkipBigramOptions): number {
  const { maxGap, unigrams = 'none' } = options ?? ({} as SkipBigramOptions);
  if (!Number.isInteger(maxGap) || maxGap < -(2 ** 31) || maxGap >= 2 ** 31) {
    throw new RangeError(`options.maxGap must be an integer (negative: any gap) (got ${String(maxGap)})`);
  }
  if (!Object.hasOwn(UNIGRAM_CODES, unigrams)) {
    throw new RangeError(`options.unigrams must be one of none, all, rouge155 (got ${JSON.stringify(unigrams)})`);
  }
  return UNIGRAM_CODES[unigrams];
}

/** Placed arrays of a summary-level call. */
interface PlacedUnits {
  readonly layout: Layout;
  readonly hypTokens: number;
  readonly hypOffsets: number;
  readonly refTokens: number;
  readonly refOffsets: number;
  readonly units: number;
  readonly nUnits: number;
  readonly maskOffsets: Int32Array;
}

/** Options of a {@link RougeEngine}. */
export interface RougeEngineOptions {
  /**
   * Largest direct skip-bigram table, in entries (W² + W for a segment whose references have W - 1 distinct
   * tokens); larger segments hash their units. 0 hashes every segment (tests use it to reach that path).
   * @default 65536
   */
  readonly directPairEntries?: number;
}

/** The ROUGE kernels bound to one kernel instance. */
export class RougeEngine {
  /** The instance's memory. */
  readonly memory: LinearMemory;
  private readonly base: number;
  private readonly directPairEntries: number;

  constructor(readonly kernels: RougeKernelExports, options: RougeEngineOptions = {}) {
    const { directPairEntries = 65536 } = options;
    if (!Number.isInteger(directPairEntries) || directPairEntries < 0 || directPairEntries > 2 ** 24) {
      throw new RangeError(`options.directPairEntries must be an integer in [0, 16777216] (got ${String(directPairEntries)})`);
    }
    this.memory = new LinearMemory(kernels.memory);
    this.base = alignUp(kernels.heapBase(), 16);
    this.directPairEntries = directPairEntries;
  }

  /**
   * LCS length of every (hypothesis, reference of its segment) pair, bit-parallel with the reference as pattern.
   * @throws RangeError/TypeError for inconsistent offsets or segment indices.
   */
  lcsLengths(batch: RougeBatch): PairRows<Int32Array> {
    const { call, out } = this.runLcs(batch, false);
    const n = call.rowOffsets[call.nHyps];
    return { rows: this.memory.i32.slice(out >> 2, (out >> 2) + n), rowOffsets: call.rowOffsets };
  }

  /**
   * ROUGE-L's segment rows straight from the LCS lengths, in this instance's memory: the pair rows (LCS, hypothesis
   * length, reference length, select 0) of {@link lcsLengths} reduced by the row kernel with `settings`, the
   * 7-number row of hypothesis `h` written at `out[h · stride + column ..]` — what `writeRougeRows` gives for those
   * pair rows, without taking them out of WebAssembly memory.
   * @throws as {@link lcsLengths}.
   */
  lcsRows(batch: RougeBatch, settings: RougeRowSettings, out: Float64Array, column: number, stride: number): void {
    const { call, out: pairs } = this.runLcs(batch, true);
    this.reduceRows(call, pairs, settings, out, column, stride);
  }

  /** Places a batch and runs the LCS kernel on it: i32 lengths, or pair rows, at `out`. */
  private runLcs(batch: RougeBatch, pairRows: boolean): { call: PlacedBatch; out: number } {
    const { kernels, memory } = this;
    const call = placePairBatch(this.memory, this.base, batch);
    const nSegments = batch.segRefOffsets.length - 1;
    const { keys, vectors, info, directBytes, capacity, strideBytes } = placeMatchVectors(kernels, memory, call, nSegments);
    const state = call.layout.place(strideBytes);
    const n = call.rowOffsets[call.nHyps];
    const out = call.layout.place(n * (pairRows ? PAIR_ROW_BYTES : 4));
    memory.reserve(call.layout.end);
    kernels.lcsLengths(
      call.hypTokens, call.hypOffsets, call.nHyps, call.hypSegments, call.refTokens, call.refOffsets,
      call.segRefOffsets, keys, directBytes ? 0 : capacity, vectors, directBytes, info, state, out, pairRows ? 1 : 0,
    );
    return { call, out };
  }

  /**
   * Reduces the pair rows at `pairs` of a placed batch with the row kernel, after what the call has placed, and
   * copies hypothesis `h`'s row to `out[h · stride + column ..]`.
   */
  private reduceRows(
    call: PlacedBatch, pairs: number, settings: RougeRowSettings, out: Float64Array, column: number, stride: number,
  ): void {
    const { kernels, memory } = this;
    const count = call.nHyps;
    if (count === 0) return;
    const offsets = call.layout.place((count + 1) * 4);
    const scratch = call.layout.place(ROW_WIDTH * 8);
    const rows = call.layout.place(ROW_WIDTH * 8 * count);
    memory.reserve(call.layout.end);
    memory.i32.set(call.rowOffsets, offsets >> 2);
    const [rule, form, param, w, jackknife] = rowKernelArgs(settings);
    kernels.rougeRows(pairs, offsets, count, rule, form, param, w, jackknife, scratch, rows, ROW_WIDTH * 8);
    copyRows(memory.f64, rows >> 3, count, out, column, stride);
  }

  /**
   * For every unit and reference sentence, the reference positions on the LCS with at least one hypothesis sentence
   * of the unit, traced as ROUGE-1.5.5 and rouge-score trace it (the two agree).
   * @throws RangeError/TypeError for inconsistent offsets or units.
   */
  lcsUnionMasks(input: SentenceUnits): UnionMasks {
    const { kernels, memory } = this;
    const call = this.placeUnits(input);
    const nRefs = input.refs.offsets.length - 1;
    // Every reference row is a segment of its own here: plan over the identity offsets.
    const rowsAt = call.layout.place((nRefs + 1) * 4);
    const planAt = call.layout.place(PLAN_BYTES);
    memory.reserve(call.layout.end);
    const i32 = memory.i32;
    for (let r = 0; r <= nRefs; r++) i32[(rowsAt >> 2) + r] = r;
    kernels.planMatchVectors(call.refOffsets, rowsAt, nRefs, 1, planAt);
    const [capacity, vectorBytes, strideBytes] = memory.f64.slice(planAt >> 3, (planAt >> 3) + 3);
    const keys = call.layout.place(checkScratch(capacity * TOKEN_KEY_BYTES, 'a reference token table'));
    const vectors = call.layout.place(checkScratch(vectorBytes, 'the match vectors of a sentence'));
    const info = call.layout.place(INFO_BYTES);
    const columns = call.layout.place(checkScratch(longestRow(input.hyps) * strideBytes, 'the LCS columns of a sentence pair'));
    const n = call.maskOffsets[call.nUnits];
    const out = call.layout.place(n);
    memory.reserve(call.layout.end);
    kernels.lcsUnionMasks(
      call.hypTokens, call.hypOffsets, call.refTokens, call.refOffsets, call.units, call.nUnits,
      keys, capacity, vectors, info, columns, out,
    );
    return { masks: memory.u8.slice(out, out + n), maskOffsets: call.maskOffsets };
  }

  /**
   * Weighted LCS of every (hypothesis, reference of its segment) pair with f(k) = k^weight: rows of 3 numbers,
   * `hitWeight` (ROUGE-1.5.5: Σ f(run) over the runs of consecutive reference positions its traceback marks),
   * `hits` (marked positions) and `wlcs` (the DP value c[m][n], the paper's WLCS). Scratch: the DP table of the
   * largest pair, 8 (m + 1)(n + 1) bytes.
   * @throws RangeError/TypeError for inconsistent offsets or segment indices, or a weight that is not > 0;
   * RangeError when the table of a pair cannot fit in WebAssembly memory.
   */
  wlcsPairStats(batch: RougeBatch, weight: number): PairRows<Float64Array> {
    checkWeight(weight);
    const { kernels, memory } = this;
    const call = placePairBatch(this.memory, this.base, batch);
    const { hyps, refs, hypSegment, segRefOffsets } = batch;
    let maxLength = 0;
    let maxCells = 0;
    let maxHyp = 0;
    for (let h = 0; h < call.nHyps; h++) {
      const n = hyps.offsets[h + 1] - hyps.offsets[h];
      const s = hypSegment === null ? h : hypSegment[h];
      maxHyp = Math.max(maxHyp, n);
      for (let r = segRefOffsets[s]; r < segRefOffsets[s + 1]; r++) {
        const m = refs.offsets[r + 1] - refs.offsets[r];
        maxLength = Math.max(maxLength, m);
        maxCells = Math.max(maxCells, (m + 1) * (n + 1));
      }
    }
    const positions = this.placePositions(call.layout, call.hypOffsets, call.nHyps);
    const directBytes = directVectorBytes(this.kernels, this.memory, call, positions.strideBytes);
    const keys = directBytes ? 0 : call.layout.place(positions.capacity * TOKEN_KEY_BYTES);
    const vectors = call.layout.place(checkScratch(directBytes || positions.vectorBytes, 'the position vectors of a hypothesis'));
    const info = call.layout.place(INFO_BYTES);
    const weights = call.layout.place((maxLength + 1) * 8);
    const table = call.layout.place(checkScratch(maxCells * 8, 'the WLCS table of a pair'));
    const runs = call.layout.place((maxHyp + 1) * 8);
    const mask = call.layout.place(maxLength);
    const n = call.rowOffsets[call.nHyps];
    const out = call.layout.place(n * 24);
    memory.reserve(call.layout.end);
    kernels.wlcsPairStats(
      call.hypTokens, call.hypOffsets, call.nHyps, call.hypSegments, call.refTokens, call.refOffsets,
      call.segRefOffsets, weight, maxLength, weights, table, runs, mask,
      keys, directBytes ? 0 : positions.capacity, vectors, directBytes, info, out,
    );
    return { rows: memory.f64.slice(out >> 3, (out >> 3) + 3 * n), rowOffsets: call.rowOffsets };
  }

  /**
   * For every unit and reference sentence, the union over the unit's hypothesis sentences of the positions
   * ROUGE-1.5.5's WLCS traceback marks (f(k) = k^weight); ROUGE-W summary level clips and weighs them.
   * @throws RangeError/TypeError for inconsistent offsets or units, or a weight that is not > 0.
   */
  wlcsUnionMasks(input: SentenceUnits, weight: number): UnionMasks {
    checkWeight(weight);
    const { kernels, memory } = this;
    const call = this.placeUnits(input);
    const { hyps, refs, units } = input;
    let maxLength = 0;
    let maxCells = 0;
    let maxHyp = 0;
    for (let at = 0; at < units.length; at += 4) {
      let m = 0;
      let n = 0;
      for (let r = units[at]; r < units[at + 1]; r++) m = Math.max(m, refs.offsets[r + 1] - refs.offsets[r]);
      for (let h = units[at + 2]; h < units[at + 3]; h++) n = Math.max(n, hyps.offsets[h + 1] - hyps.offsets[h]);
      maxLength = Math.max(maxLength, m);
      maxHyp = Math.max(maxHyp, n);
      maxCells = Math.max(maxCells, (m + 1) * (n + 1));
    }
    const positions = this.placePositions(call.layout, call.hypOffsets, hyps.offsets.length - 1);
    const keys = call.layout.place(positions.capacity * TOKEN_KEY_BYTES);
    const vectors = call.layout.place(checkScratch(positions.vectorBytes, 'the position vectors of a sentence'));
    const info = call.layout.place(INFO_BYTES);
    const weights = call.layout.place((maxLength + 1) * 8);
    const table = call.layout.place(checkScratch(maxCells * 8, 'the WLCS table of a sentence pair'));
    const runs = call.layout.place((maxHyp + 1) * 8);
    const n = call.maskOffsets[call.nUnits];
    const out = call.layout.place(n);
    memory.reserve(call.layout.end);
    kernels.wlcsUnionMasks(
      call.hypTokens, call.hypOffsets, call.refTokens, call.refOffsets, call.units, call.nUnits,
      weight, maxLength, weights, table, runs, keys, positions.capacity, vectors, info, out,
    );
    return { masks: memory.u8.slice(out, out + n), maskOffsets: call.maskOffsets };
  }

  /**
   * Skip-bigram counts of every (hypothesis, reference of its segment) pair: rows of 3 numbers, `hits` (Σ over
   * distinct units of min(hypothesis count, reference count)), `hypUnits` and `refUnits` (pairs within the gap,
   * plus the unigrams that `options.unigrams` selects).
   * @throws RangeError/TypeError for inconsistent offsets, segment indices or options; RangeError when a segment's
   * table cannot fit in WebAssembly memory.
   */
  skipBigramCounts(batch: RougeBatch, options: SkipBigramOptions): PairRows<Float64Array> {
    const { call, out } = this.runSkipBigrams(batch, options, false);
    const n = call.rowOffsets[call.nHyps];
    return { rows: this.memory.f64.slice(out >> 3, (out >> 3) + 3 * n), rowOffsets: call.rowOffsets };
  }

  /**
   * ROUGE-S/SU's segment rows straight from the skip-bigram counts, in this instance's memory: the pair rows (hits,
   * hypothesis units, reference units, select 0) of {@link skipBigramCounts} reduced by the row kernel with
   * `settings`, the 7-number row of hypothesis `h` written at `out[h · stride + column ..]` — what
   * `writeRougeRows` gives for those pair rows, without taking them out of WebAssembly memory.
   * @throws as {@link skipBigramCounts}.
   */
  skipBigramRows(
    batch: RougeBatch, options: SkipBigramOptions, settings: RougeRowSettings, out: Float64Array, column: number, stride: number,
  ): void {
    const { call, out: pairs } = this.runSkipBigrams(batch, options, true);
    this.reduceRows(call, pairs, settings, out, column, stride);
  }

  /** Places a batch and runs the skip-bigram kernel on it: rows of 3 f64, or pair rows, at `out`. */
  private runSkipBigrams(batch: RougeBatch, options: SkipBigramOptions, pairRows: boolean): { call: PlacedBatch; out: number } {
    const unigrams = checkSkipBigramOptions(options);
    const { kernels, memory } = this;
    const call = placePairBatch(this.memory, this.base, batch);
    const nSegments = batch.segRefOffsets.length - 1;
    const planAt = call.layout.place(40);
    memory.reserve(call.layout.end);
    kernels.planSkipBigramTables(call.refOffsets, call.segRefOffsets, nSegments, options.maxGap, unigrams, planAt);
    const [capacity, dataBytes, tokenCapacity, refTokens, stride] = memory.f64.slice(planAt >> 3, (planAt >> 3) + 5);
    // Segments whose W² + W direct entries fit (W ≤ reference tokens + 1) are counted without hashing.
    const directEntries = Math.min(this.directPairEntries, (refTokens + 1) * (refTokens + 2));
    // Small non-negative ids (interned vocabularies) index the local ids directly; others go through a token table.
    const idBytes = directVectorBytes(kernels, memory, call, 4);
    const tokenLocals = idBytes ? call.layout.place(idBytes) : 0;
    const tokenKeys = idBytes ? 0 : call.layout.place(tokenCapacity * TOKEN_KEY_BYTES);
    const localIds = idBytes ? 0 : call.layout.place((tokenCapacity + 1) * 4);
    // The references' local ids, then a hypothesis' present tokens: their local ids and their positions.
    const locals = call.layout.place((refTokens + 2 * longestRow(batch.hyps)) * 4);
    const direct = call.layout.place(directEntries * stride);
    const keys = call.layout.place(checkScratch((capacity + 1) * KEY_SLOT_BYTES, 'a skip-bigram table'));
    const data = call.layout.place(checkScratch(dataBytes, 'the skip-bigram counts of a segment'));
    const hits = call.layout.place(stride);
    const n = call.rowOffsets[call.nHyps];
    const out = call.layout.place(n * (pairRows ? PAIR_ROW_BYTES : 24));
    checkScratch(call.layout.end, 'a skip-bigram call');
    memory.reserve(call.layout.end);
    kernels.skipBigramCounts(
      call.hypTokens, call.hypOffsets, call.nHyps, call.hypSegments, call.refTokens, call.refOffsets,
      call.segRefOffsets, options.maxGap, unigrams, tokenKeys, tokenCapacity, localIds, locals, tokenLocals,
      idBytes / 4, direct, directEntries, stride, keys, capacity, data, hits, out, pairRows ? 1 : 0,
    );
    return { call, out };
  }

  /** f(x) = x^w with the kernels' `pow` (ROUGE-1.5.5's `wlcsWeight`, i.e. C's `pow` as Perl's `**` calls it). */
  wlcsWeight(x: number, w: number): number {
    return this.kernels.wlcsWeight(x, w);
  }

  /** f⁻¹(x) = x^(1/w) with the kernels' `pow` (ROUGE-1.5.5's `wlcsWeightInverse`). */
  wlcsWeightInverse(x: number, w: number): number {
    return this.kernels.wlcsWeightInverse(x, w);
  }

  /**
   * Sizes the position vectors of the WLCS kernels, whose pattern is each hypothesis row (the rows at `hypOffsets`,
   * already in memory): token-table capacity, vector bytes and slot bytes of the longest row.
   */
  private placePositions(layout: Layout, hypOffsets: number, nRows: number): { capacity: number; vectorBytes: number; strideBytes: number } {
    const { kernels, memory } = this;
    const rowsAt = layout.place((nRows + 1) * 4);
    const planAt = layout.place(PLAN_BYTES);
    memory.reserve(layout.end);
    const i32 = memory.i32;
    for (let r = 0; r <= nRows; r++) i32[(rowsAt >> 2) + r] = r;
    kernels.planMatchVectors(hypOffsets, rowsAt, nRows, 1, planAt);
    const [capacity, vectorBytes, strideBytes] = memory.f64.slice(planAt >> 3, (planAt >> 3) + 3);
    return { capacity, vectorBytes, strideBytes };
  }


  /** Checks a summary-level input, computes its mask offsets and copies it into the memory. */
  private placeUnits(input: SentenceUnits): PlacedUnits {
    const { hyps, refs, units } = input;
    checkCsr('input.hyps', hyps);
    checkCsr('input.refs', refs);
    checkUnits('input.units', units, refs.offsets.length - 1, hyps.offsets.length - 1);
    const nUnits = units.length / 4;
    const maskOffsets = new Int32Array(nUnits + 1);
    for (let u = 0; u < nUnits; u++) {
      const tokens = refs.offsets[units[4 * u + 1]] - refs.offsets[units[4 * u]];
      maskOffsets[u + 1] = maskOffsets[u] + tokens;
    }
    const layout = new Layout(this.base);
    const arrays = [coveredTokens(hyps), hyps.offsets, coveredTokens(refs), refs.offsets, units];
    const at = arrays.map((a) => layout.place(a.byteLength));
    this.memory.reserve(layout.end);
    const i32 = this.memory.i32;
    arrays.forEach((a, i) => i32.set(a, at[i] >> 2));
    return {
      layout, hypTokens: at[0], hypOffsets: at[1], refTokens: at[2], refOffsets: at[3], units: at[4], nUnits,
      maskOffsets,
    };
  }
}

let defaultEngine: RougeEngine | null = null;

/**
 * The engine the functions below use: one kernel instance of its own per thread, created on first use from the
 * default build (on Node, the one `PALETTE_WASM` selects). Its memory grows to the largest call seen and stays that
 * size.
 */
export function defaultRougeEngine(): RougeEngine {
  defaultEngine ??= new RougeEngine(instantiateKernels() as RougeKernelExports);
  return defaultEngine;
}

/** {@link RougeEngine.lcsLengths} on the default engine. */
export function lcsLengths(batch: RougeBatch): PairRows<Int32Array> {
  return defaultRougeEngine().lcsLengths(batch);
}

/** {@link RougeEngine.lcsUnionMasks} on the default engine. */
export function lcsUnionMasks(input: SentenceUnits): UnionMasks {
  return defaultRougeEngine().lcsUnionMasks(input);
}

/** {@link RougeEngine.wlcsPairStats} on the default engine. */
export function wlcsPairStats(batch: RougeBatch, weight: number): PairRows<Float64Array> {
  return defaultRougeEngine().wlcsPairStats(batch, weight);
}

/** {@link RougeEngine.wlcsUnionMasks} on the default engine. */
export function wlcsUnionMasks(input: SentenceUnits, weight: number): UnionMasks {
  return defaultRougeEngine().wlcsUnionMasks(input, weight);
}

/** {@link RougeEngine.skipBigramCounts} on the default engine. */
export function skipBigramCounts(batch: RougeBatch, options: SkipBigramOptions): PairRows<Float64Array> {
  return defaultRougeEngine().skipBigramCounts(batch, options);
}

/** {@link RougeEngine.lcsRows} on the default engine. */
export function lcsRows(batch: RougeBatch, settings: RougeRowSettings, out: Float64Array, column: number, stride: number): void {
  defaultRougeEngine().lcsRows(batch, settings, out, column, stride);
}

/** {@link RougeEngine.skipBigramRows} on the default engine. */
export function skipBigramRows(
  batch: RougeBatch, options: SkipBigramOptions, settings: RougeRowSettings, out: Float64Array, column: number, stride: number,
): void {
  defaultRougeEngine().skipBigramRows(batch, options, settings, out, column, stride);
}

/** {@link RougeEngine.wlcsWeight} on the default engine. */
export function wlcsWeight(x: number, w: number): number {
  return defaultRougeEngine().wlcsWeight(x, w);
}

/** {@link RougeEngine.wlcsWeightInverse} on the default engine. */
export function wlcsWeightInverse(x: number, w: number): number {
  return defaultRougeEngine().wlcsWeightInverse(x, w);
}
