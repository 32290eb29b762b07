/**
 * The msgpack rows of n-best statistics in WebAssembly (`assembly/msgpack-stats.ts`): a block's rows packed as
 * msgpackr packs `{ sentence, stats }`, with the numbers encoded by the kernel rather than one JavaScript call each.
 */
import type { KernelExports } from './kernels.js';
import { LinearMemory, alignUp } from './linear-memory.js';
import { instantiateKernels } from './load.js';

interface MsgpackExports extends KernelExports {
  msgpackRows(
    stats: number, width: number, rows: number, nRows: number, prefix: number, prefixLength: number, out: number,
  ): number;
}

/** A packer with its own kernel instance (one per encoder; each call reuses its memory). */
export class MsgpackRowPacker {
  private readonly kernels: MsgpackExports;
  private readonly memory: LinearMemory;
  private readonly base: number;

  constructor(kernels: KernelExports = instantiateKernels()) {
    this.kernels = kernels as MsgpackExports;
    this.memory = new LinearMemory(kernels.memory);
    this.base = alignUp(kernels.heapBase(), 16);
  }

  /**
   * The bytes of rows `rows` of `stats` (`width` numbers a row), each preceded by `prefix`: a view of the packer's
   * memory, valid until its next call.
   */
  pack(prefix: Uint8Array, stats: ArrayLike<number>, width: number, rows: ArrayLike<number>): Uint8Array {
    const nRows = rows.length;
    if (nRows === 0) return new Uint8Array(0);
    // Only the span of rows the block refers to is copied in (a block's rows are one segment's, a run of the task).
    let low = rows[0];
    let high = rows[0];
    for (let k = 1; k < nRows; k++) {
      const r = rows[k];
      if (r < low) low = r;
      if (r > high) high = r;
    }
    const span = (high - low + 1) * width;
    const prefixAt = this.base;
    const rowsAt = alignUp(prefixAt + prefix.length, 8);
    const statsAt = alignUp(rowsAt + 4 * nRows, 8);
    const outAt = statsAt + 8 * span;
    const most = nRows * (prefix.length + 9 * width);
    this.memory.reserve(outAt + most);
    const { u8, i32, f64 } = this.memory;
    u8.set(prefix, prefixAt);
    for (let k = 0; k < nRows; k++) i32[(rowsAt >> 2) + k] = rows[k] - low;
    if (stats instanceof Float64Array) {
      f64.set(stats.subarray(low * width, low * width + span), statsAt >> 3);
    } else {
      for (let i = 0; i < span; i++) f64[(statsAt >> 3) + i] = stats[low * width + i];
    }
    const length = this.kernels.msgpackRows(statsAt, width, rowsAt, nRows, prefixAt, prefix.length, outAt);
    return u8.subarray(outAt, outAt + length);
  }
}
