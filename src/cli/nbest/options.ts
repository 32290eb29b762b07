/**
 * Options of `palette nbest`: parsed with the argparse-compatible parser of ../args.ts, checked here so that every
 * usage problem is an `InputError` (exit status 2) before any file is opened.
 */
import { InputError, badOption } from '../../errors.js';
import { METRIC_CATALOG } from '../../metrics/catalog.js';
import { composeFlags } from '../../metrics/descriptor.js';
import type { MetricSettings } from '../../metrics/registry.js';
import type { NbestStatsFormat } from '../../engine/nbest/stats-format.js';
import { DEFAULT_TASK_SIZE } from '../../engine/nbest/run.js';
import { formatOptionHelp, parseArgs, type OptionSpec } from '../args.js';
import { parseMetricFlags } from '../score-options.js';
import { optionValues, readRefs, readWorkers, sharedOption } from '../shared-options.js';

export type { NbestStatsFormat };

/** What `palette nbest` was asked to do. */
export interface NbestOptions {
  /** The n-best list (Moses format). */
  readonly nbest: string;
  /** Reference files, one segment per line, all of the same length. */
  readonly refs: readonly string[];
  /** Metric names as `-m` gave them (`bleu` = Moses BleuScorer statistics); resolved when the run starts. */
  readonly metrics: readonly string[];
  /** Settings of the metrics (defaults of `palette score -m NAME`, plus the flags below). */
  readonly settings: MetricSettings;
  /** Per-candidate sentence scores in the output (json, msgpack). */
  readonly sentenceScores: boolean;
  /** Worker threads; undefined = one per core, in-thread for small lists. */
  readonly workers: number | undefined;
  /** Bytes of the n-best list per task. */
  readonly taskSize: number;
  /** Output file; standard output when absent. */
  readonly stats: string | undefined;
  /** Format of the statistics. */
  readonly format: NbestStatsFormat;
  /** Keep candidates equal in features and statistics (Moses `extractor --allow-duplicates`). */
  readonly allowDuplicates: boolean;
  /** A previous run's SCORES_TXT file to merge with (Moses `--prev-scfile`). */
  readonly prevStats: string | undefined;
  /** The previous run's FEATURES_TXT file (Moses `--prev-ffile`), needed to remove duplicates across runs. */
  readonly prevFeatures: string | undefined;
  /** Where to write the candidates' features as Moses FEATURES_TXT (Moses `--ffile`); none when absent. */
  readonly ffile: string | undefined;
  /** No progress line on standard error. */
  readonly quiet: boolean;
  /** Redis URL of a queue run (`palette worker`s score the shards); none: this process scores the list. */
  readonly queue: string | undefined;
  /** Bytes of the list per shard of a queue run. */
  readonly shardSize: number;
  /** How long a queue run waits for an unreachable Redis before it gives up (ms). */
  readonly redisTimeoutMs: number;
}

/** A parsed command line: a run, or a request for help. */
export type NbestCommand = { readonly kind: 'run'; readonly options: NbestOptions } | { readonly kind: 'help' };

const FORMATS: readonly NbestStatsFormat[] = ['moses', 'json', 'msgpack'];

const GROUP = 'palette nbest options';
const SPECS: readonly OptionSpec[] = [
  sharedOption('help', GROUP),
  sharedOption('quiet', GROUP, 'no progress line on a terminal'),
  { key: 'nbest', names: ['--nbest', '-n'], arity: 'one', metavar: 'FILE', help: 'Moses n-best list (required)', group: GROUP },
  sharedOption('refs', GROUP, 'reference files (required; or as positional arguments)'),
  sharedOption('metrics', GROUP, 'metrics, one pass: bleu (Moses BLEU statistics), any palette score metric (rouge-l, wer, …)'),
  { key: 'sentence', names: ['--sentence-scores'], arity: 'flag', help: 'add per-candidate sentence scores (json, msgpack)', group: GROUP },
  sharedOption('workers', GROUP, 'scoring threads: this one and N-1 pool workers (default: one per core; small lists run in-thread)'),
  { key: 'taskSize', names: ['--task-size'], arity: 'one', metavar: 'BYTES', help: `bytes of the n-best list per task (default ${DEFAULT_TASK_SIZE})`, group: GROUP },
  { key: 'stats', names: ['--stats', '-o'], arity: 'one', metavar: 'OUT', help: 'output file (default: standard output)', group: GROUP },
  {
    key: 'format',
    names: ['--stats-format'],
    arity: 'one',
    metavar: 'FORMAT',
    help: 'moses (SCORES_TXT, default), json (JSON Lines) or msgpack',
    group: GROUP,
  },
  { key: 'dups', names: ['--allow-duplicates'], arity: 'flag', help: 'keep duplicate candidates (as Moses extractor)', group: GROUP },
  { key: 'prev', names: ['--prev-stats'], arity: 'one', metavar: 'FILE', help: 'merge with a previous SCORES_TXT file', group: GROUP },
  {
    key: 'prevFeatures',
    names: ['--prev-features'],
    arity: 'one',
    metavar: 'FILE',
    help: 'the FEATURES_TXT file of --prev-stats (duplicates across runs)',
    group: GROUP,
  },
  { key: 'ffile', names: ['--ffile'], arity: 'one', metavar: 'FILE', help: 'also write the features as Moses FEATURES_TXT (extractor --ffile)', group: GROUP },
  {
    key: 'queue',
    names: ['--queue'],
    arity: 'one',
    metavar: 'URL',
    help: 'score on palette workers through a BullMQ queue on Redis: redis://[user:password@]host[:port][/db] or rediss:// (TLS); needs --stats',
    group: GROUP,
  },
  { key: 'shardSize', names: ['--shard-size'], arity: 'one', metavar: 'BYTES', help: `bytes of the list per shard of a queue run (default ${1 << 22})`, group: GROUP },
  {
    key: 'redisTimeout',
    names: ['--redis-timeout'],
    arity: 'one',
    metavar: 'SECONDS',
    help: 'a queue run whose Redis does not answer for this long ends with nothing written; back sooner, the run goes on (default 60)',
    group: GROUP,
  },
];

/**
 * The metric flags of `palette score` for every metric but BLEU, composed from the metrics' own flag tables: `bleu`
 * here is always Moses' BleuScorer, which sacreBLEU's BLEU flags (-tok, -lc, -s, …) do not describe, so they are
 * refused rather than ignored.
 */
const METRIC_SPECS: readonly OptionSpec[] = composeFlags(METRIC_CATALOG.filter((d) => d.id !== 'bleu'));
const ALL_SPECS: readonly OptionSpec[] = [...SPECS, ...METRIC_SPECS];

/** The help text of `palette nbest`. */
export function nbestHelp(): string {
  return (
    'usage: palette nbest --nbest FILE -r REF [REF ...] -m METRIC [METRIC ...] [--stats OUT]\n' +
    '                     [--stats-format moses|json|msgpack] [--sentence-scores] [--allow-duplicates]\n' +
    '                     [--prev-stats FILE --prev-features FILE] [--ffile FILE] [--workers N]\n' +
    '                     [--task-size BYTES] [--queue URL [--shard-size BYTES] [--redis-timeout S]] [-q]\n' +
    '                     [metric flags]\n\n' +
    'Per-candidate sufficient statistics of a Moses n-best list, as Moses MERT `extractor` writes them, for every\n' +
    'metric in one pass.\n' +
    formatOptionHelp(SPECS) +
    '\nMetric flags: those of "palette score --help" for every metric but BLEU (--rouge-flavor, --stem, --wer-lowercase,\n' +
    '--per-lowercase, --chrf-*, --ter-*, …), with the same defaults; bleu is Moses BLEU.\n' +
    '\n'
  );
}

function single(values: ReadonlyMap<string, unknown>, key: string): string | undefined {
  const v = values.get(key);
  return typeof v === 'string' ? v : undefined;
}

/**
 * Parses the arguments after `nbest`.
 * @throws InputError `E_BAD_OPTION` (missing or bad option), `E_UNKNOWN_METRIC` (a metric other than bleu).
 */
export function parseNbestArgs(argv: readonly string[]): NbestCommand {
  const { values, positionals } = parseArgs(argv, ALL_SPECS);
  if (values.has('help')) return { kind: 'help' };
  const v = optionValues(values);
  const nbest = single(values, 'nbest');
  if (nbest === undefined) throw new InputError('E_BAD_OPTION', 'the n-best list is required (--nbest FILE)');
  const refs = readRefs(v, positionals);
  if (refs === undefined) throw new InputError('E_BAD_OPTION', 'references are required (-r REF [REF ...])');
  const metrics = v.list('metrics');
  if (metrics === undefined) throw new InputError('E_BAD_OPTION', 'a metric is required (-m bleu)');
  // Read as palette score reads them: the same settings and the same messages.
  const settings = parseMetricFlags(values, METRIC_SPECS);
  const workers = readWorkers(v);
  const taskSizeText = single(values, 'taskSize');
  const taskSize = taskSizeText === undefined ? DEFAULT_TASK_SIZE : Number(taskSizeText);
  if (!(Number.isInteger(taskSize) && taskSize >= 1 && taskSize <= 1 << 30)) {
    throw badOption('--task-size', 'a number of bytes from 1 to 2^30', taskSizeText);
  }
  const sentenceScores = values.has('sentence');
  const format = single(values, 'format') ?? 'moses';
  if (!(FORMATS as readonly string[]).includes(format)) throw badOption('--stats-format', FORMATS.join(', '), format);
  const prevStats = single(values, 'prev');
  const prevFeatures = single(values, 'prevFeatures');
  if (prevFeatures !== undefined && prevStats === undefined) {
    throw new InputError('E_BAD_OPTION', '--prev-features needs --prev-stats');
  }
  const allowDuplicates = values.has('dups');
  if (prevStats !== undefined && prevFeatures === undefined && !allowDuplicates) {
    // Moses removes a candidate equal to a previous one in features *and* statistics: without the previous
    // features the merge cannot tell duplicates apart the way Moses does.
    throw new InputError(
      'E_BAD_OPTION',
      '--prev-stats needs --prev-features FILE (the previous FEATURES_TXT) to remove duplicates, or --allow-duplicates',
    );
  }
  if (sentenceScores && format === 'moses') {
    throw new InputError(
      'E_BAD_OPTION',
      '--sentence-scores are not representable in Moses SCORES_TXT (it holds statistics only): use --stats-format json or msgpack',
    );
  }
  const ffile = single(values, 'ffile');
  if (ffile !== undefined && prevStats !== undefined && prevFeatures === undefined) {
    throw new InputError('E_BAD_OPTION', '--ffile with --prev-stats needs --prev-features FILE: the merged features include the previous run\'s');
  }
  const stats = single(values, 'stats');
  if (format === 'msgpack' && stats === undefined) {
    throw new InputError('E_BAD_OPTION', '--stats-format msgpack is binary: give an output file with --stats OUT');
  }
  const queue = single(values, 'queue');
  const shardSizeText = single(values, 'shardSize');
  const shardSize = shardSizeText === undefined ? 1 << 22 : Number(shardSizeText);
  if (!(Number.isInteger(shardSize) && shardSize >= 1 && shardSize <= 1 << 30)) {
    throw badOption('--shard-size', 'a number of bytes from 1 to 2^30', shardSizeText);
  }
  if (shardSizeText !== undefined && queue === undefined) throw new InputError('E_BAD_OPTION', '--shard-size needs --queue URL');
  const redisTimeoutText = single(values, 'redisTimeout');
  const redisTimeout = redisTimeoutText === undefined ? 60 : Number(redisTimeoutText);
  if (!(Number.isFinite(redisTimeout) && redisTimeout >= 1 && redisTimeout <= 86_400)) {
    throw badOption('--redis-timeout', 'a number of seconds from 1 to 86400', redisTimeoutText);
  }
  if (redisTimeoutText !== undefined && queue === undefined) throw new InputError('E_BAD_OPTION', '--redis-timeout needs --queue URL');
  if (queue !== undefined) {
    if (stats === undefined) {
      throw new InputError('E_BAD_OPTION', '--queue needs --stats OUT: the shards\' results are written to a folder beside it');
    }
  }
  return {
    kind: 'run',
    options: {
      nbest,
      refs,
      metrics,
      settings,
      sentenceScores,
      workers,
      taskSize,
      stats,
      format: format as NbestStatsFormat,
      allowDuplicates,
      prevStats,
      prevFeatures,
      ffile,
      quiet: values.has('quiet'),
      queue,
      shardSize,
      redisTimeoutMs: Math.round(redisTimeout * 1000),
    },
  };
}
