/**
 * Seed 000's multi-reference procedure, jackknifing (§5): with N references, score against each of the N sets of
 * N − 1 references and average the N scores (src/meta/jackknife.ts's `jackknifeScore`, which the tests hold this
 * to). Each leave-one-out reference set is prepared once for all systems; the N rows of a segment then sit side by
 * side in one wide row, so that the bootstrap of ./correlations.ts can sum
 * them over a resample like any other row and reduce each set's sums with the metric's own `scoreFromStats` — the
 * system score is the mean of the N leave-one-out corpus scores (the paper's reading, not an average of rows), and
 * a segment's score the mean of its N sentence scores.
 */
import { InputError } from '../../src/errors.js';
import type { MetricScore } from '../../src/metrics/metric.js';
import { correlationTableOf, type CorrelationTable } from './correlation-sections.js';
import type { BootstrapSettings, CorrelationCase, ScoredVariant, SetTexts } from './correlations.js';
import type { MetricVariant, SignedMetric } from './metric-variants.js';

/** The mean of `score` over the `sets` slices of width `width` of a wide row. */
function meanOfSets(metricName: string, row: Float64Array, width: number, sets: number, score: (slice: Float64Array) => number): MetricScore {
  let sum = 0;
  for (let k = 0; k < sets; k++) sum += score(row.subarray(k * width, (k + 1) * width));
  return { name: metricName, score: sum / sets, verboseScore: '' };
}

/**
 * A metric variant jackknifed over the references of `texts` (at least 2) on the `systems` given (default all):
 * wide rows of `N × statsWidth`, reduced as the mean over the N sets.
 * @throws InputError with fewer than 2 references.
 */
export function jackknifeVariant(variant: MetricVariant, texts: SetTexts, systems?: readonly number[]): ScoredVariant {
  const metric = variant.create(texts.set);
  const sets = texts.references.length;
  const width = metric.statsWidth;
  const wide: SignedMetric = {
    id: `${metric.id}-jackknife`,
    statsWidth: sets * width,
    statsColumns: Array.from({ length: sets }, (_, k) => metric.statsColumns.map((c) => `${c}@${k}`)).flat(),
    signature: (nRefs: number, short?: boolean) => `${metric.signature(nRefs - 1, short)} jackknife:${nRefs}`,
    prepareReferences: () => {
      throw new Error('a jackknifed variant is scored from leave-one-out rows, not prepared');
    },
    segmentStats: () => {
      throw new Error('a jackknifed variant is scored from leave-one-out rows');
    },
    scoreFromStats: (sums) => meanOfSets(variant.name, sums, width, sets, (s) => metric.scoreFromStats(s).score),
    sentenceScoreFromStats: (row) => meanOfSets(variant.name, row, width, sets, (s) => metric.sentenceScoreFromStats(s).score),
  };
  if (sets < 2) throw new InputError('E_BAD_INPUT', `jackknifing needs at least 2 references (got ${sets})`);
  // Set k leaves reference k out, as src/meta/jackknife.ts numbers them.
  const prepared = texts.references.map((_, k) => metric.prepareReferences(texts.references.filter((__, j) => j !== k)));
  const wanted = new Set(systems ?? texts.outputs.map((_, s) => s));
  const rows: Float64Array[] = [];
  const sentence: Float64Array[] = [];
  texts.outputs.forEach((hyps, s) => {
    if (!wanted.has(s)) {
      rows.push(new Float64Array(0));
      sentence.push(new Float64Array(0));
      return;
    }
    const perSet = prepared.map((refs) => metric.segmentStats(hyps, refs));
    const out = new Float64Array(hyps.length * sets * width);
    const scores = new Float64Array(hyps.length);
    for (let i = 0; i < hyps.length; i++) {
      for (let k = 0; k < sets; k++) out.set(perSet[k].subarray(i * width, (i + 1) * width), (i * sets + k) * width);
      scores[i] = wide.sentenceScoreFromStats(out.subarray(i * sets * width, (i + 1) * sets * width)).score;
    }
    rows.push(out);
    sentence.push(scores);
  });
  return { variant, set: texts.set, metric: wide, rows, sentence, signature: wide.signature(sets, true) };
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
