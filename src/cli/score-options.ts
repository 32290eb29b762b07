/**
 * The options of `palette score`: sacrebleu 2.6.0's flags with the same spellings, short forms and defaults, plus
 * Palette's own, turned into one validated {@link ScoreOptions} object. The metric flags (sacrebleu's BLEU, chrF and
 * TER flags, and Palette's `--bleu-*`, `--nist-*`, `--rouge-*`, `--wer-*`, …) are the metrics' own flag tables,
 * composed from the catalog (src/metrics/catalog.ts) and read into settings by each metric's descriptor; this file
 * adds the input, reporting and significance options and the Python number syntax the readers use.
 *
 * sacrebleu's test-set and language flags (-t, -l, --origlang, --subset, --echo, --list, --citation, --download) are
 * read here; src/cli/testsets does the work.
 */
import { badOption, InputError, unknownTokenizer } from '../errors.js';
import { resolveEncoding } from '../corpus/read-lines.js';
import { composeFlags, type FlagValues, type MetricDescriptor } from '../metrics/descriptor.js';
import { METRIC_FLAGS, metricDescriptor, readMetricSettings, type MetricSettings } from '../metrics/catalog.js';
import { isTokenizerName, TOKENIZER_NAMES, type TokenizerName } from '../text/tokenizers/index.js';
import { formatOptionHelp, parseArgs, type OptionSpec, type ParsedValue } from './args.js';
import { pyParseFloat } from './py-format.js';
import { queueOptionSpecs, readQueueOptions, type QueueOptions } from './queue/options.js';
import { bleuTokenizerForTarget, MISSING_TOKENIZERS, missingTokenizer, splitLanguagePair } from './testsets/language.js';
import { OUTPUT_FORMATS, type OutputFormat } from './report.js';
import {
  DEFAULT_SEED,
  integerValue,
  MAX_WIDTH,
  optionValues,
  readPairedTest,
  type OptionValues,
  readFormat,
  readInputs,
  readMetrics,
  readRefs,
  readScoreSeed,
  sharedOption,
} from './shared-options.js';

/** Largest `--width` Palette accepts (a double has 17 significant digits; sacrebleu has no limit). */
export { MAX_WIDTH };

/**
 * The formats of `-f`: sacrebleu's, and Palette's tables of segment rows for `-sl` (a header line, then one row per
 * segment and system, as rouge-score's per-instance CSV).
 */
export const SCORE_FORMATS = [...OUTPUT_FORMATS, 'tsv', 'csv'] as const;
/** A format of `-f`. */
export type ScoreFormat = (typeof SCORE_FORMATS)[number];
/** The formats that write segment rows only. */
const ROW_FORMATS: readonly ScoreFormat[] = ['tsv', 'csv'];

const INPUT = 'Input';
const METRICS = 'Metric selection';
const REPORT = 'Reporting';
const QUEUE = 'Queue (many machines)';

/** Segments per shard of a queue run, unless --shard-lines says. */
export const DEFAULT_SHARD_LINES = 2000;
/** sacreBLEU's test-set and language flags, same spellings (under Input: they say where references come from). */
const TEST_SET_OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'testSet', names: ['--test-set', '-t'], arity: 'one', metavar: 'SET', group: INPUT,
    help: "score against sacreBLEU's test set SET (comma-separated: concatenated), downloaded on first use into " +
      "sacreBLEU's cache ($SACREBLEU, default ~/.sacrebleu), checksum verified; needs -l; see --list" },
  { key: 'languagePair', names: ['--language-pair', '-l'], arity: 'one', metavar: 'SRC-TGT', group: INPUT,
    help: 'source-target language pair; the target picks BLEU\'s default tokenizer as sacreBLEU does (zh: zh, ' +
      'ja: ja-mecab, ko: ko-mecab, which this version refuses, else 13a)' },
  { key: 'origlang', names: ['--origlang', '-ol'], arity: 'one', metavar: 'LANG', group: INPUT,
    help: 'with -t: only the documents whose original language is LANG ("non-LANG": all others); WMT SGML and XML sets' },
  { key: 'subset', names: ['--subset'], arity: 'one', metavar: 'REGEX', group: INPUT,
    help: 'with -t: only the documents whose annotation (domain; wmt18/wmt19 SGML: country-domain) matches REGEX' },
  { key: 'echo', names: ['--echo'], arity: 'some', metavar: 'FIELD', group: INPUT,
    help: 'with -t and -l: print the fields (src, ref, ref:A, docid, origlang, …, or all) tab-separated and exit' },
  { key: 'list', names: ['--list'], arity: 'flag', group: INPUT,
    help: 'list the test sets (for -l: those with that pair; with -t: each pair\'s fields) and exit' },
  { key: 'citation', names: ['--citation', '--cite'], arity: 'flag', group: INPUT,
    help: 'print the BibTeX citation of the -t test set(s) and exit' },
  { key: 'download', names: ['--download'], arity: 'one', metavar: 'SET', group: INPUT,
    help: 'download test set SET (all pairs, or -l\'s) into the cache and exit' },
];
const SIGNIFICANCE = 'Confidence intervals and paired significance tests (sacrebleu flags)';

/** Every option of `palette score`. */
export const SCORE_OPTION_SPECS: readonly OptionSpec[] = [
  sharedOption('input', INPUT,
    'hypothesis file(s), one system each, named by its file; "-" reads standard input. Without -i, standard input holds the systems, tab-separated'),
  sharedOption('refs', INPUT, 'reference files, the same as giving them as the first arguments (sacrebleu\'s spelling)'),
  { key: 'numRefs', names: ['--num-refs', '-nr'], arity: 'one', metavar: 'N', group: INPUT,
    help: 'split each line of the single reference file on tabs into N references (default: 1)' },
  { key: 'encoding', names: ['--encoding', '-e'], arity: 'one', metavar: 'ENC', group: INPUT,
    help: 'encoding of the text files; only utf-8 (default: utf-8)' },
  // The list itself is the "Metrics:" line of the help, made from the registry, so that it cannot drift.
  sharedOption('metrics', METRICS,
    'metrics to compute, any of the Metrics above, in any case (default: bleu); printed in sacrebleu order (sorted by name)'),
  { key: 'sentenceLevel', names: ['--sentence-level', '-sl'], arity: 'flag', group: METRICS,
    help: 'score every segment (BLEU then uses effective order); several metrics or systems: one row per segment ' +
      'and system with every metric (-f json: JSON lines, -f tsv/csv: a header, then rows)' },
  // Each metric's own flags, from its folder's flag table, in catalog order.
  ...METRIC_FLAGS,
  sharedOption('quiet', REPORT, 'no informational messages on standard error'),
  { key: 'short', names: ['--short', '-sh'], arity: 'flag', group: REPORT,
    help: 'short signatures (#:1|c:mixed|…)' },
  { key: 'scoreOnly', names: ['--score-only', '-b'], arity: 'flag', group: REPORT,
    help: 'print only the score' },
  sharedOption('width', REPORT,
    `decimals of the printed scores, 0..${MAX_WIDTH} (default: 1; 5 for ROUGE; -sl rows with several metrics or systems: full precision)`),
  { key: 'detail', names: ['--detail', '-d'], arity: 'flag', group: REPORT,
    help: 'as sacrebleu: switches JSON output to text, and with -t and one system prints the scores of each original ' +
      'language of the test set, whole and by domain or country (--subset: that one); Palette adds, after the scores, ' +
      'the word alignment of every segment for wer and ter (substitutions, deletions, insertions, shifts)' },
  { key: 'noColor', names: ['--no-color', '-nc'], arity: 'flag', group: REPORT,
    help: 'no terminal colours (also when NO_COLOR is set; never coloured when not a terminal)' },
  sharedOption('format', REPORT,
    'json, text or latex (default: json, or $SACREBLEU_FORMAT); latex applies to several systems; tsv and csv to -sl'),
  { key: 'confidence', names: ['--confidence', '-ci'], arity: 'flag', group: SIGNIFICANCE,
    help: `one system: 95% confidence interval by bootstrap resampling (seed: --seed, else $SACREBLEU_SEED, else ${DEFAULT_SEED})` },
  { key: 'confidenceN', names: ['--confidence-n', '-cin'], arity: 'one', metavar: 'N', group: SIGNIFICANCE,
    help: 'bootstrap resamples for --confidence (default: 1000)' },
  sharedOption('pairedBs', SIGNIFICANCE),
  sharedOption('pairedBsN', SIGNIFICANCE),
  sharedOption('pairedAr', SIGNIFICANCE),
  sharedOption('pairedArN', SIGNIFICANCE),
  sharedOption('seed', SIGNIFICANCE,
    `seed of --confidence, --paired-bs and --paired-ar: an integer, or none for fresh entropy (default: $SACREBLEU_SEED, else ${DEFAULT_SEED})`),
  { key: 'pairedJobs', names: ['--paired-jobs', '-j'], arity: 'one', metavar: 'N', group: SIGNIFICANCE,
    help: 'scoring threads (0: one per core; default 1): this one and N-1 pool workers, for runs large enough to gain from them; the numbers do not depend on it' },
  ...queueOptionSpecs(QUEUE, 'score the segments', DEFAULT_SHARD_LINES),
  sharedOption('help', REPORT),
  { key: 'version', names: ['--version', '-V'], arity: 'flag', group: REPORT, help: "show Palette's version and exit" },
  ...TEST_SET_OPTION_SPECS,
];

/** Everything a `palette score` run needs, validated, defaults filled in. */
export interface ScoreOptions {
  /** Reference files (positional arguments). */
  readonly refs: readonly string[];
  /** Hypothesis files (`-i`), or null to read tab-separated systems from standard input. */
  readonly inputs: readonly string[] | null;
  /** `-nr`. */
  readonly numRefs: number;
  /** `-e` (canonical). */
  readonly encoding: 'utf-8';
  /** `-m`, deduplicated, in the order given. */
  readonly metrics: readonly string[];
  /** Settings handed to the metric registry. */
  readonly metricSettings: MetricSettings;
  /** `--force`. */
  readonly force: boolean;
  readonly sentenceLevel: boolean;
  readonly quiet: boolean;
  readonly short: boolean;
  readonly scoreOnly: boolean;
  /** Decimals, 0..{@link MAX_WIDTH} (1 when `-w` is not given). */
  readonly width: number;
  /** Whether `-w` was given (otherwise each metric prints with its own default, e.g. 5 decimals for ROUGE). */
  readonly widthGiven: boolean;
  readonly detail: boolean;
  readonly noColor: boolean;
  /** `-f` (tsv and csv only with `-sl`). */
  readonly format: ScoreFormat;
  /** Whether `-f`/`--format` was given (with `-sl`, an explicit `-f json` gives one JSON object per line). */
  readonly formatGiven: boolean;
  /**
   * `-f` as given, before `SACREBLEU_FORMAT` overrides it: the format of `-sl`'s rows (several metrics or systems),
   * which sacrebleu has no text form of.
   */
  readonly rowFormat: ScoreFormat | undefined;
  /** `--seed`, as `SACREBLEU_SEED` would hold it (checked); undefined: the environment's, else 12345. */
  readonly seed: string | undefined;
  /** `--confidence` and its `--confidence-n`, `--paired-bs`/`--paired-ar` and their `-n`, `--paired-jobs`. */
  readonly significance: SignificanceOptions;
  /** `-t`, `-l`, `--origlang`, `--subset`, `--echo`, `--list`, `--citation`, `--download`. */
  readonly testSets: TestSetOptions;
  /** Warnings the options draw (sacreBLEU's advice on the tokenizer for the target language), for stderr. */
  readonly notices: readonly string[];
  /** `--queue` and its options: the rows are scored by `palette worker` processes; undefined without it. */
  readonly queue?: ScoreQueueOptions;
}

/** `--queue URL`, `--shard-lines`, `--queue-dir`, `--redis-timeout`. */
export type ScoreQueueOptions = QueueOptions;

/** sacreBLEU's test-set and language options. */
export interface TestSetOptions {
  /** `-t`, split on commas; null when not given. */
  readonly testSets: readonly string[] | null;
  /** `-l`; null when not given. */
  readonly languagePair: string | null;
  readonly origlang: string | null;
  readonly subset: string | null;
  /** `--echo` fields; null when not given. */
  readonly echo: readonly string[] | null;
  readonly list: boolean;
  readonly citation: boolean;
  /** `--download SET`; null when not given. */
  readonly download: string | null;
}

/** The statistical-test flags of `palette score` (sacrebleu's defaults). */
export interface SignificanceOptions {
  readonly confidence: boolean;
  readonly confidenceN: number;
  /** The paired test requested, if any. */
  readonly paired: 'bs' | 'ar' | null;
  readonly pairedBsN: number;
  readonly pairedArN: number;
  readonly pairedJobs: number;
}

/** A parsed `palette score` command line: a request for help or version, or a run. */
export type ScoreCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'run'; readonly options: ScoreOptions };

function choice<T extends string>(flag: string, raw: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(raw)) throw badOption(flag, `one of ${choices.join(', ')}`, raw);
  return raw as T;
}

/** A finite number (Python `float()` syntax) in `[min, max]`. */
function numberValue(flag: string, raw: string, expected: string, ok: (x: number) => boolean): number {
  const value = pyParseFloat(raw);
  if (value === undefined || !Number.isFinite(value) || !ok(value)) throw badOption(flag, expected, raw);
  return value;
}

/**
 * Parses the arguments after `score`.
 * @param env environment (for `SACREBLEU_FORMAT`, which overrides `-f` as in sacrebleu)
 * @throws InputError `E_BAD_OPTION`, `E_UNKNOWN_TOKENIZER`.
 */
export function parseScoreCommand(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): ScoreCommand {
  const { values, positionals } = parseArgs(argv, SCORE_OPTION_SPECS);
  if (values.has('help')) return { kind: 'help' };
  if (values.has('version')) return { kind: 'version' };
  const v = optionValues(values);
  const { str, flag } = v;

  const testSets = readTestSetOptions(v);
  // Listing, citing and downloading need no references; scoring against -t takes its references from the set.
  const refs = readRefs(v, positionals) ?? (testSets.testSets !== null || testSets.list || testSets.citation || testSets.download !== null ? [] : undefined);
  if (testSets.testSets !== null && refs !== undefined && refs.length > 0) {
    throw new InputError('E_BAD_OPTION', 'give either a test set (-t) or reference files, not both');
  }
  if (refs === undefined) {
    throw new InputError('E_BAD_OPTION', 'no reference file given: palette score REF [REF ...] -i HYP [HYP ...]');
  }
  const inputs = readInputs(v) ?? null;
  const numRefs = str('numRefs') === undefined ? 1 : integerValue('--num-refs', str('numRefs')!, 1);
  if (numRefs !== 1 && testSets.testSets !== null) {
    throw new InputError('E_BAD_OPTION', '--num-refs splits a tab-separated reference file: it does not go with -t');
  }
  if (numRefs !== 1 && refs.length > 1) {
    throw new InputError('E_BAD_OPTION', '--num-refs splits one tab-separated reference file: give a single reference file');
  }
  const encoding = resolveEncoding(str('encoding') ?? 'utf-8');

  const metrics = readMetrics(v, ['bleu'])!;
  const sentenceLevel = flag('sentenceLevel');

  const read = readMetricSettings(metricFlagValues(v), sentenceLevel);
  const { metricSettings, notices } = withLanguageDefaults(read, testSets, metrics.some((m) => m.toLowerCase() === 'bleu'));

  const width = str('width') === undefined ? 1 : integerValue('--width', str('width')!, 0, MAX_WIDTH);
  let format: ScoreFormat = readFormat(v, SCORE_FORMATS, 'json');
  const rowFormat = values.has('format') ? format : undefined;
  // sacrebleu lets SACREBLEU_FORMAT override -f when it names one of its formats (not Palette's segment tables).
  const envFormat = env.SACREBLEU_FORMAT?.toLowerCase();
  if (envFormat !== undefined && (OUTPUT_FORMATS as readonly string[]).includes(envFormat) && !ROW_FORMATS.includes(format)) {
    format = envFormat as OutputFormat;
  }
  if (ROW_FORMATS.includes(format) && !sentenceLevel) {
    throw new InputError('E_BAD_OPTION', `-f ${format} writes one row per segment: it goes with --sentence-level (-sl)`);
  }

  const { paired, pairedBsN, pairedArN } = readPairedTest(v);
  if (sentenceLevel && (paired !== null || flag('confidence'))) {
    throw new InputError('E_BAD_OPTION', 'statistical tests are unavailable with --sentence-level');
  }
  const significance: SignificanceOptions = {
    confidence: flag('confidence'),
    confidenceN: str('confidenceN') === undefined ? 1000 : integerValue('--confidence-n', str('confidenceN')!, 2),
    paired,
    pairedBsN,
    pairedArN,
    pairedJobs: str('pairedJobs') === undefined ? 1 : integerValue('--paired-jobs', str('pairedJobs')!, 0),
  };

  const queue = readQueueOptions(v, DEFAULT_SHARD_LINES);

  return {
    kind: 'run',
    options: {
      ...(queue === undefined ? {} : { queue }),
      significance,
      refs,
      inputs,
      numRefs,
      encoding,
      metrics,
      metricSettings,
      force: flag('force'),
      sentenceLevel,
      quiet: flag('quiet'),
      short: flag('short'),
      scoreOnly: flag('scoreOnly'),
      width,
      widthGiven: values.has('width'),
      detail: flag('detail'),
      noColor: flag('noColor'),
      format,
      formatGiven: values.has('format'),
      rowFormat,
      seed: readScoreSeed(v),
      testSets,
      notices,
    },
  };
}

function readTestSetOptions(v: OptionValues): TestSetOptions {
  const { str, flag } = v;
  const languagePair = str('languagePair') ?? null;
  if (languagePair !== null) splitLanguagePair(languagePair);
  const testSet = str('testSet');
  const options: TestSetOptions = {
    testSets: testSet === undefined ? null : testSet.split(','),
    languagePair,
    origlang: str('origlang') ?? null,
    subset: str('subset') ?? null,
    echo: v.list('echo') ?? null,
    list: flag('list'),
    citation: flag('citation'),
    download: str('download') ?? null,
  };
  if ((options.origlang !== null || options.subset !== null) && (options.testSets === null || languagePair === null)) {
    throw new InputError('E_BAD_OPTION', '--origlang and --subset filter a test set: they need -t and -l');
  }
  return options;
}

/**
 * BLEU's tokenizer chosen by `-l`'s target language when `-tok` is not given (sacreBLEU's flavor only: the others
 * have their own defaults), and sacreBLEU's warnings about the tokenizer.
 */
function withLanguageDefaults(
  settings: MetricSettings,
  t: TestSetOptions,
  bleu: boolean,
): { metricSettings: MetricSettings; notices: string[] } {
  if (!bleu) return { metricSettings: settings, notices: [] };
  const given = settings.bleu ?? {};
  const notices: string[] = [];
  let metricSettings = settings;
  if (t.languagePair !== null && (given.flavor ?? 'sacrebleu') === 'sacrebleu') {
    const { tokenize, warnings } = bleuTokenizerForTarget(splitLanguagePair(t.languagePair).target, given.tokenize);
    notices.push(...warnings);
    if (tokenize !== given.tokenize) metricSettings = { ...settings, bleu: { ...given, tokenize: tokenize as TokenizerName } };
  }
  if (t.testSets !== null && given.tokenize === 'none') {
    notices.push("You are turning off BLEU's internal tokenizer presumably to supply your own tokenized files.");
    notices.push('Published numbers will not be comparable to other papers.');
  }
  return { metricSettings, notices };
}

/** `palette score --help`. */
export function scoreHelp(metricIds: readonly string[]): string {
  return [
    'usage: palette score REF [REF ...] [-i HYP [HYP ...]] [-m METRIC [METRIC ...]] [options]',
    '       palette score -t TESTSET -l SRC-TGT [-i HYP [HYP ...]] [options]',
    '',
    'Scores one or more systems against reference files, sacrebleu 2.x compatible: same flags, defaults and output.',
    `Metrics: ${metricIds.join(', ')}. References come before -i. Exit status: 0 ok, 2 bad input or usage, 1 internal error.`,
    formatOptionHelp(SCORE_OPTION_SPECS),
    '',
  ].join('\n');
}

/** Every metric-setting flag of `palette score`, for commands that take them beside their own options. */
export const METRIC_OPTION_SPECS: readonly OptionSpec[] = METRIC_FLAGS;

/** The ParaEval, IMPACT and NP-chunk flags alone (for commands whose other metrics have fixed settings). */
export const PARAPHRASE_CHUNK_OPTION_SPECS: readonly OptionSpec[] = composeFlags(
  ['paraeval', 'impact', 'npchunk'].map((id) => metricDescriptor(id) as MetricDescriptor),
);

/** The parsed metric flags as the descriptors read them (`readMetricSettings`), with `palette score`'s value syntax. */
function metricFlagValues(v: OptionValues): FlagValues {
  const { str, flag } = v;
  return {
    string: str,
    flag,
    int: (key, flagName, min, max) => (str(key) === undefined ? undefined : integerValue(flagName, str(key)!, min, max)),
    number: (key, flagName, expected, ok) => (str(key) === undefined ? undefined : numberValue(flagName, str(key)!, expected, ok)),
    choice: (key, flagName, choices) => (str(key) === undefined ? undefined : choice(flagName, str(key)!, choices)),
    tokenizer(key) {
      const name = str(key);
      if (name !== undefined && name in MISSING_TOKENIZERS) throw missingTokenizer(name, `choose one of: ${TOKENIZER_NAMES.join(', ')}`);
      if (name !== undefined && !isTokenizerName(name)) throw unknownTokenizer(name, TOKENIZER_NAMES);
      return name;
    },
  };
}

/**
 * The metric settings of metric flags another command parsed with some of {@link METRIC_OPTION_SPECS} (only those
 * of `specs` count), read as {@link parseScoreCommand} reads them, so that a setting means the same thing, and is
 * refused with the same message, in every command.
 * @throws InputError as {@link parseScoreCommand} for a bad value.
 */
export function parseMetricFlags(values: ReadonlyMap<string, ParsedValue>, specs: readonly OptionSpec[] = METRIC_OPTION_SPECS): MetricSettings {
  const keys = new Set(specs.map((spec) => spec.key));
  const given = new Map([...values].filter(([key]) => keys.has(key)));
  return readMetricSettings(metricFlagValues(optionValues(given)), false);
}
