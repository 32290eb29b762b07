/**
 * The candidates of a chunk of Moses n-best text parsed in WebAssembly (`assembly/nbest-lines.ts`): one pass over
 * the bytes of whole lines checks them as UTF-8 and gives, per candidate, its id, its line and the bounds of its
 * hypothesis and features fields in bytes and in UTF-16 units of the decoded text, as typed arrays; the distinct
 * hypotheses of each segment are found over the same memory. Parsing a chunk of a million-candidate list then costs
 * no string and no per-line JavaScript, and the hypothesis fields go to the chunk memo as byte ranges. Also the line
 * feed count of a chunk, for the reader that cuts the list into chunks.
 */
import type { KernelExports } from './kernels.js';
import { LinearMemory, ResultStore, alignUp } from './linear-memory.js';
import { instantiateKernels } from './load.js';

interface NbestLinesExports extends KernelExports {
  nbestCandidates(input: number, length: number, firstLine: number, segments: number, out: number, capacity: number): number;
  nbestDistinct(input: number, columns: number, n: number, sourceOut: number, firstsOut: number, table: number, tableSize: number): number;
  countLineFeeds(input: number, length: number): number;
}

/** Columns the kernel fills, in this order (one i32 per candidate each). */
const COLUMNS = 10;
/** Results of `nbestCandidates` other than a count. */
const MORE_THAN_CAPACITY = -1;
/** The fewest bytes of a line with a candidate: a digit and two separators. */
const MIN_LINE_BYTES = 7;

/** The candidates of a chunk, in file order: columns of `count` entries (copies). */
export interface ScannedCandidates {
  readonly count: number;
  /** Segment id of each candidate (non-decreasing). */
  readonly ids: Int32Array;
  /** Line of each candidate (the chunk's first line is `firstLine`; empty lines hold none). */
  readonly lines: Int32Array;
  /** Byte and UTF-16 bounds of each hypothesis field. */
  readonly hypStarts: Int32Array;
  readonly hypEnds: Int32Array;
  readonly hypStarts16: Int32Array;
  readonly hypEnds16: Int32Array;
  /** Byte and UTF-16 bounds of each features field. */
  readonly featureStarts: Int32Array;
  readonly featureEnds: Int32Array;
  readonly featureStarts16: Int32Array;
  readonly featureEnds16: Int32Array;
  /**
   * When asked for and some hypothesis repeats within its segment: `source[h]`, the index among the distinct ones
   * (file order) of the first candidate of `h`'s segment with the same bytes, and `firsts`, those first candidates.
   */
  readonly distinct?: { readonly source: Int32Array; readonly firsts: Int32Array };
}

/** A scanner with its own kernel instance (one per thread; each scan reuses its memory). */
export class NbestCandidateScanner {
  private readonly kernels: NbestLinesExports;
  private readonly memory: LinearMemory;
  private readonly base: number;
  /** Candidates the last chunks held per KiB, to size the columns of the next one. */
  private perKiB = 8;
  private readonly columnStore = new ResultStore<Int32Array>((n) => new Int32Array(n));
  private readonly sourceStore = new ResultStore<Int32Array>((n) => new Int32Array(n));
  private readonly firstsStore = new ResultStore<Int32Array>((n) => new Int32Array(n));

  constructor(kernels: KernelExports = instantiateKernels()) {
    this.kernels = kernels as NbestLinesExports;
    this.memory = new LinearMemory(kernels.memory);
    this.base = alignUp(kernels.heapBase(), 16);
  }

  /**
   * The candidates of `bytes` (whole lines, the first of them line `firstLine`), ids below `segments` when given;
   * with `distinct`, their distinct hypotheses per segment. Undefined when the bytes are not valid UTF-8 or some line
   * is not plainly well-formed (the caller decodes and parses the chunk as text, which reports the first bad byte or
   * line). With `reuse`, the columns are copied into the scanner's reusable stores instead of new arrays: valid
   * until its next scan with `reuse`.
   */
  scan(bytes: Uint8Array, firstLine: number, segments: number | undefined, distinct: boolean, reuse = false): ScannedCandidates | undefined {
    const { base, kernels, memory } = this;
    const columns = alignUp(base + bytes.length, 16);
    const bound = Math.floor(bytes.length / MIN_LINE_BYTES) + 1;
    let capacity = Math.min(bound, Math.ceil((bytes.length / 1024) * this.perKiB) + 16);
    let count: number;
    while (true) {
      memory.reserve(columns + 4 * COLUMNS * capacity);
      memory.u8.set(bytes, base);
      count = kernels.nbestCandidates(base, bytes.length, firstLine, segments ?? -1, columns, capacity);
      if (count !== MORE_THAN_CAPACITY || capacity === bound) break;
      capacity = bound;
    }
    if (count < 0) return undefined;
    this.perKiB = Math.max(this.perKiB, Math.ceil((count * 1024) / Math.max(1, bytes.length)));
    // The kernel left the columns in one block: one copy, viewed column by column.
    const from = columns >> 2;
    const block = reuse ? this.columnStore.copy(memory.i32, from, from + COLUMNS * count) : memory.i32.slice(from, from + COLUMNS * count);
    const column = (k: number): Int32Array => block.subarray(k * count, (k + 1) * count);
    let found: ScannedCandidates['distinct'];
    if (distinct && count > 0) {
      const source = alignUp(columns + 4 * COLUMNS * capacity, 16);
      const firsts = source + 4 * count;
      const table = firsts + 4 * count;
      let tableSize = 16;
      while (tableSize < 4 * count) tableSize *= 2;
      memory.reserve(table + 4 * tableSize);
      const m = kernels.nbestDistinct(base, columns, count, source, firsts, table, tableSize);
      if (m < count) {
        const i32 = memory.i32;
        found = reuse
          ? { source: this.sourceStore.copy(i32, source >> 2, (source >> 2) + count), firsts: this.firstsStore.copy(i32, firsts >> 2, (firsts >> 2) + m) }
          : { source: i32.slice(source >> 2, (source >> 2) + count), firsts: i32.slice(firsts >> 2, (firsts >> 2) + m) };
      }
    }
    return {
      count,
      ids: column(0),
      lines: column(1),
      hypStarts: column(2),
      hypEnds: column(3),
      hypStarts16: column(4),
      hypEnds16: column(5),
      featureStarts: column(6),
      featureEnds: column(7),
      featureStarts16: column(8),
      featureEnds16: column(9),
      ...(found === undefined ? {} : { distinct: found }),
    };
  }

  /** Number of `\n` in `bytes`. */
  countLineFeeds(bytes: Uint8Array): number {
    this.memory.reserve(this.base + bytes.length);
    this.memory.u8.set(bytes, this.base);
    return this.kernels.countLineFeeds(this.base, bytes.length);
  }
}
