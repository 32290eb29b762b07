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

/** Encodes the candidates of one sentence (`rows[i]` = one candidate's statistics). */
export type BlockEncoder = (sentence: number, rows: readonly ArrayLike<number>[]) => string | Uint8Array;

/** The encoder of `format` for statistics named `scorer` (Moses' scorer name: `BLEU`). */
export function blockEncoder(format: NbestStatsFormat, scorer: string, width: number): BlockEncoder {
  if (format === 'moses') {
    return (sentence, rows) => {
      let out = `SCORES_TXT_BEGIN_0 ${sentence} ${rows.length} ${width} ${scorer}\n`;
      for (const row of rows) {
        for (let i = 0; i < row.length; i++) out += `${row[i]} `;
        out += '\n';
      }
      return `${out}SCORES_TXT_END_0\n`;
    };
  }
  if (format === 'json') {
    return (sentence, rows) => {
      let out = '';
      for (const row of rows) out += `{"sentence":${sentence},"stats":[${Array.from(row).join(',')}]}\n`;
      return out;
    };
  }
  const packr = new Packr({ useRecords: false });
  return (sentence, rows) => {
    const parts = rows.map((row) => packr.pack({ sentence, stats: Array.from(row) }));
    return Buffer.concat(parts);
  };
}
