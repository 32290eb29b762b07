/**
 * Jackknifing over references for any {@link Metric} (Lin & Och 2004; ROUGE-1.5.5's way of scoring against several
 * references comparably with a human held out): with N reference streams, score against each of the N
 * leave-one-out sets of N−1 streams and average.
 *
 * Two readings, both provided:
 * - {@link jackknifeRows}: per segment, the statistics rows against the N leave-one-out sets averaged column by
 *   column (summed in set order, divided by N) — ROUGE-1.5.5's convention, where each segment's precision, recall
 *   and F are averaged over the sets before the corpus average; with Palette's ROUGE rows this gives exactly the
 *   scores of `jackknife: true`;
 * - {@link jackknifeScore}: the corpus score against each leave-one-out set, and their mean (for metrics whose
 *   corpus score is not an average of segments, such as BLEU).
 */
import { InputError } from '../errors.js';
import { sumRows, type Metric } from '../metrics/metric.js';

/** The statistics rows of `hyps` against each leave-one-out reference set, in set order (set k leaves stream k out). */
export function leaveOneOutRows(
  metric: Metric,
  hyps: readonly string[],
  refStreams: readonly (readonly string[])[],
): Float64Array[] {
  if (refStreams.length < 2) {
    throw new InputError('E_BAD_INPUT', `jackknifing needs at least 2 reference streams (got ${refStreams.length})`);
  }
  return refStreams.map((_, k) => {
    const prepared = metric.prepareReferences(refStreams.filter((__, j) => j !== k));
    return metric.segmentStats(hyps, prepared);
  });
}

/**
 * Per-segment statistics rows averaged over the leave-one-out reference sets (row-major, `statsWidth` per segment).
 * @throws InputError `E_BAD_INPUT` with fewer than 2 reference streams.
 */
export function jackknifeRows(
  metric: Metric,
  hyps: readonly string[],
  refStreams: readonly (readonly string[])[],
): Float64Array {
  const sets = leaveOneOutRows(metric, hyps, refStreams);
  const out = new Float64Array(sets[0].length);
  for (const rows of sets) for (let i = 0; i < out.length; i++) out[i] += rows[i];
  for (let i = 0; i < out.length; i++) out[i] /= sets.length;
  return out;
}

/** What {@link jackknifeScore} returns. */
export interface JackknifeScore {
  /** `perSet[k]`: the corpus score against every reference stream but k. */
  readonly perSet: number[];
  /** Their mean. */
  readonly mean: number;
}

/**
 * The corpus score against each leave-one-out reference set, and the mean of those scores.
 * @throws InputError `E_BAD_INPUT` with fewer than 2 reference streams.
 */
export function jackknifeScore(
  metric: Metric,
  hyps: readonly string[],
  refStreams: readonly (readonly string[])[],
): JackknifeScore {
  const perSet = leaveOneOutRows(metric, hyps, refStreams).map(
    (rows) => metric.scoreFromStats(sumRows(rows, metric.statsWidth)).score,
  );
  let total = 0;
  for (const s of perSet) total += s;
  return { perSet, mean: total / perSet.length };
}
