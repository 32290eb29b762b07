/** Reading score tables (human judgments, metric scores) from files on Node; the formats: ../meta/human-scores.ts. */
import { parseScoreTable, type ScoreColumns, type ScoreTable } from '../meta/human-scores.js';
import { readLines } from './read-lines.js';

/**
 * Reads a score table from a file (strict UTF-8, `'\n'` lines, as every Palette input).
 * @throws InputError naming the file (and line): see {@link parseScoreTable} and {@link readLines}.
 */
export function readScoreTable(file: string, columns: ScoreColumns = {}): ScoreTable {
  // An empty file gets the score table's own message (what it should hold), not the segment files' one.
  return parseScoreTable(file, readLines(file, { allowEmpty: true }), columns);
}
