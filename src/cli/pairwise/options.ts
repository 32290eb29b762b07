/**
 * Options of `palette pairwise A_FILE B_FILE -m METRIC [--format tsv|msgpack|npy] [-o FILE]` and of `palette mbr`,
 * parsed with ../args.ts; every usage problem is an `InputError` (exit status 2) before any file is read. The
 * metric flags are `palette score`'s for the metrics with pairwise scores (chrF, BLEU, TER), read as it reads them.
 */
import { InputError } from '../../errors.js';
import { composeFlags, type MetricDescriptor } from '../../metrics/descriptor.js';
import { metricDescriptor } from '../../metrics/catalog.js';
import type { MetricSettings } from '../../metrics/registry.js';
import { formatOptionHelp, parseArgs, type OptionSpec, type ParsedValue } from '../args.js';
import { parseMetricFlags } from '../score-options.js';
import { MAX_WORKERS, integerValue } from '../shared-options.js';

/** The metrics with pairwise sentence scores (ROUGE as its family's names), whose flags the commands take. */
export const PAIRWISE_METRICS = ['chrf', 'bleu', 'ter', 'wer', 'per', 'rouge-N', 'rouge-l', 'rouge-w', 'rouge-sD', 'rouge-suD'] as const;

/** Their flags (`--chrf-word-order`, `--tokenize`, `--ter-case-sensitive`, `--stem`, …), as `palette score` spells them. */
export const PAIRWISE_METRIC_FLAGS: readonly OptionSpec[] = composeFlags(
  ['chrf', 'bleu', 'ter', 'wer', 'per', 'rouge-1'].map((id) => metricDescriptor(id) as MetricDescriptor),
);

/** Output formats of `palette pairwise`. */
export const PAIRWISE_FORMATS = ['tsv', 'msgpack', 'npy'] as const;
/** An output format of `palette pairwise`. */
export type PairwiseFormat = (typeof PAIRWISE_FORMATS)[number];

/** What `palette pairwise` was asked to do. */
export interface PairwiseCommandOptions {
  /** Hypotheses (matrix rows), one per line. */
  readonly hypFile: string;
  /** References (matrix columns), one per line. */
  readonly refFile: string;
  /** The metric as `-m` names it. */
  readonly metric: string;
  /** Its settings, from the metric flags (sentence level: BLEU with effective order, as `palette score -sl`). */
  readonly settings: MetricSettings;
  readonly format: PairwiseFormat;
  /** Output file, or undefined for standard output (tsv only). */
  readonly output: string | undefined;
  /** Threads (`-j`); 1 scores in this thread. */
  readonly workers: number;
}

const GROUP = 'palette pairwise options';

const SPECS: readonly OptionSpec[] = [
  { key: 'help', names: ['--help', '-h'], arity: 'flag', help: 'show this help message and exit', group: GROUP },
  { key: 'metric', names: ['--metrics', '-m'], arity: 'one', metavar: 'METRIC', group: GROUP,
    help: 'the metric of every pair: chrf (chrF++ with --chrf-word-order 2), bleu (sentence BLEU: effective order), ter, wer, per, or rouge-N, rouge-l, rouge-w, rouge-sD, rouge-suD' },
  { key: 'format', names: ['--format', '-f'], arity: 'one', metavar: 'FORMAT', group: GROUP,
    help: 'tsv (default: |A| lines of |B| tab-separated scores, Python repr precision), msgpack (one array of |B| numbers per row), npy (numpy .npy, float64 |A| × |B|)' },
  { key: 'workers', names: ['--workers', '-j'], arity: 'one', metavar: 'N', group: GROUP,
    help: 'threads scoring blocks of rows (default 1: this thread alone); the output is the same for any N' },
  { key: 'output', names: ['--output', '-o'], arity: 'one', metavar: 'FILE', group: GROUP,
    help: 'write the matrix to FILE (written whole or not at all); required for msgpack and npy (default: standard output)' },
  ...PAIRWISE_METRIC_FLAGS,
];

/** A parsed command line: a run, or a request for help. */
export type PairwiseCommand = { readonly kind: 'run'; readonly options: PairwiseCommandOptions } | { readonly kind: 'help' };

/** The help text of `palette pairwise`. */
export function pairwiseHelp(): string {
  return (
    'usage: palette pairwise A_FILE B_FILE -m METRIC [--format tsv|msgpack|npy] [-o FILE] [metric options]\n\n' +
    'All-pairs sentence scores: entry (i, j) is the sentence score of line i of A_FILE as the hypothesis against\n' +
    "line j of B_FILE as its only reference, exactly palette score -sl's (sacreBLEU's sentence_score) for that pair.\n" +
    'Each line is tokenized once; the pairs are scored by the metric\'s own kernels.\n' +
    formatOptionHelp(SPECS) +
    '\n\n'
  );
}

function single(values: ReadonlyMap<string, ParsedValue>, key: string): string | undefined {
  const v = values.get(key);
  return typeof v === 'string' ? v : undefined;
}

/** The metric of `-m`, refused unless there is exactly one. */
export function readMetric(values: ReadonlyMap<string, ParsedValue>): string {
  const metric = single(values, 'metric');
  if (metric === undefined) throw new InputError('E_BAD_OPTION', 'a metric is required (-m chrf, -m bleu, -m ter, …)');
  return metric;
}

/** The metric flags' settings, at sentence level. */
export function readSettings(values: ReadonlyMap<string, ParsedValue>): MetricSettings {
  return { ...parseMetricFlags(values, PAIRWISE_METRIC_FLAGS), sentenceLevel: true };
}

/**
 * Parses the arguments after `pairwise`.
 * @throws InputError `E_BAD_OPTION` for a missing or malformed option.
 */
export function parsePairwiseArgs(argv: readonly string[]): PairwiseCommand {
  const { values, positionals } = parseArgs(argv, SPECS);
  if (values.has('help')) return { kind: 'help' };
  if (positionals.length !== 2) {
    throw new InputError('E_BAD_OPTION', `two files are required, A_FILE and B_FILE (got ${positionals.length} argument(s))`);
  }
  const format = (single(values, 'format') ?? 'tsv') as PairwiseFormat;
  if (!PAIRWISE_FORMATS.includes(format)) {
    throw new InputError('E_BAD_OPTION', `--format must be one of ${PAIRWISE_FORMATS.join(', ')} (got ${JSON.stringify(format)})`);
  }
  const output = single(values, 'output');
  if (format !== 'tsv' && output === undefined) {
    throw new InputError('E_BAD_OPTION', `--format ${format} is binary: give the output file with -o FILE`);
  }
  return {
    kind: 'run',
    options: {
      hypFile: positionals[0],
      refFile: positionals[1],
      metric: readMetric(values),
      settings: readSettings(values),
      format,
      output,
      workers: single(values, 'workers') === undefined ? 1 : integerValue('-j', single(values, 'workers')!, 1, MAX_WORKERS),
    },
  };
}
