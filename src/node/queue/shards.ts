/**
 * Shards of an n-best list for a queue run: byte ranges of the file that start and end at segment boundaries, cut by
 * the engine's own chunker (src/engine/nbest/segment-stream.ts) with the shard size as its chunk size, so a shard is
 * a run of whole segments and its output blocks are exactly those the single-machine run writes for them. Each
 * shard carries a SHA-1 of its bytes: a worker that reads other bytes at that range (the file changed after the
 * run was submitted, or another machine sees another file under the same path) fails the shard instead of merging
 * statistics of other candidates.
 *
 * A shard's result goes to a file of its own, written to a temporary name and renamed (see {@link writeShardResult}).
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SegmentChunk } from '../../corpus/stream/segment-chunks.js';
import { segmentChunksOf } from '../../engine/nbest/segment-stream.js';
import { openForReading } from '../chunk-buffer.js';
import { readSegmentChunks } from '../segment-chunks.js';

/** One shard: bytes `[offset, offset + length)` of the list, starting on 1-based line `firstLine`. */
export interface Shard {
  readonly index: number;
  readonly offset: number;
  readonly length: number;
  readonly firstLine: number;
  /** SHA-1 of the shard's bytes, hex. */
  readonly sha1: string;
}

/**
 * The shards of the list at `path`, about `shardBytes` each (between one and two times that when segments are
 * small; a longer segment makes its shard longer).
 * @throws InputError for a missing, unreadable or empty file.
 */
export async function planShards(path: string, shardBytes: number): Promise<Shard[]> {
  const shards: Shard[] = [];
  for await (const chunk of readSegmentChunks(path, shardBytes)) {
    shards.push({
      index: shards.length,
      offset: chunk.byteOffset,
      length: chunk.bytes.length,
      firstLine: chunk.firstLine,
      sha1: createHash('sha1').update(chunk.bytes).digest('hex'),
    });
  }
  return shards;
}

/** A shard's bytes are not those that were submitted. */
export class ShardChangedError extends Error {
  constructor(path: string, shard: Shard) {
    super(
      `${path}: the bytes of shard ${shard.index} (from line ${shard.firstLine}, byte offset ${shard.offset}, ` +
        `${shard.length} bytes) differ from those submitted: the file changed after the run was submitted, or this ` +
        'machine sees another file under that path',
    );
    this.name = 'ShardChangedError';
  }
}

/** The bytes of one shard, in blocks of up to `blockBytes`, hashed on the way; the hash is checked at the end. */
async function* shardBlocks(path: string, shard: Shard, blockBytes: number): AsyncGenerator<Uint8Array> {
  const fh = await openForReading(path);
  const hash = createHash('sha1');
  try {
    let at = 0;
    while (at < shard.length) {
      const want = Math.min(blockBytes, shard.length - at);
      const block = Buffer.allocUnsafe(want);
      let filled = 0;
      while (filled < want) {
        const { bytesRead } = await fh.read(block, filled, want - filled, shard.offset + at + filled);
        if (bytesRead === 0) throw new ShardChangedError(path, shard);
        filled += bytesRead;
      }
      hash.update(block);
      at += want;
      yield new Uint8Array(block.buffer, block.byteOffset, want);
    }
  } finally {
    await fh.close();
  }
  if (hash.digest('hex') !== shard.sha1) throw new ShardChangedError(path, shard);
}

/**
 * The shard as chunks of whole segments of about `chunkBytes` (the engine's tasks), with the file's line numbers
 * and byte offsets (error messages name the same line as a run over the whole file). A changed shard throws
 * {@link ShardChangedError} when its last block has been read, before the run's result can be written.
 */
export async function* readShardChunks(path: string, shard: Shard, chunkBytes: number, shared: boolean): AsyncGenerator<SegmentChunk> {
  for await (const c of segmentChunksOf(shardBlocks(path, shard, Math.max(chunkBytes, 1 << 16)), chunkBytes, shared)) {
    yield { bytes: c.bytes, firstLine: c.firstLine + shard.firstLine - 1, byteOffset: c.byteOffset + shard.offset };
  }
}

/** The result file of shard `index` in `dir` (statistics; `.features` beside it for FEATURES_TXT). */
export function shardResultPath(dir: string, index: number, what: 'out' | 'features'): string {
  return join(dir, `shard-${String(index).padStart(6, '0')}.${what}`);
}

/**
 * Writes `bytes` to `path` through a temporary file in the same folder and a rename. A shard that runs twice (its
 * worker died after writing, before BullMQ heard of it) writes the same bytes again, and the rename replaces the
 * file whole: a reader sees one complete copy or the other, never a mix, and the merge reads each shard's file once.
 */
export function writeShardResult(path: string, bytes: Uint8Array): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // Already gone.
    }
    throw err;
  }
  closeSync(fd);
  renameSync(temp, path);
}

/** SHA-1 of bytes, hex. */
export function sha1Of(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

/** The bytes of a result file when its length and hash are those its job reported; undefined otherwise. */
export function readShardResult(path: string, length: number, sha1: string): Uint8Array | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  if (bytes.length !== length || sha1Of(bytes) !== sha1) return undefined;
  return bytes;
}
