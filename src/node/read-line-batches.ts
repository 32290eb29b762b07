/**
 * Chunked line reader on Node: a file of any size, read through one reusable buffer, yielded as batches of lines
 * (the line semantics of ../corpus/stream/line-batch.ts).
 *
 * Memory: the buffer holds one chunk plus the unfinished last line of the previous chunk (it grows only for a line
 * longer than a chunk); each batch holds at most `maxLines` lines of one decoded chunk.
 */
import { InputError } from '../errors.js';
import { resolveEncoding } from '../corpus/read-lines.js';
import {
  completeEnd,
  countTerminators,
  DEFAULT_CHUNK_SIZE,
  DEFAULT_MAX_LINES,
  positiveInt,
  splitBatches,
  utf8Error,
  type LineBatch,
  type LineStreamOptions,
} from '../corpus/stream/line-batch.js';
import { openForReading, readInto, withRoom } from './chunk-buffer.js';

/**
 * Streams a text file as batches of lines (see the module comment).
 * @param path the file to read; also the name used in error messages
 * @throws InputError `E_FILE_NOT_FOUND`, `E_FILE_UNREADABLE`, `E_INVALID_UTF8`, `E_EMPTY_INPUT`, `E_BAD_OPTION`,
 * each naming the file (and the line where one applies); RangeError for a bad `chunkSize`/`maxLines`.
 */
export async function* readLineBatches(path: string, options: LineStreamOptions = {}): AsyncGenerator<LineBatch> {
  const settings = settingsOf(options);
  const fh = await openForReading(path);
  try {
    yield* batchesOf((buf, at, length) => readInto(fh, buf, at, length, path), path, settings);
  } finally {
    await fh.close();
  }
}

/**
 * {@link readLineBatches} over bytes that come in blocks (a decompressed file: src/node/segment-chunks.ts
 * `fileBlocks`): the same batches, line numbers and messages, `path` naming the file they came from.
 * @throws InputError as {@link readLineBatches}, and whatever `blocks` throws
 */
export async function* readLineBatchesOf(
  blocks: AsyncIterable<Uint8Array>, path: string, options: LineStreamOptions = {},
): AsyncGenerator<LineBatch> {
  const settings = settingsOf(options);
  const it = blocks[Symbol.asyncIterator]();
  let pending: Uint8Array = new Uint8Array(0);
  try {
    yield* batchesOf(async (buf, at, length) => {
      while (pending.length === 0) {
        const next = await it.next();
        if (next.done === true) return 0;
        pending = next.value;
      }
      const n = Math.min(length, pending.length);
      buf.set(pending.subarray(0, n), at);
      pending = pending.subarray(n);
      return n;
    }, path, settings);
  } finally {
    await it.return?.(undefined);
  }
}

/** The options checked (before the file is opened: a bad option is reported first). */
function settingsOf(options: LineStreamOptions) {
  resolveEncoding(options.encoding ?? 'utf-8');
  return {
    mode: options.newline ?? 'lf',
    chunkSize: positiveInt(options.chunkSize, DEFAULT_CHUNK_SIZE, 'chunkSize'),
    maxLines: positiveInt(options.maxLines, DEFAULT_MAX_LINES, 'maxLines'),
    allowEmpty: options.allowEmpty === true,
  } as const;
}

/** The batches of the bytes `read` puts into a buffer (0: the end), as {@link readLineBatches} yields them. */
async function* batchesOf(
  read: (buf: Buffer, at: number, length: number) => Promise<number>, path: string, settings: ReturnType<typeof settingsOf>,
): AsyncGenerator<LineBatch> {
  const { mode, chunkSize, maxLines } = settings;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let buf = Buffer.allocUnsafe(chunkSize);
  let filled = 0; // bytes held: the unfinished line of earlier reads, then the newest read
  let base = 0; // file offset of buf[0]
  let line = 1; // line number of buf[0]
  let eof = false;
  while (!eof) {
    // Grows only for a line longer than the chunks read so far: the buffer must hold it whole anyway.
    buf = withRoom(buf, filled, chunkSize);
    const bytesRead = await read(buf, filled, chunkSize);
    if (bytesRead === 0) eof = true;
    filled += bytesRead;
    const end = eof ? filled : completeEnd(buf, filled, mode);
    if (end === 0) continue;
    const region = buf.subarray(0, end);
    let text: string;
    try {
      text = decoder.decode(region);
    } catch {
      throw utf8Error(region, base, line, mode, path);
    }
    const before = line;
    line += countTerminators(region, end, mode);
    yield* splitBatches(text, before, mode, maxLines);
    buf.copyWithin(0, end, filled);
    base += end;
    filled -= end;
  }
  if (base === 0 && !settings.allowEmpty) {
    throw new InputError('E_EMPTY_INPUT', 'empty input (0 bytes): expected one segment per line', { file: path });
  }
}
