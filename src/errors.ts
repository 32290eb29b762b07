/**
 * Domain errors of Palette. Library code throws these (or `TypeError`/`RangeError` for bad arguments);
 * only `src/cli/` maps them to messages and exit codes.
 */

/** Stable machine-readable codes of {@link PaletteError}. */
export type PaletteErrorCode =
  | 'E_FILE_NOT_FOUND'
  | 'E_FILE_UNREADABLE'
  | 'E_FILE_UNWRITABLE'
  | 'E_INVALID_UTF8'
  | 'E_LINE_COUNT_MISMATCH'
  | 'E_EMPTY_INPUT'
  | 'E_UNKNOWN_TOKENIZER'
  | 'E_UNKNOWN_METRIC'
  | 'E_BAD_OPTION'
  | 'E_BAD_INPUT'
  | 'E_WASM'
  | 'E_POOL';

/** Base class of every domain error; `code` is stable, `file`/`line` locate the problem when known. */
export class PaletteError extends Error {
  readonly code: PaletteErrorCode;
  readonly file: string | undefined;
  readonly line: number | undefined;

  constructor(code: PaletteErrorCode, message: string, where: { file?: string; line?: number } = {}) {
    super(message);
    this.name = 'PaletteError';
    this.code = code;
    this.file = where.file;
    this.line = where.line;
  }
}

/** Raised for input the user must fix (bad files, bad options); the CLI exits with status 2. */
export class InputError extends PaletteError {
  constructor(code: PaletteErrorCode, message: string, where: { file?: string; line?: number } = {}) {
    super(code, message, where);
    this.name = 'InputError';
  }
}

/** Formats `file:line: message` (or `file: message`) the way every Palette error is reported. */
export function locate(message: string, file?: string, line?: number): string {
  if (file === undefined) return message;
  return line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`;
}

/** An unknown tokenizer name. */
export function unknownTokenizer(name: string, known: readonly string[]): InputError {
  return new InputError('E_UNKNOWN_TOKENIZER', `unknown tokenizer "${name}" (expected one of: ${known.join(', ')})`);
}

/** An unknown metric name. */
export function unknownMetric(name: string, known: readonly string[]): InputError {
  return new InputError('E_UNKNOWN_METRIC', `unknown metric "${name}" (expected one of: ${known.join(', ')})`);
}

/** A bad value for an option. */
export function badOption(name: string, expected: string, got: unknown): InputError {
  return new InputError('E_BAD_OPTION', `${name} must be ${expected} (got ${JSON.stringify(got)})`);
}
