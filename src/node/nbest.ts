/**
 * Streaming a Moses-format n-best list file, plain or gzip (as `palette nbest` reads it), as batches of hypotheses
 * (the format: ../corpus/nbest.ts).
 */
import { parseNbestLines, type NbestBatch, type NbestOptions, type NbestParseState } from '../corpus/nbest.js';
import { DEFAULT_CHUNK_SIZE } from '../corpus/stream/line-batch.js';
import { readLineBatches, readLineBatchesOf } from './read-line-batches.js';
import { fileBlocks, isGzipFile } from './segment-chunks.js';

/**
 * Streams a Moses-format n-best list as batches of hypotheses (see ../corpus/nbest.ts for the exact format).
 * Batches are never empty; at most `maxLines` entries each.
 * @throws InputError `E_BAD_INPUT` for a malformed line, `E_LINE_COUNT_MISMATCH` for an id without a reference
 * segment, and the errors of {@link readLineBatches} (and `E_FILE_UNREADABLE` for gzip data that cannot be
 * decompressed); each names the file and line.
 */
export async function* readNbestBatches(path: string, options: NbestOptions = {}): AsyncGenerator<NbestBatch> {
  if (options.segmentCount !== undefined && !(Number.isInteger(options.segmentCount) && options.segmentCount >= 0)) {
    throw new RangeError(`segmentCount must be a non-negative integer (got ${options.segmentCount})`);
  }
  const state: NbestParseState = { previousId: 0 };
  // A gzip list's lines are numbered in its decompressed text, as a plain list's. Its blocks are read at least 64 KiB
  // at a time, as the segment chunker reads them (the gzip header must lie in the first); `chunkSize` still sets
  // how much text a batch is cut from.
  const batches = isGzipFile(path)
    ? readLineBatchesOf(fileBlocks(path, Math.max(options.chunkSize ?? DEFAULT_CHUNK_SIZE, 1 << 16)), path, options)
    : readLineBatches(path, options);
  for await (const batch of batches) {
    const parsed = parseNbestLines(batch, path, options, state);
    if (parsed.count > 0) yield parsed;
  }
}
