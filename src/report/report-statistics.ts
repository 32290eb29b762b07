/**
 * The report's resampling statistics, from src/meta/significance.ts (sacreBLEU 2.6.0's draws and arithmetic):
 *
 * - Intervals: each system's rows are bootstrapped as sacreBLEU's paired bootstrap resamples them (numpy
 *   `default_rng(seed)`, float32 sums) and the interval is sacreBLEU's `μ ± half-width` of the 95% range, so the
 *   numbers equal the `mean`/`ci` of `sacrebleu --paired-bs` for every system.
 * - Paired bootstrap: sacreBLEU resamples every system with the same indices (one generator per system, all with
 *   the same seed), so each system's resample scores are computed once — shared with the intervals when the counts
 *   agree — and each pair's p-value follows from them with sacreBLEU's formula. Against the first system this is
 *   exactly `PairedTest`'s p-value (tested), for every pair it costs no more resampling.
 * - Approximate randomization has no such shortcut (the swaps mix the two systems): sacreBLEU's `PairedTest`
 *   itself, every system against the first, or each system as the baseline in turn for all pairs.
 */
import type { NumpySeed } from '../meta/numpy-random.js';
import { bootstrapScores, pairedTest, testedMetric, type TestedMetric } from '../meta/significance.js';
import { estimateCiNumpy, numpyMean, pValue } from '../meta/significance-stats.js';
import type { BuildReportOptions, ReportStatistics } from './build-report.js';
import type { ReportInterval } from './report-data.js';

/** sacreBLEU's default numbers of resamples (bs) and trials (ar). */
const SACREBLEU_SAMPLES = { bs: 1000, ar: 10000 } as const;

function tested(stats: ReportStatistics): TestedMetric {
  return testedMetric(stats.metric.metric, (rows) => stats.metric.corpusScore(rows).score);
}

/** Resample scores per system, by `samples:seed`, for each metric's statistics (the hooks get the same object). */
const resampled = new WeakMap<ReportStatistics, Map<string, Float64Array[]>>();

/** Every system's bootstrap resample scores (sacreBLEU's draws for `seed`), computed once per statistics object. */
function systemResamples(stats: ReportStatistics, samples: number, seed: number): Float64Array[] {
  let bySetting = resampled.get(stats);
  if (bySetting === undefined) resampled.set(stats, (bySetting = new Map()));
  const key = `${samples}:${seed}`;
  let scores = bySetting.get(key);
  if (scores === undefined) {
    const metric = tested(stats);
    scores = stats.rows.map((rows) => bootstrapScores({ rows, width: metric.width }, metric, samples, seed));
    bySetting.set(key, scores);
  }
  return scores;
}

/**
 * Interval hook of {@link BuildReportOptions}: 95% bootstrap intervals of every system's corpus score.
 * @param resamples bootstrap resamples (≥ 1)
 * @param seed numpy seed of every system's resampling
 */
export function bootstrapIntervals(resamples: number, seed: number): NonNullable<BuildReportOptions['intervals']> {
  return {
    info: { level: 0.95, resamples, seed, method: "bootstrap over segments, sacreBLEU's μ ± 95% half-width" },
    compute(stats): ReportInterval[] {
      return systemResamples(stats, resamples, seed).map((scores) => {
        const { mean, ci } = estimateCiNumpy(scores);
        return { low: mean - ci, high: mean + ci, mean };
      });
    },
  };
}

/** Options of {@link pairedSignificance}. */
export interface PairedSignificanceOptions {
  /** `bs`: paired bootstrap resampling; `ar`: paired approximate randomization. */
  readonly test: 'bs' | 'ar';
  /** Resamples (bs) or trials (ar). @default 1000 (bs), 10000 (ar), as sacreBLEU */
  readonly samples?: number;
  /** numpy seed (≥ 1: sacreBLEU turns 0 into fresh entropy for the compared systems). */
  readonly seed: number;
  /** Test every pair rather than every system against the baseline. @default false */
  readonly allPairs?: boolean;
  /** Index of the baseline system when not every pair is tested. @default 0 (the first) */
  readonly baseline?: number;
}

/** AR p-values of every system against `baseline` (null for the baseline itself), with sacreBLEU's `PairedTest`. */
function againstBaseline(stats: ReportStatistics, baseline: number, samples: number, seed: NumpySeed): (number | null)[] {
  const order = [baseline, ...stats.rows.map((_, s) => s).filter((s) => s !== baseline)];
  const outcome = pairedTest([{ metric: tested(stats), systems: order.map((s) => stats.rows[s]) }], {
    test: 'ar',
    nSamples: samples,
    seed,
  });
  const p: (number | null)[] = new Array(stats.rows.length).fill(null);
  order.forEach((s, k) => {
    p[s] = k === 0 ? null : outcome.results[0][k].pValue;
  });
  return p;
}

/** Paired-bootstrap p-values (of the baseline's row, or of every pair) from one set of resample scores per system. */
function bootstrapPairs(stats: ReportStatistics, samples: number, seed: number, allPairs: boolean, baseline: number): (number | null)[][] {
  const scores = systemResamples(stats, samples, seed);
  const real = stats.rows.map((rows) => stats.metric.corpusScore(rows).score);
  const diffs = new Float64Array(samples);
  return stats.rows.map((_, i) =>
    stats.rows.map((__, j) => {
      if (i === j || (!allPairs && i !== baseline)) return null;
      for (let r = 0; r < samples; r++) diffs[r] = Math.abs(scores[j][r] - scores[i][r]);
      const mean = numpyMean(diffs);
      for (let r = 0; r < samples; r++) diffs[r] -= mean;
      return pValue(diffs, Math.abs(real[i] - real[j]));
    }),
  );
}

/**
 * Significance hook of {@link BuildReportOptions}: sacreBLEU's paired tests, against the first system or between
 * every pair.
 * @throws RangeError for a seed below 1 or a sample count below 1.
 */
export function pairedSignificance(options: PairedSignificanceOptions): NonNullable<BuildReportOptions['significance']> {
  const { test, seed } = options;
  const samples = options.samples ?? SACREBLEU_SAMPLES[test];
  if (!Number.isSafeInteger(seed) || seed < 1) throw new RangeError(`seed must be a positive integer (got ${seed})`);
  if (!Number.isSafeInteger(samples) || samples < 1) throw new RangeError(`samples must be a positive integer (got ${samples})`);
  const allPairs = options.allPairs ?? false;
  const baseline = options.baseline ?? 0;
  if (!Number.isSafeInteger(baseline) || baseline < 0) throw new RangeError(`baseline must be a system index (got ${baseline})`);
  return {
    info: { test, resamples: samples, seed, baseline: allPairs ? null : baseline },
    compute(stats) {
      const n = stats.rows.length;
      if (n < 2) return stats.rows.map(() => stats.rows.map(() => null));
      if (baseline >= n) throw new RangeError(`baseline ${baseline} is not one of the ${n} systems`);
      if (test === 'bs') return bootstrapPairs(stats, samples, seed, allPairs, baseline);
      const rows: (number | null)[][] = [];
      for (let i = 0; i < n; i++) {
        rows.push(allPairs || i === baseline ? againstBaseline(stats, i, samples, seed) : new Array(n).fill(null));
      }
      return rows;
    },
  };
}
