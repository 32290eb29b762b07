/**
 * Streaming reader of one string field of a JSON Lines file.
 *
 * Each line must be one JSON object (RFC 8259, as `JSON.parse` reads it) whose field `options.field` is a string.
 * JSON Lines allows no blank record, so an empty or blank line is an error too rather than a silently dropped
 * segment (the final newline of the file does not make a line, as everywhere). Every error is `E_BAD_INPUT` with
 * file and line. Line semantics, strict UTF-8 and bounded memory are those of {@link readLineBatches}.
 */
import { InputError } from '../errors.js';
import type { LineStreamOptions } from '../corpus/stream/line-batch.js';
import { readLineBatches } from './read-line-batches.js';
import type { StringBatch } from '../corpus/stream/string-batch.js';

/** Options of {@link readJsonlFieldBatches}. */
export interface JsonlOptions extends LineStreamOptions {
  /** Name of the string field to read from each object. */
  readonly field: string;
}

/**
 * Streams field `options.field` of a JSONL file as batches of strings (never empty; at most `maxLines` each).
 * @throws InputError `E_BAD_INPUT` for a line that is not a JSON object with that string field, and the errors of
 * {@link readLineBatches}; each names the file (and line).
 */
export async function* readJsonlFieldBatches(path: string, options: JsonlOptions): AsyncGenerator<StringBatch> {
  const field = options.field;
  for await (const batch of readLineBatches(path, options)) {
    const values = new Array<string>(batch.count);
    const lines = new Int32Array(batch.count);
    for (let i = 0; i < batch.count; i++) {
      const line = batch.firstLine + i;
      const bad = (message: string): InputError => new InputError('E_BAD_INPUT', message, { file: path, line });
      const source = batch.text.slice(batch.starts[i], batch.ends[i]);
      if (source.trim().length === 0) throw bad('empty line: JSON Lines needs one JSON object per line');
      let record: unknown;
      try {
        record = JSON.parse(source);
      } catch (err) {
        throw bad(`invalid JSON (${err instanceof Error ? err.message : String(err)})`);
      }
      if (record === null || typeof record !== 'object' || Array.isArray(record)) {
        throw bad('not a JSON object');
      }
      if (!Object.hasOwn(record, field)) throw bad(`no field ${JSON.stringify(field)}`);
      const value = (record as Record<string, unknown>)[field];
      if (typeof value !== 'string') {
        throw bad(`field ${JSON.stringify(field)} is ${value === null ? 'null' : typeof value}, not a string`);
      }
      values[i] = value;
      lines[i] = line;
    }
    yield { count: batch.count, values, lines };
  }
}
