/**
 * Options of `palette nbest`: parsed with the argparse-compatible parser of ../args.ts, checked here so that every
 * usage problem is an `InputError` (exit status 2) before any file is opened.
 */
import { InputError, badOption } from '../../errors.js';
import { formatOptionHelp, parseArgs, type OptionSpec } from '../args.js';

/** Output formats of the statistics. */
export type NbestStatsFormat = 'moses' | 'json' | 'msgpack';

/** What `palette nbest` was asked to do. */
export interface NbestOptions {
  /** The n-best list (Moses format). */
  readonly nbest: string;
  /** Reference files, one segment per line, all of the same length. */
  readonly refs: readonly string[];
  /** The metric (only `bleu` in this version). */
  readonly metric: 'bleu';
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
  /** No progress line on standard error. */
  readonly quiet: boolean;
}

/** A parsed command line: a run, or a request for help. */
export type NbestCommand = { readonly kind: 'run'; readonly options: NbestOptions } | { readonly kind: 'help' };

/** Metrics `palette nbest` computes in this version. */
export const NBEST_METRICS = ['bleu'] as const;
const FORMATS: readonly NbestStatsFormat[] = ['moses', 'json', 'msgpack'];

const GROUP = 'palette nbest options';
const SPECS: readonly OptionSpec[] = [
  { key: 'help', names: ['--help', '-h'], arity: 'flag', help: 'show this help and exit', group: GROUP },
  { key: 'quiet', names: ['--quiet', '-q'], arity: 'flag', help: 'no progress line on a terminal', group: GROUP },
  { key: 'nbest', names: ['--nbest', '-n'], arity: 'one', metavar: 'FILE', help: 'Moses n-best list (required)', group: GROUP },
  { key: 'refs', names: ['--refs', '-r'], arity: 'some', metavar: 'REF', help: 'reference files (required)', group: GROUP },
  { key: 'metric', names: ['--metrics', '-m'], arity: 'some', metavar: 'METRIC', help: 'metric: bleu (Moses MERT BLEU statistics)', group: GROUP },
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
];

/** The help text of `palette nbest`. */
export function nbestHelp(): string {
  return (
    'usage: palette nbest --nbest FILE -r REF [REF ...] -m bleu [--stats OUT] [--stats-format moses|json|msgpack]\n' +
    '                     [--allow-duplicates] [--prev-stats FILE --prev-features FILE] [-q]\n\n' +
    'Per-candidate sufficient statistics of a Moses n-best list, as Moses MERT `extractor` writes them.\n' +
    formatOptionHelp(SPECS) +
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
  const { values, positionals } = parseArgs(argv, SPECS);
  if (values.has('help')) return { kind: 'help' };
  if (positionals.length > 0) {
    throw new InputError('E_BAD_OPTION', `unrecognized arguments: ${positionals.join(' ')}`);
  }
  const nbest = single(values, 'nbest');
  if (nbest === undefined) throw new InputError('E_BAD_OPTION', 'the n-best list is required (--nbest FILE)');
  const refs = values.get('refs');
  if (!Array.isArray(refs)) throw new InputError('E_BAD_OPTION', 'references are required (-r REF [REF ...])');
  const metrics = values.get('metric');
  if (!Array.isArray(metrics)) throw new InputError('E_BAD_OPTION', 'a metric is required (-m bleu)');
  for (const m of metrics) {
    if (m !== 'bleu') {
      throw new InputError(
        'E_UNKNOWN_METRIC',
        `unknown metric "${m}" for palette nbest: only bleu (Moses MERT BLEU statistics) is supported in this version`,
      );
    }
  }
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
  const stats = single(values, 'stats');
  if (format === 'msgpack' && stats === undefined) {
    throw new InputError('E_BAD_OPTION', '--stats-format msgpack is binary: give an output file with --stats OUT');
  }
  return {
    kind: 'run',
    options: {
      nbest,
      refs,
      metric: 'bleu',
      stats,
      format: format as NbestStatsFormat,
      allowDuplicates,
      prevStats,
      prevFeatures,
      quiet: values.has('quiet'),
    },
  };
}
