/**
 * The statistics matrix of an n-best list (issue 5, tuning API): one metric's sufficient-statistics row for every
 * candidate, flat and text-free, so a tuning loop (MERT line search, PRO sampling) only sums rows and reduces them.
 *
 * Metrics compute rows against "hypothesis i ↔ segment i" (`Metric.segmentStats`), one hypothesis per segment. An
 * n-best list has several per segment, so the rows are built in layers (src/engine/layered-rows.ts): layer k holds
 * the k-th candidate of every segment, and each layer is one ordinary `segmentStats` call. A row depends only on its
 * hypothesis and its segment's references for every metric of src/metrics, so the rows are exactly those a
 * one-hypothesis corpus call gives — the property the tests check against `corpusScore`. The cost is one batch per
 * layer (the largest n-best size), not one per candidate.
 */
import { InputError } from '../errors.js';
import { layeredRows } from '../engine/layered-rows.js';
import type { Metric, PreparedReferences } from '../metrics/metric.js';

/** Rows of one metric for an n-best list. Rows of segment `s` are `segmentOffsets[s] .. segmentOffsets[s + 1]`. */
export interface StatsMatrix<P extends PreparedReferences = PreparedReferences> {
  /** The metric the rows belong to (reduces summed rows to a score). */
  readonly metric: Metric<P>;
  /** Row width (`metric.statsWidth`). */
  readonly width: number;
  /** Number of rows (candidates). */
  readonly rows: number;
  /** Number of segments. */
  readonly segments: number;
  /** Row-major statistics, `rows × width`. */
  readonly stats: Float64Array;
  /** Segment of each row (non-decreasing). */
  readonly rowSegment: Int32Array;
  /** Row offsets per segment, `segments + 1` entries. */
  readonly segmentOffsets: Int32Array;
}

/**
 * Builds the statistics matrix of an n-best list.
 * @param hyps candidates, grouped by segment (`hypSegment` non-decreasing).
 * @param hypSegment segment of each candidate, in `0 .. refs.segments`.
 * @param refs references prepared by `metric.prepareReferences`.
 * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and `hypSegment` differ in length, `E_BAD_INPUT` when a
 * segment id is out of range or decreases, or when a segment has no candidate.
 */
export function buildStatsMatrix<P extends PreparedReferences>(
  metric: Metric<P>,
  hyps: readonly string[],
  hypSegment: ArrayLike<number>,
  refs: P,
): StatsMatrix<P> {
  if (hyps.length !== hypSegment.length) {
    throw new InputError('E_LINE_COUNT_MISMATCH', `${hyps.length} hypotheses but ${hypSegment.length} segment ids`);
  }
  const segments = refs.segments;
  const rows = hyps.length;
  const rowSegment = new Int32Array(rows);
  const segmentOffsets = new Int32Array(segments + 1);
  let prev = 0;
  for (let h = 0; h < rows; h++) {
    const s = hypSegment[h];
    if (!Number.isInteger(s) || s < 0 || s >= segments) {
      throw new InputError('E_BAD_INPUT', `segment id ${s} of hypothesis ${h} is not in 0..${segments - 1}`);
    }
    if (s < prev) throw new InputError('E_BAD_INPUT', `segment ids must be non-decreasing (hypothesis ${h}: ${s} after ${prev})`);
    prev = s;
    rowSegment[h] = s;
    segmentOffsets[s + 1]++;
  }
  for (let s = 0; s < segments; s++) {
    if (segmentOffsets[s + 1] === 0) throw new InputError('E_BAD_INPUT', `segment ${s} has no hypothesis`);
    segmentOffsets[s + 1] += segmentOffsets[s];
  }
  const width = metric.statsWidth;
  const stats = layeredRows(metric, refs, hyps, segmentOffsets);
  return { metric, width, rows, segments, stats, rowSegment, segmentOffsets };
}

/** Column sums over every row of the matrix (each segment's candidates all counted). */
export function matrixColumnSums(matrix: StatsMatrix): Float64Array {
  const { stats, width } = matrix;
  const totals = new Float64Array(width);
  for (let i = 0; i < stats.length; i += width) for (let c = 0; c < width; c++) totals[c] += stats[i + c];
  return totals;
}
