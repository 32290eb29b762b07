/**
 * Plain oracle of the msgpack statistics of `palette nbest` (src/engine/nbest/stats-format.ts, format `msgpack`): each
 * candidate's row packed by msgpackr as the object `{ sentence, stats[, scores] }` (`Packr({ useRecords: false })`,
 * `scores` an object from metric id to sentence score).
 */
import { Packr } from 'msgpackr';

/** The bytes of rows `rows` of `stats` (`width` numbers a row) of sentence `sentence`, with `scores(row)` when given. */
export function packStatsBlock(
  sentence: number,
  stats: ArrayLike<number>,
  width: number,
  rows: ArrayLike<number>,
  scores?: { ids: readonly string[]; score(row: number): number[] },
): Uint8Array {
  const packr = new Packr({ useRecords: false });
  const parts: Uint8Array[] = [];
  for (let k = 0; k < rows.length; k++) {
    const row: number[] = [];
    for (let i = 0; i < width; i++) row.push(stats[rows[k] * width + i]);
    const value: Record<string, unknown> = { sentence, stats: row };
    if (scores !== undefined) {
      const values = scores.score(rows[k]);
      const map: Record<string, number> = {};
      scores.ids.forEach((id, j) => (map[id] = values[j]));
      value.scores = map;
    }
    parts.push(packr.pack(value));
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
