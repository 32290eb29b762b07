/**
 * Seed 000's multi-reference procedure, jackknifing (§5): with N references, score against each of the N sets of
 * N − 1 references and average the N scores (src/meta/jackknife.ts's `jackknifeScore`, which the tests hold this
 * to). The leave-one-out reference sets are prepared once for all systems (src/meta/jackknife.ts's
 * `prepareLeaveOneOut`); the N rows of a segment then sit side by side in one wide row, so that the bootstrap of
 * ./correlations.ts can sum them over a resample like any other row and reduce each set's sums with the metric's
 * own `scoreFromStats` — the system score is the mean of the N leave-one-out corpus scores (the paper's reading,
 * not an average of rows), and a segment's score the mean of its N sentence scores.
 */
import { leaveOneOutRows, prepareLeaveOneOut, type LeaveOneOutReferences } from '../../src/meta/jackknife.js';
import type { Metric, MetricScore } from '../../src/metrics/metric.js';
import { correlationTableOf, type CorrelationTable } from './correlation-sections.js';
import { scoreVariant, type BootstrapSettings, type CorrelationCase, type ScoredVariant, type SetTexts } from './correlations.js';
import type { MetricVariant, SignedMetric } from './metric-variants.js';

/** The mean of `score` over the `sets` slices of width `width` of a wide row. */
function meanOfSets(metricName: string, row: Float64Array, width: number, sets: number, score: (slice: Float64Array) => number): MetricScore {
  let sum = 0;
  for (let k = 0; k < sets; k++) sum += score(row.subarray(k * width, (k + 1) * width));
  return { name: metricName, score: sum / sets, verboseScore: '' };
}

/**
 * `metric` over `sets` leave-one-out reference sets as one metric of wide rows: segment i's row is its N rows
 * against sets 0 … N − 1 side by side, and scores are the mean over the N slices.
 */
function wideMetric(
  name: string,
  metric: SignedMetric,
  sets: number,
): Metric<LeaveOneOutReferences> & { signature(nRefs: number, short?: boolean): string } {
  const width = metric.statsWidth;
  return {
    id: `${metric.id}-jackknife`,
    statsWidth: sets * width,
    statsColumns: Array.from({ length: sets }, (_, k) => metric.statsColumns.map((c) => `${c}@${k}`)).flat(),
    signature: (nRefs: number, short?: boolean) => `${metric.signature(nRefs - 1, short)} jackknife:${nRefs}`,
    prepareReferences: (refStreams) => prepareLeaveOneOut(metric, refStreams),
    segmentStats: (hyps, refs) => {
      const perSet = leaveOneOutRows(metric, hyps, refs);
      const out = new Float64Array(hyps.length * sets * width);
      for (let i = 0; i < hyps.length; i++) {
        for (let k = 0; k < sets; k++) out.set(perSet[k].subarray(i * width, (i + 1) * width), (i * sets + k) * width);
      }
      return out;
    },
    scoreFromStats: (sums) => meanOfSets(name, sums, width, sets, (s) => metric.scoreFromStats(s).score),
    sentenceScoreFromStats: (row) => meanOfSets(name, row, width, sets, (s) => metric.sentenceScoreFromStats(s).score),
  };
}

/**
 * A metric variant jackknifed over the references of `texts` (at least 2) on the `systems` given (default all):
 * wide rows of `N × statsWidth`, reduced as the mean over the N sets. Scored by ./correlations.ts's
 * `scoreVariant`, the per-system loop of every variant, with the wide metric in place of the variant's own.
 * @throws InputError `E_BAD_INPUT` with fewer than 2 references.
 */
export function jackknifeVariant(variant: MetricVariant, texts: SetTexts, systems?: readonly number[]): ScoredVariant {
  const wide = wideMetric(variant.name, variant.create(texts.set), texts.references.length);
  const scored = scoreVariant({ ...variant, create: () => wide }, texts, systems);
  return { ...scored, variant };
}

/** A jackknifed table beside the table of the same case with all references at once. */
export interface JackknifeTable {
  /** Id of the all-references table it pairs with. */
  readonly pairedWith: string;
  readonly table: CorrelationTable;
}

/** System-level correlations of jackknifed variants on one case. */
export function jackknifeTable(
  id: string,
  title: string,
  pairedWith: string,
  scored: readonly ScoredVariant[],
  c: CorrelationCase,
  bootstrap: BootstrapSettings,
): JackknifeTable {
  return { pairedWith, table: correlationTableOf(id, title, 'system', scored, c, bootstrap) };
}
