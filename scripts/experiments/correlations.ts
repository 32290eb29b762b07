/**
 * Correlations of metric variants with human scores, system and segment level, with percentile bootstrap CIs
 * (src/meta/correlation-bootstrap.ts: numpy `default_rng(seed)` draws, numpy percentiles).
 *
 * Each metric is run once per text set over every system: statistics rows per segment, kept flat. Then
 * - segment level: the sentence score of each rated (system, segment) pair against its human score, all pairs
 *   pooled; a resample draws segments (items) and keeps every system's pair of a drawn segment;
 * - system level: each system's corpus score from its rows summed over the segments of the resample and reduced
 *   once (never a mean of sentence scores), against the human system score (the mean of its segment scores on the
 *   same resample, or a fixed system-level score such as WMT's DA).
 */
import {
  segmentCorrelations,
  systemCorrelations,
  type CorrelationEstimate,
  type CorrelationMethod,
  type SystemSide,
} from '../../src/meta/correlation-bootstrap.js';
import type { SystemOutputs } from './data.js';
import { textsFor, type MetricVariant, type SignedMetric, type TextSet } from './metric-variants.js';

/** Statistics rows and sentence scores of one metric variant on every system. */
export interface ScoredVariant {
  readonly variant: MetricVariant;
  readonly set: TextSet;
  readonly metric: SignedMetric;
  /** `rows[s]`: `segments × width` statistics of system `s`. */
  readonly rows: readonly Float64Array[];
  /** `sentence[s][i]`: the sentence score of system `s` on segment `i`. */
  readonly sentence: readonly Float64Array[];
  /** The metric's signature for the references used. */
  readonly signature: string;
}

/** Texts of a corpus in one set, transformed once and shared by every metric of the set. */
export interface SetTexts {
  readonly set: TextSet;
  readonly outputs: readonly (readonly string[])[];
  readonly references: readonly (readonly string[])[];
}

/** The texts of `corpus` for `set` ({@link textsFor}). */
export function setTexts(corpus: SystemOutputs, set: TextSet): SetTexts {
  return {
    set,
    outputs: corpus.outputs.map((o) => textsFor(set, o)),
    references: corpus.references.map((r) => textsFor(set, r)),
  };
}

/** Runs one metric variant over every system of `texts`; `systems` restricts to some (indices), default all. */
export function scoreVariant(variant: MetricVariant, texts: SetTexts, systems?: readonly number[]): ScoredVariant {
  const metric = variant.create(texts.set);
  const prepared = metric.prepareReferences(texts.references);
  const width = metric.statsWidth;
  const wanted = new Set(systems ?? texts.outputs.map((_, s) => s));
  const rows: Float64Array[] = [];
  const sentence: Float64Array[] = [];
  texts.outputs.forEach((hyps, s) => {
    if (!wanted.has(s)) {
      rows.push(new Float64Array(0));
      sentence.push(new Float64Array(0));
      return;
    }
    const r = metric.segmentStats(hyps, prepared);
    const scores = new Float64Array(hyps.length);
    for (let i = 0; i < hyps.length; i++) scores[i] = metric.sentenceScoreFromStats(r.subarray(i * width, (i + 1) * width)).score;
    rows.push(r);
    sentence.push(scores);
  });
  return { variant, set: texts.set, metric, rows, sentence, signature: metric.signature(texts.references.length, true) };
}

/** Human scores a correlation is taken against. */
export type HumanScores =
  /** One score per (system, segment): `values[k * segments.length + i]`. */
  | { readonly level: 'segment'; readonly values: Float64Array }
  /** One score per system. */
  | { readonly level: 'system'; readonly values: Float64Array };

/** What one correlation table is computed on. */
export interface CorrelationCase {
  /** Indices of the systems taking part. */
  readonly systems: readonly number[];
  /** Indices of the segments (items) taking part, each a resampling unit. */
  readonly segments: readonly number[];
  readonly human: HumanScores;
}

/** Bootstrap settings of a run. */
export interface BootstrapSettings {
  readonly resamples: number;
  readonly seed: number;
}

/** Segment-level correlations of a scored variant on a case (human scores must be per segment). */
export function segmentLevel(
  scored: ScoredVariant,
  c: CorrelationCase,
  methods: readonly CorrelationMethod[],
  bootstrap: BootstrapSettings,
): CorrelationEstimate[] {
  if (c.human.level !== 'segment') throw new RangeError('segment-level correlation needs segment-level human scores');
  const n = c.systems.length * c.segments.length;
  const system = new Uint32Array(n);
  const item = new Uint32Array(n);
  const metric = new Float64Array(n);
  let r = 0;
  c.systems.forEach((s, k) => {
    const scores = scored.sentence[s];
    c.segments.forEach((seg, i) => {
      system[r] = k;
      item[r] = i;
      metric[r] = scores[seg];
      r++;
    });
  });
  return segmentCorrelations(
    { system, item, itemCount: c.segments.length, metric, human: c.human.values },
    methods,
    { resamples: bootstrap.resamples, seed: bootstrap.seed },
  );
}

/** System-level correlations of a scored variant on a case, with the corpus scores correlated. */
export function systemLevel(
  scored: ScoredVariant,
  c: CorrelationCase,
  methods: readonly CorrelationMethod[],
  bootstrap: BootstrapSettings,
): CorrelationEstimate[] {
  const width = scored.metric.statsWidth;
  const n = c.systems.length * c.segments.length;
  const system = new Uint32Array(n);
  const item = new Uint32Array(n);
  const stats = new Float64Array(n * width);
  let r = 0;
  c.systems.forEach((s, k) => {
    const rows = scored.rows[s];
    c.segments.forEach((seg, i) => {
      system[r] = k;
      item[r] = i;
      stats.set(rows.subarray(seg * width, (seg + 1) * width), r * width);
      r++;
    });
  });
  const metricSide: SystemSide = { kind: 'segments', stats, width, reduce: (sums) => scored.metric.scoreFromStats(sums).score };
  const humanSide: SystemSide =
    c.human.level === 'system'
      ? { kind: 'fixed', value: c.human.values }
      : { kind: 'segments', stats: c.human.values, width: 1, reduce: (sums, count) => sums[0] / count };
  return systemCorrelations(
    { systemCount: c.systems.length, system, item, itemCount: c.segments.length, metric: metricSide, human: humanSide },
    methods,
    { resamples: bootstrap.resamples, seed: bootstrap.seed },
  );
}

/** One row of a correlation table. */
export interface CorrelationRow {
  /** Metric name (`BLEU4`). */
  readonly metric: string;
  /** Text set, or a note such as `as is`. */
  readonly set: string;
  readonly lowerIsBetter: boolean;
  readonly estimates: readonly CorrelationEstimate[];
}
