/**
 * A task's statistics rows in WebAssembly: the thread's kernel instance holds the rows of the task being encoded
 * (copied in once), hashes them for Moses' duplicate removal (`assembly/row-hash.ts`) and packs the kept ones as
 * msgpackr packs each candidate's `{ sentence, stats }` (`assembly/msgpack-stats.ts`), the numbers encoded by the
 * kernel rather than one JavaScript call each.
 */
import type { KernelExports } from './kernels.js';
import { LinearMemory, alignUp } from './linear-memory.js';
import { instantiateKernels } from './load.js';

interface TaskRowExports extends KernelExports {
  msgpackRows(
    stats: number, width: number, rows: number, nRows: number, prefix: number, prefixLength: number, out: number,
  ): number;
  rowHashes(
    stats: number, width: number, nRows: number, hashes: number, links: number, table: number, slotBits: number,
  ): number;
}

/** Rows of a range with equal rows among them (indices relative to the range). */
export interface EqualRows {
  /** A hash per row, equal for equal rows. */
  readonly hashes: Int32Array;
  /** The latest earlier row equal to each row, -1 for none. */
  readonly links: Int32Array;
}

/** A kernel instance for the rows of one task at a time (each call reuses its memory). */
export class TaskRowKernels {
  private readonly kernels: TaskRowExports;
  private readonly memory: LinearMemory;
  private readonly base: number;
  /** The rows copied in by {@link load} (at `base`), until {@link release}. */
  private loaded: Float64Array | undefined;
  /** First byte above the loaded rows: where each call lays out its own data. */
  private scratch: number;

  constructor(kernels: KernelExports = instantiateKernels()) {
    this.kernels = kernels as TaskRowExports;
    this.memory = new LinearMemory(kernels.memory);
    this.base = alignUp(kernels.heapBase(), 16);
    this.scratch = this.base;
  }

  /**
   * Copies a task's rows in: until {@link release}, calls given this very array read them where they are (the
   * caller must not change it meanwhile).
   */
  load(stats: Float64Array): void {
    const end = alignUp(this.base + stats.byteLength, 16);
    this.memory.reserve(end);
    this.memory.f64.set(stats, this.base >> 3);
    this.loaded = stats;
    this.scratch = end;
  }

  /** Forgets the loaded rows. */
  release(): void {
    this.loaded = undefined;
    this.scratch = this.base;
  }

  /** Byte address of rows `from ..` of `stats` (`width` numbers a row): in the loaded rows, or copied to `at`. */
  private place(stats: ArrayLike<number>, width: number, from: number, to: number, at: number): number {
    if (stats === this.loaded) return this.base + 8 * from * width;
    const f64 = this.memory.f64;
    if (stats instanceof Float64Array) f64.set(stats.subarray(from * width, to * width), at >> 3);
    else for (let i = from * width; i < to * width; i++) f64[(at >> 3) + i - from * width] = stats[i];
    return at;
  }

  /**
   * Hashes of rows `from .. to` of `stats` (`width` numbers a row; equal rows, -0 and 0 alike and any NaN like any
   * other, hash alike) and, per row, the latest earlier row equal to it (-1 for none); undefined when no two rows
   * are equal.
   */
  equalRows(stats: ArrayLike<number>, width: number, from: number, to: number): EqualRows | undefined {
    const n = to - from;
    if (n < 2) return undefined;
    // A table a quarter full: an insert then mostly finds its first slot empty, and the probe's loop seldom turns
    // (the turn is a branch taken at random); a segment's thousand rows take 16 KiB.
    let slotBits = 4;
    while (1 << slotBits < 4 * n) slotBits++;
    const copyAt = this.scratch;
    const hashesAt = alignUp(copyAt + (stats === this.loaded ? 0 : 8 * n * width), 16);
    const linksAt = alignUp(hashesAt + 4 * n, 16);
    const tableAt = alignUp(linksAt + 4 * n, 16);
    this.memory.reserve(tableAt + 4 * (1 << slotBits));
    const statsAt = this.place(stats, width, from, to, copyAt);
    if (this.kernels.rowHashes(statsAt, width, n, hashesAt, linksAt, tableAt, slotBits) === 0) return undefined;
    const i32 = this.memory.i32;
    return { hashes: i32.slice(hashesAt >> 2, (hashesAt >> 2) + n), links: i32.slice(linksAt >> 2, (linksAt >> 2) + n) };
  }

  /**
   * The msgpack bytes of rows `rows` of `stats` (`width` numbers a row), each preceded by `prefix`: a view of the
   * instance's memory, valid until its next call.
   */
  pack(prefix: Uint8Array, stats: ArrayLike<number>, width: number, rows: ArrayLike<number>): Uint8Array {
    const nRows = rows.length;
    if (nRows === 0) return new Uint8Array(0);
    // Rows not loaded: only the span the block refers to is copied in (a block's rows are one segment's).
    let low = 0;
    let high = 0;
    const loaded = stats === this.loaded;
    if (!loaded) {
      low = rows[0];
      high = rows[0];
      for (let k = 1; k < nRows; k++) {
        const r = rows[k];
        if (r < low) low = r;
        if (r > high) high = r;
      }
    }
    const prefixAt = this.scratch;
    const rowsAt = alignUp(prefixAt + prefix.length + 8, 8);
    const copyAt = alignUp(rowsAt + 4 * nRows, 8);
    const outAt = loaded ? copyAt : copyAt + 8 * (high - low + 1) * width;
    // The kernel reads the prefix and writes the last row's a word at a time: 8 bytes of slack.
    const most = nRows * (prefix.length + 9 * width) + 8;
    this.memory.reserve(outAt + most);
    const statsAt = this.place(stats, width, low, high + 1, copyAt);
    const { u8, i32 } = this.memory;
    u8.set(prefix, prefixAt);
    if (low === 0 && rows instanceof Int32Array) i32.set(rows, rowsAt >> 2);
    else for (let k = 0; k < nRows; k++) i32[(rowsAt >> 2) + k] = rows[k] - low;
    const length = this.kernels.msgpackRows(statsAt, width, rowsAt, nRows, prefixAt, prefix.length, outAt);
    return u8.subarray(outAt, outAt + length);
  }
}

/** The thread's instance, made on first use. */
let instance: TaskRowKernels | undefined;

/** The thread's task-row kernels (one task's rows at a time: encoding a task is not re-entrant). */
export function taskRowKernels(): TaskRowKernels {
  return (instance ??= new TaskRowKernels());
}
