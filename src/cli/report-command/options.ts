/**
 * Options of `palette report`: its own flags, plus every metric flag of `palette score` (`-tok`, `-lc`, `--chrf-*`,
 * `--rouge-*`, `--ter-*` …) with the same spellings and checks. The metric flags are handed back to `palette
 * score`'s parser, so a setting means the same thing, and is refused with the same message, in both commands.
 */
import { InputError, badOption } from '../../errors.js';
import type { MetricSettings } from '../../metrics/registry.js';
import { formatOptionHelp, parseArgs, type OptionSpec } from '../args.js';
import { pyParseInt } from '../py-format.js';
import { METRIC_OPTION_SPECS, parseMetricFlags } from '../score-options.js';
import {
  deprecatedSpecs,
  optionValues,
  readBootstrap,
  readInputs,
  readMetrics,
  readPairedTest,
  readRefs,
  readSeed,
  resolveDeprecated,
  sharedOption,
  type DeprecatedSpelling,
} from '../shared-options.js';

/** Pairwise tests: paired bootstrap resampling (`--paired-bs`) or paired approximate randomization (`--paired-ar`). */
export const PAIRED_TESTS = ['bs', 'ar'] as const;

/** What `palette report` was asked to do. */
export interface ReportOptions {
  /** Reference files (positional, or `-r`), one reference per line; several files give several references. */
  readonly refs: readonly string[];
  /** System output files (`-i`). */
  readonly inputs: readonly string[];
  /** Metric names (`-m`), as `palette score -m` takes them. @default ['bleu', 'chrf'] */
  readonly metrics: readonly string[];
  /** Metric settings from the metric flags of `palette score`. */
  readonly metricSettings: MetricSettings;
  /** Human judgment files (`--human`), each with the columns to read. @default [] */
  readonly human: readonly HumanFile[];
  /** Source sentences (`--source`). */
  readonly source: string | undefined;
  /** The HTML file to write (`-o`). */
  readonly output: string;
  /** Bootstrap resamples of the confidence intervals; 0 leaves intervals out (`--bootstrap`). @default 1000 */
  readonly bootstrap: number;
  /** Seed of every resampling (`--seed`). @default $SACREBLEU_SEED, else 12345 (sacrebleu's) */
  readonly seed: number;
  /** Pairwise test (`--paired-bs` or `--paired-ar`, as in `palette score`); none when absent. */
  readonly paired: (typeof PAIRED_TESTS)[number] | undefined;
  /** Resamples (`--paired-bs-n`) or trials (`--paired-ar-n`) of the pairwise test. @default 1000 (bs), 10000 (ar), as sacrebleu */
  readonly pairedSamples: number | undefined;
  /** Test every pair of systems rather than each against the baseline (`--all-pairs`). @default false */
  readonly allPairs: boolean;
  /** The system the others are tested against (`--baseline`: a path given to -i, a shown name or a file stem). @default the first */
  readonly baseline: string | undefined;
  /** Page title (`--title`). @default 'Palette report' */
  readonly title: string | undefined;
  /** Creation time shown on the page (`--created`); none by default so that reports are reproducible. */
  readonly created: string | undefined;
  /** No progress line and no messages (`-q`). */
  readonly quiet: boolean;
  /** Deprecated spellings used, one message each (printed unless `-q`). */
  readonly warnings: readonly string[];
}

/** A human judgment file and its columns (`--human-score`, `--human-system`, `--human-item`). */
export interface HumanFile {
  readonly file: string;
  /** Score column. @default 'score' */
  readonly score: string;
  /** System column. @default 'system' */
  readonly system: string;
  /** Segment column (1-based line numbers); by default the first of seg_id, segment, item, or none (system level). */
  readonly item: string | undefined;
}

/** A parsed command line: a run, or a request for help. */
export type ReportCommand = { readonly kind: 'run'; readonly options: ReportOptions } | { readonly kind: 'help' };

const GROUP = 'palette report options';
const OWN_SPECS: readonly OptionSpec[] = [
  sharedOption('help', GROUP),
  sharedOption('input', GROUP, 'system output files (required)'),
  sharedOption('refs', GROUP, 'reference files, the same as giving them as the first arguments'),
  sharedOption('metrics', GROUP, 'metrics, as palette score -m (default: bleu chrf)'),
  { key: 'output', names: ['--output', '-o'], arity: 'one', metavar: 'HTML', help: 'the report to write (required)', group: GROUP },
  { key: 'source', names: ['--source'], arity: 'one', metavar: 'FILE', help: 'source sentences, shown in the drill-down', group: GROUP },
  {
    key: 'human',
    names: ['--human'],
    arity: 'some',
    metavar: 'FILE',
    help: 'human judgments (TSV or JSON, system or segment level), correlated with every metric',
    group: GROUP,
  },
  {
    key: 'humanScore',
    names: ['--human-score'],
    arity: 'some',
    metavar: 'COL',
    help: 'score column of each --human file, or one for all (default: score)',
    group: GROUP,
  },
  { key: 'humanSystem', names: ['--human-system'], arity: 'one', metavar: 'COL', help: 'system column of the human files (default: system)', group: GROUP },
  {
    key: 'humanItem',
    names: ['--human-item'],
    arity: 'one',
    metavar: 'COL',
    help: 'segment column (1-based line numbers) of the human files (default: seg_id, segment or item if present)',
    group: GROUP,
  },
  sharedOption('bootstrap', GROUP),
  sharedOption('seed', GROUP, 'seed (≥ 1) of every resampling (default: $SACREBLEU_SEED, else 12345)'),
  sharedOption('pairedBs', GROUP, 'pairwise significance by paired bootstrap resampling, as sacrebleu'),
  sharedOption('pairedBsN', GROUP),
  sharedOption('pairedAr', GROUP, 'pairwise significance by paired approximate randomization, as sacrebleu'),
  sharedOption('pairedArN', GROUP),
  {
    key: 'allPairs',
    names: ['--all-pairs'],
    arity: 'flag',
    help: 'test every pair of systems (default: each against the baseline)',
    group: GROUP,
  },
  {
    key: 'baseline',
    names: ['--baseline'],
    arity: 'one',
    metavar: 'SYSTEM',
    help: 'the system the others are tested against: its file, or its name without the folder or extension (default: the first -i file)',
    group: GROUP,
  },
  { key: 'title', names: ['--title'], arity: 'one', metavar: 'TEXT', help: 'page title', group: GROUP },
  {
    key: 'created',
    names: ['--created'],
    arity: 'one',
    metavar: 'TEXT',
    help: 'creation time to show (default: none, so that the same inputs give the same file)',
    group: GROUP,
  },
  sharedOption('quiet', GROUP, 'no progress line and no messages on standard error'),
];

/** Every metric-setting flag of `palette score` (ParaEval's table, the chunker … included), accepted as it is. */
const METRIC_SPECS = METRIC_OPTION_SPECS;
/**
 * The report's first spellings of the pairwise test, before it took `palette score`'s: `--paired bs|ar` (its value
 * is read below, as it names the test) and `--paired-n N`.
 */
const DEPRECATED: readonly DeprecatedSpelling[] = [
  { names: ['--paired'], arity: 'one', key: 'pairedTest', use: '--paired-bs or --paired-ar' },
  { names: ['--paired-n'], arity: 'one', key: 'pairedN', use: '--paired-bs-n N or --paired-ar-n N' },
];
const SPECS: readonly OptionSpec[] = [...OWN_SPECS, ...METRIC_SPECS, ...deprecatedSpecs(DEPRECATED)];

/** The help text of `palette report`. */
export function reportHelp(): string {
  return (
    'usage: palette report REF [REF ...] -i HYP [HYP ...] -o report.html [-m METRIC ...] [--human FILE ...]\n' +
    '                      [--source FILE] [--bootstrap N] [--seed N] [--paired-bs|--paired-ar] [--all-pairs|--baseline SYSTEM]\n' +
    '                      [-q] [metric flags]\n\n' +
    'Writes one self-contained HTML file (no network needed): corpus scores with confidence intervals, ranking,\n' +
    'pairwise significance, metric-vs-human correlations and plots, and a per-segment drill-down.\n' +
    'Metric flags are those of "palette score --help" (-tok, -lc, --chrf-*, --rouge-*, --ter-*, --paraphrase-table, --chunker, ...).\n' +
    formatOptionHelp([...OWN_SPECS, ...deprecatedSpecs(DEPRECATED)]) +
    '\n'
  );
}

function count(flag: string, raw: string | undefined, min: number, fallback: number): number {
  if (raw === undefined) return fallback;
  const v = pyParseInt(raw);
  if (v === undefined || v < min || v > 2 ** 31 - 1) throw badOption(flag, `an integer >= ${min}`, raw);
  return v;
}

/**
 * Parses the arguments after `report`.
 * @param env environment (`SACREBLEU_SEED`, the seed without `--seed`)
 * @throws InputError `E_BAD_OPTION` (missing or bad option), or the metric flags' own errors.
 */
export function parseReportArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): ReportCommand {
  const parsed = parseArgs(argv, SPECS);
  const { positionals } = parsed;
  const { values, warnings } = resolveDeprecated(parsed.values, DEPRECATED);
  const v = optionValues(values);
  if (values.has('help')) return { kind: 'help' };
  const { str, list } = v;
  const refs = readRefs(v, positionals);
  if (refs === undefined) throw new InputError('E_BAD_OPTION', 'no reference file given: palette report REF [REF ...] -i HYP ...');
  const inputs = readInputs(v);
  if (inputs === undefined) throw new InputError('E_BAD_OPTION', 'system outputs are required (-i HYP [HYP ...])');
  const output = str('output');
  if (output === undefined) throw new InputError('E_BAD_OPTION', 'the output file is required (-o report.html)');
  const test = readPairedTest(v);
  const oldTest = str('pairedTest');
  if (oldTest !== undefined && !(PAIRED_TESTS as readonly string[]).includes(oldTest)) {
    throw badOption('--paired', PAIRED_TESTS.join(' or '), oldTest);
  }
  if (oldTest !== undefined && test.paired !== null) {
    throw new InputError('E_BAD_OPTION', '--paired and --paired-bs/--paired-ar are one option: give it once');
  }
  const paired = oldTest === undefined ? (test.paired ?? undefined) : (oldTest as ReportOptions['paired']);
  if (str('pairedN') !== undefined && paired === undefined) throw new InputError('E_BAD_OPTION', '--paired-n needs --paired-bs or --paired-ar');
  // A test's count goes with that test only.
  if (str('pairedBsN') !== undefined && paired !== 'bs') throw new InputError('E_BAD_OPTION', '--paired-bs-n needs --paired-bs');
  if (str('pairedArN') !== undefined && paired !== 'ar') throw new InputError('E_BAD_OPTION', '--paired-ar-n needs --paired-ar');
  const countGiven = paired === 'ar' ? str('pairedArN') : str('pairedBsN');
  if (values.has('allPairs') && paired === undefined) throw new InputError('E_BAD_OPTION', '--all-pairs needs --paired-bs or --paired-ar');
  if (str('baseline') !== undefined && paired === undefined) throw new InputError('E_BAD_OPTION', '--baseline needs --paired-bs or --paired-ar');
  if (str('baseline') !== undefined && values.has('allPairs')) {
    throw new InputError('E_BAD_OPTION', '--baseline and --all-pairs do not go together: --all-pairs tests every pair');
  }
  if (paired !== undefined && inputs.length < 2) {
    throw new InputError('E_BAD_OPTION', '--paired compares systems: give at least two with -i (the first is the baseline unless --baseline names another)');
  }
  const metrics = readMetrics(v, ['bleu', 'chrf'])!;
  const humanFiles = list('human') ?? [];
  const humanScores = list('humanScore') ?? ['score'];
  if (values.has('humanScore') && humanFiles.length === 0) throw new InputError('E_BAD_OPTION', '--human-score needs --human FILE');
  if (humanScores.length !== 1 && humanScores.length !== humanFiles.length) {
    throw new InputError(
      'E_BAD_OPTION',
      `--human-score gives ${humanScores.length} columns for ${humanFiles.length} --human files (give one, or one per file)`,
    );
  }
  const human: HumanFile[] = humanFiles.map((file, k) => ({
    file,
    score: humanScores.length === 1 ? humanScores[0] : humanScores[k],
    system: str('humanSystem') ?? 'system',
    item: str('humanItem'),
  }));
  return {
    kind: 'run',
    options: {
      refs,
      inputs,
      metrics,
      // Read as palette score reads them: the same settings and the same messages.
      metricSettings: parseMetricFlags(values, METRIC_SPECS),
      human,
      source: str('source'),
      output,
      bootstrap: readBootstrap(v),
      // sacreBLEU turns seed 0 into fresh entropy for the compared systems: a report must be reproducible.
      seed: readSeed(v, env, 1),
      paired,
      // A count given (0 meaning the default, as sacrebleu reads it) is the chosen test's; none leaves the default.
      pairedSamples:
        str('pairedN') !== undefined
          ? count('--paired-n', str('pairedN'), 1, 0)
          : countGiven === undefined
            ? undefined
            : paired === 'ar'
              ? test.pairedArN
              : test.pairedBsN,
      allPairs: values.has('allPairs'),
      baseline: str('baseline'),
      title: str('title'),
      created: str('created'),
      quiet: values.has('quiet'),
      warnings,
    },
  };
}
