/**
 * sacreBLEU 2.6.0's statistical tests over statistics rows, for any {@link Metric}: single-system bootstrap
 * confidence (`--confidence`), paired bootstrap resampling (`--paired-bs`) and paired approximate randomization
 * (`--paired-ar`), with its seeding, its draws (numpy `default_rng(seed)`, see numpy-random.ts) and its arithmetic,
 * so p-values, means and half-widths are the same doubles.
 *
 * - Bootstrap: `choice(n, size=(n_samples, n))` indices; each resample's rows are summed in float32 and scored by
 *   {@link resampleScorer}. Draws and sums run in the WebAssembly kernels (src/wasm/pcg64.ts): no n_samples × n
 *   matrix, and all metrics and both systems of a paired test summed from one pass over the shared indices.
 * - Paired bootstrap: every system gets a fresh generator with the same seed, so baseline and system are resampled
 *   with the same indices; p = (#{|Δ*| − mean|Δ*| > |Δ|} + 1) / (n_samples + 1), where Δ is the real difference.
 * - Approximate randomization: `integers(2, size=(n_trials, n), dtype=bool)` swaps; each trial scores both shuffled
 *   pseudo-systems from exact (float64) sums; p = (#{|a − b| > |Δ|} + 1) / (n_trials + 1).
 * - Seeds: `SACREBLEU_SEED` (default 12345; `none`, any case, draws fresh entropy). sacreBLEU passes the seed of a
 *   paired test through `seed if seed else None`, so seed 0 makes the compared systems' draws random while the
 *   baseline's confidence interval still uses 0; reproduced here.
 */
import { InputError } from '../errors.js';
import type { Metric } from '../metrics/metric.js';
import { sumRows } from '../metrics/metric.js';
import { defaultPcg64Engine } from '../wasm/pcg64.js';
import { defaultRng, type NumpySeed } from './numpy-random.js';
import { exactScorer, resampleScorer, type StatsScorer } from './significance-float32.js';
import { type BootstrapEstimate, estimateCiNumpy, numpyMean, pValue } from './significance-stats.js';

import { DEFAULT_SEED } from './seed.js';

export { DEFAULT_SEED };

/**
 * The seed sacreBLEU reads from `SACREBLEU_SEED`: an integer (Python `int()` syntax, default 12345), or `null`
 * for `none` in any case (fresh entropy).
 * @throws InputError `E_BAD_OPTION` for anything else (sacreBLEU would die with a ValueError).
 */
export function seedFromEnv(env: Readonly<Record<string, string | undefined>>): NumpySeed {
  const raw = env.SACREBLEU_SEED ?? String(DEFAULT_SEED);
  if (raw.toLowerCase() === 'none') return null;
  const m = /^\s*([+-]?)([0-9](?:_?[0-9])*)\s*$/.exec(raw);
  if (m === null) throw new InputError('E_BAD_OPTION', `SACREBLEU_SEED must be an integer or "None" (got "${raw}")`);
  const value = BigInt(m[2].replaceAll('_', ''));
  if (m[1] === '-' && value !== 0n) {
    throw new InputError('E_BAD_OPTION', `SACREBLEU_SEED must not be negative (got "${raw}")`);
  }
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/** How a seed is written in signatures: `12345`, or `none`. */
export function seedLabel(seed: NumpySeed): string {
  return seed === null ? 'none' : String(seed);
}

/** One system's statistics for one metric. */
export interface StatsRows {
  /** Row-major rows, `width` per segment. */
  readonly rows: Float64Array;
  /** Row width (the metric's `statsWidth`). */
  readonly width: number;
}

/** A metric as the tests use it: the real score of full rows, and sacreBLEU's score of float32 resample sums. */
export interface TestedMetric {
  /** Row width. */
  readonly width: number;
  /** The corpus score of rows (exact sums). @default the metric's `scoreFromStats` of the column sums */
  corpusScore(rows: Float64Array): number;
  /** The score of exact column sums (approximate randomization's pseudo-systems). */
  totalsScore: StatsScorer;
  /** The score of a resample's float32 column sums. */
  resampleScore: StatsScorer;
}

/** {@link TestedMetric} of a {@link Metric}, optionally with the CLI's own corpus reduction. */
export function testedMetric(metric: Metric, corpusScore?: (rows: Float64Array) => number): TestedMetric {
  return {
    width: metric.statsWidth,
    corpusScore: corpusScore ?? ((rows) => metric.scoreFromStats(sumRows(rows, metric.statsWidth)).score),
    totalsScore: exactScorer(metric),
    resampleScore: resampleScorer(metric),
  };
}

/**
 * The rows of several statistics matrices of `n` segments side by side, written into `out` (float32 for resamples:
 * numpy's conversion of sacreBLEU's statistics; double for approximate randomization): segment `i` of the result is
 * row `i` of `parts[0]`, then of `parts[1]`, … One pass over this matrix sums every part with the same draws.
 */
function sideBySide<T extends Float32Array | Float64Array>(
  parts: readonly { rows: Float64Array; width: number }[],
  n: number,
  out: T,
): T {
  const width = out.length / n;
  let offset = 0;
  for (const { rows, width: w } of parts) {
    for (let i = 0; i < n; i++) for (let c = 0; c < w; c++) out[i * width + offset + c] = rows[i * w + c];
    offset += w;
  }
  return out;
}

/** Every value of the rows is an integer (so that sums of them are exact in any order). */
function integral(rows: Float64Array): boolean {
  for (let k = 0; k < rows.length; k++) if (!Number.isInteger(rows[k])) return false;
  return true;
}

function checkRows(stats: StatsRows, what: string): number {
  if (stats.width <= 0 || stats.rows.length % stats.width !== 0) {
    throw new RangeError(`${what}: ${stats.rows.length} values do not make rows of width ${stats.width}`);
  }
  const n = stats.rows.length / stats.width;
  if (n === 0) throw new InputError('E_EMPTY_INPUT', `${what}: no segments to resample`);
  return n;
}

function checkCount(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`${what} must be a positive integer (got ${n})`);
}

/**
 * The scores of `nSamples` bootstrap resamples of one system (sacreBLEU's `_bootstrap_resample`), in draw order.
 * @param seed numpy seed (`null`: fresh entropy).
 */
export function bootstrapScores(stats: StatsRows, metric: TestedMetric, nSamples: number, seed: NumpySeed): Float64Array {
  checkCount(nSamples, 'the number of resamples');
  const n = checkRows(stats, 'bootstrap');
  const rows = sideBySide([stats], n, new Float32Array(stats.rows.length));
  const scores = new Float64Array(nSamples);
  defaultPcg64Engine().bootstrapSums(defaultRng(seed).bits, rows, stats.width, nSamples, (s, totals) => {
    scores[s] = metric.resampleScore(totals);
  });
  return scores;
}

/** The result for one system of a paired test, as sacreBLEU's `Result`. */
export interface PairedResult {
  /** The real corpus score. */
  readonly score: number;
  /** p-value against the baseline (null for the baseline). */
  readonly pValue: number | null;
  /** Bootstrap mean (null where sacreBLEU computes none, e.g. AR without confidence). */
  readonly mean: number | null;
  /** 95% half-width (null with `mean`). */
  readonly ci: number | null;
}

/** Options of {@link pairedTest}. */
export interface PairedTestOptions {
  /** `bs` (paired bootstrap resampling) or `ar` (approximate randomization). */
  readonly test: 'bs' | 'ar';
  /** Resamples (bs) or trials (ar); 0 takes sacreBLEU's default (1000 for bs, 10000 for ar). */
  readonly nSamples?: number;
  /**
   * With `ar`: bootstrap resamples for confidence intervals, −1 for none (sacreBLEU's default), 0 for 1000.
   * @default -1
   */
  readonly nArConfidence?: number;
  /** The seed as read from `SACREBLEU_SEED` (see {@link seedFromEnv}). @default 12345 */
  readonly seed?: NumpySeed;
  /** Called after each system is compared with the baseline: systems done, systems to compare. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** sacreBLEU's default numbers of resamples / trials. */
export const DEFAULT_SAMPLES = { bs: 1000, ar: 10000 } as const;

/**
 * One metric's statistics for every system, baseline first: `systems[s]` holds system `s`'s rows.
 */
export interface MetricSystems {
  /** The metric, as the tests score it. */
  readonly metric: TestedMetric;
  /** Statistics rows per system (`metric.width` per segment, every system the same segments), baseline first. */
  readonly systems: readonly Float64Array[];
}

/** What {@link pairedTest} returns: per metric, per system (baseline first), and the numbers it ran with. */
export interface PairedTestOutcome {
  /** `results[m][s]`: metric `m`, system `s`. */
  readonly results: PairedResult[][];
  /** Resamples or trials actually run. */
  readonly nSamples: number;
  /** Bootstrap resamples for confidence in AR mode (−1: none). */
  readonly nArConfidence: number;
}

/**
 * sacreBLEU's `PairedTest(...)()`: every system compared with the first (the baseline) on every metric.
 * @throws InputError `E_BAD_INPUT` with fewer than two systems or systems of different lengths.
 */
export function pairedTest(metrics: readonly MetricSystems[], options: PairedTestOptions): PairedTestOutcome {
  const test = options.test;
  const nSamples = options.nSamples !== undefined && options.nSamples > 0 ? options.nSamples : DEFAULT_SAMPLES[test];
  checkCount(nSamples, 'the number of samples');
  const nArConfidence = options.nArConfidence === 0 ? DEFAULT_SAMPLES.bs : (options.nArConfidence ?? -1);
  const seed = options.seed === undefined ? DEFAULT_SEED : options.seed;
  // sacreBLEU: `seed if seed else None` for the compared systems only.
  const systemSeed: NumpySeed = seed === 0 || seed === 0n ? null : seed;
  if (metrics.length === 0) throw new InputError('E_BAD_INPUT', 'a paired test needs at least one metric');
  const nSystems = metrics[0].systems.length;
  if (nSystems < 2) throw new InputError('E_BAD_INPUT', 'a paired test needs a baseline and at least one other system');
  let n = -1;
  for (const m of metrics) {
    if (m.systems.length !== nSystems) throw new RangeError('every metric needs the statistics of every system');
    for (const rows of m.systems) {
      const segs = checkRows({ rows, width: m.metric.width }, 'paired test');
      if (n >= 0 && segs !== n) {
        throw new InputError('E_BAD_INPUT', `systems of different lengths (${n} and ${segs} segments)`);
      }
      n = segs;
    }
  }

  const confidenceN = test === 'bs' ? nSamples : nArConfidence;
  const results: PairedResult[][] = metrics.map((m) => {
    const bl = m.systems[0];
    let mean: number | null = null;
    let ci: number | null = null;
    if (confidenceN > 0) {
      ({ mean, ci } = estimateCiNumpy(bootstrapScores({ rows: bl, width: m.metric.width }, m.metric, confidenceN, seed)));
    }
    return [{ score: m.metric.corpusScore(bl), pValue: null, mean, ci }];
  });

  for (let s = 1; s < nSystems; s++) {
    const perMetric =
      test === 'bs'
        ? pairedBootstrapSystem(metrics, s, n, nSamples, systemSeed)
        : pairedArSystem(metrics, s, n, nSamples, nArConfidence, systemSeed);
    perMetric.forEach((r, k) => results[k].push(r));
    options.onProgress?.(s, nSystems - 1);
  }
  return { results, nSamples, nArConfidence };
}

/** Offsets of each metric's columns in rows laid side by side (`k` parts of width w per metric). */
function offsets(metrics: readonly MetricSystems[], partsPerMetric: number): { at: number[]; width: number } {
  const at: number[] = [];
  let width = 0;
  for (const m of metrics) {
    at.push(width);
    width += partsPerMetric * m.metric.width;
  }
  return { at, width };
}

/**
 * sacreBLEU's `_paired_bs_test` for system `s` on every metric: the baseline and system rows of every metric side by
 * side, so one pass of shared resample indices gives all of their float32 sums.
 */
function pairedBootstrapSystem(
  metrics: readonly MetricSystems[],
  s: number,
  n: number,
  nSamples: number,
  seed: NumpySeed,
): PairedResult[] {
  const parts = metrics.flatMap((m) => [
    { rows: m.systems[0], width: m.metric.width },
    { rows: m.systems[s], width: m.metric.width },
  ]);
  const { at, width } = offsets(metrics, 2);
  const rows = sideBySide(parts, n, new Float32Array(n * width));
  const scoresBl = metrics.map(() => new Float64Array(nSamples));
  const scoresSys = metrics.map(() => new Float64Array(nSamples));
  defaultPcg64Engine().bootstrapSums(defaultRng(seed).bits, rows, width, nSamples, (r, totals) => {
    metrics.forEach((m, k) => {
      const w = m.metric.width;
      scoresBl[k][r] = m.metric.resampleScore(totals.subarray(at[k], at[k] + w));
      scoresSys[k][r] = m.metric.resampleScore(totals.subarray(at[k] + w, at[k] + 2 * w));
    });
  });
  return metrics.map((m, k) => {
    const blScore = m.metric.corpusScore(m.systems[0]);
    const sysScore = m.metric.corpusScore(m.systems[s]);
    const observed = Math.abs(blScore - sysScore);
    const { mean, ci } = estimateCiNumpy(scoresSys[k]);
    const diffs = new Float64Array(nSamples);
    for (let r = 0; r < nSamples; r++) diffs[r] = Math.abs(scoresSys[k][r] - scoresBl[k][r]);
    const diffMean = numpyMean(diffs);
    for (let r = 0; r < nSamples; r++) diffs[r] -= diffMean;
    return { score: sysScore, pValue: pValue(diffs, observed), mean, ci };
  });
}

/**
 * sacreBLEU's `_paired_ar_test` for system `s` on every metric: the metrics' rows side by side, so one pass over the
 * shared swap masks gives every metric's pseudo-system sums; then, from the same generator, the confidence resamples.
 */
function pairedArSystem(
  metrics: readonly MetricSystems[],
  s: number,
  n: number,
  nTrials: number,
  nArConfidence: number,
  seed: NumpySeed,
): PairedResult[] {
  const { at, width } = offsets(metrics, 1);
  const blParts = metrics.map((m) => ({ rows: m.systems[0], width: m.metric.width }));
  const sysParts = metrics.map((m) => ({ rows: m.systems[s], width: m.metric.width }));
  const bl = sideBySide(blParts, n, new Float64Array(n * width));
  const sys = sideBySide(sysParts, n, new Float64Array(n * width));
  // With integer statistics every sum is exact, so the kernel may sum only the swapped rows' differences.
  const exact = integral(bl) && integral(sys);
  const diffs = metrics.map(() => new Float64Array(nTrials));
  const engine = defaultPcg64Engine();
  const rng = defaultRng(seed);
  engine.randomizationSums(rng.bits, bl, sys, width, nTrials, exact, (t, a, b) => {
    metrics.forEach((m, k) => {
      const w = m.metric.width;
      const scoreA = m.metric.totalsScore(a.subarray(at[k], at[k] + w));
      diffs[k][t] = Math.abs(scoreA - m.metric.totalsScore(b.subarray(at[k], at[k] + w)));
    });
  });
  // The confidence resamples come from the same generator, after the whole swap matrix.
  let confidence: Float64Array[] | null = null;
  if (nArConfidence > 0) {
    const scores = metrics.map(() => new Float64Array(nArConfidence));
    const rows = sideBySide(sysParts, n, new Float32Array(n * width));
    engine.bootstrapSums(rng.bits, rows, width, nArConfidence, (r, totals) => {
      metrics.forEach((m, k) => {
        scores[k][r] = m.metric.resampleScore(totals.subarray(at[k], at[k] + m.metric.width));
      });
    });
    confidence = scores;
  }
  return metrics.map((m, k) => {
    const sysScore = m.metric.corpusScore(m.systems[s]);
    const observed = Math.abs(m.metric.corpusScore(m.systems[0]) - sysScore);
    let estimate: BootstrapEstimate | null = null;
    if (confidence !== null) estimate = estimateCiNumpy(confidence[k]);
    const p = pValue(diffs[k], observed);
    return { score: sysScore, pValue: p, mean: estimate?.mean ?? null, ci: estimate?.ci ?? null };
  });
}
