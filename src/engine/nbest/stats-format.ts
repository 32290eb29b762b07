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

/** The `scores` value of a row: id → score. */
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
  const packr = new Packr({ useRecords: false });
  return (sentence, stats, rows, out) => {
    for (let k = 0; k < rows.length; k++) {
      const value: Record<string, unknown> = { sentence, stats: rowArray(stats, width, rows[k]) };
      if (scores !== undefined) value.scores = scoreMap(scores, stats, rows[k]);
      out.bytes(packr.pack(value));
    }
  };
}
