/** Streaming a Moses-format n-best list file as batches of hypotheses (the format: ../corpus/nbest.ts). */
import { parseNbestLines, type NbestBatch, type NbestOptions, type NbestParseState } from '../corpus/nbest.js';
import { readLineBatches } from './read-line-batches.js';

/**
 * Streams a Moses-format n-best list as batches of hypotheses (see ../corpus/nbest.ts for the exact format).
 * Batches are never empty; at most `maxLines` entries each.
 * @throws InputError `E_BAD_INPUT` for a malformed line, `E_LINE_COUNT_MISMATCH` for an id without a reference
 * segment, and the errors of {@link readLineBatches}; each names the file and line.
 */
export async function* readNbestBatches(path: string, options: NbestOptions = {}): AsyncGenerator<NbestBatch> {
  if (options.segmentCount !== undefined && !(Number.isInteger(options.segmentCount) && options.segmentCount >= 0)) {
    throw new RangeError(`segmentCount must be a non-negative integer (got ${options.segmentCount})`);
  }
  const state: NbestParseState = { previousId: 0 };
  for await (const batch of readLineBatches(path, options)) {
    const parsed = parseNbestLines(batch, path, options, state);
    if (parsed.count > 0) yield parsed;
  }
}
