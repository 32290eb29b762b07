/**
 * The line and separator scan of Moses n-best text in WebAssembly (`assembly/nbest-lines.ts`): one pass over the
 * bytes of whole lines gives, per line, its bounds and the positions of its first `|||` separators, in bytes and in
 * UTF-16 units of the decoded text. Parsing a chunk of a million-candidate list then costs a few integer reads per
 * line instead of string searches, and the hypothesis fields go to the chunk memo as byte ranges.
 */
import type { KernelExports } from './kernels.js';
import { LinearMemory, alignUp } from './linear-memory.js';
import { instantiateKernels } from './load.js';

interface NbestLinesExports extends KernelExports {
  nbestLines(input: number, length: number, records: number, maxLines: number): number;
}

/** i32 fields of a line record. */
export const LINE_RECORD = 16;
/** Field offsets in a record: byte bounds, UTF-16 bounds, separator count (6 = more than 5), separator positions. */
export const L_START = 0;
export const L_END = 1;
export const L_START16 = 2;
export const L_END16 = 3;
export const L_DELIMS = 4;
/** Byte position of separator `k` (k < 5) is field `L_DELIM + k`, its UTF-16 position `L_DELIM16 + k`. */
export const L_DELIM = 6;
export const L_DELIM16 = 11;
/** Separators a record places. */
export const MAX_PLACED_DELIMS = 5;

/** Line records of a chunk of n-best text. */
export interface NbestLineRecords {
  /** `count × LINE_RECORD` i32 (a view of the scanner's memory, valid until its next scan). */
  readonly records: Int32Array;
  readonly count: number;
}

/** A scanner with its own kernel instance (one per thread; each scan reuses its memory). */
export class NbestLineScanner {
  private readonly kernels: NbestLinesExports;
  private readonly memory: LinearMemory;
  private readonly base: number;
  /** Lines the last chunks held per byte, to size the records of the next one. */
  private linesPerKiB = 16;

  constructor(kernels: KernelExports = instantiateKernels()) {
    this.kernels = kernels as NbestLinesExports;
    this.memory = new LinearMemory(kernels.memory);
    this.base = alignUp(kernels.heapBase(), 16);
  }

  /** The line records of `bytes` (valid UTF-8: the UTF-16 positions assume it). */
  scan(bytes: Uint8Array): NbestLineRecords {
    const records = alignUp(this.base + bytes.length, 16);
    let maxLines = Math.ceil((bytes.length / 1024) * this.linesPerKiB) + 16;
    while (true) {
      this.memory.reserve(records + 4 * LINE_RECORD * maxLines);
      this.memory.u8.set(bytes, this.base);
      const count = this.kernels.nbestLines(this.base, bytes.length, records, maxLines);
      if (count >= 0) {
        this.linesPerKiB = Math.max(this.linesPerKiB, Math.ceil((count * 1024) / Math.max(1, bytes.length)));
        return { records: this.memory.i32.subarray(records >> 2, (records >> 2) + count * LINE_RECORD), count };
      }
      // More lines than the estimate: every byte a line is the bound.
      maxLines = bytes.length + 1;
    }
  }
}
