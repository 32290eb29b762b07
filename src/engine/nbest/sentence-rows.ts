/**
 * Scored candidates before duplicate removal, as bytes: what a queue run's shard hands to the merge with a previous
 * run (./previous-merge.ts), which removes duplicates across both runs and so needs every candidate, not the blocks
 * a shard would write on its own.
 *
 * A sequence of sentence records, little-endian: the sentence id (int32), the candidate count (int32), count ×
 * width statistics (float64, so every number, -0 included, comes back as the scorer computed it), then, when
 * features travel, each candidate's raw features field (uint32 byte length, UTF-8 bytes).
 */
import type { ByteOut } from './byte-out.js';

/** One sentence's new candidates. */
export interface SentenceRows {
  readonly sentence: number;
  readonly count: number;
  /** `count × width` numbers. */
  readonly stats: Float64Array;
  /** Raw features fields, when they travel. */
  readonly features: string[] | undefined;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Appends the sentences of a scored task to `out`: sentence `k` is `ids[k]`, its candidates rows `starts[k] ..
 * starts[k + 1]` of `stats` (and of `features`, when given).
 */
export function writeSentenceRows(
  out: ByteOut,
  ids: ArrayLike<number>,
  starts: ArrayLike<number>,
  stats: Float64Array,
  width: number,
  features: readonly string[] | undefined,
): void {
  for (let k = 0; k < ids.length; k++) {
    const from = starts[k];
    const count = starts[k + 1] - from;
    const head = new DataView(new ArrayBuffer(8 + count * width * 8));
    head.setInt32(0, ids[k], true);
    head.setInt32(4, count, true);
    for (let i = 0; i < count * width; i++) head.setFloat64(8 + i * 8, stats[from * width + i], true);
    out.bytes(new Uint8Array(head.buffer));
    if (features === undefined) continue;
    for (let h = from; h < from + count; h++) {
      const bytes = encoder.encode(features[h]);
      const length = new DataView(new ArrayBuffer(4));
      length.setUint32(0, bytes.length, true);
      out.bytes(new Uint8Array(length.buffer));
      out.bytes(bytes);
    }
  }
}

/**
 * The sentences of bytes written by {@link writeSentenceRows} with the same `width` and `withFeatures`.
 * @throws RangeError for bytes that end inside a record
 */
export function* readSentenceRows(bytes: Uint8Array, width: number, withFeatures: boolean): Generator<SentenceRows> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n: number): void => {
    if (at + n > bytes.length) throw new RangeError(`sentence rows end inside a record (byte ${at} of ${bytes.length})`);
  };
  while (at < bytes.length) {
    need(8);
    const sentence = view.getInt32(at, true);
    const count = view.getInt32(at + 4, true);
    at += 8;
    need(count * width * 8);
    const stats = new Float64Array(count * width);
    for (let i = 0; i < stats.length; i++) stats[i] = view.getFloat64(at + i * 8, true);
    at += stats.length * 8;
    let features: string[] | undefined;
    if (withFeatures) {
      features = new Array<string>(count);
      for (let h = 0; h < count; h++) {
        need(4);
        const length = view.getUint32(at, true);
        at += 4;
        need(length);
        features[h] = decoder.decode(bytes.subarray(at, at + length));
        at += length;
      }
    }
    yield { sentence, count, stats, features };
  }
}
