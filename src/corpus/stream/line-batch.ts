/**
 * A batch of lines as the streaming readers yield it: one decoded string and the bounds of each line in it, so that
 * no string per line exists until a consumer asks for one; and the steps of cutting decoded chunks into such batches.
 *
 * The line semantics are exactly those of `decodeLines` in ../read-lines.ts (sacrebleu's): `'\n'` only ends a line in
 * `lf` mode (`'\r\n'`, `'\r'`, `'\n'` in `universal` mode), the final terminator does not start another line, a
 * byte-order mark stays as U+FEFF, and decoding is strict UTF-8 with the same message, byte offset and line of the
 * first malformed byte. A reader decodes only the bytes up to the last complete terminator it holds
 * ({@link completeEnd}), so a UTF-8 sequence split across two reads is never decoded in halves: terminators are
 * ASCII and cannot occur inside a multi-byte sequence.
 */
import { InputError } from '../../errors.js';
import { firstInvalidUtf8, type NewlineMode, type ReadLinesOptions } from '../read-lines.js';

/** Lines `firstLine .. firstLine + count - 1` of a file, as UTF-16 ranges of one decoded `text`. */
export interface LineBatch {
  /** Decoded text holding every line of the batch (it may hold more: batches can share one decoded chunk). */
  readonly text: string;
  /** UTF-16 offset in `text` where line `i` of the batch starts (length ≥ `count`). */
  readonly starts: Int32Array;
  /** UTF-16 offset in `text` where line `i` ends, its terminator excluded (length ≥ `count`). */
  readonly ends: Int32Array;
  /** Number of lines in the batch. */
  readonly count: number;
  /** 1-based line number (in the file) of line 0 of the batch. */
  readonly firstLine: number;
}

/** Line `i` of a batch as a string (allocates; hot paths should scan `text` between `starts[i]` and `ends[i]`). */
export function batchLine(batch: LineBatch, i: number): string {
  return batch.text.slice(batch.starts[i], batch.ends[i]);
}

/** Every line of a batch as strings (tests and small inputs). */
export function batchLines(batch: LineBatch): string[] {
  const out = new Array<string>(batch.count);
  for (let i = 0; i < batch.count; i++) out[i] = batchLine(batch, i);
  return out;
}

/** Options of the chunked line readers (`readLineBatches` on Node): those of `readLines` plus the chunking. */
export interface LineStreamOptions extends ReadLinesOptions {
  /**
   * Bytes read from the file at a time.
   * @default 1048576
   */
  readonly chunkSize?: number;
  /**
   * Most lines in one batch.
   * @default 65536
   */
  readonly maxLines?: number;
}

/** Default read size (1 MiB): large enough for few system calls, small enough to keep memory flat. */
export const DEFAULT_CHUNK_SIZE = 1 << 20;
/** Default batch size in lines. */
export const DEFAULT_MAX_LINES = 1 << 16;

const LF = 0x0a;
const CR = 0x0d;

/** Validates a positive integer option; bad values are programming errors, hence RangeError. */
export function positiveInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > 0x3fffffff) {
    throw new RangeError(`${name} must be an integer in [1, 2^30] (got ${value})`);
  }
  return value;
}

/**
 * Index just past the last terminator among `bytes[0 .. filled)` that is certainly complete, 0 when there is none.
 * In universal mode a `'\r'` in the last byte is left for the next read: a `'\n'` may follow it.
 */
export function completeEnd(bytes: Uint8Array, filled: number, mode: NewlineMode): number {
  if (filled === 0) return 0;
  if (mode === 'lf') return bytes.lastIndexOf(LF, filled - 1) + 1;
  for (let i = filled - 1; i >= 0; i--) {
    const b = bytes[i];
    if (b === LF) return i + 1;
    if (b === CR && i < filled - 1) return i + 1;
  }
  return 0;
}

/** Number of line terminators in `bytes[0 .. end)`, counted as `mode` does (`'\r\n'` counts once). */
export function countTerminators(bytes: Uint8Array, end: number, mode: NewlineMode): number {
  let n = 0;
  for (let i = 0; i < end; i++) {
    const b = bytes[i];
    if (b === LF) n++;
    else if (mode === 'universal' && b === CR && bytes[i + 1] !== LF) n++;
  }
  return n;
}

/** The strict-UTF-8 error for `region`, worded as `decodeLines` words it (absolute byte offset, line of the byte). */
export function utf8Error(region: Uint8Array, base: number, line: number, mode: NewlineMode, name: string): InputError {
  const found = firstInvalidUtf8(region);
  const at = found < 0 ? 0 : found;
  const byte = region[at] ?? 0;
  return new InputError(
    'E_INVALID_UTF8',
    `invalid UTF-8: byte 0x${byte.toString(16).padStart(2, '0')} at byte offset ${base + at} cannot be decoded`,
    { file: name, line: line + countTerminators(region, at, mode) },
  );
}

/**
 * Splits decoded `text` into line batches of at most `maxLines` lines. Text after the last terminator is a line
 * when non-empty (only the final chunk of a file has such text). Exported for readers that decode their own chunks
 * (the `palette nbest` workers split the text of their tasks with it).
 */
export function* splitBatches(text: string, firstLine: number, mode: NewlineMode, maxLines: number): Generator<LineBatch> {
  const n = text.length;
  if (n === 0) return;
  // A chunk of n UTF-16 units holds at most n + 1 lines: no batch array is larger than needed.
  const cap = Math.min(maxLines, n + 1);
  let starts = new Int32Array(cap);
  let ends = new Int32Array(cap);
  let count = 0;
  let line = firstLine;
  let start = 0;
  while (start < n) {
    let end: number;
    let next: number;
    if (mode === 'lf') {
      end = text.indexOf('\n', start);
      if (end < 0) end = next = n;
      else next = end + 1;
    } else {
      end = start;
      while (end < n) {
        const c = text.charCodeAt(end);
        if (c === LF || c === CR) break;
        end++;
      }
      if (end === n) next = n;
      else if (text.charCodeAt(end) === CR && end + 1 < n && text.charCodeAt(end + 1) === LF) next = end + 2;
      else next = end + 1;
    }
    starts[count] = start;
    ends[count] = end;
    count++;
    start = next;
    if (count === cap && start < n) {
      yield { text, starts, ends, count, firstLine: line };
      line += count;
      starts = new Int32Array(cap);
      ends = new Int32Array(cap);
      count = 0;
    }
  }
  if (count > 0) yield { text, starts, ends, count, firstLine: line };
}
