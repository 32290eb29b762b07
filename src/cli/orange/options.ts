/**
 * Options of `palette orange`: parsed with the argparse-compatible parser of ../args.ts and checked here, so that
 * every usage problem is an `InputError` (exit status 2) before any file is opened.
 */
import { InputError, badOption } from '../../errors.js';
import { ORANGE_METRIC_NAMES, parseOrangeMetrics, type OrangeVariant } from '../../meta/orange/variants.js';
import type { MetricSettings } from '../../metrics/registry.js';
import { formatOptionHelp, parseArgs, type OptionSpec } from '../args.js';
import { PARAPHRASE_CHUNK_OPTION_SPECS, parseMetricFlags } from '../score-options.js';

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
  /** Seed of the resampling. @default 12345 (sacrebleu's) */
  readonly seed: number;
  /** Output format. @default 'text' */
  readonly format: OrangeFormat;
  /** Decimals in the text table. @default 4 */
  readonly width: number;
  /** Worker threads (1: in this thread). @default 1 */
  readonly workers: number;
  /** No progress line. */
  readonly quiet: boolean;
}

/** A parsed command line: a run, or a request for help. */
export type OrangeCommand = { readonly kind: 'run'; readonly options: OrangeOptions } | { readonly kind: 'help' };

/** Resamples when `--bootstrap` is not given (sacrebleu's `--confidence-n` default). */
export const DEFAULT_BOOTSTRAP = 1000;
/** Seed when `--seed` is not given (sacrebleu's default seed). */
export const DEFAULT_SEED = 12345;

const GROUP = 'palette orange options';
const OWN_SPECS: readonly OptionSpec[] = [
  { key: 'help', names: ['--help', '-h'], arity: 'flag', help: 'show this help and exit', group: GROUP },
  { key: 'quiet', names: ['--quiet', '-q'], arity: 'flag', help: 'no progress line on a terminal', group: GROUP },
  { key: 'nbest', names: ['--nbest', '-n'], arity: 'one', metavar: 'FILE', help: 'n-best list, Moses or Joshua format (required)', group: GROUP },
  { key: 'refs', names: ['--refs', '-r'], arity: 'some', metavar: 'REF', help: 'reference files, at least 2 (required)', group: GROUP },
  { key: 'metrics', names: ['--metrics', '-m'], arity: 'some', metavar: 'METRIC', help: `metrics: ${ORANGE_METRIC_NAMES}`, group: GROUP },
  { key: 'bootstrap', names: ['--bootstrap', '-b'], arity: 'one', metavar: 'N', help: `bootstrap resamples of the 95% CI, 0 for none (default ${DEFAULT_BOOTSTRAP})`, group: GROUP },
  { key: 'seed', names: ['--seed'], arity: 'one', metavar: 'S', help: `seed of the resampling (default ${DEFAULT_SEED})`, group: GROUP },
  { key: 'format', names: ['--format', '-f'], arity: 'one', metavar: 'FORMAT', help: 'text (table sorted by ORANGE, default) or json', group: GROUP },
  { key: 'workers', names: ['--workers', '-j'], arity: 'one', metavar: 'N', help: 'worker threads scoring blocks of sentences (default 1: this thread)', group: GROUP },
  { key: 'width', names: ['--width', '-w'], arity: 'one', metavar: 'N', help: 'decimals in the text table (default 4)', group: GROUP },
];

/**
 * Own options, and `palette score`'s ParaEval, IMPACT and NP-chunk flags: the other variants have the paper's fixed
 * settings, these take theirs as `palette score` does.
 */
const SPECS: readonly OptionSpec[] = [...OWN_SPECS, ...PARAPHRASE_CHUNK_OPTION_SPECS];

/** The help text of `palette orange`. */
export function orangeHelp(): string {
  return (
    'usage: palette orange --nbest FILE -r REF REF [REF ...] -m METRIC [METRIC ...] [--bootstrap N] [--seed S]\n' +
    '                      [-f text|json] [-w N] [-j N] [-q] [--paraphrase-table FILE] [--chunker NAME] [...]\n\n' +
    'ORANGE (Lin & Och 2004): the average rank of the references among the n-best candidates and the other\n' +
    'references, each scored leave-one-out, over N + 1; lower is better. Many metric variants in one pass.\n' +
    'paraeval (needs --paraphrase-table FILE), impact and npchunk (--chunker NAME) are scored as palette score -sl\n' +
    'scores them, set up by the flags below (as in palette score).\n' +
    formatOptionHelp(SPECS) +
    '\n'
  );
}

function single(values: ReadonlyMap<string, unknown>, key: string): string | undefined {
  const v = values.get(key);
  return typeof v === 'string' ? v : undefined;
}

/** A non-negative integer option. */
function integerOption(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) > max) throw badOption(name, `an integer from 0 to ${max}`, raw);
  return Number(raw);
}

/**
 * Parses the arguments after `orange`.
 * @throws InputError `E_BAD_OPTION` (missing or bad option), `E_UNKNOWN_METRIC` (a name no variant has).
 */
export function parseOrangeArgs(argv: readonly string[]): OrangeCommand {
  const { values, positionals } = parseArgs(argv, SPECS);
  if (values.has('help')) return { kind: 'help' };
  if (positionals.length > 0) throw new InputError('E_BAD_OPTION', `unrecognized arguments: ${positionals.join(' ')}`);
  const nbest = single(values, 'nbest');
  if (nbest === undefined) throw new InputError('E_BAD_OPTION', 'the n-best list is required (--nbest FILE)');
  const refs = values.get('refs');
  if (!Array.isArray(refs)) throw new InputError('E_BAD_OPTION', 'references are required (-r REF REF [REF ...])');
  const metrics = values.get('metrics');
  if (!Array.isArray(metrics)) throw new InputError('E_BAD_OPTION', `a metric is required (-m METRIC ...: ${ORANGE_METRIC_NAMES})`);
  const format = single(values, 'format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw badOption('--format', 'text or json', format);
  return {
    kind: 'run',
    options: {
      nbest,
      refs,
      variants: parseOrangeMetrics(metrics),
      // Checked by palette score's own parser: the same meaning and the same messages as there.
      settings: parseMetricFlags(values, PARAPHRASE_CHUNK_OPTION_SPECS),
      bootstrap: integerOption('--bootstrap', single(values, 'bootstrap'), DEFAULT_BOOTSTRAP, 1_000_000),
      seed: integerOption('--seed', single(values, 'seed'), DEFAULT_SEED, 2 ** 53 - 1),
      format,
      width: integerOption('--width', single(values, 'width'), 4, 16),
      workers: Math.max(1, integerOption('--workers', single(values, 'workers'), 1, 256)),
      quiet: values.has('quiet'),
    },
  };
}
