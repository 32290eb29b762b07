/**
 * Streaming an n-best list file (plain or gzip) as chunks of whole segments: the file's bytes, read in blocks, go through the
 * engine's one chunker (../engine/nbest/segment-stream.ts, which the library's `scoreNbest` also runs), so a file
 * and the same bytes handed over in memory are cut by the same rules. Memory: the blocks in the chunker's buffer
 * (about twice the chunk size, more only for a segment longer than that) plus the chunks in flight.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { InputError } from '../errors.js';
import type { SegmentChunk } from '../corpus/stream/segment-chunks.js';
import { segmentChunksOf, segmentChunksOfReader } from '../engine/nbest/segment-stream.js';
import { openForReading, readInto } from './chunk-buffer.js';

/** The bytes of the file at `path`, in blocks of up to `blockBytes` (each a fresh array: the chunker may keep it). */
async function* rawBlocks(path: string, blockBytes: number): AsyncGenerator<Uint8Array> {
  const fh = await openForReading(path);
  try {
    for (;;) {
      const block = Buffer.allocUnsafe(blockBytes);
      const bytesRead = await readInto(fh, block, 0, blockBytes, path);
      if (bytesRead === 0) return;
      yield new Uint8Array(block.buffer, block.byteOffset, bytesRead);
    }
  } finally {
    await fh.close();
  }
}

/** Whether a file's first bytes are gzip's magic number. */
function isGzip(block: Uint8Array): boolean {
  return block.length >= 2 && block[0] === 0x1f && block[1] === 0x8b;
}

/**
 * Whether the file at `path` starts as gzip data does; false for a file that cannot be read (whoever reads it then
 * reports why).
 */
export function isGzipFile(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const head = new Uint8Array(2);
    return readSync(fd, head, 0, 2, 0) === 2 && isGzip(head);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of the file at `path` in blocks, decompressed when the file is gzip (recognised by its first bytes, as
 * Moses' FilePiece recognises it: Moses' MERT loop writes its n-best lists as `run1.best100.out.gz`).
 * @throws InputError `E_FILE_UNREADABLE` for gzip data that cannot be decompressed.
 */
export async function* fileBlocks(path: string, blockBytes: number): AsyncGenerator<Uint8Array> {
  const blocks = rawBlocks(path, blockBytes);
  const first = await blocks.next();
  if (first.done === true) return;
  if (!isGzip(first.value)) {
    yield first.value;
    yield* blocks;
    return;
  }
  async function* compressed(): AsyncGenerator<Uint8Array> {
    yield first.value as Uint8Array;
    yield* blocks;
  }
  const gunzip = Readable.from(compressed()).pipe(createGunzip({ chunkSize: blockBytes }));
  try {
    for await (const piece of gunzip) yield new Uint8Array(piece.buffer, piece.byteOffset, piece.length);
  } catch (err) {
    if (err instanceof InputError) throw err;
    const why = err instanceof Error ? err.message : String(err);
    throw new InputError('E_FILE_UNREADABLE', `cannot decompress the gzip file: ${why}`, { file: path });
  } finally {
    gunzip.destroy();
    await blocks.return(undefined);
  }
}

/**
 * Streams an n-best list as chunks of whole segments of about `chunkBytes` bytes; with `shared`, each chunk's
 * bytes live in a `SharedArrayBuffer` (posted to a worker without a copy, and still there for a retry).
 * @throws InputError `E_FILE_NOT_FOUND`/`E_FILE_UNREADABLE` (reading), `E_EMPTY_INPUT` for a 0-byte file.
 */
export async function* readSegmentChunks(path: string, chunkBytes: number, shared = false): AsyncGenerator<SegmentChunk> {
  if (!Number.isInteger(chunkBytes) || chunkBytes < 1) throw new RangeError(`chunkBytes must be a positive integer (got ${chunkBytes})`);
  let any = false;
  // Blocks of at least 64 KiB: tiny tasks (tests cut lists into one-segment chunks) need no tiny reads.
  const blockBytes = Math.max(chunkBytes, 1 << 16);
  // A plain file is read straight into the chunker's buffer; gzip data goes through the decompressor's blocks.
  const chunks = isGzipFile(path)
    ? segmentChunksOf(fileBlocks(path, blockBytes), chunkBytes, shared)
    : plainFileChunks(path, chunkBytes, blockBytes, shared);
  for await (const chunk of chunks) {
    any = true;
    yield chunk;
  }
  if (!any) throw new InputError('E_EMPTY_INPUT', 'empty input (0 bytes): expected one segment per line', { file: path });
}

/** The chunks of an uncompressed file, read into the chunker's own buffer. */
async function* plainFileChunks(path: string, chunkBytes: number, blockBytes: number, shared: boolean): AsyncGenerator<SegmentChunk> {
  const fh = await openForReading(path);
  try {
    yield* segmentChunksOfReader((into) => readInto(fh, into, 0, into.length, path), chunkBytes, blockBytes, shared);
  } finally {
    await fh.close();
  }
}
