/**
 * Computes a {@link ReportData} from texts: corpus and sentence scores of every system under every metric (from one
 * statistics row per segment, so the corpus score is the metric's own reduction of the rows and the sentence score
 * its `sentenceScoreFromStats`), the ranking per metric, and the correlations with human judgments when given.
 * References are prepared once per metric and shared by every system.
 *
 * Intervals and significance tests come from optional hooks that receive the same statistics rows ({@link
 * ReportStatistics}), so the resampling code lives in src/meta/ and this file only arranges its results.
 */
import { InputError } from '../errors.js';
import { kendallTauB, pearson, spearman } from '../meta/correlation.js';
import { checkHypothesisCount, checkReferenceStreams } from '../metrics/metric.js';
import type { CliMetric } from '../metrics/registry.js';
import {
  REPORT_FORMAT,
  rankSystems,
  type ReportConfidence,
  type ReportCorrelation,
  type ReportCorrelationValue,
  type ReportData,
  type ReportHuman,
  type ReportInterval,
  type ReportMetric,
  type ReportScore,
  type ReportSignificance,
} from './report-data.js';

/** Metric ids whose scores are error rates (lower is better). */
const LOWER_IS_BETTER = new Set(['ter', 'wer', 'per']);

/** A system to report on. */
export interface ReportSystemInput {
  /** Name shown (the file name). */
  readonly name: string;
  /** The file errors name. @default name */
  readonly file?: string;
  /** One output line per segment. */
  readonly lines: readonly string[];
}

/** A metric to report, as the registry builds it. */
export interface ReportMetricInput {
  /** Canonical id. */
  readonly id: string;
  /** The metric with its signature and corpus reduction. */
  readonly metric: CliMetric;
}

/** Statistics rows of every system under one metric, what interval and significance hooks work from. */
export interface ReportStatistics {
  /** Index of the metric in {@link BuildReportOptions.metrics}. */
  readonly metricIndex: number;
  /** The metric. */
  readonly metric: CliMetric;
  /** Row-major rows (`metric.metric.statsWidth` per segment) per system. */
  readonly rows: readonly Float64Array[];
}

/** Everything {@link buildReport} needs. */
export interface BuildReportOptions {
  /** Page title. @default 'Palette report' */
  readonly title?: string;
  /** Creation time to show; left out by default so reports are reproducible. */
  readonly created?: string;
  /** Palette's version. */
  readonly version: string;
  /** Reference streams: `references[j][i]` is reference `j` of segment `i`. */
  readonly references: readonly (readonly string[])[];
  /** Source sentences, one per segment. */
  readonly source?: readonly string[];
  /** Systems, in the order to show. */
  readonly systems: readonly ReportSystemInput[];
  /** Metrics, in the order to show. */
  readonly metrics: readonly ReportMetricInput[];
  /** Human judgments, already aligned to `systems` (and segments). */
  readonly human?: readonly ReportHuman[];
  /**
   * Confidence intervals of the corpus scores: for one metric's rows, an interval per system. Absent: no
   * intervals.
   */
  readonly intervals?: {
    readonly info: ReportConfidence;
    compute(stats: ReportStatistics): readonly ReportInterval[];
  };
  /**
   * Pairwise tests: for one metric's rows, `pValues[i][j]` (system `j` against baseline `i`, null where not
   * tested). Absent: no significance section.
   */
  readonly significance?: {
    readonly info: Omit<ReportSignificance, 'pValues'>;
    compute(stats: ReportStatistics): readonly (readonly (number | null)[])[];
  };
  /**
   * Confidence interval of a correlation coefficient, given the paired values and the coefficient's function.
   * Absent: coefficients without intervals.
   */
  readonly correlationInterval?: (
    x: Float64Array,
    y: Float64Array,
    coefficient: (x: Float64Array, y: Float64Array) => number,
    level: 'system' | 'segment',
  ) => ReportInterval | undefined;
}

/** Runs `f`; an `InputError` that names no file is located at `file` (and `line`), so the user learns where. */
function locatedAt<T>(file: string, line: number | undefined, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof InputError && err.file === undefined) {
      const located = new InputError(err.code, err.message, { file, line });
      located.cause = err;
      throw located;
    }
    throw err;
  }
}

function finiteOrNull(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}

/** The pairs where both values are present, as the arrays the correlation functions take. */
function pairs(xs: readonly (number | null)[], ys: readonly (number | null)[]): [Float64Array, Float64Array] {
  const keep: number[] = [];
  for (let i = 0; i < xs.length; i++) if (xs[i] !== null && ys[i] !== null) keep.push(i);
  return [Float64Array.from(keep, (i) => xs[i]!), Float64Array.from(keep, (i) => ys[i]!)];
}

function correlate(
  xs: readonly (number | null)[],
  ys: readonly (number | null)[],
  where: { metric: number; human: number; level: 'system' | 'segment' },
  interval: BuildReportOptions['correlationInterval'],
): ReportCorrelation {
  const [x, y] = pairs(xs, ys);
  const value = (f: (a: Float64Array, b: Float64Array) => number): ReportCorrelationValue => {
    const v = finiteOrNull(f(x, y));
    const ci = v === null || interval === undefined ? undefined : interval(x, y, f, where.level);
    return ci === undefined ? { value: v } : { value: v, ci };
  };
  return {
    ...where,
    n: x.length,
    pearson: value(pearson),
    spearman: value(spearman),
    kendall: value(kendallTauB),
  };
}

/**
 * Scores every system and assembles the report data.
 * @throws InputError when line counts differ (`E_LINE_COUNT_MISMATCH`, naming the system's file), when human
 *   scores do not cover every system, or when a metric refuses a segment (located at the system's file and line).
 */
export function buildReport(options: BuildReportOptions): ReportData {
  const segments = checkReferenceStreams('the report', options.references);
  if (options.source !== undefined && options.source.length !== segments) {
    throw new InputError('E_LINE_COUNT_MISMATCH', `${options.source.length} source lines but ${segments} reference segments`);
  }
  for (const system of options.systems) {
    locatedAt(system.file ?? system.name, undefined, () => checkHypothesisCount(system.lines, segments));
  }
  if (options.systems.length === 0) throw new InputError('E_EMPTY_INPUT', 'the report needs at least one system');
  if (options.metrics.length === 0) throw new InputError('E_BAD_OPTION', 'the report needs at least one metric');
  const nRefs = options.references.length;

  const metrics: ReportMetric[] = [];
  const scores: ReportScore[][] = [];
  const sentence: (number | null)[][][] = [];
  const intervals: (readonly ReportInterval[])[] = [];
  const pValues: (readonly (readonly (number | null)[])[])[] = [];
  options.metrics.forEach(({ id, metric: cli }, k) => {
    const prepared = cli.metric.prepareReferences(options.references);
    const width = cli.metric.statsWidth;
    const rows = options.systems.map((system) =>
      locatedAt(system.file ?? system.name, undefined, () => cli.metric.segmentStats(system.lines, prepared)),
    );
    const corpus = rows.map((r, s) => locatedAt(options.systems[s].file ?? options.systems[s].name, undefined, () => cli.corpusScore(r)));
    metrics.push({
      id,
      name: corpus[0].name,
      signature: cli.signature(nRefs, false),
      higherIsBetter: !LOWER_IS_BETTER.has(id),
      decimals: cli.defaultWidth ?? 2,
    });
    sentence.push(
      rows.map((r, s) => {
        const file = options.systems[s].file ?? options.systems[s].name;
        const out: (number | null)[] = new Array(segments);
        for (let i = 0; i < segments; i++) {
          const row = r.subarray(i * width, (i + 1) * width);
          out[i] = finiteOrNull(locatedAt(file, i + 1, () => cli.metric.sentenceScoreFromStats(row)).score);
        }
        return out;
      }),
    );
    const stats: ReportStatistics = { metricIndex: k, metric: cli, rows };
    if (options.intervals !== undefined) intervals.push(options.intervals.compute(stats));
    if (options.significance !== undefined) pValues.push(options.significance.compute(stats));
    scores.push(
      corpus.map((c, s) => {
        const ci = intervals[k]?.[s];
        return ci === undefined ? { score: c.score, verbose: c.verboseScore } : { score: c.score, verbose: c.verboseScore, ci };
      }),
    );
  });

  const human = options.human ?? [];
  human.forEach((h) => {
    if (h.system.length !== options.systems.length) {
      throw new InputError(
        'E_BAD_INPUT',
        `human scores "${h.name}" have ${h.system.length} systems, the report has ${options.systems.length}`,
      );
    }
    if (h.segment !== undefined && (h.segment.length !== options.systems.length || h.segment.some((s) => s.length !== segments))) {
      throw new InputError('E_BAD_INPUT', `segment-level human scores "${h.name}" do not cover ${options.systems.length} systems × ${segments} segments`);
    }
  });
  const correlations: ReportCorrelation[] = [];
  human.forEach((h, hi) => {
    metrics.forEach((_, k) => {
      const system = scores[k].map((sc) => finiteOrNull(sc.score));
      correlations.push(correlate(system, h.system, { metric: k, human: hi, level: 'system' }, options.correlationInterval));
      if (h.segment !== undefined) {
        correlations.push(
          correlate(sentence[k].flat(), h.segment.flat(), { metric: k, human: hi, level: 'segment' }, options.correlationInterval),
        );
      }
    });
  });

  const data: ReportData = {
    format: REPORT_FORMAT,
    title: options.title ?? 'Palette report',
    version: options.version,
    ...(options.created === undefined ? {} : { created: options.created }),
    systems: options.systems.map((s) => s.name),
    metrics,
    scores,
    ranking: metrics.map((m, k) => rankSystems(scores[k], m.higherIsBetter)),
    ...(options.intervals === undefined ? {} : { confidence: options.intervals.info }),
    ...(options.significance === undefined ? {} : { significance: { ...options.significance.info, pValues } }),
    ...(human.length === 0 ? {} : { human, correlations }),
    segments: {
      count: segments,
      ...(options.source === undefined ? {} : { source: options.source }),
      references: options.references,
      hypotheses: options.systems.map((s) => s.lines),
      scores: sentence,
    },
  };
  return data;
}
