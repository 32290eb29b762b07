/**
 * Computes a {@link ReportData} from texts: corpus and sentence scores of every system under every metric (from one
 * statistics row per segment, so the corpus score is the metric's own reduction of the rows and the sentence score
 * its `sentenceScoreFromStats`), the ranking per metric, and the correlations with human judgments when given.
 * References are prepared once per metric and shared by every system.
 *
 * Intervals and significance tests come from optional hooks that receive the same statistics rows ({@link
 * ReportStatistics}; ./report-statistics.ts has sacreBLEU's), and correlations with their bootstrap intervals from
 * src/meta/correlation-bootstrap.ts, computed as `palette correlate` computes them: the resampling code lives in
 * src/meta/ and this file only arranges the numbers.
 */
import { InputError } from '../errors.js';
import {
  meanSide,
  segmentCorrelations,
  systemCorrelations,
  systemScores,
  type CorrelationEstimate,
  type CorrelationMethod,
} from '../meta/correlation-bootstrap.js';
import { checkHypothesisCount, checkReferenceStreams } from '../metrics/metric.js';
import { lowerIsBetterMetric } from '../metrics/catalog.js';
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
   * Bootstrap of the correlations' intervals (src/meta/correlation-bootstrap.ts: segments resampled; at system
   * level the metric's system scores are re-reduced from the resampled statistics rows, the human system scores
   * held fixed). Absent: coefficients without intervals.
   */
  readonly correlationBootstrap?: { readonly resamples: number; readonly seed: number; readonly confidence?: number };
  /**
   * Told how far the work is: `done` of `total` steps, a step being one system scored under one metric, one
   * system's share of a metric's intervals or of its tests, or one correlation with a set of judgments. It only
   * listens: the report is the same with it or without it.
   */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * The statistics rows already computed, `rows[m][s]` for metric m and system s (row-major, `statsWidth` per
   * segment), as the corpus engine (src/engine/corpus/) gives them from a pool of workers: used instead of scoring
   * here. They must be the metrics' own `segmentStats` rows (the engine's are, on any number of threads).
   */
  readonly rows?: readonly (readonly Float64Array[])[];
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

const METHODS: readonly CorrelationMethod[] = ['pearson', 'spearman', 'kendall'];

/** The report's form of C's estimates (pearson, spearman, kendall in {@link METHODS} order). */
function correlation(
  where: { metric: number; human: number; level: 'system' | 'segment' },
  n: number,
  estimates: readonly CorrelationEstimate[],
): Omit<ReportCorrelation, 'segments'> {
  const value = (e: CorrelationEstimate): ReportCorrelationValue => {
    const v = finiteOrNull(e.value);
    if (v === null || !Number.isFinite(e.low) || !Number.isFinite(e.high)) return { value: v };
    return { value: v, ci: { low: e.low, high: e.high } };
  };
  return { ...where, n, pearson: value(estimates[0]), spearman: value(estimates[1]), kendall: value(estimates[2]) };
}

/** Segments (ascending) where any of `rows` has a value, and each segment's index among them (-1: none). */
function judgedSegments(rows: readonly (readonly (number | null)[])[], segments: number): { count: number; unit: Int32Array } {
  const unit = new Int32Array(segments).fill(-1);
  for (const row of rows) row.forEach((v, i) => {
    if (v !== null) unit[i] = 0;
  });
  let count = 0;
  for (let i = 0; i < segments; i++) if (unit[i] === 0) unit[i] = count++;
  return { count, unit };
}

/**
 * System level, as `palette correlate` computes it. With system-level judgments: one point per system, the metric's
 * corpus score over every segment (re-reduced from the resampled statistics rows), the human scores fixed. With
 * segment-level judgments: both sides over the judged (system, segment) records only — the metric's system score
 * from those segments' statistics, the human's the mean of its segment scores — both re-reduced on every resample
 * of the judged segments. The points plotted are returned with the coefficients.
 */
function systemLevel(
  cli: CliMetric,
  rows: readonly Float64Array[],
  human: ReportHuman,
  segments: number,
  where: { metric: number; human: number },
  bootstrap: BuildReportOptions['correlationBootstrap'],
): ReportCorrelation {
  const width = cli.metric.statsWidth;
  const judged = human.segment;
  const units = judged === undefined ? { count: segments, unit: Int32Array.from({ length: segments }, (_, i) => i) } : judgedSegments(judged, segments);
  const kept = judged === undefined
    ? human.system.flatMap((v, s) => (v === null ? [] : [s]))
    : judged.flatMap((row, s) => (row.some((v) => v !== null) ? [s] : []));
  const system: number[] = [];
  const item: number[] = [];
  const values: number[] = [];
  const stats: number[] = [];
  kept.forEach((s, k) => {
    for (let i = 0; i < segments; i++) {
      const h = judged === undefined ? 0 : judged[s][i];
      if (h === null) continue;
      system.push(k);
      item.push(units.unit[i]);
      values.push(h);
      for (let c = 0; c < width; c++) stats.push(rows[s][i * width + c]);
    }
  });
  const data = {
    systemCount: kept.length,
    system: Uint32Array.from(system),
    item: Uint32Array.from(item),
    itemCount: units.count,
    metric: { kind: 'segments', stats: Float64Array.from(stats), width, reduce: (sums: Float64Array) => cli.metric.scoreFromStats(sums).score } as const,
    human:
      judged === undefined
        ? ({ kind: 'fixed', value: Float64Array.from(kept, (s) => human.system[s]!) } as const)
        : meanSide(Float64Array.from(values)),
  };
  const estimates = systemCorrelations(data, METHODS, {
    resamples: bootstrap?.resamples ?? 0,
    seed: bootstrap?.seed,
    confidence: bootstrap?.confidence,
  });
  const x: (number | null)[] = new Array(rows.length).fill(null);
  const y: (number | null)[] = new Array(rows.length).fill(null);
  const xs = systemScores(data, data.metric);
  const ys = systemScores(data, data.human);
  kept.forEach((s, k) => {
    x[s] = finiteOrNull(xs[k]);
    y[s] = finiteOrNull(ys[k]);
  });
  return { ...correlation({ ...where, level: 'system' }, kept.length, estimates), x, y, segments: units.count };
}

/**
 * Segment level: every (system, segment) with both a sentence score and a human score; the judged segments are
 * resampled (as `palette correlate`).
 */
function segmentLevel(
  sentence: readonly (readonly (number | null)[])[],
  human: readonly (readonly (number | null)[])[],
  segments: number,
  where: { metric: number; human: number },
  bootstrap: BuildReportOptions['correlationBootstrap'],
): ReportCorrelation {
  const both = sentence.map((row, s) => row.map((v, i) => (v === null || human[s][i] === null ? null : v)));
  const units = judgedSegments(both, segments);
  const system: number[] = [];
  const item: number[] = [];
  const metric: number[] = [];
  const judged: number[] = [];
  both.forEach((row, s) =>
    row.forEach((v, i) => {
      if (v === null) return;
      system.push(s);
      item.push(units.unit[i]);
      metric.push(v);
      judged.push(human[s][i]!);
    }),
  );
  const estimates = segmentCorrelations(
    {
      system: Uint32Array.from(system),
      item: Uint32Array.from(item),
      itemCount: units.count,
      metric: Float64Array.from(metric),
      human: Float64Array.from(judged),
    },
    METHODS,
    { resamples: bootstrap?.resamples ?? 0, seed: bootstrap?.seed, confidence: bootstrap?.confidence },
  );
  return { ...correlation({ ...where, level: 'segment' }, metric.length, estimates), segments: units.count };
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
  const systemCount = options.systems.length;
  const metricCount = options.metrics.length;
  const judgments = options.human ?? [];
  const perMetric = systemCount * (1 + (options.intervals === undefined ? 0 : 1) + (options.significance === undefined ? 0 : 1));
  const correlationSteps = judgments.reduce((n, h) => n + metricCount * (h.segment === undefined ? 1 : 2), 0);
  const total = metricCount * perMetric + correlationSteps;
  let done = 0;
  const advance = (steps: number): void => {
    done += steps;
    options.onProgress?.(done, total);
  };

  const metrics: ReportMetric[] = [];
  const scores: ReportScore[][] = [];
  const sentence: (number | null)[][][] = [];
  const intervals: (readonly ReportInterval[])[] = [];
  const pValues: (readonly (readonly (number | null)[])[])[] = [];
  const allRows: Float64Array[][] = [];
  options.metrics.forEach(({ id, metric: cli }, k) => {
    const given = options.rows?.[k];
    const prepared = given === undefined ? cli.metric.prepareReferences(options.references) : undefined;
    const width = cli.metric.statsWidth;
    const rows = options.systems.map((system, s) => {
      const r = given?.[s] ?? locatedAt(system.file ?? system.name, undefined, () => cli.metric.segmentStats(system.lines, prepared!));
      advance(1);
      return r;
    });
    allRows.push(rows);
    const corpus = rows.map((r, s) => locatedAt(options.systems[s].file ?? options.systems[s].name, undefined, () => cli.corpusScore(r)));
    metrics.push({
      id,
      name: corpus[0].name,
      signature: cli.signature(nRefs, false),
      // The metric's descriptor says which way is better (the error rates: lower).
      higherIsBetter: !lowerIsBetterMetric(id),
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
    if (options.intervals !== undefined) {
      intervals.push(options.intervals.compute(stats));
      advance(systemCount);
    }
    if (options.significance !== undefined) {
      pValues.push(options.significance.compute(stats));
      advance(systemCount);
    }
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
      const where = { metric: k, human: hi };
      correlations.push(systemLevel(options.metrics[k].metric, allRows[k], h, segments, where, options.correlationBootstrap));
      advance(1);
      if (h.segment !== undefined) {
        correlations.push(segmentLevel(sentence[k], h.segment, segments, where, options.correlationBootstrap));
        advance(1);
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
