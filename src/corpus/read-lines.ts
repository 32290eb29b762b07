/**
 * Decoding segment files into lines, the way sacrebleu reads them (the Node adapter reads the files:
 * src/node/read-lines.ts).
 *
 * sacrebleu opens files with `open(path, encoding=…, newline='\n')`: lines end at `'\n'` only, the final newline
 * does not start an extra line, and a `'\r'` before `'\n'` stays part of the line (its CLI then `rstrip()`s every
 * line, which removes that `'\r'` along with any other trailing whitespace: that belongs to the caller, see
 * `src/cli/`). Standard input is different: sacrebleu wraps it in a `TextIOWrapper` with universal newlines, so
 * `'\r\n'`, `'\r'` and `'\n'` all end a line there; {@link ReadLinesOptions.newline} selects either behaviour.
 *
 * Decoding is strict UTF-8 (Python's `utf-8` codec raises on any malformed byte, and so do we, naming the line of
 * the first bad byte). A byte-order mark is kept as U+FEFF at the start of the first line, as Python's `utf-8`
 * (unlike `utf-8-sig`) keeps it.
 */
import { InputError } from '../errors.js';

/** How lines end: `lf` = `'\n'` only (sacrebleu's files); `universal` = `'\r\n'`, `'\r'` or `'\n'` (its stdin). */
export type NewlineMode = 'lf' | 'universal';

/** Options of {@link decodeLines} and of the readers built on it (`readLines`, `readStreamLines`). */
export interface ReadLinesOptions {
  /**
   * Text encoding. Only UTF-8 is supported (spelled as Python accepts it: `utf-8`, `utf8`, `utf_8`, `u8`, any case).
   * @default 'utf-8'
   */
  readonly encoding?: string;
  /**
   * Line terminators.
   * @default 'lf'
   */
  readonly newline?: NewlineMode;
  /**
   * Whether a 0-byte input is accepted (it has no lines). When false a 0-byte input is an `E_EMPTY_INPUT` error: an
   * empty file is almost always a failed upstream step, while an empty *line* is a valid (empty) segment.
   * @default false
   */
  readonly allowEmpty?: boolean;
}

/** Python's aliases of its `utf_8` codec, after Python's own name normalisation (see {@link resolveEncoding}). */
const UTF8_NAMES = new Set(['utf_8', 'utf8', 'u8', 'utf', 'utf8_ucs2', 'utf8_ucs4', 'cp65001']);

/**
 * Checks an encoding name and returns its canonical form.
 * @throws InputError `E_BAD_OPTION` for anything but UTF-8.
 */
export function resolveEncoding(name: string): 'utf-8' {
  // Python normalises codec names by lowercasing and turning runs of other punctuation/space into '_'.
  const normalised = name.trim().toLowerCase().replace(/[^a-z0-9.]+/g, '_');
  if (UTF8_NAMES.has(normalised)) return 'utf-8';
  throw new InputError('E_BAD_OPTION', `unsupported encoding ${JSON.stringify(name)} (only utf-8 is supported)`);
}

/**
 * Byte offset of the first byte of the first malformed UTF-8 sequence in `bytes`, or -1 when all of it is valid.
 * Follows the WHATWG/Python rules: no overlong forms, no surrogates (U+D800–U+DFFF), nothing above U+10FFFF.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return i;
    if (i + need >= n) return i; // truncated at the end of the input
    const c1 = bytes[i + 1];
    if (c1 < lo || c1 > hi) return i;
    for (let k = 2; k <= need; k++) {
      const c = bytes[i + k];
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** 1-based line of byte `offset`, counting terminators as `mode` does. */
function lineOfOffset(bytes: Uint8Array, offset: number, mode: NewlineMode): number {
  let line = 1;
  for (let i = 0; i < offset; i++) {
    const b = bytes[i];
    if (b === 0x0a) line++;
    else if (mode === 'universal' && b === 0x0d && bytes[i + 1] !== 0x0a) line++;
  }
  return line;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes a whole input as strict UTF-8 and splits it into lines.
 * @param bytes the raw content
 * @param name the file name used in error messages (`<stdin>` for standard input)
 * @throws InputError `E_INVALID_UTF8` (with the line of the first bad byte), `E_EMPTY_INPUT`, `E_BAD_OPTION`.
 */
export function decodeLines(bytes: Uint8Array, name: string, options: ReadLinesOptions = {}): string[] {
  resolveEncoding(options.encoding ?? 'utf-8');
  const mode = options.newline ?? 'lf';
  if (bytes.length === 0) {
    if (options.allowEmpty) return [];
    throw new InputError('E_EMPTY_INPUT', 'empty input (0 bytes): expected one segment per line', { file: name });
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    const where = at < 0 ? 0 : at;
    const byte = bytes[where] ?? 0;
    throw new InputError(
      'E_INVALID_UTF8',
      `invalid UTF-8: byte 0x${byte.toString(16).padStart(2, '0')} at byte offset ${where} cannot be decoded`,
      { file: name, line: lineOfOffset(bytes, where, mode) },
    );
  }
  return splitLines(text, mode);
}

/** Splits decoded text into lines; a terminator at the very end does not start another line. */
export function splitLines(text: string, mode: NewlineMode = 'lf'): string[] {
  if (text.length === 0) return [];
  const lines = mode === 'lf' ? text.split('\n') : text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
