/**
 * `palette correlate --metric FILE --human FILE [--level system|segment] [--method pearson,spearman,kendall,wmt]
 * [--bootstrap N] [--seed N] [-f text|json]`: correlation of metric scores with human scores (seed papers 000, 001)
 * with percentile bootstrap confidence intervals.
 *
 * Files are read by src/meta/human-scores.ts (TSV with a header, JSON lines, JSON array), aligned by
 * src/meta/metric-scores.ts (no silent join: a record without its counterpart is an error naming file and line,
 * unless `--allow-missing`, whose counts are printed), and correlated by src/meta/correlation-bootstrap.ts. At
 * system level a side given per segment gives each system the mean of its segment scores, recomputed on every
 * resample; a side given per system stays fixed. Output goes to standard output only (nothing half-written on error).
 *
 * With `-m METRIC -r REF --hyp SYSTEM=FILE …` the metric is computed here (./scored-metric.ts), set up by
 * `palette score`'s metric flags (`-lc`, `--rouge-flavor`, `--paraphrase-table` for paraeval, `--chunker` and the
 * `--impact-*` parameters for impact and npchunk), parsed by score-options' own parser.
 *
 * Bad input: one line `palette correlate: error: FILE:LINE: message`, exit status 2.
 */
import { InputError } from '../../errors.js';
import {
  documentUnits,
  itemUnits,
  meanSide,
  segmentCorrelations,
  systemCorrelations,
  systemScores,
  type CorrelationEstimate,
  type SystemLevelData,
  type SystemSide,
} from '../../meta/correlation-bootstrap.js';
import { readScoreTable } from '../../node/score-table.js';
import type { ScoreTable } from '../../meta/human-scores.js';
import { alignScores, type AlignedScores, type SideScores } from '../../meta/metric-scores.js';
import { defaultRegistry, type MetricRegistry } from '../../metrics/registry.js';
import { reportInputError } from '../input-error-line.js';
import { EXIT_OK, type CliIo } from '../io.js';
import { systemAliases } from '../../report/report-human.js';
import { createProgress, type Progress } from '../progress.js';
import { scoreSystems, type ScoredMetric } from './scored-metric.js';
import { correlateHelp, parseCorrelateArgs, type CorrelateOptions } from './options.js';

/** Everything `palette correlate` computed, as its JSON output holds it. */
export interface CorrelateResult {
  readonly level: 'system' | 'segment';
  readonly systems: number;
  /** Distinct segments (items) with scores, 0 when both files are system-level. */
  readonly segments: number;
  /** Aligned (system, segment) pairs, 0 unless both files are segment-level. */
  readonly pairs: number;
  readonly metric: {
    readonly files: readonly string[];
    readonly score: string;
    readonly level: 'system' | 'segment';
    /** Computed here (`-m`): system scores are corpus scores of the summed statistics rows. */
    readonly computed: boolean;
  };
  readonly human: { readonly file: string; readonly score: string; readonly level: 'system' | 'segment' };
  readonly bootstrap: {
    readonly resamples: number;
    readonly seed: number;
    readonly confidence: number;
    readonly unit: 'segment' | 'document';
    readonly units: number;
  };
  /** What --allow-missing left out (present only with it). */
  readonly leftOut?: {
    readonly unrated: number;
    readonly humanOnly: number;
    readonly metricOnly: number;
    readonly systems: readonly string[];
  };
  readonly correlations: readonly CorrelationEstimate[];
  /** System level: the scores that were correlated. */
  readonly systemScores?: readonly { readonly system: string; readonly metric: number; readonly human: number }[];
}

function sideFor(side: SideScores): SystemSide {
  return side.level === 'system' ? { kind: 'fixed', value: side.value } : meanSide(side.value);
}

/** The metric side as statistics rows of the aligned records, reduced by the metric's corpus formula. */
function statsSide(scored: ScoredMetric, aligned: AlignedScores): SystemSide {
  const width = scored.width;
  const stats = new Float64Array(aligned.metricRow.length * width);
  for (let r = 0; r < aligned.metricRow.length; r++) {
    const rows = scored.stats[aligned.metricTable[r]];
    stats.set(rows.subarray(aligned.metricRow[r] * width, (aligned.metricRow[r] + 1) * width), r * width);
  }
  const reduceRows = scored.reduceRows;
  return { kind: 'segments', stats, width, reduce: (sums) => scored.reduce(sums), ...(reduceRows ? { reduceRows } : {}) };
}

function levelOf(table: ScoreTable): 'system' | 'segment' {
  return table.itemName === undefined ? 'system' : 'segment';
}

/**
 * The name of the `-i` system `file` in the human judgments: the file as given (as palette score names systems),
 * else its file name, else its file name without the last extension, whichever the judgments use first; the file
 * as given when they use none (the alignment then says what is missing).
 */
function inputSystemName(file: string, humanSystems: readonly string[]): string {
  const known = new Set(humanSystems);
  return systemAliases(file).find((name) => known.has(name)) ?? file;
}

/**
 * Reads, aligns and correlates (no printing): one result for the `--metric` files, or one per `-m` metric, in the
 * order given. `onProgress` hears of every system scored and every metric correlated, out of `total` such steps.
 * @throws InputError for bad input.
 */
export function computeCorrelations(
  options: CorrelateOptions,
  registry: MetricRegistry = defaultRegistry,
  onProgress?: (done: number, total: number) => void,
): CorrelateResult[] {
  const human = readScoreTable(options.human, options.humanColumns);
  const score = options.score;
  if (score === undefined) {
    const tables = options.metric.map((source) => readScoreTable(source.file, { ...options.metricColumns, fixedSystem: source.system }));
    return [correlateTables(options, human, tables, undefined)];
  }
  const hyps = [...score.inputs.map((file) => ({ file, system: inputSystemName(file, human.systems) })), ...score.hyps];
  const total = score.ids.length * (hyps.length + 1);
  let done = 0;
  const step = (): void => onProgress?.(++done, total);
  return score.ids.map((id) => {
    const scored = scoreSystems(id, score.refs, hyps, registry, score.segmentIds, score.settings, step);
    const result = correlateTables(options, human, scored.tables, scored);
    step();
    return result;
  });
}

/** Aligns one metric's tables with the human scores and correlates them. */
function correlateTables(
  options: CorrelateOptions,
  human: ScoreTable,
  metricTables: readonly ScoreTable[],
  scored: ScoredMetric | undefined,
): CorrelateResult {
  const aligned: AlignedScores = alignScores(metricTables, human, { allowMissing: options.allowMissing });
  const bothSegments = aligned.metric.level === 'segment' && aligned.human.level === 'segment';
  if (options.level === 'segment' && !bothSegments) {
    const systemLevel = levelOf(human) === 'system' ? human.file : metricTables[0].file;
    throw new InputError('E_BAD_OPTION', 'segment-level correlation needs segment scores on both sides: this file has one score per system (no item column)', { file: systemLevel });
  }
  const itemCount = aligned.items.length;
  let units = itemUnits(itemCount);
  if (options.resample === 'document') {
    if (aligned.documentOfItem === undefined || aligned.documents === undefined) {
      throw new InputError('E_BAD_OPTION', '--resample document needs segment-level human scores with a document column (--human-doc)', { file: human.file });
    }
    units = documentUnits(aligned.documentOfItem, aligned.documents.length);
  }
  const bootstrap = { resamples: options.bootstrap, seed: options.seed, confidence: options.confidence, units };
  let correlations: CorrelationEstimate[];
  let scores: CorrelateResult['systemScores'];
  if (options.level === 'segment') {
    correlations = segmentCorrelations(
      { system: aligned.system, item: aligned.item, itemCount, metric: aligned.metric.value, human: aligned.human.value },
      options.methods,
      bootstrap,
      options.wmtThreshold,
    );
  } else {
    const base: SystemLevelData = {
      systemCount: aligned.systems.length,
      system: aligned.system,
      item: aligned.item,
      itemCount,
      metric: scored ? statsSide(scored, aligned) : sideFor(aligned.metric),
      human: sideFor(aligned.human),
    };
    // --human-fixed: the human system scores of the full data, not recomputed on the resamples.
    const data: SystemLevelData = options.humanFixed ? { ...base, human: { kind: 'fixed', value: systemScores(base, base.human) } } : base;
    correlations = systemCorrelations(data, options.methods, bootstrap);
    const m = systemScores(data, data.metric);
    const h = systemScores(data, data.human);
    scores = aligned.systems.map((system, s) => ({ system, metric: m[s], human: h[s] }));
  }
  const resampled = correlations[0]?.resamples ?? 0;
  return {
    level: options.level,
    systems: aligned.systems.length,
    segments: itemCount,
    pairs: aligned.counts.pairs,
    metric: { files: metricTables.map((t) => t.file), score: metricTables[0].scoreName, level: aligned.metric.level, computed: scored !== undefined },
    human: { file: human.file, score: human.scoreName, level: aligned.human.level },
    bootstrap: {
      resamples: resampled,
      seed: options.seed,
      confidence: options.confidence,
      unit: options.resample,
      units: units.offsets.length - 1,
    },
    leftOut: options.allowMissing
      ? {
          unrated: aligned.counts.unrated,
          humanOnly: aligned.counts.humanOnly,
          metricOnly: aligned.counts.metricOnly,
          systems: aligned.counts.droppedSystems,
        }
      : undefined,
    correlations,
    systemScores: scores,
  };
}

function fixed(v: number, digits = 4): string {
  return Number.isNaN(v) ? 'nan' : v.toFixed(digits);
}

/** The text report. */
export function formatCorrelateText(r: CorrelateResult): string {
  const lines: string[] = [];
  const what =
    r.level === 'segment'
      ? `segment level: ${r.pairs} (system, segment) pairs, ${r.systems} systems, ${r.segments} segments`
      : `system level: ${r.systems} systems` + (r.segments > 0 ? `, system scores from ${r.segments} segments` : '');
  lines.push(what);
  const how = r.metric.computed ? ', computed: system scores from summed statistics' : '';
  lines.push(`metric: ${r.metric.files.join(', ')} (${r.metric.score}, ${r.metric.level} level${how})`);
  lines.push(`human:  ${r.human.file} (${r.human.score}, ${r.human.level} level)`);
  if (r.leftOut) {
    const systems = r.leftOut.systems.length > 0 ? `; systems on one side only: ${r.leftOut.systems.join(', ')}` : '';
    lines.push(
      `left out (--allow-missing): ${r.leftOut.unrated} unrated human records, ${r.leftOut.humanOnly} human records ` +
        `without a metric score, ${r.leftOut.metricOnly} metric records without a human score${systems}`,
    );
  }
  const level = Math.round(r.bootstrap.confidence * 1000) / 10;
  if (r.bootstrap.resamples > 0) {
    lines.push(
      `${level}% CI: percentile bootstrap, ${r.bootstrap.resamples} resamples of ${r.bootstrap.units} ` +
        `${r.bootstrap.unit}s, seed ${r.bootstrap.seed}`,
    );
  } else {
    lines.push(r.segments === 0 ? 'no CI: both files are system-level, there are no segments to resample' : 'no CI (--bootstrap 0)');
  }
  const width = Math.max(...r.correlations.map((c) => c.method.length), 6);
  for (const c of r.correlations) {
    const ci = c.resamples > 0 ? `  [${fixed(c.low)}, ${fixed(c.high)}]` : '';
    const undefinedNote = c.undefinedResamples > 0 ? `  (${c.undefinedResamples} resamples undefined)` : '';
    lines.push(`${c.method.padEnd(width)}  ${fixed(c.value).padStart(7)}${ci}${undefinedNote}`);
  }
  return lines.join('\n') + '\n';
}

function jsonNumber(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}

/**
 * The JSON report of every result: one metric's object as {@link formatCorrelateJson} writes it, or, for several
 * `-m` metrics, an array of those objects in the order given.
 */
export function formatCorrelateJsonList(results: readonly CorrelateResult[]): string {
  if (results.length === 1) return formatCorrelateJson(results[0]);
  return JSON.stringify(results.map(correlateJsonObject), null, 1) + '\n';
}

/** The JSON report (NaN written as null). */
export function formatCorrelateJson(r: CorrelateResult): string {
  return JSON.stringify(correlateJsonObject(r), null, 1) + '\n';
}

function correlateJsonObject(r: CorrelateResult): object {
  const out = {
    level: r.level,
    systems: r.systems,
    segments: r.segments,
    pairs: r.pairs,
    metric: r.metric,
    human: r.human,
    bootstrap: r.bootstrap,
    ...(r.leftOut ? { left_out: { unrated: r.leftOut.unrated, human_only: r.leftOut.humanOnly, metric_only: r.leftOut.metricOnly, systems: r.leftOut.systems } } : {}),
    correlations: r.correlations.map((c) => ({
      method: c.method,
      value: jsonNumber(c.value),
      ci: c.resamples > 0 ? [jsonNumber(c.low), jsonNumber(c.high)] : null,
      resamples: c.resamples,
      undefined_resamples: c.undefinedResamples,
    })),
    ...(r.systemScores
      ? { system_scores: r.systemScores.map((s) => ({ system: s.system, metric: jsonNumber(s.metric), human: jsonNumber(s.human) })) }
      : {}),
  };
  return out;
}

/**
 * Runs `palette correlate` with the arguments after the command name; returns the exit status. Bad input is
 * reported here (exit 2); anything else propagates to src/cli/main.ts as an internal failure.
 */
export async function runCorrelateCommand(
  argv: readonly string[],
  io: CliIo,
  registry: MetricRegistry = defaultRegistry,
): Promise<number> {
  let progress: Progress | undefined;
  try {
    const command = parseCorrelateArgs(argv, undefined, io.env);
    if (command.kind === 'help') {
      io.stdout.write(correlateHelp());
      return EXIT_OK;
    }
    const { options } = command;
    if (!options.quiet) for (const w of options.warnings) io.stderr.write(`palette correlate: warning: ${w}\n`);
    // Scoring and resampling several metrics over many systems takes seconds: a line on a terminal after one.
    progress = options.score === undefined
      ? undefined
      : createProgress(io.stderr, { label: 'palette correlate', unit: 'steps', quiet: options.quiet, delayMs: 1000 });
    const results = computeCorrelations(options, registry, (done, total) => progress?.update(done, done / total));
    progress?.done();
    io.stdout.write(options.format === 'json' ? formatCorrelateJsonList(results) : results.map(formatCorrelateText).join('\n'));
    return EXIT_OK;
  } catch (err) {
    progress?.clear();
    return reportInputError('correlate', err, io);
  }
}
