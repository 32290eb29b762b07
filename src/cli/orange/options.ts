/**
 * Options of `palette orange`: parsed with the argparse-compatible parser of ../args.ts and checked here, so that
 * every usage problem is an `InputError` (exit status 2) before any file is opened.
 */
import { InputError } from '../../errors.js';
import { ORANGE_METRIC_NAMES, parseOrangeMetrics, type OrangeVariant } from '../../meta/orange/variants.js';
import type { MetricSettings } from '../../metrics/registry.js';
import { formatOptionHelp, parseArgs, type OptionSpec } from '../args.js';
import { PARAPHRASE_CHUNK_OPTION_SPECS, parseMetricFlags } from '../score-options.js';
import {
  DEFAULT_BOOTSTRAP,
  DEFAULT_SEED,
  deprecatedSpecs,
  optionValues,
  readBootstrap,
  readFormat,
  readMetrics,
  readRefs,
  readSeed,
  readWidth,
  readWorkers,
  resolveDeprecated,
  sharedOption,
  type DeprecatedSpelling,
} from '../shared-options.js';

export { DEFAULT_BOOTSTRAP, DEFAULT_SEED };

/** Output formats. */
export type OrangeFormat = 'text' | 'json';

/** What `palette orange` was asked to do. */
export interface OrangeOptions {
  /** The n-best list (Moses or Joshua `id ||| hypothesis ||| …` format). */
  readonly nbest: string;
  /** Reference files (at least 2), one sentence per line. */
  readonly refs: readonly string[];
  /** The metric variants, in the order named (groups expanded, repeats dropped). */
  readonly variants: readonly OrangeVariant[];
  /** Settings of paraeval, impact and npchunk from `palette score`'s flags (`--paraphrase-table`, `--chunker` …). */
  readonly settings: MetricSettings;
  /** Bootstrap resamples for the 95% interval; 0 = none. @default 1000 */
  readonly bootstrap: number;
  /** Seed of the resampling. @default $SACREBLEU_SEED, else 12345 (sacrebleu's) */
  readonly seed: number;
  /** Output format. @default 'text' */
  readonly format: OrangeFormat;
  /** Decimals in the text table. @default 4 */
  readonly width: number;
  /** Worker threads (1: in this thread); undefined: one per core, small lists in this thread. */
  readonly workers: number | undefined;
  /** No progress line and no warnings. */
  readonly quiet: boolean;
  /** Deprecated spellings used, one message each (printed unless `-q`). */
  readonly warnings: readonly string[];
}

/** A parsed command line: a run, or a request for help. */
export type OrangeCommand = { readonly kind: 'run'; readonly options: OrangeOptions } | { readonly kind: 'help' };

const GROUP = 'palette orange options';
const OWN_SPECS: readonly OptionSpec[] = [
  sharedOption('help', GROUP),
  sharedOption('quiet', GROUP, 'no progress line on a terminal and no warnings'),
  { key: 'nbest', names: ['--nbest', '-n'], arity: 'one', metavar: 'FILE', help: 'n-best list, Moses or Joshua format (required)', group: GROUP },
  sharedOption('refs', GROUP, 'reference files, at least 2 (required; or as positional arguments)'),
  sharedOption('metrics', GROUP, `metrics: ${ORANGE_METRIC_NAMES}`),
  sharedOption('bootstrap', GROUP),
  sharedOption('seed', GROUP),
  sharedOption('format', GROUP, 'text (table sorted by ORANGE, default) or json'),
  sharedOption('workers', GROUP, 'scoring threads: this one and N-1 pool workers scoring blocks of sentences (default: one per core; lists under 1 MiB run in this thread)'),
  sharedOption('width', GROUP, 'decimals in the text table, 0..16 (default 4)'),
];

/** Spellings of earlier versions, still accepted with a warning (`-b` is sacrebleu's `--score-only` elsewhere). */
const DEPRECATED: readonly DeprecatedSpelling[] = [{ names: ['-b'], arity: 'one', key: 'bootstrap', use: '--bootstrap N' }];

/**
 * Own options, and `palette score`'s ParaEval, IMPACT and NP-chunk flags: the other variants have the paper's fixed
 * settings, these take theirs as `palette score` does.
 */
const SPECS: readonly OptionSpec[] = [...OWN_SPECS, ...PARAPHRASE_CHUNK_OPTION_SPECS, ...deprecatedSpecs(DEPRECATED)];

/** The help text of `palette orange`. */
export function orangeHelp(): string {
  return (
    'usage: palette orange --nbest FILE -r REF REF [REF ...] -m METRIC [METRIC ...] [--bootstrap N] [--seed N]\n' +
    '                      [-f text|json] [-w N] [-j N] [-q] [--paraphrase-table FILE] [--chunker NAME] [...]\n\n' +
    'ORANGE (Lin & Och 2004): the average rank of the references among the n-best candidates and the other\n' +
    'references, each scored leave-one-out, over N + 1; lower is better. Many metric variants in one pass.\n' +
    'paraeval (needs --paraphrase-table FILE), impact and npchunk (--chunker NAME) are scored as palette score -sl\n' +
    'scores them, set up by the flags below (as in palette score).\n' +
    formatOptionHelp(SPECS) +
    '\n'
  );
}

/**
 * Parses the arguments after `orange`.
 * @param env environment (`SACREBLEU_SEED`, the seed without `--seed`)
 * @throws InputError `E_BAD_OPTION` (missing or bad option), `E_UNKNOWN_METRIC` (a name no variant has).
 */
export function parseOrangeArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): OrangeCommand {
  const parsed = parseArgs(argv, SPECS);
  if (parsed.values.has('help')) return { kind: 'help' };
  const { values, warnings } = resolveDeprecated(parsed.values, DEPRECATED);
  const v = optionValues(values);
  const nbest = v.str('nbest');
  if (nbest === undefined) throw new InputError('E_BAD_OPTION', 'the n-best list is required (--nbest FILE)');
  const refs = readRefs(v, parsed.positionals);
  if (refs === undefined) throw new InputError('E_BAD_OPTION', 'references are required (-r REF REF [REF ...])');
  const metrics = readMetrics(v);
  if (metrics === undefined) throw new InputError('E_BAD_OPTION', `a metric is required (-m METRIC ...: ${ORANGE_METRIC_NAMES})`);
  return {
    kind: 'run',
    options: {
      nbest,
      refs,
      variants: parseOrangeMetrics(metrics),
      // Checked by palette score's own parser: the same meaning and the same messages as there.
      settings: parseMetricFlags(values, PARAPHRASE_CHUNK_OPTION_SPECS),
      bootstrap: readBootstrap(v),
      seed: readSeed(v, env),
      format: readFormat(v, ['text', 'json'] as const, 'text'),
      width: readWidth(v, 4),
      workers: readWorkers(v),
      quiet: v.flag('quiet'),
      warnings,
    },
  };
}
