/**
 * sacreBLEU 2.6.0's statistical tests over statistics rows, for any {@link Metric}: single-system bootstrap
 * confidence (`--confidence`), paired bootstrap resampling (`--paired-bs`) and paired approximate randomization
 * (`--paired-ar`), with its seeding, its draws (numpy `default_rng(seed)`, see numpy-random.ts) and its arithmetic,
 * so p-values, means and half-widths are the same doubles.
 *
 * - Bootstrap: `choice(n, size=(n_samples, n))` indices; each resample's rows are summed in float32 and scored by
 *   {@link resampleScorer}. Drawn a row at a time from one stream: no n_samples × n matrix.
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
import { defaultRng, type NumpySeed } from './numpy-random.js';
import { exactScorer, resampleScorer, type StatsScorer } from './significance-float32.js';
import { type BootstrapEstimate, estimateCiNumpy, numpyMean, pValue } from './significance-stats.js';

/** sacreBLEU's default seed. */
export const DEFAULT_SEED = 12345;

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
 * Column sums of the rows picked by `idx` as numpy sums a float32 matrix along axis 0 (row after row, float32
 * accumulation), written to `out`. `exact` says the caller checked that no float32 rounding can happen (integer
 * statistics whose sums stay below 2^24), which allows the plain double loop.
 */
function float32Sums(rows: Float64Array, width: number, idx: Uint32Array, out: Float64Array, exact: boolean): void {
  out.fill(0);
  if (exact) {
    for (let i = 0; i < idx.length; i++) {
      const base = idx[i] * width;
      for (let c = 0; c < width; c++) out[c] += rows[base + c];
    }
    return;
  }
  for (let i = 0; i < idx.length; i++) {
    const base = idx[i] * width;
    for (let c = 0; c < width; c++) out[c] = Math.fround(out[c] + rows[base + c]);
  }
}

/** A float32 copy (as doubles) of the rows, and whether float32 sums of any resample of them are exact. */
function float32Rows(stats: StatsRows): { rows: Float64Array; exact: boolean } {
  const { rows, width } = stats;
  const n = width === 0 ? 0 : rows.length / width;
  const out = new Float64Array(rows.length);
  let exact = true;
  const colMax = new Float64Array(width);
  for (let k = 0; k < rows.length; k++) {
    const v = Math.fround(rows[k]);
    out[k] = v;
    if (!Number.isInteger(v) || v < 0) exact = false;
    else if (v > colMax[k % width]) colMax[k % width] = v;
  }
  // A resample sums n rows: below 2^24 every partial float32 sum of integers is exact.
  for (let c = 0; c < width && exact; c++) if (colMax[c] * n >= 2 ** 24) exact = false;
  return { rows: out, exact };
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
  const { rows, exact } = float32Rows(stats);
  const draw = defaultRng(seed).boundedStream(n);
  const idx = new Uint32Array(n);
  const totals = new Float64Array(stats.width);
  const scores = new Float64Array(nSamples);
  for (let s = 0; s < nSamples; s++) {
    draw.fill(idx);
    float32Sums(rows, stats.width, idx, totals, exact);
    scores[s] = metric.resampleScore(totals);
  }
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
}

/** sacreBLEU's default numbers of resamples / trials. */
export const DEFAULT_SAMPLES = { bs: 1000, ar: 10000 } as const;

/**
 * One metric's statistics for every system, baseline first: `systems[s]` holds system `s`'s rows.
 */
export interface MetricSystems {
  readonly metric: TestedMetric;
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
  }
  return { results, nSamples, nArConfidence };
}

/** sacreBLEU's `_paired_bs_test` for system `s` on every metric: one pass over the shared resample indices. */
function pairedBootstrapSystem(
  metrics: readonly MetricSystems[],
  s: number,
  n: number,
  nSamples: number,
  seed: NumpySeed,
): PairedResult[] {
  const prepared = metrics.map((m) => {
    const width = m.metric.width;
    const bl = float32Rows({ rows: m.systems[0], width });
    const sys = float32Rows({ rows: m.systems[s], width });
    return {
      m,
      width,
      bl,
      sys,
      totals: new Float64Array(width),
      scoresBl: new Float64Array(nSamples),
      scoresSys: new Float64Array(nSamples),
    };
  });
  const draw = defaultRng(seed).boundedStream(n);
  const idx = new Uint32Array(n);
  for (let r = 0; r < nSamples; r++) {
    draw.fill(idx);
    for (const p of prepared) {
      float32Sums(p.bl.rows, p.width, idx, p.totals, p.bl.exact);
      p.scoresBl[r] = p.m.metric.resampleScore(p.totals);
      float32Sums(p.sys.rows, p.width, idx, p.totals, p.sys.exact);
      p.scoresSys[r] = p.m.metric.resampleScore(p.totals);
    }
  }
  return prepared.map((p) => {
    const blScore = p.m.metric.corpusScore(p.m.systems[0]);
    const sysScore = p.m.metric.corpusScore(p.m.systems[s]);
    const observed = Math.abs(blScore - sysScore);
    const { mean, ci } = estimateCiNumpy(p.scoresSys);
    const diffs = new Float64Array(nSamples);
    for (let r = 0; r < nSamples; r++) diffs[r] = Math.abs(p.scoresSys[r] - p.scoresBl[r]);
    const diffMean = numpyMean(diffs);
    for (let r = 0; r < nSamples; r++) diffs[r] -= diffMean;
    return { score: sysScore, pValue: pValue(diffs, observed), mean, ci };
  });
}

/** sacreBLEU's `_paired_ar_test` for system `s` on every metric: one pass over the shared swap masks. */
function pairedArSystem(
  metrics: readonly MetricSystems[],
  s: number,
  n: number,
  nTrials: number,
  nArConfidence: number,
  seed: NumpySeed,
): PairedResult[] {
  const prepared = metrics.map((m) => {
    const width = m.metric.width;
    const bl = m.systems[0];
    const sys = m.systems[s];
    // With integer statistics, a = Σsys + Σ_{swapped}(bl − sys) and b = Σbl − Σ_{swapped}(bl − sys) are exact and
    // touch only the swapped rows; otherwise both pseudo-systems are summed row by row.
    let integral = true;
    const delta = new Float64Array(bl.length);
    for (let k = 0; k < bl.length; k++) {
      if (!Number.isInteger(bl[k]) || !Number.isInteger(sys[k])) integral = false;
      delta[k] = bl[k] - sys[k];
    }
    return {
      m,
      width,
      bl,
      sys,
      integral,
      delta,
      blTotal: sumRows(bl, width),
      sysTotal: sumRows(sys, width),
      a: new Float64Array(width),
      b: new Float64Array(width),
      diffs: new Float64Array(nTrials),
    };
  });
  const rng = defaultRng(seed);
  const flips = rng.boolStream();
  const mask = new Uint8Array(n);
  for (let t = 0; t < nTrials; t++) {
    flips.fill(mask);
    for (const p of prepared) {
      const { width, bl, sys, a, b } = p;
      if (p.integral) {
        a.set(p.sysTotal);
        const d = p.delta;
        for (let i = 0; i < n; i++) {
          if (mask[i] === 0) continue;
          const base = i * width;
          for (let c = 0; c < width; c++) a[c] += d[base + c];
        }
        for (let c = 0; c < width; c++) b[c] = p.blTotal[c] + p.sysTotal[c] - a[c];
      } else {
        a.fill(0);
        b.fill(0);
        // Pseudo-system a takes the baseline's row where the mask is set, the system's elsewhere; b the opposite.
        for (let i = 0; i < n; i++) {
          const base = i * width;
          const x = mask[i] ? bl : sys;
          const y = mask[i] ? sys : bl;
          for (let c = 0; c < width; c++) {
            a[c] += x[base + c];
            b[c] += y[base + c];
          }
        }
      }
      p.diffs[t] = Math.abs(p.m.metric.totalsScore(a) - p.m.metric.totalsScore(b));
    }
  }
  // The confidence resamples come from the same generator, after the whole swap matrix.
  let confidence: Float64Array[] | null = null;
  if (nArConfidence > 0) {
    const draw = rng.boundedStream(n);
    const idx = new Uint32Array(n);
    const sysRows = prepared.map((p) => float32Rows({ rows: p.sys, width: p.width }));
    confidence = prepared.map(() => new Float64Array(nArConfidence));
    const totals = prepared.map((p) => new Float64Array(p.width));
    for (let r = 0; r < nArConfidence; r++) {
      draw.fill(idx);
      prepared.forEach((p, k) => {
        float32Sums(sysRows[k].rows, p.width, idx, totals[k], sysRows[k].exact);
        confidence![k][r] = p.m.metric.resampleScore(totals[k]);
      });
    }
  }
  return prepared.map((p, k) => {
    const sysScore = p.m.metric.corpusScore(p.sys);
    const observed = Math.abs(p.m.metric.corpusScore(p.bl) - sysScore);
    let estimate: BootstrapEstimate | null = null;
    if (confidence !== null) estimate = estimateCiNumpy(confidence[k]);
    return { score: sysScore, pValue: pValue(p.diffs, observed), mean: estimate?.mean ?? null, ci: estimate?.ci ?? null };
  });
}
