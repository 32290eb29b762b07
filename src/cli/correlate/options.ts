/**
 * Options of `palette correlate`: parsed with the argparse-compatible parser of ../args.ts and checked here, so that
 * every usage problem is an `InputError` (exit status 2) before any file is opened.
 */
import { existsSync } from 'node:fs';
import { InputError, badOption } from '../../errors.js';
import { CORRELATION_METHODS, type CorrelationMethod } from '../../meta/correlation-bootstrap.js';
import type { ScoreColumns, ScoreFileFormat } from '../../meta/human-scores.js';
import { parseMetricSource, type MetricSource } from '../../meta/metric-scores.js';
import type { MetricSettings } from '../../metrics/registry.js';
import { formatOptionHelp, parseArgs, type OptionSpec } from '../args.js';
import { METRIC_OPTION_SPECS, parseMetricFlags } from '../score-options.js';
import {
  deprecatedSpecs,
  optionValues,
  readBootstrap,
  readFormat,
  readInputs,
  readMetrics,
  readRefs,
  readSeed,
  resolveDeprecated,
  sharedOption,
  type DeprecatedSpelling,
} from '../shared-options.js';

/** What `palette correlate` was asked to do. */
export interface CorrelateOptions {
  /** Metric-score files (empty with {@link CorrelateOptions.score}). */
  readonly metric: readonly MetricSource[];
  /**
   * The metrics computed from system outputs instead (`-m ID [ID ...] -r REF ... -i FILE ... --hyp SYSTEM=FILE ...`),
   * each correlated on its own.
   */
  readonly score:
    | {
        /** The `-m` names, each once, in the order given. */
        readonly ids: readonly string[];
        readonly refs: readonly string[];
        /** `-i`: systems named by their files (as palette score names them; a judgment may use the file name or stem). */
        readonly inputs: readonly string[];
        /** `--hyp`: systems with the names given. */
        readonly hyps: readonly MetricSource[];
        /** File naming the segments, one id per line (default: line numbers). */
        readonly segmentIds: string | undefined;
        /** Settings from `palette score`'s metric flags (`-lc`, `--rouge-flavor`, `--paraphrase-table`, `--chunker` …). */
        readonly settings: MetricSettings;
      }
    | undefined;
  readonly human: string;
  readonly level: 'system' | 'segment';
  readonly methods: readonly CorrelationMethod[];
  readonly metricColumns: ScoreColumns;
  readonly humanColumns: ScoreColumns;
  readonly allowMissing: boolean;
  /** System level: human system scores stay those of the full data on every resample (seed 001). */
  readonly humanFixed: boolean;
  readonly resample: 'segment' | 'document';
  readonly bootstrap: number;
  readonly seed: number;
  readonly confidence: number;
  readonly wmtThreshold: number;
  readonly format: 'text' | 'json';
  /** No progress line and no warnings (`-q`). */
  readonly quiet: boolean;
  /** Deprecated spellings used, one message each (printed unless `-q`). */
  readonly warnings: readonly string[];
}

/** A parsed command line. */
export type CorrelateCommand = { readonly kind: 'run'; readonly options: CorrelateOptions } | { readonly kind: 'help' };

const GROUP = 'palette correlate options';
const COLUMNS = 'score-file columns';
const OWN_SPECS: readonly OptionSpec[] = [
  sharedOption('help', GROUP),
  sharedOption('quiet', GROUP, 'no progress line (drawn with -m on a terminal) and no warnings on standard error'),
  {
    key: 'metric',
    names: ['--metric'],
    arity: 'some',
    metavar: 'FILE',
    help: 'metric scores: one file with a system column, or SYSTEM=FILE per system (required)',
    group: GROUP,
  },
  sharedOption(
    'metrics',
    GROUP,
    'instead of --metric: compute these palette score metrics (e.g. bleu chrf) from the systems (-i, --hyp) and references (-r); each is correlated on its own',
  ),
  sharedOption('refs', GROUP, 'reference files (with -m)'),
  {
    key: 'segmentIds',
    names: ['--segment-ids'],
    arity: 'one',
    metavar: 'FILE',
    help: 'with -m: the id of each segment, one per line (e.g. SummEval doc_ids.txt; default: line numbers 1, 2, ...)',
    group: GROUP,
  },
  sharedOption('input', GROUP, 'system outputs, one segment per line (with -m); a system is named by its file, as palette score names it (the human file may use the file name or its stem)'),
  { key: 'hyp', names: ['--hyp'], arity: 'some', metavar: 'SYSTEM=FILE', help: 'system outputs named SYSTEM, one segment per line (with -m; beside or instead of -i)', group: GROUP },
  { key: 'human', names: ['--human'], arity: 'one', metavar: 'FILE', help: 'human scores (required)', group: GROUP },
  { key: 'level', names: ['--level'], arity: 'one', metavar: 'LEVEL', help: 'system (default) or segment', group: GROUP },
  {
    key: 'method',
    names: ['--method'],
    arity: 'one',
    metavar: 'LIST',
    help: `comma-separated, from ${CORRELATION_METHODS.join(', ')} (default pearson,spearman,kendall)`,
    group: GROUP,
  },
  sharedOption('bootstrap', GROUP, 'bootstrap resamples for the CIs, 0 = none (default 1000)'),
  sharedOption('seed', GROUP, 'seed of numpy default_rng for the resamples (default: $SACREBLEU_SEED, else 12345)'),
  { key: 'confidence', names: ['--confidence'], arity: 'one', metavar: 'P', help: 'confidence level of the intervals (default 0.95)', group: GROUP },
  { key: 'resample', names: ['--resample'], arity: 'one', metavar: 'UNIT', help: 'segment (default) or document (needs --human-doc)', group: GROUP },
  {
    key: 'allowMissing',
    names: ['--allow-missing'],
    arity: 'flag',
    help: 'restrict to the keys both files have and to rated (non-empty) human scores, and report the counts',
    group: GROUP,
  },
  {
    key: 'humanFixed',
    names: ['--human-fixed'],
    arity: 'flag',
    help: 'system level: keep the human system scores of the full data on every resample (seed 001: metric rankings of resampled documents against the official ranking)',
    group: GROUP,
  },
  { key: 'wmtThreshold', names: ['--wmt-threshold'], arity: 'one', metavar: 'D', help: 'wmt tau: human scores must differ by more than D (default 0; WMT DARR: 25)', group: GROUP },
  sharedOption('format', GROUP, 'text (default) or json; with several -m metrics, one block (text) or object of a JSON array per metric'),
  { key: 'humanScore', names: ['--human-score'], arity: 'one', metavar: 'COL', help: 'score column of the human file (default score)', group: COLUMNS },
  { key: 'humanSystem', names: ['--human-system'], arity: 'one', metavar: 'COL', help: 'system column of the human file (default system)', group: COLUMNS },
  {
    key: 'humanItem',
    names: ['--human-item'],
    arity: 'one',
    metavar: 'COL',
    help: 'segment/document column of the human file; none = system-level file (default: seg_id, segment, doc_id or item if present)',
    group: COLUMNS,
  },
  { key: 'humanDoc', names: ['--human-doc'], arity: 'one', metavar: 'COL', help: 'document column of the human file (for --resample document)', group: COLUMNS },
  { key: 'humanWhere', names: ['--human-where'], arity: 'some', metavar: 'COL=VALUE', help: 'read only the human records with these values', group: COLUMNS },
  { key: 'metricScore', names: ['--metric-score'], arity: 'one', metavar: 'COL', help: 'score column of the metric files (default score)', group: COLUMNS },
  { key: 'metricSystem', names: ['--metric-system'], arity: 'one', metavar: 'COL', help: 'system column of the metric file (default system)', group: COLUMNS },
  {
    key: 'metricItem',
    names: ['--metric-item'],
    arity: 'one',
    metavar: 'COL',
    help: 'segment/document column of the metric files; none = system-level (default as --human-item; SYSTEM=FILE without one: line numbers)',
    group: COLUMNS,
  },
  { key: 'metricWhere', names: ['--metric-where'], arity: 'some', metavar: 'COL=VALUE', help: 'read only the metric records with these values', group: COLUMNS },
  { key: 'inputFormat', names: ['--input-format'], arity: 'one', metavar: 'FORMAT', help: 'tsv, json or jsonl for every input (default: from the extension)', group: COLUMNS },
];

/** Spellings of earlier versions, still accepted with a warning. */
const DEPRECATED: readonly DeprecatedSpelling[] = [{ names: ['--score-metric'], arity: 'some', key: 'metrics', use: '-m/--metrics METRIC' }];

/** Own options and every metric flag of `palette score`, which configure the `-m` metrics. */
const SPECS: readonly OptionSpec[] = [...OWN_SPECS, ...METRIC_OPTION_SPECS, ...deprecatedSpecs(DEPRECATED)];

/** The help text of `palette correlate`. */
export function correlateHelp(): string {
  return (
    'usage: palette correlate (--metric FILE [FILE ...] | -m METRIC [METRIC ...] -r REF [REF ...] (-i FILE [...] | --hyp SYSTEM=FILE [...]))\n' +
    '                         --human FILE [--level system|segment]\n' +
    '                         [--method pearson,spearman,kendall,wmt] [--bootstrap N] [--seed N] [-f text|json] [-q]\n\n' +
    'Correlation of metric scores with human scores, with percentile bootstrap confidence intervals.\n\n' +
    'Score files: TSV with a header line, JSON lines (one object per line) or a JSON array of objects, with a system\n' +
    'column, an item column (segment or document id; none = one score per system) and a score column. Every metric\n' +
    'record must have a human score and every human score a metric record (or use --allow-missing). A metric file per\n' +
    'system (SYSTEM=FILE) may be the output of `palette score --sentence-level -f json` (segments = line numbers)\n' +
    'or of `palette score -f json` for that one system (its system-level score).\n' +
    'System scores from segment scores are their means; with -m they are corpus scores from the summed statistics\n' +
    '(re-reduced on every resample). Resamples draw segments (or documents) for all systems at once.\n' +
    'With -m, the metric flags of "palette score --help" set the metric up as there (-tok, -lc, --chrf-*, --rouge-*,\n' +
    '--ter-*, --paraphrase-table FILE for paraeval, --chunker NAME and --impact-*/--npchunk-delta for impact and npchunk).\n' +
    formatOptionHelp([...OWN_SPECS, ...deprecatedSpecs(DEPRECATED)]) +
    '\n'
  );
}

function single(values: ReadonlyMap<string, unknown>, key: string): string | undefined {
  const v = values.get(key);
  return typeof v === 'string' ? v : undefined;
}

function wherePairs(values: ReadonlyMap<string, unknown>, key: string, flag: string): [string, string][] | undefined {
  const list = values.get(key);
  if (!Array.isArray(list)) return undefined;
  return (list as string[]).map((text) => {
    const eq = text.indexOf('=');
    if (eq <= 0) throw badOption(flag, 'COL=VALUE', text);
    return [text.slice(0, eq), text.slice(eq + 1)];
  });
}

function itemColumn(text: string | undefined): string | null | undefined {
  return text === 'none' ? null : text;
}

/**
 * Parses the arguments after `correlate`.
 * @param env environment (`SACREBLEU_SEED`, the seed without `--seed`)
 * @throws InputError `E_BAD_OPTION` for a missing or bad option.
 */
export function parseCorrelateArgs(
  argv: readonly string[],
  exists: (path: string) => boolean = existsSync,
  env: Readonly<Record<string, string | undefined>> = {},
): CorrelateCommand {
  const parsed = parseArgs(argv, SPECS);
  if (parsed.values.has('help')) return { kind: 'help' };
  const { values, warnings } = resolveDeprecated(parsed.values, DEPRECATED);
  const v = optionValues(values);
  const metricArgs = values.get('metric');
  const ids = readMetrics(v);
  if (!Array.isArray(metricArgs) && ids === undefined) {
    throw new InputError('E_BAD_OPTION', 'metric scores are required (--metric FILE, or -m METRIC -r REF -i FILE ...)');
  }
  if (Array.isArray(metricArgs) && ids !== undefined) throw new InputError('E_BAD_OPTION', '--metric and -m exclude each other');
  let score: CorrelateOptions['score'];
  if (ids !== undefined) {
    const refs = readRefs(v, parsed.positionals);
    const inputs = readInputs(v) ?? [];
    const hypArgs = v.list('hyp') ?? [];
    if (refs === undefined) throw new InputError('E_BAD_OPTION', '-m needs references (-r REF [REF ...])');
    if (inputs.length === 0 && hypArgs.length === 0) {
      throw new InputError('E_BAD_OPTION', '-m needs system outputs (-i FILE [FILE ...] or --hyp SYSTEM=FILE ...)');
    }
    const hyps = hypArgs.map((a) => parseMetricSource(a, () => false));
    const unnamed = hyps.find((h) => h.system === undefined);
    if (unnamed) throw badOption('--hyp', 'SYSTEM=FILE', unnamed.file);
    // Checked by palette score's own parser: the same meaning and the same messages as there.
    const settings = parseMetricFlags(values);
    score = { ids, refs, inputs, hyps, segmentIds: single(values, 'segmentIds'), settings };
  } else if (parsed.positionals.length > 0) {
    throw new InputError('E_BAD_OPTION', `unrecognized arguments: ${parsed.positionals.join(' ')}`);
  } else if (values.has('refs') || values.has('hyp') || values.has('input') || values.has('segmentIds')) {
    throw new InputError('E_BAD_OPTION', '-r, -i, --hyp and --segment-ids go with -m METRIC');
  } else {
    const flag = METRIC_OPTION_SPECS.find((s) => values.has(s.key));
    if (flag !== undefined) throw new InputError('E_BAD_OPTION', `${flag.names[0]} is a metric flag: it goes with -m METRIC`);
  }
  const human = single(values, 'human');
  if (human === undefined) throw new InputError('E_BAD_OPTION', 'human scores are required (--human FILE)');
  const metric = Array.isArray(metricArgs) ? (metricArgs as string[]).map((a) => parseMetricSource(a, exists)) : [];
  if (metric.length > 1 && metric.some((m) => m.system === undefined)) {
    throw new InputError('E_BAD_OPTION', 'several --metric files must each name their system (SYSTEM=FILE)');
  }

  const level = single(values, 'level') ?? 'system';
  if (level !== 'system' && level !== 'segment') throw badOption('--level', 'system or segment', level);
  const methodText = single(values, 'method') ?? 'pearson,spearman,kendall';
  const methods = methodText.split(',').map((m) => m.trim());
  for (const m of methods) {
    if (!(CORRELATION_METHODS as readonly string[]).includes(m)) throw badOption('--method', `a list of ${CORRELATION_METHODS.join(', ')}`, m);
  }
  if (new Set(methods).size !== methods.length) throw badOption('--method', 'a list without repeats', methodText);

  const bootstrap = readBootstrap(v);
  const seed = readSeed(v, env);
  const confidenceText = single(values, 'confidence');
  const confidence = confidenceText === undefined ? 0.95 : Number(confidenceText);
  if (!(confidence > 0 && confidence < 1)) throw badOption('--confidence', 'a number between 0 and 1', confidenceText);
  const thresholdText = single(values, 'wmtThreshold');
  const wmtThreshold = thresholdText === undefined ? 0 : Number(thresholdText);
  if (thresholdText !== undefined && !(thresholdText.trim() !== '' && wmtThreshold >= 0 && Number.isFinite(wmtThreshold))) {
    throw badOption('--wmt-threshold', 'a non-negative number', thresholdText);
  }
  const resample = single(values, 'resample') ?? 'segment';
  if (resample !== 'segment' && resample !== 'document') throw badOption('--resample', 'segment or document', resample);
  const humanDoc = single(values, 'humanDoc');
  if (resample === 'document' && humanDoc === undefined) {
    throw new InputError('E_BAD_OPTION', '--resample document needs the document column of the human file (--human-doc COL)');
  }
  const format = readFormat(v, ['text', 'json'] as const, 'text');
  const inputFormat = single(values, 'inputFormat');
  if (inputFormat !== undefined && !['tsv', 'json', 'jsonl'].includes(inputFormat)) {
    throw badOption('--input-format', 'tsv, json or jsonl', inputFormat);
  }
  const allowMissing = values.has('allowMissing');
  const humanColumns: ScoreColumns = {
    system: single(values, 'humanSystem'),
    item: itemColumn(single(values, 'humanItem')),
    score: single(values, 'humanScore'),
    document: humanDoc,
    where: wherePairs(values, 'humanWhere', '--human-where'),
    allowUnrated: allowMissing,
    format: inputFormat as ScoreFileFormat | undefined,
  };
  const metricColumns: ScoreColumns = {
    system: single(values, 'metricSystem'),
    item: itemColumn(single(values, 'metricItem')),
    score: single(values, 'metricScore'),
    where: wherePairs(values, 'metricWhere', '--metric-where'),
    format: inputFormat as ScoreFileFormat | undefined,
  };
  return {
    kind: 'run',
    options: {
      metric,
      score,
      human,
      level,
      methods: methods as CorrelationMethod[],
      metricColumns,
      humanColumns,
      allowMissing,
      humanFixed: values.has('humanFixed'),
      resample,
      bootstrap,
      seed,
      confidence,
      wmtThreshold,
      format,
      quiet: values.has('quiet'),
      warnings,
    },
  };
}
