/**
 * `scoreFromTotals`: a metric's corpus score (the number alone) from summed statistics rows, for tuning loops.
 * sacrebleu-style BLEU takes an allocation-free path (a {@link BleuTotalsScorer} cached per metric instance); every
 * other metric goes through its own `scoreFromStats` (same number, with the cost of building its score object).
 */
import { Bleu } from '../metrics/bleu/bleu.js';
import type { Metric } from '../metrics/metric.js';
import { BleuTotalsScorer } from './bleu-totals-scorer.js';

/** Scorers per BLEU instance (a metric's options are fixed at construction, so one scorer serves it for life). */
const BLEU_SCORERS = new WeakMap<object, BleuTotalsScorer>();

/** The cached allocation-free scorer of a sacrebleu-style {@link Bleu}, or null for any other metric. */
export function bleuTotalsScorerOf(metric: Metric): BleuTotalsScorer | null {
  // Exactly Bleu: a subclass could reduce differently.
  if (metric.constructor !== Bleu) return null;
  let scorer = BLEU_SCORERS.get(metric);
  if (scorer === undefined) {
    const o = (metric as Bleu).options;
    scorer = new BleuTotalsScorer({
      maxNgramOrder: o.maxNgramOrder,
      smoothMethod: o.smoothMethod,
      smoothValue: o.smoothValue,
      effectiveOrder: o.effectiveOrder ?? false, // corpus default, as Bleu.scoreFromStats
    });
    BLEU_SCORERS.set(metric, scorer);
  }
  return scorer;
}

/**
 * The corpus score of `metric` from column sums of its statistics rows: `metric.scoreFromStats(totals).score`,
 * without text and, for BLEU, without allocating.
 * @throws RangeError when `totals` is not `metric.statsWidth` long.
 */
export function scoreFromTotals(metric: Metric, totals: Float64Array): number {
  if (totals.length !== metric.statsWidth) {
    throw new RangeError(`${metric.id} totals must have ${metric.statsWidth} columns (got ${totals.length})`);
  }
  const scorer = bleuTotalsScorerOf(metric);
  return scorer !== null ? scorer.score(totals, 0) : metric.scoreFromStats(totals).score;
}
