/**
 * The steps every chunked file reader here repeats (line batches, n-best segment chunks, paraphrase tables):
 * opening the file, making room in the read buffer behind the bytes still held, and one read into it, with an open
 * or read failure turned into the file's InputError.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { openSync, readSync } from 'node:fs';
import { fileError } from './read-lines.js';

/**
 * Opens `path` for reading.
 * @throws InputError from {@link fileError} (`E_FILE_NOT_FOUND`, `E_FILE_UNREADABLE`…), naming `path`.
 */
export async function openForReading(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (err) {
    throw fileError(err, path);
  }
}

/** {@link openForReading} as a file descriptor, synchronously. */
export function openForReadingSync(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (err) {
    throw fileError(err, path);
  }
}

/**
 * `buf` when it has `room` free bytes after its first `filled`; otherwise a larger buffer (twice the size, or just
 * enough, whichever is more, so a long line costs a logarithmic number of copies) holding those `filled` bytes.
 */
export function withRoom(buf: Buffer<ArrayBuffer>, filled: number, room: number): Buffer<ArrayBuffer> {
  if (buf.length - filled >= room) return buf;
  const grown = Buffer.allocUnsafe(Math.max(buf.length * 2, filled + room));
  buf.copy(grown, 0, 0, filled);
  return grown;
}

/**
 * Reads up to `length` bytes of the open file `fh` (at its current position) into `buf` at `offset`.
 * @returns the bytes read, 0 at the end of the file.
 * @throws InputError from {@link fileError}, naming `path`, when the read fails.
 */
export async function readInto(fh: FileHandle, buf: Uint8Array, offset: number, length: number, path: string): Promise<number> {
  try {
    return (await fh.read(buf, offset, length, null)).bytesRead;
  } catch (err) {
    throw fileError(err, path);
  }
}

/** {@link readInto} for a file descriptor, synchronously. */
export function readIntoSync(fd: number, buf: Buffer, offset: number, length: number, path: string): number {
  try {
    return readSync(fd, buf, offset, length, null);
  } catch (err) {
    throw fileError(err, path);
  }
}
