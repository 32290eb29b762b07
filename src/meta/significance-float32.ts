/**
 * How sacreBLEU scores a bootstrap resample: it converts the statistics rows to a numpy float32 matrix, sums the
 * resampled rows in float32 (`stats[idx].sum(0)`: row after row, each column rounded to float32 at every step) and
 * hands the float32 sums to the metric's `_compute_score_from_stats`. With the goldens' numpy 1.24 a float32 scalar
 * mixed with a Python number is promoted to float64, so only the operations between two float32 values stay in
 * float32: chrF's `n_match / n_hyp` and `n_match / n_ref`, TER's `num_edits / ref_length`. Everything else is the
 * metric's usual double arithmetic.
 *
 * {@link resampleScorer} returns the reduction that reproduces this for a metric; metrics that sacreBLEU does not
 * have (or whose float32 sums are exact and used only through Python numbers, as BLEU's integer counts) fall back
 * to `scoreFromStats`.
 */
import { Bleu } from '../metrics/bleu/bleu.js';
import { bleuScore, type BleuReduction } from '../metrics/bleu/score.js';
import { Chrf } from '../metrics/chrf/chrf.js';
import { chrfScore } from '../metrics/chrf/score.js';
import type { Metric } from '../metrics/metric.js';
import { Ter } from '../metrics/ter/ter.js';
import { terScore } from '../metrics/ter/statistics.js';

/** A score from summed statistics (the metric's own scale). */
export type StatsScorer = (totals: Float64Array) => number;

/** sacreBLEU's TER from float32 totals: the edit rate is a float32 quotient, scaled by 100 in double. */
function terFromFloat32(totals: Float64Array): number {
  const edits = totals[0];
  const refLength = totals[1];
  if (refLength > 0) return 100 * Math.fround(edits / refLength);
  return edits > 0 ? 100 : 0;
}

/**
 * The reduction sacreBLEU applies to the float32 sums of a bootstrap resample, for `metric`.
 * The totals given to it must already be float32 sums (see {@link float32ColumnSums}).
 */
export function resampleScorer(metric: Metric): StatsScorer {
  if (metric instanceof Chrf) {
    const order = metric.charOrder + metric.wordOrder;
    // chrF as sacreBLEU computes it from float32 totals: the per-order ratios rounded to float32.
    return (totals) => chrfScore(totals, 0, order, metric.beta, metric.epsSmoothing, true);
  }
  if (metric instanceof Ter) return terFromFloat32;
  // BLEU reads its float32 sums through Python numbers (int() lengths, float64 precisions): its usual reduction.
  return exactScorer(metric);
}

/**
 * The corpus score of exact column sums, as a bare number: the metric's `scoreFromStats`, through the text-free
 * reductions for BLEU, chrF and TER (resampling scores thousands of totals; building their printed form each time
 * would dominate).
 */
export function exactScorer(metric: Metric): StatsScorer {
  if (metric instanceof Bleu) {
    const o = metric.options;
    const reduction: BleuReduction = {
      maxNgramOrder: o.maxNgramOrder,
      smoothMethod: o.smoothMethod,
      smoothValue: o.smoothValue,
      effectiveOrder: o.effectiveOrder ?? false,
    };
    const scratch = new Float64Array(3 * o.maxNgramOrder);
    return (totals) => bleuScore(totals, reduction, 0, scratch);
  }
  if (metric instanceof Chrf) {
    const order = metric.charOrder + metric.wordOrder;
    return (totals) => chrfScore(totals, 0, order, metric.beta, metric.epsSmoothing);
  }
  if (metric instanceof Ter) return (totals) => terScore(totals[0], totals[1]);
  return (totals) => metric.scoreFromStats(totals).score;
}
