/**
 * Reading paraphrase tables from files on Node (the formats: ../text/paraphrase/table-format.ts).
 *
 * A file is streamed through one reusable buffer (1 MiB reads; it grows only for a line longer than that), decoded
 * as strict UTF-8 up to the last complete `'\n'` of the buffer, so a multi-byte sequence is never split, and handed to
 * the builder line by line; its SHA-256 is computed on the same bytes. Reading is synchronous because tables are
 * loaded while a metric is built (`MetricRegistry.create` is synchronous); memory holds one chunk plus the table's
 * interned ids, never the file.
 */
import { closeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { InputError } from '../errors.js';
import { firstInvalidUtf8 } from '../corpus/read-lines.js';
import { feedLines, type LoadParaphraseTableOptions } from '../text/paraphrase/load-table.js';
import { ParaphraseTableBuilder, type ParaphraseTable } from '../text/paraphrase/paraphrase-table.js';
import { openForReadingSync, readIntoSync, withRoom } from './chunk-buffer.js';

/** Bytes read at a time. */
const CHUNK = 1 << 20;
const LF = 0x0a;

/**
 * Loads a paraphrase table file (what `loadParaphraseTable` calls on Node).
 * @throws InputError `E_FILE_NOT_FOUND`/`E_FILE_UNREADABLE` naming the file, `E_INVALID_UTF8` and `E_BAD_INPUT`
 * naming the file and line, `E_EMPTY_INPUT` when no line pairs two phrases, `E_BAD_OPTION` for bad options.
 */
export function readParaphraseTableFile(path: string, options: LoadParaphraseTableOptions = {}): ParaphraseTable {
  const builder = new ParaphraseTableBuilder(options);
  const chunkSize = options.chunkSize ?? CHUNK;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a positive integer (got ${chunkSize})`);
  // node:crypto (and OpenSSL's start-up) is required here, not imported: every command loads this adapter.
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
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
