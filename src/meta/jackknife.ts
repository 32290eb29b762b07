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
 *
 * Each takes the reference streams, or the leave-one-out sets prepared once by {@link prepareLeaveOneOut} for
 * scoring many systems against the same references.
 */
import { InputError } from '../errors.js';
import { sumRows, type Metric, type PreparedReferences } from '../metrics/metric.js';

/**
 * The N leave-one-out reference sets of N reference streams, each prepared by one metric ({@link prepareLeaveOneOut}).
 * Preparing is the costly part (tokenizing and interning N × (N − 1) streams), so a caller scoring many systems
 * against the same references prepares once and passes this instead of the streams.
 */
export interface LeaveOneOutReferences<P extends PreparedReferences = PreparedReferences> extends PreparedReferences {
  /** `sets[k]`: every reference stream but stream k, prepared by the metric. */
  readonly sets: readonly P[];
}

/** Reference streams, or the leave-one-out sets prepared from them by the same metric. */
export type JackknifeReferences<P extends PreparedReferences = PreparedReferences> =
  | readonly (readonly string[])[]
  | LeaveOneOutReferences<P>;

/**
 * Prepares the leave-one-out reference sets of `refStreams` with `metric`, once for any number of systems (set k
 * leaves stream k out; the other streams keep their order).
 * @throws InputError `E_BAD_INPUT` with fewer than 2 reference streams; whatever `prepareReferences` throws.
 */
export function prepareLeaveOneOut<P extends PreparedReferences>(
  metric: Metric<P>,
  refStreams: readonly (readonly string[])[],
): LeaveOneOutReferences<P> {
  if (refStreams.length < 2) {
    throw new InputError('E_BAD_INPUT', `jackknifing needs at least 2 reference streams (got ${refStreams.length})`);
  }
  const sets = refStreams.map((_, k) => metric.prepareReferences(refStreams.filter((__, j) => j !== k)));
  return { segments: sets[0].segments, sets };
}

/**
 * The statistics rows of `hyps` against each leave-one-out reference set, in set order (set k leaves stream k out).
 * `refs` is either the reference streams (prepared here, on every call) or {@link prepareLeaveOneOut}'s sets,
 * prepared by this same metric.
 * @throws InputError `E_BAD_INPUT` with fewer than 2 reference streams.
 */
export function leaveOneOutRows<P extends PreparedReferences>(
  metric: Metric<P>,
  hyps: readonly string[],
  refs: JackknifeReferences<P>,
): Float64Array[] {
  const prepared = 'sets' in refs ? refs : prepareLeaveOneOut(metric, refs);
  return prepared.sets.map((set) => metric.segmentStats(hyps, set));
}

/**
 * Per-segment statistics rows averaged over the leave-one-out reference sets (row-major, `statsWidth` per segment).
 * `refs` as for {@link leaveOneOutRows}.
 * @throws InputError `E_BAD_INPUT` with fewer than 2 reference streams.
 */
export function jackknifeRows<P extends PreparedReferences>(
  metric: Metric<P>,
  hyps: readonly string[],
  refs: JackknifeReferences<P>,
): Float64Array {
  const sets = leaveOneOutRows(metric, hyps, refs);
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
 * The corpus score against each leave-one-out reference set, and the mean of those scores. `refs` as for
 * {@link leaveOneOutRows}.
 * @throws InputError `E_BAD_INPUT` with fewer than 2 reference streams.
 */
export function jackknifeScore<P extends PreparedReferences>(
  metric: Metric<P>,
  hyps: readonly string[],
  refs: JackknifeReferences<P>,
): JackknifeScore {
  const perSet = leaveOneOutRows(metric, hyps, refs).map(
    (rows) => metric.scoreFromStats(sumRows(rows, metric.statsWidth)).score,
  );
  let total = 0;
  for (const s of perSet) total += s;
  return { perSet, mean: total / perSet.length };
}
