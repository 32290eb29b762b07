/**
 * `palette correlate -m METRIC -r REF ... --hyp SYSTEM=FILE ...`: the metric computed here from system outputs
 * instead of read from score files, so that system scores can be re-reduced on every bootstrap resample from the
 * summed statistics rows (a corpus metric such as BLEU is not the mean of its sentence scores).
 *
 * Lines are read as `palette score` reads them (strict UTF-8, `'\n'` lines, each line `rstrip()`ped as sacrebleu's
 * CLI does); segment `i` of every file is item `String(i + 1)` (1-based line numbers, as WMT's `seg_id`), or line
 * `i + 1` of a segment-id file (SummEval's doc_ids.txt). Each
 * system becomes one score table (its file, its lines) whose scores are the sentence scores of
 * `palette score -sl`, with the statistics rows kept beside it for the system-level (corpus) reduction of
 * `palette score`.
 */
import { InputError } from '../../errors.js';
import { readLines } from '../../node/read-lines.js';
import type { ScoreTable } from '../../meta/human-scores.js';
import { defaultRegistry, type MetricRegistry, type MetricSettings } from '../../metrics/registry.js';
import type { Metric } from '../../metrics/metric.js';
import { pyRstrip } from '../../text/pystr.js';
import type { MetricSource } from '../../meta/metric-scores.js';

/** Segment ids, one a line, as many as segments and all distinct. */
function readSegmentIds(file: string, segments: number): string[] {
  const ids = readLines(file).map(pyRstrip);
  if (ids.length !== segments) {
    throw new InputError('E_LINE_COUNT_MISMATCH', `has ${ids.length} lines but the references have ${segments}`, { file });
  }
  const first = new Map<string, number>();
  ids.forEach((id, i) => {
    if (id === '') throw new InputError('E_BAD_INPUT', 'empty segment id', { file, line: i + 1 });
    const before = first.get(id);
    if (before !== undefined) throw new InputError('E_BAD_INPUT', `duplicate segment id ${JSON.stringify(id)} (first at line ${before})`, { file, line: i + 1 });
    first.set(id, i + 1);
  });
  return ids;
}

/**
 * Runs `f`; an InputError it throws at a line but without a file (a metric reading text: a malformed pre-chunked
 * line) gets the file `fileOf` names.
 */
function inFile<T>(f: () => T, fileOf: (err: InputError) => string | undefined): T {
  try {
    return f();
  } catch (err) {
    if (!(err instanceof InputError) || err.file !== undefined || err.line === undefined) throw err;
    const located = new InputError(err.code, err.message, { file: fileOf(err), line: err.line });
    located.cause = err;
    throw located;
  }
}

/** Which reference file holds the line a metric refused (several files: the first one that fails alone). */
function referenceFileOf(err: InputError, metric: Metric, refs: readonly string[][], files: readonly string[]): string | undefined {
  if (files.length === 1) return files[0];
  const line = err.line! - 1;
  for (let j = 0; j < refs.length; j++) {
    try {
      metric.prepareReferences([[refs[j][line]]]);
    } catch {
      return files[j];
    }
  }
  return undefined;
}

/** Tables of sentence scores, one per system, with the statistics rows of each record. */
export interface ScoredMetric {
  /** Canonical metric id. */
  readonly id: string;
  readonly tables: readonly ScoreTable[];
  /** `stats[t]`: the rows of table `t`, `width` numbers per record, in record order. */
  readonly stats: readonly Float64Array[];
  readonly width: number;
  /** Corpus score from summed rows (the metric's `scoreFromStats`). */
  reduce(sums: Float64Array): number;
  /**
   * The system score from the rows in corpus order, for a metric whose descriptor says its reduction is `ordered`
   * (as `palette score` computes it); absent otherwise.
   */
  readonly reduceRows?: (rows: Float64Array) => number;
}

/**
 * Scores every system against the references with metric `id`, set up as `palette score -m id` with `settings`
 * (its metric flags; none: its defaults); `onSystem` is called after each system.
 * @throws InputError for unreadable files, line-count mismatches, an unknown metric, or a system given twice.
 */
export function scoreSystems(
  id: string,
  refFiles: readonly string[],
  hyps: readonly MetricSource[],
  registry: MetricRegistry = defaultRegistry,
  segmentIds?: string,
  settings: MetricSettings = {},
  onSystem?: () => void,
): ScoredMetric {
  const canonical = registry.resolve ? registry.resolve(id, settings) : id;
  // Two instances, as `palette score` and `palette score -sl` build them: system scores are corpus scores with the
  // defaults, segment scores sentence scores with `-sl`'s settings (BLEU: effective order, as sacrebleu's CLI).
  // `-sl` changes only the reduction, never the statistics, so one set of rows serves both.
  // A metric that loads a resource (ParaEval's paraphrase table) loads it once: the `-sl` instance is built only
  // where `-sl` changes something, which the metric's descriptor says (`sentenceLevelSame`: all but BLEU).
  const cli = registry.create(canonical, { ...settings, sentenceLevel: false });
  const { metric } = cli;
  const descriptor = registry.describe?.(canonical);
  const sentenceLevelSame = descriptor?.sentenceLevelSame === true;
  const own = descriptor === undefined ? undefined : (settings as Readonly<Record<string, object | undefined>>)[descriptor.settingsKey];
  const ordered = descriptor !== undefined && descriptor.reduction(own ?? {}) === 'ordered';
  const sentenceMetric = sentenceLevelSame ? metric : registry.create(canonical, { ...settings, sentenceLevel: true }).metric;
  const refs = refFiles.map((f) => readLines(f).map(pyRstrip));
  refs.forEach((stream, j) => {
    if (stream.length !== refs[0].length) {
      throw new InputError('E_LINE_COUNT_MISMATCH', `has ${stream.length} lines but ${refFiles[0]} has ${refs[0].length}`, { file: refFiles[j] });
    }
  });
  const items = segmentIds === undefined ? Array.from({ length: refs[0].length }, (_, i) => String(i + 1)) : readSegmentIds(segmentIds, refs[0].length);
  const prepared = inFile(() => metric.prepareReferences(refs), (err) => referenceFileOf(err, metric, refs, refFiles));
  const seen = new Set<string>();
  const tables: ScoreTable[] = [];
  const stats: Float64Array[] = [];
  for (const hyp of hyps) {
    const system = hyp.system;
    if (system === undefined) throw new InputError('E_BAD_OPTION', `--hyp needs SYSTEM=FILE (got ${JSON.stringify(hyp.file)})`);
    if (seen.has(system)) throw new InputError('E_BAD_OPTION', `system ${JSON.stringify(system)} is given twice (--hyp)`);
    seen.add(system);
    const lines = readLines(hyp.file).map(pyRstrip);
    if (lines.length !== refs[0].length) {
      throw new InputError('E_LINE_COUNT_MISMATCH', `has ${lines.length} lines but the references have ${refs[0].length}`, { file: hyp.file });
    }
    const rows = inFile(() => metric.segmentStats(lines, prepared), () => hyp.file);
    const width = metric.statsWidth;
    const n = lines.length;
    const score = new Float64Array(n);
    for (let i = 0; i < n; i++) score[i] = sentenceMetric.sentenceScoreFromStats(rows.subarray(i * width, (i + 1) * width)).score;
    const index = Uint32Array.from({ length: n }, (_, i) => i);
    tables.push({
      file: hyp.file,
      scoreName: canonical,
      itemName: segmentIds === undefined ? '#line' : 'segment',
      systems: [system],
      items,
      documents: undefined,
      system: new Uint32Array(n),
      item: index,
      document: undefined,
      score,
      line: index.map((i) => i + 1),
      unrated: 0,
      unratedBySystem: new Map(),
      filtered: 0,
    });
    stats.push(rows);
    onSystem?.();
  }
  return {
    id: canonical,
    tables,
    stats,
    width: metric.statsWidth,
    reduce: (sums) => metric.scoreFromStats(sums).score,
    ...(ordered ? { reduceRows: (rows: Float64Array) => cli.corpusScore(rows).score } : {}),
  };
}
