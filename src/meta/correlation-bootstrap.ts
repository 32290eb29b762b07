/**
 * Correlations of metric scores with human scores at segment and system level, with percentile bootstrap
 * confidence intervals (seed 000: resample segments; seed 001: resample documents, 1000 runs).
 *
 * Data are flat: segment records `r` with a system index, an item (segment) index and, per side, either a value or a
 * row of sufficient statistics. A resample draws units (items, or documents = sets of items) with replacement and
 * counts how often each item was drawn; every record of a drawn item enters with that multiplicity. So
 * - segment level: the correlation over the (system, item) records of the resample, duplicates included;
 * - system level: each system's score is recomputed on the resample — the mean of its segment values, or, for a
 *   corpus metric such as BLEU, its statistics rows summed over the resample and reduced once (never an average of
 *   segment scores) — then correlated across systems. A side given per system (no segments) stays fixed.
 *
 * The draws are numpy's: resample `b` uses row `b` of `numpy.random.default_rng(seed).choice(U, size=(B, U))`
 * (U units, B resamples, one call), so the same resamples can be rebuilt in Python. The interval is numpy's
 * `percentile(values, [2.5, 97.5])` (linear interpolation) over the resamples whose correlation is defined;
 * resamples where it is undefined (e.g. every drawn human score equal) are left out and counted.
 */
import {
  denseRanks,
  kendallTauB,
  kendallTauBFromRanks,
  pearson,
  spearman,
  spearmanFromRanks,
  wmtRankTau,
  type DenseRanks,
} from './correlation.js';
import { defaultRng, type NumpySeed } from './numpy-random.js';

/** Correlation methods by name: `kendall` is τ-b; `wmt` the WMT relative-ranking τ with pairs inside each item. */
export const CORRELATION_METHODS = ['pearson', 'spearman', 'kendall', 'wmt'] as const;

/** A correlation method name. */
export type CorrelationMethod = (typeof CORRELATION_METHODS)[number];

/**
 * One correlation by name. `groups` (the item of each pair) and `minHumanDelta` are used by `wmt` only; without
 * groups `wmt` compares every pair.
 */
export function correlate(
  method: CorrelationMethod,
  metric: Float64Array,
  human: Float64Array,
  groups?: ArrayLike<number>,
  minHumanDelta = 0,
): number {
  switch (method) {
    case 'pearson':
      return pearson(metric, human);
    case 'spearman':
      return spearman(metric, human);
    case 'kendall':
      return kendallTauB(metric, human);
    case 'wmt':
      return wmtRankTau(metric, human, groups, minHumanDelta);
  }
}

/**
 * One side (metric or human) of a system-level correlation: fixed per-system values, or segment records whose
 * statistics rows (`width` numbers each) are summed per system over a resample and reduced to the system score.
 */
export type SystemSide =
  | { readonly kind: 'fixed'; readonly value: Float64Array }
  | {
      readonly kind: 'segments';
      /** `records × width` statistics, row-major. */
      readonly stats: Float64Array;
      readonly width: number;
      /** System score from the summed rows of its records (`count` = number of records summed, multiplicities included). */
      readonly reduce: (sums: Float64Array, count: number) => number;
      /**
       * For a metric whose corpus score reads the rows in order rather than their sums (Moses BLEU sums in single
       * precision, NLTK's smoothing methods 5–7 need the last row): the system score from its records' rows in
       * record order, each repeated by its multiplicity. When present it is used instead of `reduce`.
       */
      readonly reduceRows?: (rows: Float64Array) => number;
    };

/** A side whose system score is the mean of its segment values. */
export function meanSide(values: Float64Array): SystemSide {
  return { kind: 'segments', stats: values, width: 1, reduce: (sums, count) => sums[0] / count };
}

/** How to resample: units of items. */
export interface ResampleUnits {
  /** `units + 1` offsets into `items`. */
  readonly offsets: Uint32Array;
  /** Item indices of each unit. */
  readonly items: Uint32Array;
}

/** Each item its own unit (resampling segments). */
export function itemUnits(itemCount: number): ResampleUnits {
  const offsets = new Uint32Array(itemCount + 1);
  const items = new Uint32Array(itemCount);
  for (let i = 0; i < itemCount; i++) {
    offsets[i + 1] = i + 1;
    items[i] = i;
  }
  return { offsets, items };
}

/**
 * The indices `0 .. key.length` grouped by their key (keys in `[0, keyCount)`), as CSR: group `k` is
 * `members[offsets[k] .. offsets[k + 1])`, in increasing index order (a counting sort, so O(n + keyCount)).
 */
function groupByKey(key: Uint32Array, keyCount: number): { offsets: Uint32Array; members: Uint32Array } {
  const offsets = new Uint32Array(keyCount + 1);
  for (const k of key) offsets[k + 1]++;
  for (let k = 0; k < keyCount; k++) offsets[k + 1] += offsets[k];
  const fill = offsets.slice(0, keyCount);
  const members = new Uint32Array(key.length);
  key.forEach((k, i) => {
    members[fill[k]++] = i;
  });
  return { offsets, members };
}

/** Units = documents: `documentOfItem[i]` is the document of item `i` (documents numbered from 0, in any order). */
export function documentUnits(documentOfItem: Uint32Array, documentCount: number): ResampleUnits {
  const { offsets, members: items } = groupByKey(documentOfItem, documentCount);
  // Documents without items (possible when items were dropped) are not units: a draw of one would be empty.
  const kept: number[] = [0];
  for (let d = 0; d < documentCount; d++) if (offsets[d + 1] > offsets[d]) kept.push(offsets[d + 1]);
  return { offsets: Uint32Array.from(kept), items };
}

/** Bootstrap settings. */
export interface BootstrapOptions {
  /** Number of resamples; 0 = no interval. @default 1000 */
  readonly resamples?: number;
  /** numpy `default_rng` seed. @default 12345 */
  readonly seed?: NumpySeed;
  /** Two-sided confidence level in (0, 1). @default 0.95 */
  readonly confidence?: number;
  /** Resampling units. @default each item */
  readonly units?: ResampleUnits;
}

/** A correlation with its bootstrap interval. */
export interface CorrelationEstimate {
  readonly method: CorrelationMethod;
  /** The correlation on the data as given. */
  readonly value: number;
  /** Interval bounds; `NaN` without resamples or when no resample was defined. */
  readonly low: number;
  readonly high: number;
  /** Resamples drawn. */
  readonly resamples: number;
  /** Resamples whose correlation was undefined (left out of the interval). */
  readonly undefinedResamples: number;
}

/**
 * numpy's `percentile(sorted, q)` with the default linear method, on ascending `sorted` (no NaN): the virtual index
 * `q/100·(n−1)` and numpy's two-sided lerp (from below for fractions < 0.5, from above otherwise).
 */
export function numpyPercentile(sorted: Float64Array, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const virtual = (q / 100) * (n - 1);
  const below = Math.min(Math.max(Math.floor(virtual), 0), n - 1);
  const above = Math.min(below + 1, n - 1);
  const t = virtual - below;
  const a = sorted[below];
  const b = sorted[above];
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

function interval(values: Float64Array, confidence: number): { low: number; high: number; undefinedCount: number } {
  const defined = values.filter((v) => !Number.isNaN(v)).sort();
  // Rounded so that 0.95 gives numpy's exact [2.5, 97.5] ((1 − 0.95)/2·100 is 2.500000000000002 in doubles).
  const tail = Math.round(((1 - confidence) / 2) * 100 * 1e9) / 1e9;
  return {
    low: numpyPercentile(defined, tail),
    high: numpyPercentile(defined, 100 - tail),
    undefinedCount: values.length - defined.length,
  };
}

function checkOptions(options: BootstrapOptions, itemCount: number): { resamples: number; seed: NumpySeed; confidence: number; units: ResampleUnits } {
  const resamples = options.resamples ?? 1000;
  if (!Number.isInteger(resamples) || resamples < 0) throw new RangeError(`resamples must be a non-negative integer (got ${resamples})`);
  const confidence = options.confidence ?? 0.95;
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1) (got ${confidence})`);
  const units = options.units ?? itemUnits(itemCount);
  return { resamples, seed: options.seed ?? 12345, confidence, units };
}

/**
 * Runs `resamples` draws; `evaluate(weights)` gets the multiplicity of every item and fills one value per method.
 * Returns the values, resample-major (`resamples × methods`).
 */
function runResamples(
  units: ResampleUnits,
  itemCount: number,
  resamples: number,
  seed: NumpySeed,
  methodCount: number,
  evaluate: (weights: Uint32Array, out: Float64Array) => void,
): Float64Array[] {
  const unitCount = units.offsets.length - 1;
  const perMethod = Array.from({ length: methodCount }, () => new Float64Array(resamples));
  if (resamples === 0 || unitCount === 0) return perMethod.map(() => new Float64Array(0));
  const stream = defaultRng(seed).boundedStream(unitCount);
  const draws = new Uint32Array(unitCount);
  const weights = new Uint32Array(itemCount);
  const out = new Float64Array(methodCount);
  for (let b = 0; b < resamples; b++) {
    stream.fill(draws);
    weights.fill(0);
    for (let k = 0; k < unitCount; k++) {
      const u = draws[k];
      for (let p = units.offsets[u]; p < units.offsets[u + 1]; p++) weights[units.items[p]]++;
    }
    evaluate(weights, out);
    for (let m = 0; m < methodCount; m++) perMethod[m][b] = out[m];
  }
  return perMethod;
}

function estimates(
  methods: readonly CorrelationMethod[],
  point: Float64Array,
  perMethod: Float64Array[],
  confidence: number,
): CorrelationEstimate[] {
  return methods.map((method, m) => {
    const values = perMethod[m];
    const { low, high, undefinedCount } = interval(values, confidence);
    return { method, value: point[m], low, high, resamples: values.length, undefinedResamples: undefinedCount };
  });
}

/** Segment-level records: system and item of each, the metric and human value of each. */
export interface SegmentRecords {
  readonly system: Uint32Array;
  readonly item: Uint32Array;
  readonly itemCount: number;
  readonly metric: Float64Array;
  readonly human: Float64Array;
}


/**
 * Segment-level correlations (all (system, item) records pooled; `wmt` pairs records of the same item) with
 * bootstrap intervals.
 * @param minHumanDelta the `wmt` threshold on human score differences
 * @throws RangeError for mismatched lengths or bad options.
 */
export function segmentCorrelations(
  data: SegmentRecords,
  methods: readonly CorrelationMethod[],
  options: BootstrapOptions = {},
  minHumanDelta = 0,
): CorrelationEstimate[] {
  const n = data.metric.length;
  if (data.human.length !== n || data.item.length !== n || data.system.length !== n) {
    throw new RangeError('segment records must have equally long columns');
  }
  const { resamples, seed, confidence, units } = checkOptions(options, data.itemCount);
  const point = Float64Array.from(methods, (m) => correlate(m, data.metric, data.human, data.item, minHumanDelta));
  // Records grouped by item: CSR over items.
  const byItem = groupByKey(data.item, data.itemCount);
  // Rank once: a resample's values keep their order, so the global dense ranks rank it exactly (see correlation.ts).
  const rankBased = methods.some((m) => m === 'spearman' || m === 'kendall');
  const finite = !data.metric.some(Number.isNaN) && !data.human.some(Number.isNaN);
  const ranked: [DenseRanks, DenseRanks] | undefined =
    rankBased && finite ? [denseRanks(data.metric), denseRanks(data.human)] : undefined;
  let x = new Float64Array(n);
  let y = new Float64Array(n);
  let g = new Uint32Array(n);
  let rx = new Uint32Array(ranked ? n : 0);
  let ry = new Uint32Array(ranked ? n : 0);
  const perMethod = runResamples(units, data.itemCount, resamples, seed, methods.length, (weights, out) => {
    let size = 0;
    for (let i = 0; i < data.itemCount; i++) size += weights[i] * (byItem.offsets[i + 1] - byItem.offsets[i]);
    if (size > x.length) {
      x = new Float64Array(size);
      y = new Float64Array(size);
      g = new Uint32Array(size);
      if (ranked) {
        rx = new Uint32Array(size);
        ry = new Uint32Array(size);
      }
    }
    let k = 0;
    let group = 0;
    for (let i = 0; i < data.itemCount; i++) {
      for (let c = 0; c < weights[i]; c++) {
        // Each drawn copy of an item is its own group: WMT pairs never cross two copies.
        for (let p = byItem.offsets[i]; p < byItem.offsets[i + 1]; p++) {
          const r = byItem.members[p];
          x[k] = data.metric[r];
          y[k] = data.human[r];
          g[k] = group;
          if (ranked) {
            rx[k] = ranked[0].ranks[r];
            ry[k] = ranked[1].ranks[r];
          }
          k++;
        }
        group++;
      }
    }
    const xs = x.subarray(0, k);
    const ys = y.subarray(0, k);
    const gs = g.subarray(0, k);
    methods.forEach((m, j) => {
      if (ranked && m === 'spearman') out[j] = spearmanFromRanks(rx.subarray(0, k), ranked[0].count, ry.subarray(0, k), ranked[1].count);
      else if (ranked && m === 'kendall') out[j] = kendallTauBFromRanks(rx.subarray(0, k), ranked[0].count, ry.subarray(0, k), ranked[1].count);
      else out[j] = correlate(m, xs, ys, gs, minHumanDelta);
    });
  });
  return estimates(methods, point, perMethod, confidence);
}

/** System-level input: the segment records' systems and items, and the two sides. */
export interface SystemLevelData {
  readonly systemCount: number;
  /** System of each segment record (of whichever side has segments). */
  readonly system: Uint32Array;
  /** Item of each segment record. */
  readonly item: Uint32Array;
  readonly itemCount: number;
  readonly metric: SystemSide;
  readonly human: SystemSide;
}

/** {@link systemScores} of a side reduced from its rows in record order (see `reduceRows`). */
function orderedSystemScores(
  data: SystemLevelData,
  side: Extract<SystemSide, { kind: 'segments' }>,
  reduceRows: (rows: Float64Array) => number,
  weights: Uint32Array | undefined,
): Float64Array {
  const { width, stats } = side;
  const counts = new Float64Array(data.systemCount);
  for (let r = 0; r < data.system.length; r++) counts[data.system[r]] += weights === undefined ? 1 : weights[data.item[r]];
  const rows = Array.from(counts, (c) => new Float64Array(c * width));
  const filled = new Float64Array(data.systemCount);
  for (let r = 0; r < data.system.length; r++) {
    const s = data.system[r];
    const row = stats.subarray(r * width, (r + 1) * width);
    for (let k = weights === undefined ? 1 : weights[data.item[r]]; k > 0; k--) rows[s].set(row, filled[s]++ * width);
  }
  return Float64Array.from(counts, (c, s) => (c === 0 ? NaN : reduceRows(rows[s])));
}

/** Per-system scores of one side for item multiplicities `weights` (`undefined` = every item once). */
export function systemScores(data: SystemLevelData, side: SystemSide, weights?: Uint32Array): Float64Array {
  if (side.kind === 'fixed') return side.value;
  if (side.reduceRows !== undefined) return orderedSystemScores(data, side, side.reduceRows, weights);
  const { width, stats } = side;
  const sums = new Float64Array(data.systemCount * width);
  const counts = new Float64Array(data.systemCount);
  for (let r = 0; r < data.system.length; r++) {
    const w = weights === undefined ? 1 : weights[data.item[r]];
    if (w === 0) continue;
    const s = data.system[r];
    counts[s] += w;
    for (let k = 0; k < width; k++) sums[s * width + k] += w * stats[r * width + k];
  }
  const out = new Float64Array(data.systemCount);
  for (let s = 0; s < data.systemCount; s++) {
    out[s] = counts[s] === 0 ? NaN : side.reduce(sums.subarray(s * width, (s + 1) * width), counts[s]);
  }
  return out;
}

/**
 * System-level correlations with bootstrap intervals: system scores recomputed per resample (see the module
 * comment). With both sides fixed there is nothing to resample and the interval is NaN. `wmt` compares every pair
 * of systems here (ties of the metric discordant).
 * @throws RangeError for bad options.
 */
export function systemCorrelations(
  data: SystemLevelData,
  methods: readonly CorrelationMethod[],
  options: BootstrapOptions = {},
): CorrelationEstimate[] {
  const { resamples, seed, confidence, units } = checkOptions(options, data.itemCount);
  const point = Float64Array.from(methods, (m) =>
    correlate(m, systemScores(data, data.metric), systemScores(data, data.human)),
  );
  const bothFixed = data.metric.kind === 'fixed' && data.human.kind === 'fixed';
  const perMethod = runResamples(units, data.itemCount, bothFixed ? 0 : resamples, seed, methods.length, (weights, out) => {
    const x = systemScores(data, data.metric, weights);
    const y = systemScores(data, data.human, weights);
    methods.forEach((m, j) => {
      out[j] = correlate(m, x, y);
    });
  });
  return estimates(methods, point, perMethod, confidence);
}
