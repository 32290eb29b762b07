/**
 * Serialisations of per-candidate statistics, one sentence block at a time.
 *
 * - `moses`: Moses `extractor`'s SCORESTAT text: `SCORES_TXT_BEGIN_0 <sentence> <candidates> <width> BLEU`, one
 *   line per candidate with every number followed by one space (`m1 t1 … m4 t4 reflen `), `SCORES_TXT_END_0`.
 * - `json`: JSON Lines, one object per candidate in the same order: `{"sentence":0,"stats":[6,14,1,13,0,12,0,11,18]}`.
 * - `msgpack`: a sequence of MessagePack values (read it with msgpackr's `unpackMultiple`), one per candidate in the
 *   same order, each a map `{sentence, stats}` like the JSON objects (plain maps, no msgpackr records, so any
 *   MessagePack reader decodes them).
 */
import { Packr } from 'msgpackr';
import type { NbestStatsFormat } from './options.js';

/**
 * Encodes the candidates of one sentence: candidate `k` of the block is row `rows[k]` of `stats`, a flat array of
 * `width` numbers per row (no array per candidate).
 */
export type BlockEncoder = (sentence: number, stats: ArrayLike<number>, rows: ArrayLike<number>) => string | Uint8Array;

/** `String(v) + ' '` of the small non-negative integers that make up nearly all statistics, made once. */
const SMALL = Array.from({ length: 1024 }, (_, v) => `${v} `);

/** `${v} ` through the table when `v` is a small integer (-0 is "0 " either way). */
function numberSpace(v: number): string {
  return v >= 0 && v < SMALL.length && Number.isInteger(v) ? SMALL[v] : `${v} `;
}

/** Row `r`'s numbers as a plain array (JSON and msgpack output). */
function rowArray(stats: ArrayLike<number>, width: number, r: number): number[] {
  const row = new Array<number>(width);
  for (let i = 0; i < width; i++) row[i] = stats[r * width + i];
  return row;
}

/** The encoder of `format` for statistics named `scorer` (Moses' scorer name: `BLEU`), `width` numbers a row. */
export function blockEncoder(format: NbestStatsFormat, scorer: string, width: number): BlockEncoder {
  if (format === 'moses') {
    return (sentence, stats, rows) => {
      // One string per block, built piece by piece; the sink joins blocks into large writes.
      let out = `SCORES_TXT_BEGIN_0 ${sentence} ${rows.length} ${width} ${scorer}\n`;
      for (let k = 0; k < rows.length; k++) {
        const at = rows[k] * width;
        let line = '';
        for (let i = 0; i < width; i++) line += numberSpace(stats[at + i]);
        out += `${line}\n`;
      }
      return `${out}SCORES_TXT_END_0\n`;
    };
  }
  if (format === 'json') {
    return (sentence, stats, rows) => {
      let out = '';
      for (let k = 0; k < rows.length; k++) {
        out += `{"sentence":${sentence},"stats":[${rowArray(stats, width, rows[k]).join(',')}]}\n`;
      }
      return out;
    };
  }
  const packr = new Packr({ useRecords: false });
  return (sentence, stats, rows) => {
    const parts: Uint8Array[] = [];
    for (let k = 0; k < rows.length; k++) parts.push(packr.pack({ sentence, stats: rowArray(stats, width, rows[k]) }));
    return Buffer.concat(parts);
  };
}
