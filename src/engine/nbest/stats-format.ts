/**
 * Serialisations of per-candidate statistics, one sentence block at a time.
 *
 * - `moses`: Moses `extractor`'s SCORESTAT text: `SCORES_TXT_BEGIN_0 <sentence> <candidates> <width> BLEU`, one
 *   line per candidate with every number followed by one space (`m1 t1 … m4 t4 reflen `), `SCORES_TXT_END_0`.
 *   With several metrics the header names them all (`… 25 BLEU,ROUGE-L,WER`) and a candidate's line holds their
 *   statistics one after the other in `-m` order, as Moses' InterpolatedScorer (`--sctype BLEU,TER`) writes them.
 * - `json`: JSON Lines, one object per candidate in the same order: `{"sentence":0,"stats":[6,14,1,13,0,12,0,11,18]}`,
 *   `stats` being the same concatenated row; with sentence scores, `"scores":{"bleu":0.31,"rouge-l":0.52}` (by
 *   metric id; a score with no number is `null`).
 * - `msgpack`: a sequence of MessagePack values (read it with msgpackr's `unpackMultiple`), one per candidate in the
 *   same order, each a map `{sentence, stats[, scores]}` like the JSON objects (plain maps, no msgpackr records, so
 *   any MessagePack reader decodes them).
 */
import { Packr } from 'msgpackr';
import type { ByteOut } from './byte-out.js';
import { taskRowKernels } from '../../wasm/task-rows.js';

/** Output formats of the statistics. */
export type NbestStatsFormat = 'moses' | 'json' | 'msgpack';

/**
 * Encodes the candidates of one sentence into `out`: candidate `k` of the block is row `rows[k]` of `stats`, a flat
 * array of `width` numbers per row (no array per candidate).
 */
export type BlockEncoder = (sentence: number, stats: ArrayLike<number>, rows: ArrayLike<number>, out: ByteOut) => void;

/** Row `r`'s numbers as a plain array (JSON and msgpack output). */
function rowArray(stats: ArrayLike<number>, width: number, r: number): number[] {
  const row = new Array<number>(width);
  for (let i = 0; i < width; i++) row[i] = stats[r * width + i];
  return row;
}

/** Per-candidate sentence scores: one per metric id, computed from a candidate's row. */
export interface SentenceScoreSource {
  /** Metric ids, the keys of the `scores` map. */
  readonly ids: readonly string[];
  /** The scores of row `row` of `stats`, in the order of `ids`. */
  score(stats: ArrayLike<number>, row: number): number[];
}

/** The `scores` value of a row: id → score (JSON output). */
function scoreMap(scores: SentenceScoreSource, stats: ArrayLike<number>, row: number): Record<string, number> {
  const values = scores.score(stats, row);
  const map: Record<string, number> = {};
  scores.ids.forEach((id, k) => (map[id] = values[k]));
  return map;
}

/**
 * The encoder of `format` for statistics named `scorer` (Moses' scorer name: `BLEU`, or several joined by commas),
 * `width` numbers a row; `scores` adds sentence scores (json and msgpack only: SCORES_TXT has no place for them).
 */
export function blockEncoder(
  format: NbestStatsFormat,
  scorer: string,
  width: number,
  scores?: SentenceScoreSource,
): BlockEncoder {
  if (format === 'moses') {
    if (scores !== undefined) throw new RangeError('sentence scores are not representable in SCORES_TXT');
    const tail = ` ${width} ${scorer}\n`;
    return (sentence, stats, rows, out) => {
      // Digits straight into the buffer: no string per number or row (./byte-out.ts).
      out.text('SCORES_TXT_BEGIN_0 ');
      out.number(sentence);
      out.byte(0x20);
      out.number(rows.length);
      out.text(tail);
      for (let k = 0; k < rows.length; k++) {
        const at = rows[k] * width;
        for (let i = 0; i < width; i++) {
          out.number(stats[at + i]);
          out.byte(0x20);
        }
        out.byte(0x0a);
      }
      out.text('SCORES_TXT_END_0\n');
    };
  }
  if (format === 'json') {
    return (sentence, stats, rows, out) => {
      for (let k = 0; k < rows.length; k++) {
        const extra = scores === undefined ? '' : `,"scores":${JSON.stringify(scoreMap(scores, stats, rows[k]))}`;
        out.text(`{"sentence":${sentence},"stats":[${rowArray(stats, width, rows[k]).join(',')}]${extra}}\n`);
      }
    };
  }
  return msgpackEncoder(width, scores);
}

/**
 * Appends the MessagePack of number `v` at `buf[p]` as msgpackr writes it (the branches of its `pack`, without its
 * float32 option): a whole number in 32 bits as the shortest integer (positive ones below 128 as fixints, since
 * the encoder has no records; -0 as 0), anything else as a float64. Returns the new position; needs 9 bytes.
 */
function packNumber(buf: Uint8Array, view: DataView, p: number, v: number): number {
  if (v >>> 0 === v) {
    if (v < 0x80) {
      buf[p] = v;
      return p + 1;
    }
    if (v < 0x100) {
      buf[p] = 0xcc;
      buf[p + 1] = v;
      return p + 2;
    }
    if (v < 0x10000) {
      buf[p] = 0xcd;
      buf[p + 1] = v >> 8;
      buf[p + 2] = v & 0xff;
      return p + 3;
    }
    buf[p] = 0xce;
    view.setUint32(p + 1, v);
    return p + 5;
  }
  if (v >> 0 === v) {
    if (v >= -0x20) {
      buf[p] = 0x100 + v;
      return p + 1;
    }
    if (v >= -0x80) {
      buf[p] = 0xd0;
      buf[p + 1] = v + 0x100;
      return p + 2;
    }
    if (v >= -0x8000) {
      buf[p] = 0xd1;
      view.setInt16(p + 1, v);
      return p + 3;
    }
    buf[p] = 0xd2;
    view.setInt32(p + 1, v);
    return p + 5;
  }
  buf[p] = 0xcb;
  view.setFloat64(p + 1, v);
  return p + 9;
}

/** msgpackr's header of a map of `n` entries: it always writes map 16 (it sets the size after the entries). */
function mapHeader(n: number): number[] {
  return [0xde, n >> 8, n & 0xff];
}

/** msgpackr's header of an array of `n` values. */
function arrayHeader(n: number): number[] {
  if (n < 0x10) return [0x90 | n];
  if (n < 0x10000) return [0xdc, n >> 8, n & 0xff];
  return [0xdd, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

/**
 * The msgpack encoder: the bytes of msgpackr's `Packr({ useRecords: false }).pack({ sentence, stats[, scores] })`
 * for each row, written straight into one buffer per block (no object, array or Packr call per candidate). The
 * keys' bytes are msgpackr's own, packed once.
 */
function msgpackEncoder(width: number, scores: SentenceScoreSource | undefined): BlockEncoder {
  const packr = new Packr({ useRecords: false });
  const key = (k: string): number[] => Array.from(packr.pack(k));
  const head = Uint8Array.from([...mapHeader(scores === undefined ? 2 : 3), ...key('sentence')]);
  const statsHead = Uint8Array.from([...key('stats'), ...arrayHeader(width)]);
  // The scores map's entries as the object the JSON output builds would hold them: a repeated id once, with its last
  // value, in the object's key order (msgpackr walks it with for-in).
  const sample: Record<string, number> = {};
  scores?.ids.forEach((id, k) => (sample[id] = k));
  const scoreIds = Object.keys(sample);
  const scoreIndex = scoreIds.map((id) => sample[id]);
  const scoresHead = scores === undefined ? undefined : Uint8Array.from([...key('scores'), ...mapHeader(scoreIds.length)]);
  const scoreKeys = scoreIds.map((id) => Uint8Array.from(key(id)));
  let keyBytes = head.length + statsHead.length + (scoresHead?.length ?? 0);
  for (const k of scoreKeys) keyBytes += k.length;
  let buf = new Uint8Array(1 << 16);
  let view = new DataView(buf.buffer);
  const put = (bytes: Uint8Array, p: number): number => {
    for (let i = 0; i < bytes.length; i++) buf[p + i] = bytes[i];
    return p + bytes.length;
  };
  if (scores === undefined) {
    // Without sentence scores every row of a block starts with the same bytes (map header, sentence, stats array
    // header), and its numbers are packed by the kernel.
    const rowPacker = taskRowKernels();
    const prefix = new Uint8Array(head.length + 9 + statsHead.length);
    const prefixView = new DataView(prefix.buffer);
    prefix.set(head, 0);
    return (sentence, stats, rows, out) => {
      let p = packNumber(prefix, prefixView, head.length, sentence);
      prefix.set(statsHead, p);
      p += statsHead.length;
      out.bytes(rowPacker.pack(prefix.subarray(0, p), stats, width, rows));
    };
  }
  return (sentence, stats, rows, out) => {
    const most = rows.length * (keyBytes + 9 * (1 + width + scoreKeys.length));
    if (buf.length < most) {
      buf = new Uint8Array(Math.max(most, 2 * buf.length));
      view = new DataView(buf.buffer);
    }
    let p = 0;
    for (let k = 0; k < rows.length; k++) {
      p = put(head, p);
      p = packNumber(buf, view, p, sentence);
      p = put(statsHead, p);
      const at = rows[k] * width;
      for (let i = 0; i < width; i++) p = packNumber(buf, view, p, stats[at + i]);
      if (scores !== undefined) {
        p = put(scoresHead!, p);
        const values = scores.score(stats, rows[k]);
        for (let i = 0; i < scoreKeys.length; i++) {
          p = put(scoreKeys[i], p);
          p = packNumber(buf, view, p, values[scoreIndex[i]]);
        }
      }
    }
    out.bytes(buf.subarray(0, p));
  };
}
