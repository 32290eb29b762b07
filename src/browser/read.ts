/**
 * Inputs of the browser library as lines: text given as a string, or bytes as a `File`/`Blob` (read in slices, so
 * that a progress bar can follow a large file), an `ArrayBuffer` or a typed array. Bytes are decoded as the CLI
 * decodes files (../corpus/read-lines.ts: strict UTF-8, lines end at `\n`, an empty input refused), with the same
 * messages naming the input.
 */
import { decodeLines, splitLines, type ReadLinesOptions } from '../corpus/read-lines.js';
import { InputError } from '../errors.js';
import { isBlob, type BlobLike } from './web-globals.js';

/** One input: text, or UTF-8 bytes. */
export type TextInput = string | BlobLike | ArrayBuffer | ArrayBufferView;

/** Bytes read per slice of a `Blob`. */
export const READ_CHUNK = 4 << 20;

/** Options of {@link readInputLines}. */
export interface ReadInputOptions extends ReadLinesOptions {
  /** Told the bytes read so far of a `Blob`'s size, after each slice. */
  readonly onProgress?: (read: number, size: number) => void;
}

/** The bytes of a `Blob`, read slice by slice. */
export async function readBlob(blob: BlobLike, onProgress?: (read: number, size: number) => void): Promise<Uint8Array> {
  const bytes = new Uint8Array(blob.size);
  for (let at = 0; at < blob.size; at += READ_CHUNK) {
    const end = Math.min(blob.size, at + READ_CHUNK);
    bytes.set(new Uint8Array(await blob.slice(at, end).arrayBuffer()), at);
    onProgress?.(end, blob.size);
  }
  return bytes;
}

/**
 * The lines of one input.
 * @param name what messages call the input (a file name)
 * @throws InputError `E_EMPTY_INPUT`, `E_INVALID_UTF8` (with the line of the first bad byte), as the CLI's readers.
 */
export async function readInputLines(input: TextInput, name: string, options: ReadInputOptions = {}): Promise<string[]> {
  if (typeof input === 'string') {
    if (input.length === 0 && !options.allowEmpty) {
      throw new InputError('E_EMPTY_INPUT', 'empty input (0 bytes): expected one segment per line', { file: name });
    }
    return splitLines(input, options.newline ?? 'lf');
  }
  let bytes: Uint8Array;
  if (isBlob(input)) bytes = await readBlob(input, options.onProgress);
  else if (input instanceof ArrayBuffer) bytes = new Uint8Array(input);
  else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  else throw new TypeError(`${name}: expected a string, File, Blob, ArrayBuffer or typed array`);
  return decodeLines(bytes, name, options);
}
