/**
 * Shards of an n-best list for a queue run: byte ranges of the file that start and end at segment boundaries, so a
 * shard is a run of whole segments whose output blocks are exactly those the single-machine run writes for them
 * (where a list is cut never changes an output byte: a segment lives in exactly one part either way).
 *
 * Planning reads only a little around each cut, not the list: the file's size gives the cut targets, and each
 * target is moved forward to the next segment boundary as the engine's chunker sees one (ids read from the bytes:
 * ../../corpus/stream/segment-chunks.ts). Reading and hashing the whole list first cost about a second per 150 MB
 * before any worker could start. Line numbers are therefore not known when a shard is planned: a worker numbers
 * the lines of its shard from 1, and the submitter turns them into the list's lines (counting line ends up to the
 * shard) only when it reports a shard's bad input, which is rare.
 *
 * The last shards get smaller (a third of what is left, down to an eighth of the shard size): the workers then run
 * out of work at nearly the same time instead of one finishing a whole shard while the others wait.
 *
 * A worker checks that it reads the file that was planned: the same size and modification time, and the same bytes
 * at both ends of its shard (each shard carries a SHA-1 of its first and of its last few kilobytes, read when the
 * cut was placed). A worker that sees another file (changed since, or another machine's under the same path) fails
 * the shard instead of merging statistics of other candidates.
 *
 * A shard's result goes to a file of its own, written to a temporary name and renamed (see {@link writeShardResult}),
 * and its job reports the file's length and CRC-32 (see {@link ResultStamp}).
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import * as zlib from 'node:zlib';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../../errors.js';
import { lineIdAt, type SegmentChunk } from '../../corpus/stream/segment-chunks.js';
import { segmentChunksOf } from '../../engine/nbest/segment-stream.js';
import { openForReading, openForReadingSync } from '../chunk-buffer.js';
import { fileError } from '../read-lines.js';

/** One shard: bytes `[offset, offset + length)` of the list. */
export interface Shard {
  readonly index: number;
  readonly offset: number;
  readonly length: number;
  /** SHA-1 (hex) of the shard's first and of its last {@link END_BYTES} bytes (the whole shard when shorter). */
  readonly head: string;
  readonly tail: string;
}

/** The list as it was when the run was planned, and its shards. */
export interface ShardPlan {
  readonly size: number;
  readonly mtimeMs: number;
  readonly shards: Shard[];
}

/** The list a worker expects to read (size and modification time at planning). */
export interface PlannedList {
  readonly size: number;
  readonly mtimeMs: number;
}

/** Bytes hashed at each end of a shard. */
export const END_BYTES = 4096;

/** First read around a cut target (doubled while no segment boundary is in it). */
const WINDOW = 1 << 16;

/** Up to `length` bytes of the file at `position` (fewer at its end). */
export function readAt(fd: number, path: string, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    let n: number;
    try {
      n = readSync(fd, buf, filled, length - filled, position + filled);
    } catch (err) {
      throw fileError(err, path);
    }
    if (n === 0) break;
    filled += n;
  }
  return buf.subarray(0, filled);
}

/**
 * The first segment boundary after byte `target - 1` as the engine's chunker places one: the end of the run of
 * lines that share the id of the first non-empty line starting at or after `target` (empty lines after the run go
 * with the next segment, as the chunker puts them); `size` when the list ends first (the last line, ended by a
 * line feed or not, belongs to the last shard).
 */
function boundaryAfter(fd: number, path: string, size: number, target: number): number {
  const from = target - 1;
  for (let want = WINDOW; ; want *= 2) {
    const buf = readAt(fd, path, from, Math.min(want, size - from));
    const atEnd = from + buf.length >= size;
    const lf = buf.indexOf(0x0a);
    if (lf < 0) {
      if (atEnd) return size;
      continue;
    }
    let runId: number | undefined;
    let afterRun = -1;
    for (let start = lf + 1; ; ) {
      const end = buf.indexOf(0x0a, start);
      if (end < 0) {
        if (atEnd) return size;
        break;
      }
      const id = lineIdAt(buf, start, end);
      if (id !== -1) {
        if (runId === undefined) runId = id;
        else if (id !== runId || runId === -2) return from + afterRun;
        afterRun = end + 1;
      }
      start = end + 1;
    }
  }
}

/** Length of the next shard when `remaining` bytes of the list are left (see the file comment). */
function nextLength(remaining: number, shardBytes: number): number {
  const smallest = Math.max(1, Math.floor(shardBytes / 8));
  return Math.max(smallest, Math.min(shardBytes, Math.floor(remaining / 3)));
}

function sha1Hex(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

/**
 * The shards of the list at `path`, about `shardBytes` each (a longer segment makes its shard longer; the last
 * ones are smaller), from a few reads around each cut.
 * @throws InputError for a missing, unreadable or empty file.
 */
export function planShards(path: string, shardBytes: number): ShardPlan {
  if (!Number.isInteger(shardBytes) || shardBytes < 1) throw new RangeError(`shardBytes must be a positive integer (got ${shardBytes})`);
  const fd = openForReadingSync(path);
  try {
    const { size, mtimeMs } = fstatSync(fd);
    if (size === 0) throw new InputError('E_EMPTY_INPUT', 'empty input (0 bytes): expected one segment per line', { file: path });
    const shards: Shard[] = [];
    for (let at = 0; at < size; ) {
      const target = at + nextLength(size - at, shardBytes);
      const cut = target >= size ? size : boundaryAfter(fd, path, size, target);
      const length = cut - at;
      const ends = Math.min(END_BYTES, length);
      shards.push({
        index: shards.length,
        offset: at,
        length,
        head: sha1Hex(readAt(fd, path, at, ends)),
        tail: sha1Hex(readAt(fd, path, cut - ends, ends)),
      });
      at = cut;
    }
    return { size, mtimeMs, shards };
  } finally {
    closeSync(fd);
  }
}

/**
 * 1-based line of the list's byte `offset` (line ends counted up to it): how a shard's own line numbers become the
 * list's when its bad input is reported.
 */
export function lineAtOffset(path: string, offset: number): number {
  const fd = openForReadingSync(path);
  try {
    let line = 1;
    for (let at = 0; at < offset; ) {
      const got = readAt(fd, path, at, Math.min(1 << 20, offset - at));
      if (got.length === 0) break;
      for (let i = got.indexOf(0x0a); i >= 0; i = got.indexOf(0x0a, i + 1)) line++;
      at += got.length;
    }
    return line;
  } finally {
    closeSync(fd);
  }
}

/** A shard's bytes are not those that were planned. */
export class ShardChangedError extends Error {
  constructor(path: string, shard: Shard, why: string) {
    super(
      `${path}: the bytes of shard ${shard.index} (byte offset ${shard.offset}, ${shard.length} bytes) differ from ` +
        `those submitted (${why}): the file changed after the run was submitted, or this machine sees another file ` +
        'under that path',
    );
    this.name = 'ShardChangedError';
  }
}

/** Reads exactly `length` bytes at `position`, or throws the shard's change. */
async function readExactly(fh: FileHandle, path: string, shard: Shard, position: number, length: number): Promise<Buffer> {
  const block = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await fh.read(block, filled, length - filled, position + filled);
    if (bytesRead === 0) throw new ShardChangedError(path, shard, 'the file is shorter');
    filled += bytesRead;
  }
  return block;
}

/** Throws the shard's change unless the open file has the planned size and modification time. */
async function checkList(fh: FileHandle, path: string, shard: Shard, list: PlannedList): Promise<void> {
  const { size, mtimeMs } = await fh.stat();
  if (size !== list.size) throw new ShardChangedError(path, shard, `the list has ${size} bytes, not ${list.size}`);
  if (mtimeMs !== list.mtimeMs) throw new ShardChangedError(path, shard, 'the list\'s modification time differs');
}

/**
 * The bytes of one shard, in blocks of up to `blockBytes`, once the list's size, modification time and the shard's
 * two ends are those planned; the size and time are checked again after the last block.
 */
async function* shardBlocks(path: string, shard: Shard, list: PlannedList, blockBytes: number): AsyncGenerator<Uint8Array> {
  const fh = await openForReading(path);
  try {
    await checkList(fh, path, shard, list);
    const ends = Math.min(END_BYTES, shard.length);
    if (sha1Hex(await readExactly(fh, path, shard, shard.offset, ends)) !== shard.head) {
      throw new ShardChangedError(path, shard, 'its first bytes differ');
    }
    if (sha1Hex(await readExactly(fh, path, shard, shard.offset + shard.length - ends, ends)) !== shard.tail) {
      throw new ShardChangedError(path, shard, 'its last bytes differ');
    }
    for (let at = 0; at < shard.length; ) {
      const want = Math.min(blockBytes, shard.length - at);
      const block = await readExactly(fh, path, shard, shard.offset + at, want);
      at += want;
      yield new Uint8Array(block.buffer, block.byteOffset, want);
    }
    await checkList(fh, path, shard, list);
  } finally {
    await fh.close();
  }
}

/**
 * The shard as chunks of whole segments of about `chunkBytes` (the engine's tasks), with the file's byte offsets
 * and the shard's own line numbers (its first line is line 1: see the file comment). A changed list throws
 * {@link ShardChangedError}, at the latest when the last block has been read, before the result can be written.
 */
export async function* readShardChunks(
  path: string, shard: Shard, list: PlannedList, chunkBytes: number, shared: boolean,
): AsyncGenerator<SegmentChunk> {
  for await (const c of segmentChunksOf(shardBlocks(path, shard, list, Math.max(chunkBytes, 1 << 16)), chunkBytes, shared)) {
    yield { bytes: c.bytes, firstLine: c.firstLine, byteOffset: c.byteOffset + shard.offset };
  }
}

/** The result file of shard `index` in `dir` (statistics; `.features` beside it for FEATURES_TXT). */
export function shardResultPath(dir: string, index: number, what: 'out' | 'features'): string {
  return join(dir, `shard-${String(index).padStart(6, '0')}.${what}`);
}

/**
 * What a shard job reports of its result file, and what the submitter checks the file against before it merges it:
 * its length and CRC-32.
 *
 * The check is not what makes a shard's result count exactly once. That comes from elsewhere: the result is a pure
 * function of the shard's bytes, the references and the settings; its file's path is the run's (its id is a hash of
 * all of those) and the shard's; it is written through a temporary file and a rename, so a shard that runs twice
 * replaces the file whole with the same bytes and a reader sees one complete copy; and the merge takes each shard's
 * file once, in order. The check only catches a file that is not what its job reported: removed or cut short by
 * someone, damaged on its way through a shared file system, or written by a worker of another build. Those are
 * accidents, not an attack (whoever can write the result folder can write the output), so a checksum is enough: a
 * changed file passes with a chance of 2^-32 (CRC-32 catches every change of 32 bits or fewer in a row), where
 * SHA-1 cost the submitter a fifth of a second per 100 MB on a machine whose cores the workers keep busy.
 */
export interface ResultStamp {
  readonly length: number;
  readonly crc32: number;
}

/** Node's CRC-32 (zlib's, from Node 20.15), or the same function in JavaScript for older Nodes. */
const nodeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE 802.3, zlib's) of `bytes`, continued from `crc` (the CRC of the bytes before them; 0 at the start). */
export function crc32Of(bytes: Uint8Array, crc = 0): number {
  if (nodeCrc32 !== undefined) return nodeCrc32(bytes, crc);
  return crc32Js(bytes, crc);
}

/** {@link crc32Of} in JavaScript, a byte at a time (exported to test it against zlib's). */
export function crc32Js(bytes: Uint8Array, crc = 0): number {
  if (crcTable === undefined) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** The stamp of `bytes`. */
export function stampOf(bytes: Uint8Array): ResultStamp {
  return { length: bytes.length, crc32: crc32Of(bytes) };
}

/**
 * Writes `bytes` to `path` through a temporary file in the same folder and a rename, and returns their stamp. A shard
 * that runs twice (its worker died after writing, before BullMQ heard of it) writes the same bytes again, and the
 * rename replaces the file whole: a reader sees one complete copy or the other, never a mix, and the merge reads
 * each shard's file once (see {@link ResultStamp}).
 */
export function writeShardResult(path: string, bytes: Uint8Array): ResultStamp {
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
  return stampOf(bytes);
}

/** SHA-1 of bytes, hex. */
export function sha1Of(bytes: Uint8Array): string {
  return sha1Hex(bytes);
}

/** Whether `stamp` is a stamp (a job's report may lack one). */
function isStamp(stamp: Partial<ResultStamp> | undefined): stamp is ResultStamp {
  return stamp !== undefined && Number.isInteger(stamp.length) && Number.isInteger(stamp.crc32);
}

/** The bytes of a result file when its length and CRC-32 are those its job reported; undefined otherwise. */
export function readShardResult(path: string, stamp: Partial<ResultStamp> | undefined): Uint8Array | undefined {
  if (!isStamp(stamp)) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  if (bytes.length !== stamp.length || crc32Of(bytes) !== stamp.crc32) return undefined;
  return bytes;
}

/** Block size of {@link copyShardResult}. */
const COPY_BLOCK = 1 << 18;

let copyBuffer: Buffer | undefined;

/**
 * Hands the bytes of a result file to `write` in blocks of one reused buffer (each block is only valid during its
 * call), checking the file's length first and its CRC-32 as the bytes go by: the file is never held whole, and no
 * memory is allocated per file. Returns false when the file is missing or not the bytes its job reported; `write`
 * may then have had some of them, so the caller must give up what it wrote (a queue run's output is committed only
 * once every shard is merged).
 */
export function copyShardResult(path: string, stamp: Partial<ResultStamp> | undefined, write: (block: Uint8Array) => void): boolean {
  if (!isStamp(stamp)) return false;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    if (fstatSync(fd).size !== stamp.length) return false;
    copyBuffer ??= Buffer.allocUnsafe(COPY_BLOCK);
    let crc = 0;
    for (let at = 0; at < stamp.length; ) {
      let n: number;
      try {
        n = readSync(fd, copyBuffer, 0, Math.min(COPY_BLOCK, stamp.length - at), at);
      } catch {
        return false;
      }
      if (n === 0) return false;
      const block = copyBuffer.subarray(0, n);
      crc = crc32Of(block, crc);
      // What the destination throws (a full disk) is the caller's.
      write(block);
      at += n;
    }
    return crc === stamp.crc32;
  } finally {
    closeSync(fd);
  }
}
