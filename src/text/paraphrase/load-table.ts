/**
 * Reading paraphrase tables from files and strings.
 *
 * A file is streamed through one reusable buffer (1 MiB reads; it grows only for a line longer than that), decoded
 * as strict UTF-8 up to the last complete `'\n'` of the buffer, so a multi-byte sequence is never split, and handed to
 * the builder line by line; its SHA-256 is computed on the same bytes. Reading is synchronous because tables are
 * loaded while a metric is built (`MetricRegistry.create` is synchronous); memory holds one chunk plus the table's
 * interned ids, never the file.
 */
import { createHash } from 'node:crypto';
import { closeSync } from 'node:fs';
import { basename } from 'node:path';
import { InputError } from '../../errors.js';
import { firstInvalidUtf8 } from '../../corpus/read-lines.js';
import { openForReadingSync, readIntoSync, withRoom } from '../../corpus/stream/chunk-buffer.js';
import { ParaphraseTable, ParaphraseTableBuilder, type ParaphraseTableOptions } from './paraphrase-table.js';

/** Bytes read at a time. */
const CHUNK = 1 << 20;
const LF = 0x0a;

/** Options of {@link loadParaphraseTable}: how to read the table, and what to call it. */
export interface LoadParaphraseTableOptions extends ParaphraseTableOptions {
  /** The name the signature gives the table. @default the file's base name */
  readonly name?: string;
  /** Bytes per read (tests use small chunks to cross line and character boundaries). @default 1048576 */
  readonly chunkSize?: number;
}

/** Feeds the `'\n'`-separated lines of `text` (the last one only when `final` or terminated) to `builder`. */
function feedLines(builder: ParaphraseTableBuilder, text: string, file: string, firstLine: number): number {
  let line = firstLine;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    builder.addLine(text.slice(start, end), file, line++);
    start = end + 1;
  }
  return line;
}

/**
 * Loads a paraphrase table file (see ./table-format.ts for the formats).
 * @throws InputError `E_FILE_NOT_FOUND`/`E_FILE_UNREADABLE` naming the file, `E_INVALID_UTF8` and `E_BAD_INPUT`
 * naming the file and line, `E_EMPTY_INPUT` when no line pairs two phrases, `E_BAD_OPTION` for bad options.
 */
export function loadParaphraseTable(path: string, options: LoadParaphraseTableOptions = {}): ParaphraseTable {
  const builder = new ParaphraseTableBuilder(options);
  const chunkSize = options.chunkSize ?? CHUNK;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a positive integer (got ${chunkSize})`);
  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const fd = openForReadingSync(path);
  try {
    let buf = Buffer.allocUnsafe(chunkSize);
    let filled = 0;
    let line = 1;
    let base = 0;
    for (;;) {
      buf = withRoom(buf, filled, chunkSize);
      const bytesRead = readIntoSync(fd, buf, filled, chunkSize, path);
      hash.update(buf.subarray(filled, filled + bytesRead));
      filled += bytesRead;
      const eof = bytesRead === 0;
      const end = eof ? filled : buf.lastIndexOf(LF, filled - 1) + 1;
      if (end > 0) {
        const region = buf.subarray(0, end);
        let text: string;
        try {
          // A byte-order mark at the very start of the file is dropped; anywhere else it stays text.
          text = base === 0 ? decoder.decode(region) : new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(region);
        } catch {
          const at = Math.max(0, firstInvalidUtf8(region));
          let bad = line;
          for (let i = 0; i < at; i++) if (region[i] === LF) bad++;
          throw new InputError(
            'E_INVALID_UTF8',
            `invalid UTF-8: byte 0x${region[at].toString(16).padStart(2, '0')} at byte offset ${base + at} cannot be decoded`,
            { file: path, line: bad },
          );
        }
        line = feedLines(builder, text, path, line);
        buf.copyWithin(0, end, filled);
        base += end;
        filled -= end;
      }
      if (eof) break;
    }
  } finally {
    closeSync(fd);
  }
  const table = builder.finish(options.name ?? basename(path), hash.digest('hex'));
  if (table.info.entries === 0) {
    throw new InputError('E_EMPTY_INPUT', 'the paraphrase table has no phrase pairs', { file: path });
  }
  return table;
}

/**
 * Reads a paraphrase table held in a string (tests, tables built in memory).
 * @param name what error messages and the signature call the table
 * @throws InputError as {@link loadParaphraseTable}, naming `name`.
 */
export function parseParaphraseTable(text: string, name: string, options: ParaphraseTableOptions = {}): ParaphraseTable {
  const builder = new ParaphraseTableBuilder(options);
  feedLines(builder, text.endsWith('\n') ? text.slice(0, -1) : text, name, 1);
  const table = builder.finish(name, createHash('sha256').update(text, 'utf8').digest('hex'));
  if (table.info.entries === 0) {
    throw new InputError('E_EMPTY_INPUT', 'the paraphrase table has no phrase pairs', { file: name });
  }
  return table;
}
