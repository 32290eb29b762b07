/**
 * The engine's binary form of statistics rows, for library callers that want numbers rather than text: encoded in
 * whichever thread scored a chunk and decoded where the rows are delivered, so rows cross a worker boundary as one
 * transferred byte array, exactly as the text formats do, and every double arrives bit for bit.
 *
 * One block per sentence: four uint32 (sentence id, candidates kept, row width, scores per candidate: 0 or the
 * number of metrics), then `candidates × width` doubles, then `candidates × scores` doubles (NaN where a metric has
 * no score), all in the platform's byte order (encoder and decoder run on the same machine).
 */
import type { BlockEncoder, SentenceScoreSource } from './stats-format.js';

/** The statistics of one sentence's candidates, in output order (after duplicate removal unless allowed). */
export interface NbestRowBlock {
  /** Sentence (segment) id. */
  readonly sentence: number;
  /** Candidates in the block. */
  readonly count: number;
  /** Numbers per candidate row: the metrics' statistics concatenated in the order the metrics were given. */
  readonly width: number;
  /** `count × width` statistics, row after row. */
  readonly stats: Float64Array;
  /**
   * With sentence scores: `count × metrics` scores, row after row, metrics in the order of the run's ids (NaN where
   * a metric gives no number); undefined without.
   */
  readonly scores: Float64Array | undefined;
}

const HEADER_BYTES = 16;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The block encoder of the binary rows (`scores` adds the sentence scores). */
export function rowsEncoder(width: number, scores?: SentenceScoreSource): BlockEncoder {
  const nScores = scores === undefined ? 0 : scores.ids.length;
  return (sentence, stats, rows, out) => {
    out.uint32(sentence);
    out.uint32(rows.length);
    out.uint32(width);
    out.uint32(nScores);
    for (let k = 0; k < rows.length; k++) {
      const at = rows[k] * width;
      for (let i = 0; i < width; i++) out.float64(stats[at + i]);
    }
    if (scores === undefined) return;
    for (let k = 0; k < rows.length; k++) for (const v of scores.score(stats, rows[k])) out.float64(v);
  };
}

/** Doubles `bytes[at, at + 8n)` as their own array (a copy: `at` need not be aligned). */
function doublesAt(bytes: Uint8Array, at: number, n: number): Float64Array {
  return new Float64Array(bytes.slice(at, at + 8 * n).buffer);
}

/**
 * Decodes whole blocks written by {@link rowsEncoder}, calling `onBlock` for each in order.
 * @throws RangeError when `bytes` do not hold whole blocks (a caller's mistake: the engine writes whole blocks).
 */
export function decodeRowBlocks(bytes: Uint8Array, onBlock: (block: NbestRowBlock) => void): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (at < bytes.length) {
    if (at + HEADER_BYTES > bytes.length) throw new RangeError(`truncated row block header at byte ${at}`);
    const sentence = view.getUint32(at, LITTLE_ENDIAN);
    const count = view.getUint32(at + 4, LITTLE_ENDIAN);
    const width = view.getUint32(at + 8, LITTLE_ENDIAN);
    const nScores = view.getUint32(at + 12, LITTLE_ENDIAN);
    at += HEADER_BYTES;
    const end = at + 8 * count * (width + nScores);
    if (end > bytes.length) throw new RangeError(`truncated row block of sentence ${sentence}`);
    const stats = doublesAt(bytes, at, count * width);
    at += 8 * count * width;
    const scores = nScores === 0 ? undefined : doublesAt(bytes, at, count * nScores);
    at = end;
    onBlock({ sentence, count, width, stats, scores });
  }
}
