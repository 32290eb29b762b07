/**
 * Reading segment files and standard input as lines on Node (the rules, sacrebleu's, are those of
 * ../corpus/read-lines.ts, which decodes the bytes), and the words every file reader here fails with.
 */
import { readFileSync } from 'node:fs';
import { getSystemErrorMap } from 'node:util';
import { InputError } from '../errors.js';
import { decodeLines, resolveEncoding, type ReadLinesOptions } from '../corpus/read-lines.js';

/**
 * Reads a text file as lines (the rules of ../corpus/read-lines.ts).
 * @throws InputError `E_FILE_NOT_FOUND`, `E_FILE_UNREADABLE`, `E_INVALID_UTF8`, `E_EMPTY_INPUT`, `E_BAD_OPTION`,
 * each naming the file (and the line where one applies).
 */
export function readLines(path: string, options: ReadLinesOptions = {}): string[] {
  resolveEncoding(options.encoding ?? 'utf-8');
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw fileError(err, path);
  }
  return decodeLines(bytes, path, options);
}

/**
 * Reads a whole byte stream (standard input) and splits it as {@link decodeLines} does.
 * @param name the name used in error messages, e.g. `<stdin>`
 */
export async function readStreamLines(
  stream: AsyncIterable<Uint8Array | string>,
  name: string,
  options: ReadLinesOptions = {},
): Promise<string[]> {
  resolveEncoding(options.encoding ?? 'utf-8');
  const chunks: Uint8Array[] = [];
  try {
    for await (const chunk of stream) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    }
  } catch (err) {
    throw fileError(err, name);
  }
  return decodeLines(Buffer.concat(chunks), name, options);
}

/**
 * Maps a Node file-system error (open/read failure) to an {@link InputError} naming the file; an InputError passes
 * through. Every reader (whole-file or streaming) fails with these words.
 */
export function fileError(err: unknown, path: string): InputError {
  if (err instanceof InputError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return new InputError('E_FILE_NOT_FOUND', 'no such file', { file: path });
  if (code === 'ENOTDIR') return new InputError('E_FILE_NOT_FOUND', 'no such file (a folder of its path is a file)', { file: path });
  if (code === 'EISDIR') return new InputError('E_FILE_UNREADABLE', 'is a directory, not a file', { file: path });
  if (code === 'EACCES' || code === 'EPERM') {
    return new InputError('E_FILE_UNREADABLE', 'cannot read the file: permission denied', { file: path });
  }
  return new InputError('E_FILE_UNREADABLE', `cannot read the file: ${systemErrorWords(err)}`, { file: path });
}

/**
 * The words of a system error without Node's `ECODE: ` prefix and syscall suffix (`EIO: i/o error, read` → `i/o
 * error`): the system's own wording of its errno where Node knows it, else the message with code and syscall cut,
 * so that a message says what went wrong in plain words rather than as a code. Readers and the CLI's output files
 * word their errors with it.
 */
export function systemErrorWords(err: unknown): string {
  const errno = (err as NodeJS.ErrnoException | undefined)?.errno;
  const known = errno === undefined ? undefined : getSystemErrorMap().get(errno)?.[1];
  if (known !== undefined) return known;
  const message = err instanceof Error ? err.message : String(err);
  const words = message.replace(/^[A-Z][A-Z0-9_]+: /, '').replace(/, \w+( '[^']*')?( -> '[^']*')?$/, '');
  return words.length > 0 ? words : message;
}
