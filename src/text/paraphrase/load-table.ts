/**
 * Reading paraphrase tables: from a string here, from a file through the reader an adapter installs (the Node
 * adapter's streams the file, src/node/paraphrase-table.ts). A table's identity in signatures is the SHA-256 of its
 * bytes, whichever way it was read.
 */
import { InputError, PaletteError } from '../../errors.js';
import { sha256Utf8, toHex } from '../../util/sha256.js';
import { ParaphraseTable, ParaphraseTableBuilder, type ParaphraseTableOptions } from './paraphrase-table.js';

/** Options of {@link loadParaphraseTable}: how to read the table, and what to call it. */
export interface LoadParaphraseTableOptions extends ParaphraseTableOptions {
  /** The name the signature gives the table. @default the file's base name */
  readonly name?: string;
  /** Bytes per read (tests use small chunks to cross line and character boundaries). @default 1048576 */
  readonly chunkSize?: number;
}

/** Reads a paraphrase table file: what an adapter installs with {@link setParaphraseTableFileReader}. */
export type ParaphraseTableFileReader = (path: string, options: LoadParaphraseTableOptions) => ParaphraseTable;

let fileReader: ParaphraseTableFileReader | undefined;

/** Installs the reader {@link loadParaphraseTable} uses (the Node entry installs its file reader). */
export function setParaphraseTableFileReader(reader: ParaphraseTableFileReader): void {
  fileReader = reader;
}

/**
 * Feeds the `'\n'`-separated lines of `text` (the last one even when unterminated) to `builder`, numbering them from
 * `firstLine`; returns the number of the line after the last.
 */
export function feedLines(builder: ParaphraseTableBuilder, text: string, file: string, firstLine: number): number {
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
 * Loads a paraphrase table file (see ./table-format.ts for the formats) with the installed file reader.
 * @throws InputError `E_FILE_NOT_FOUND`/`E_FILE_UNREADABLE` naming the file, `E_INVALID_UTF8` and `E_BAD_INPUT`
 * naming the file and line, `E_EMPTY_INPUT` when no line pairs two phrases, `E_BAD_OPTION` for bad options;
 * PaletteError `E_FILE_UNREADABLE` where no file reader is installed (use {@link parseParaphraseTable} there).
 */
export function loadParaphraseTable(path: string, options: LoadParaphraseTableOptions = {}): ParaphraseTable {
  if (fileReader === undefined) {
    throw new PaletteError(
      'E_FILE_UNREADABLE',
      'no file reader is installed on this platform: read the table with parseParaphraseTable() instead',
      { file: path },
    );
  }
  return fileReader(path, options);
}

/**
 * Reads a paraphrase table held in a string (tests, tables built in memory).
 * @param name what error messages and the signature call the table
 * @throws InputError as {@link loadParaphraseTable}, naming `name`.
 */
export function parseParaphraseTable(text: string, name: string, options: ParaphraseTableOptions = {}): ParaphraseTable {
  const builder = new ParaphraseTableBuilder(options);
  feedLines(builder, text.endsWith('\n') ? text.slice(0, -1) : text, name, 1);
  const table = builder.finish(name, toHex(sha256Utf8(text)));
  if (table.info.entries === 0) {
    throw new InputError('E_EMPTY_INPUT', 'the paraphrase table has no phrase pairs', { file: name });
  }
  return table;
}
