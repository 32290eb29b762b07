/**
 * A batch of lines as the streaming readers yield it: one decoded string and the bounds of each line in it, so that
 * no string per line exists until a consumer asks for one.
 */

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
