/**
 * Streaming reader of one column of a tab-separated file.
 *
 * Plain TSV: fields are separated by `'\t'` only, with no quoting or escaping (a `"` is an ordinary character), so a
 * value can hold neither a tab nor a newline. Every line is a record, an empty line included (its column 0 is the
 * empty string). A line with too few fields is `E_BAD_INPUT` with file and line. Line semantics, strict UTF-8 and
 * bounded memory are those of {@link readLineBatches}.
 */
import { InputError } from '../errors.js';
import type { LineStreamOptions } from '../corpus/stream/line-batch.js';
import { readLineBatches } from './read-line-batches.js';
import type { StringBatch } from '../corpus/stream/string-batch.js';

/** Options of {@link readTsvColumnBatches}. */
export interface TsvOptions extends LineStreamOptions {
  /** The column: a 0-based index, or a name from the header line (then {@link TsvOptions.header} must be true). */
  readonly column: number | string;
  /**
   * Whether the first line is a header (it is then not a record).
   * @default false
   */
  readonly header?: boolean;
}

/** UTF-16 start of field `k` of `text[start .. end)`, or -1 when the line has fewer fields. */
function fieldStart(text: string, start: number, end: number, k: number): number {
  let at = start;
  for (let f = 0; f < k; f++) {
    const tab = text.indexOf('\t', at);
    if (tab < 0 || tab >= end) return -1;
    at = tab + 1;
  }
  return at;
}

/** Number of fields of `text[start .. end)`. */
function fieldCount(text: string, start: number, end: number): number {
  let n = 1;
  for (let i = text.indexOf('\t', start); i >= 0 && i < end; i = text.indexOf('\t', i + 1)) n++;
  return n;
}

/**
 * Streams column `options.column` of a TSV file as batches of strings (never empty; at most `maxLines` each).
 * @throws InputError `E_BAD_INPUT` for a short line or an unknown column name, `E_BAD_OPTION` for a column name
 * without a header, and the errors of {@link readLineBatches}; each names the file (and line).
 */
export async function* readTsvColumnBatches(path: string, options: TsvOptions): AsyncGenerator<StringBatch> {
  let column = typeof options.column === 'number' ? options.column : -1;
  if (typeof options.column === 'number' && !(Number.isInteger(column) && column >= 0)) {
    throw new RangeError(`column must be a non-negative integer (got ${options.column})`);
  }
  if (typeof options.column === 'string' && !options.header) {
    throw new InputError('E_BAD_OPTION', `a column name (${JSON.stringify(options.column)}) needs a header line`);
  }
  let skipHeader = options.header === true;
  for await (const batch of readLineBatches(path, options)) {
    const { text, starts, ends } = batch;
    const values: string[] = [];
    const lines = new Int32Array(batch.count);
    for (let i = 0; i < batch.count; i++) {
      const line = batch.firstLine + i;
      if (skipHeader) {
        skipHeader = false;
        if (typeof options.column === 'string') {
          column = text.slice(starts[i], ends[i]).split('\t').indexOf(options.column);
          if (column < 0) {
            throw new InputError('E_BAD_INPUT', `no column named ${JSON.stringify(options.column)} in the header`, {
              file: path,
              line,
            });
          }
        }
        continue;
      }
      const from = fieldStart(text, starts[i], ends[i], column);
      if (from < 0) {
        const n = fieldCount(text, starts[i], ends[i]);
        throw new InputError('E_BAD_INPUT', `${n} tab-separated field(s), column ${column} (0-based) needed`, {
          file: path,
          line,
        });
      }
      const tab = text.indexOf('\t', from);
      lines[values.length] = line;
      values.push(text.slice(from, tab >= 0 && tab < ends[i] ? tab : ends[i]));
    }
    if (values.length > 0) yield { count: values.length, values, lines: lines.subarray(0, values.length) };
  }
}
