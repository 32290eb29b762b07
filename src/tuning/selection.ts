/**
 * Scoring a selection of one candidate per segment from a {@link StatsMatrix} — the MERT inner loop — by summing
 * the chosen rows and reducing them, without touching text; plus the row-difference update a line search applies
 * at each envelope breakpoint.
 *
 * Rows are summed in segment order starting from zero, as `sumRows` does for `corpusScore`, so the score is the
 * one `corpusScore` gives on the chosen texts. Delta updates (`totals += chosen − previous`) are exact while the
 * statistics are integers below 2^53 (BLEU with `closest`/`shortest` reference lengths, chrF); with fractional
 * columns (BLEU `refLength: 'average'`, NIST's information sums) they can drift from a fresh sum in the last bits —
 * re-sum with {@link selectionTotals} where that matters.
 */
import { InputError } from '../errors.js';
import type { StatsMatrix } from './stats-matrix.js';
import { bleuTotalsScorerOf, scoreFromTotals } from './score-from-totals.js';

function checkTotals(matrix: StatsMatrix, totals: Float64Array): void {
  if (totals.length !== matrix.width) {
    throw new RangeError(`totals must have ${matrix.width} columns (got ${totals.length})`);
  }
}

/**
 * Column sums of the rows a selection chooses.
 * @param selection row index (into the matrix) chosen for each segment; the row must belong to that segment.
 * @param out optional buffer of `matrix.width` numbers, overwritten and returned.
 * @throws InputError `E_LINE_COUNT_MISMATCH` when `selection` is not one entry per segment, `E_BAD_INPUT` when a
 * chosen row is not a candidate of its segment; RangeError when `out` has the wrong width.
 */
export function selectionTotals(matrix: StatsMatrix, selection: Int32Array, out?: Float64Array): Float64Array {
  const { width, stats, segmentOffsets, segments } = matrix;
  if (selection.length !== segments) {
    throw new InputError('E_LINE_COUNT_MISMATCH', `selection has ${selection.length} entries for ${segments} segments`);
  }
  const totals = out ?? new Float64Array(width);
  checkTotals(matrix, totals);
  totals.fill(0);
  for (let s = 0; s < segments; s++) {
    const row = selection[s];
    if (!(row >= segmentOffsets[s] && row < segmentOffsets[s + 1])) {
      throw new InputError('E_BAD_INPUT', `selected row ${row} is not a candidate of segment ${s}`);
    }
    const base = row * width;
    for (let c = 0; c < width; c++) totals[c] += stats[base + c];
  }
  return totals;
}

/**
 * Corpus score of a selection of one candidate per segment: `corpusScore` of the chosen texts, from the matrix.
 * @param out optional buffer of `matrix.width` numbers for the summed row (no allocation then, for BLEU).
 * @throws as {@link selectionTotals}.
 */
export function selectionScore(matrix: StatsMatrix, selection: Int32Array, out?: Float64Array): number {
  const totals = selectionTotals(matrix, selection, out);
  const scorer = bleuTotalsScorerOf(matrix.metric);
  return scorer !== null ? scorer.score(totals, 0) : scoreFromTotals(matrix.metric, totals);
}

/**
 * Replaces row `fromRow` by row `toRow` in running totals (`totals += row[toRow] − row[fromRow]`), in place: the
 * update when one segment's chosen candidate changes at a line-search breakpoint.
 * @throws RangeError for a row index outside the matrix or totals of the wrong width.
 */
export function applyRowDelta(matrix: StatsMatrix, totals: Float64Array, fromRow: number, toRow: number): Float64Array {
  checkTotals(matrix, totals);
  const { width, stats, rows } = matrix;
  if (!Number.isInteger(fromRow) || !Number.isInteger(toRow) || fromRow < 0 || fromRow >= rows || toRow < 0 || toRow >= rows) {
    throw new RangeError(`rows ${fromRow} and ${toRow} must be integers in 0..${rows - 1}`);
  }
  const a = fromRow * width;
  const b = toRow * width;
  for (let c = 0; c < width; c++) totals[c] += stats[b + c] - stats[a + c];
  return totals;
}
