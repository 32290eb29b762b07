/**
 * The options of `palette score`: sacrebleu 2.6.0's flags with the same spellings, short forms and defaults, plus
 * Palette's own (`--bleu-*`, `--nist-*`, `--rouge-*` and ROUGE's `--stem`, `--stopwords`, `--split-sentences`),
 * turned into one validated {@link ScoreOptions} object.
 *
 * Palette's TER additions (`--ter-flavor`, `--ter-beam`, `--ter-max-shift-distance`) and the WER/PER/GTM flags
 * (`--wer-*`, `--per-*`, `--gtm-*`) sit beside sacrebleu's `--ter-*` flags.
 *
 * Flags sacrebleu has but this build cannot honour (built-in test sets) are recognised and refused with a clear
 * message rather than reported as unknown.
 */
import { badOption, InputError, unknownTokenizer } from '../errors.js';
import { resolveEncoding } from '../corpus/read-lines.js';
import type { BleuRefLength } from '../metrics/bleu/bleu.js';
import type { BleuSmoothMethod } from '../metrics/bleu/score.js';
import type { NltkSmoothingMethod } from '../metrics/bleu/nltk.js';
import type { NistFlavor } from '../metrics/nist/nist.js';
import { EDIT_TOKENIZERS, type EditTokenizer } from '../metrics/edit/words.js';
import { BLEU_FLAVORS, TER_FLAVORS, type MetricSettings, type ParaEvalSettings, type RougeSettings } from '../metrics/registry.js';
import { ROUGE_FLAVORS, ROUGE_MULTI_REFERENCE, type RougeAverage } from '../metrics/rouge/rouge.js';
import { PARAEVAL_SCORES } from '../metrics/paraeval/paraeval.js';
import { PARAPHRASE_FORMATS } from '../text/paraphrase/index.js';
import { isRougeTokenizerName, parseSentenceSplit, ROUGE_TOKENIZER_NAMES } from '../text/rouge/index.js';
import { CHUNKER_NAMES, DEFAULT_CHUNKER } from '../text/chunk/index.js';
import type { NpChunkSettings } from '../metrics/registry.js';
import { isTokenizerName, TOKENIZER_NAMES, type TokenizerName } from '../text/tokenizers/index.js';
import { formatOptionHelp, parseArgs, type OptionSpec, type ParsedValue } from './args.js';
import { pyParseFloat, pyParseInt } from './py-format.js';
import { OUTPUT_FORMATS, type OutputFormat } from './report.js';

/** Largest `--width` Palette accepts (a double has 17 significant digits; sacrebleu has no limit). */
export const MAX_WIDTH = 16;

const SMOOTH_METHODS: readonly BleuSmoothMethod[] = ['none', 'floor', 'add-k', 'exp'];
const REF_LENGTHS: readonly BleuRefLength[] = ['closest', 'shortest', 'average'];
const NIST_FLAVORS: readonly NistFlavor[] = ['mteval', 'nltk'];

const INPUT = 'Input';
const METRICS = 'Metric selection';
const BLEU = 'BLEU (sacrebleu flags)';
const PALETTE_BLEU = 'BLEU (Palette additions)';
const CHRF = 'chrF';
const NIST = 'NIST (Palette)';
const ROUGE = 'ROUGE (Palette; -m rouge-N rouge-l rouge-lsum rouge-w rouge-sD rouge-suD rouge-s* rouge-su*)';
const ROUGE_AVERAGES: readonly RougeAverage[] = ['segment', 'pooled'];
const TER = 'TER (sacrebleu flags; Palette: --ter-flavor, --ter-beam, --ter-max-shift-distance)';
const EDIT = 'WER, PER, GTM (Palette)';
const PARAEVAL = 'ParaEval (Palette; -m paraeval, seed 001)';
const REPORT = 'Reporting';
const NPCHUNK = 'IMPACT and NP-chunk metric (Palette; -m impact npchunk, seed 003)';
const UNAVAILABLE = 'Recognised but not available in this version';
const SIGNIFICANCE = 'Confidence intervals and paired significance tests (sacrebleu flags)';

/** Every option of `palette score`. */
export const SCORE_OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'input', names: ['--input', '-i'], arity: 'any', metavar: 'HYP', group: INPUT,
    help: 'hypothesis file(s), one system each; "-" reads standard input. Without -i, standard input holds the systems, tab-separated' },
  { key: 'numRefs', names: ['--num-refs', '-nr'], arity: 'one', metavar: 'N', group: INPUT,
    help: 'split each line of the single reference file on tabs into N references (default: 1)' },
  { key: 'encoding', names: ['--encoding', '-e'], arity: 'one', metavar: 'ENC', group: INPUT,
    help: 'encoding of the text files; only utf-8 (default: utf-8)' },
  { key: 'metrics', names: ['--metrics', '-m'], arity: 'some', metavar: 'METRIC', group: METRICS,
    // The list itself is the "Metrics:" line of the help, made from the registry, so that it cannot drift.
    help: 'metrics to compute, any of the Metrics above, in any case (default: bleu); printed in sacrebleu order (sorted by name)' },
  { key: 'sentenceLevel', names: ['--sentence-level', '-sl'], arity: 'flag', group: METRICS,
    help: 'score every segment (one metric, one system; BLEU then uses effective order)' },
  { key: 'smoothMethod', names: ['--smooth-method', '-s'], arity: 'one', metavar: 'METHOD', group: BLEU,
    help: 'BLEU smoothing: exp, floor, add-k, none (default: exp)' },
  { key: 'smoothValue', names: ['--smooth-value', '-sv'], arity: 'one', metavar: 'X', group: BLEU,
    help: 'value for floor (default 0.1) and add-k (default 1)' },
  { key: 'tokenize', names: ['--tokenize', '-tok'], arity: 'one', metavar: 'TOK', group: BLEU,
    help: `BLEU tokenizer: ${TOKENIZER_NAMES.join(', ')} (default: 13a)` },
  { key: 'lowercase', names: ['--lowercase', '-lc'], arity: 'flag', group: BLEU,
    help: 'case-insensitive BLEU' },
  { key: 'force', names: ['--force'], arity: 'flag', group: BLEU,
    help: 'do not warn about input that looks tokenized' },
  { key: 'bleuMaxNgramOrder', names: ['--bleu-max-ngram-order'], arity: 'one', metavar: 'N', group: PALETTE_BLEU,
    help: 'maximum n-gram order (default: 4; not part of the signature, as in sacrebleu)' },
  { key: 'bleuEffectiveOrder', names: ['--bleu-effective-order'], arity: 'flag', group: PALETTE_BLEU,
    help: 'average only over orders that have n-grams (default: off for corpus scores)' },
  { key: 'bleuRefLength', names: ['--bleu-ref-length'], arity: 'one', metavar: 'HOW', group: PALETTE_BLEU,
    help: 'reference length: closest, shortest, average (default: closest; moses truncates the average)' },
  { key: 'bleuFlavor', names: ['--bleu-flavor'], arity: 'one', metavar: 'FLAVOR', group: PALETTE_BLEU,
    help: 'BLEU implementation to match: sacrebleu (default); nltk (NLTK 3.8, 0-1, -tok none by default); ' +
      "moses (Moses MERT's BleuScorer, 0-1, split on spaces unless -tok is given; -sl: BLEU+1); " +
      'lin-och (BLEUS, Lin & Och 2004: add 1 for n > 1)' },
  { key: 'nltkSmoothing', names: ['--nltk-smoothing'], arity: 'one', metavar: '0..7', group: PALETTE_BLEU,
    help: 'NLTK SmoothingFunction method with --bleu-flavor nltk (default: 0)' },
  { key: 'chrfCharOrder', names: ['--chrf-char-order', '-cc'], arity: 'one', metavar: 'N', group: CHRF,
    help: 'character n-gram order (default: 6)' },
  { key: 'chrfWordOrder', names: ['--chrf-word-order', '-cw'], arity: 'one', metavar: 'N', group: CHRF,
    help: 'word n-gram order; 2 gives chrF++ (default: 0)' },
  { key: 'chrfBeta', names: ['--chrf-beta'], arity: 'one', metavar: 'N', group: CHRF,
    help: 'weight of recall relative to precision (default: 2)' },
  { key: 'chrfWhitespace', names: ['--chrf-whitespace'], arity: 'flag', group: CHRF,
    help: 'keep whitespace in character n-grams' },
  { key: 'chrfLowercase', names: ['--chrf-lowercase'], arity: 'flag', group: CHRF,
    help: 'case-insensitive chrF' },
  { key: 'chrfEpsSmoothing', names: ['--chrf-eps-smoothing'], arity: 'flag', group: CHRF,
    help: 'epsilon smoothing as chrF++.py, NLTK and Moses (instead of effective order)' },
  { key: 'nistFlavor', names: ['--nist-flavor'], arity: 'one', metavar: 'FLAVOR', group: NIST,
    help: 'NIST implementation to match: mteval (mteval-v13a.pl, default) or nltk (NLTK 3.8)' },
  { key: 'nistMaxOrder', names: ['--nist-max-ngram-order'], arity: 'one', metavar: 'N', group: NIST,
    help: 'maximum n-gram order (default: 5)' },
  { key: 'nistTokenize', names: ['--nist-tokenize'], arity: 'one', metavar: 'TOK', group: NIST,
    help: 'NIST tokenizer, one of the -tok names (default: 13a)' },
  { key: 'nistLowercase', names: ['--nist-lowercase'], arity: 'flag', group: NIST,
    help: 'case-insensitive NIST (mteval-v13a without -c)' },
  { key: 'rougeFlavor', names: ['--rouge-flavor'], arity: 'one', metavar: 'FLAVOR', group: ROUGE,
    help: 'ROUGE implementation to match: rouge-score (google-research rouge-score 0.1.2), rouge155 (ROUGE-1.5.5.pl ' +
      'per unit, 5-decimal R/P/F) or paper (Lin & Och 2004). Default: rouge-score for rouge-1..9, rouge-l, ' +
      'rouge-lsum; rouge155 for the others (rouge-w, rouge-s*, rouge-su*), which rouge-score does not have' },
  { key: 'rougeWWeight', names: ['--rouge-w-weight'], arity: 'one', metavar: 'W', group: ROUGE,
    help: 'ROUGE-W weight for -m rouge-w, > 0 (default: 1.2; rouge-w-1.5 names its own)' },
  { key: 'stem', names: ['--stem'], arity: 'flag', group: ROUGE,
    help: "Porter-stem tokens longer than 3 characters (rouge-score: NLTK's; rouge155: ROUGE's -m)" },
  { key: 'stopwords', names: ['--stopwords'], arity: 'flag', group: ROUGE,
    help: "remove the SMART stopwords (ROUGE-1.5.5's -s)" },
  { key: 'rougeAlpha', names: ['--rouge-alpha'], arity: 'one', metavar: 'A', group: ROUGE,
    help: 'F = PR/((1-A)P + AR), 0..1 (ROUGE-1.5.5 -p; default 0.5; not in the rouge-score flavor, F1 only)' },
  { key: 'rougeBeta', names: ['--rouge-beta'], arity: 'one', metavar: 'B', group: ROUGE,
    help: 'F = (1+B^2)RP/(R+B^2 P), B >= 0 (default 1; not with --rouge-alpha, not in the rouge-score flavor)' },
  { key: 'rougeMultiRef', names: ['--rouge-multi-ref'], arity: 'one', metavar: 'MODE', group: ROUGE,
    help: 'several references: pool (ROUGE-1.5.5 -f A), best-recall (-f B), best-f (rouge-score score_multi), ' +
      'max (paper); default: best-f (rouge-score), pool (rouge155), max (paper)' },
  { key: 'splitSentences', names: ['--split-sentences'], arity: 'one', metavar: 'RULE', group: ROUGE,
    help: 'where sentences end (rouge-lsum; rouge155 ROUGE-W and limits): none, newline, punct, t-tags, ' +
      'marker:STR (default: newline for rouge-score, none otherwise); t-tags and marker:STR are markup, never ' +
      'words, for every type' },
  { key: 'rougeTokenizer', names: ['--rouge-tokenizer'], arity: 'one', metavar: 'TOK', group: ROUGE,
    help: `ROUGE tokenizer: ${ROUGE_TOKENIZER_NAMES.join(', ')}, or a -tok name (default: the flavor's)` },
  { key: 'rougeLimit', names: ['--rouge-limit'], arity: 'one', metavar: 'Nw|Nb', group: ROUGE,
    help: 'keep the first N words (100w) or bytes (665b) of every summary (ROUGE-1.5.5 -l/-b; rouge155 flavor)' },
  { key: 'rougeAverage', names: ['--rouge-average'], arity: 'one', metavar: 'HOW', group: ROUGE,
    help: 'corpus score: segment (mean of the segments\' P/R/F, default) or pooled (from summed counts, -t 1)' },
  { key: 'rougeJackknife', names: ['--rouge-jackknife'], arity: 'flag', group: ROUGE,
    help: 'jackknife over 2 or more references (Lin & Och 2004 §5)' },
  { key: 'terCaseSensitive', names: ['--ter-case-sensitive'], arity: 'flag', group: TER,
    help: 'case-sensitive TER (default: lowercased)' },
  { key: 'terAsianSupport', names: ['--ter-asian-support'], arity: 'flag', group: TER,
    help: 'CJK support (sacrebleu: effective with --ter-normalized or --ter-no-punct; tercom -A)' },
  { key: 'terNoPunct', names: ['--ter-no-punct'], arity: 'flag', group: TER,
    help: 'remove punctuation (tercom -P)' },
  { key: 'terNormalized', names: ['--ter-normalized'], arity: 'flag', group: TER,
    help: 'tercom normalisation (tercom -N)' },
  { key: 'terFlavor', names: ['--ter-flavor'], arity: 'one', metavar: 'FLAVOR', group: TER,
    help: 'TER implementation to match: sacrebleu (sacreBLEU 2.6.0, default) or tercom (tercom 0.10.0)' },
  { key: 'terBeam', names: ['--ter-beam'], arity: 'one', metavar: 'N', group: TER,
    help: "tercom's beam width (-b), --ter-flavor tercom only (default: 20)" },
  { key: 'terMaxShiftDistance', names: ['--ter-max-shift-distance'], arity: 'one', metavar: 'N', group: TER,
    help: "tercom's maximum shift distance (-d; 0: no shifts), --ter-flavor tercom only (default: 50)" },
  { key: 'werTokenize', names: ['--wer-tokenize'], arity: 'one', metavar: 'TOK', group: EDIT,
    help: 'WER word split: jiwer (default, jiwer 4.0) or a -tok name (then a whitespace split)' },
  { key: 'werLowercase', names: ['--wer-lowercase'], arity: 'flag', group: EDIT, help: 'case-insensitive WER' },
  { key: 'perTokenize', names: ['--per-tokenize'], arity: 'one', metavar: 'TOK', group: EDIT,
    help: 'PER word split: a -tok name (default: none, a whitespace split) or jiwer' },
  { key: 'perLowercase', names: ['--per-lowercase'], arity: 'flag', group: EDIT, help: 'case-insensitive PER' },
  { key: 'gtmExponent', names: ['--gtm-exponent'], arity: 'one', metavar: 'E', group: EDIT,
    help: 'GTM run exponent, a number >= 1 (default: 1)' },
  { key: 'gtmTokenize', names: ['--gtm-tokenize'], arity: 'one', metavar: 'TOK', group: EDIT,
    help: 'GTM word split: a -tok name (default: none, a whitespace split) or jiwer' },
  { key: 'gtmLowercase', names: ['--gtm-lowercase'], arity: 'flag', group: EDIT, help: 'case-insensitive GTM' },
  { key: 'paraphraseTable', names: ['--paraphrase-table'], arity: 'one', metavar: 'FILE', group: PARAEVAL,
    help: 'paraphrase table for -m paraeval: Moses phrase table (source = pivot), PPDB, or phrase<TAB>paraphrase lines' },
  { key: 'paraphraseFormat', names: ['--paraphrase-format'], arity: 'one', metavar: 'FMT', group: PARAEVAL,
    help: `table format: ${PARAPHRASE_FORMATS.join(', ')} (default: auto, from the first line)` },
  { key: 'paraphraseMinWords', names: ['--paraphrase-min-words'], arity: 'one', metavar: 'K', group: PARAEVAL,
    help: 'use only phrases of at least K words (default: 1)' },
  { key: 'paraevalTokenize', names: ['--paraeval-tokenize'], arity: 'one', metavar: 'TOK', group: PARAEVAL,
    help: 'tokenizer of the text and the table phrases, one of the -tok names (default: 13a)' },
  { key: 'paraevalLowercase', names: ['--paraeval-lowercase'], arity: 'flag', group: PARAEVAL,
    help: 'case-insensitive ParaEval (text and table phrases)' },
  { key: 'paraevalScore', names: ['--paraeval-score'], arity: 'one', metavar: 'WHICH', group: PARAEVAL,
    help: 'reported score: precision (default) or recall; JSON has both' },
  { key: 'chunker', names: ['--chunker'], arity: 'one', metavar: 'NAME', group: NPCHUNK,
    help: `noun-phrase chunker of -m npchunk: ${CHUNKER_NAMES.join(', ')} (pre-chunked [NP ... ] input) ` +
      `(default: ${DEFAULT_CHUNKER})` },
  { key: 'impactAlpha', names: ['--impact-alpha'], arity: 'one', metavar: 'A', group: NPCHUNK,
    help: 'weight A^i of common-part round i, 0..1 (default: 0.1)' },
  { key: 'impactBeta', names: ['--impact-beta'], arity: 'one', metavar: 'B', group: NPCHUNK,
    help: 'length weighting of common parts, >= 1 (default: 1.1)' },
  { key: 'impactRounds', names: ['--impact-rounds'], arity: 'one', metavar: 'RN', group: NPCHUNK,
    help: 'last round counted, 0-based (default: until no common word is left)' },
  { key: 'impactLowercase', names: ['--impact-lowercase'], arity: 'flag', group: NPCHUNK,
    help: 'case-insensitive IMPACT and NP-chunk metric (words lowercased after chunking)' },
  { key: 'npchunkDelta', names: ['--npchunk-delta'], arity: 'one', metavar: 'D', group: NPCHUNK,
    help: 'weight of the phrase-level score, >= 0: (word + D*phrase)/(1 + D) (default: 0.3)' },
  { key: 'quiet', names: ['--quiet', '-q'], arity: 'flag', group: REPORT,
    help: 'no informational messages on standard error' },
  { key: 'short', names: ['--short', '-sh'], arity: 'flag', group: REPORT,
    help: 'short signatures (#:1|c:mixed|…)' },
  { key: 'scoreOnly', names: ['--score-only', '-b'], arity: 'flag', group: REPORT,
    help: 'print only the score' },
  { key: 'width', names: ['--width', '-w'], arity: 'one', metavar: 'N', group: REPORT,
    help: `decimals of the printed scores, 0..${MAX_WIDTH} (default: 1; 5 for ROUGE)` },
  { key: 'detail', names: ['--detail', '-d'], arity: 'flag', group: REPORT,
    help: 'as sacrebleu without a test set: switches JSON output to text; Palette adds, after the scores, ' +
      'the word alignment of every segment for wer and ter (substitutions, deletions, insertions, shifts)' },
  { key: 'noColor', names: ['--no-color', '-nc'], arity: 'flag', group: REPORT,
    help: 'no terminal colours (also when NO_COLOR is set; never coloured when not a terminal)' },
  { key: 'format', names: ['--format', '-f'], arity: 'one', metavar: 'FMT', group: REPORT,
    help: 'json, text or latex (default: json, or $SACREBLEU_FORMAT); latex applies to several systems' },
  { key: 'confidence', names: ['--confidence', '-ci'], arity: 'flag', group: SIGNIFICANCE,
    help: 'one system: 95% confidence interval by bootstrap resampling (seed: $SACREBLEU_SEED, default 12345)' },
  { key: 'confidenceN', names: ['--confidence-n', '-cin'], arity: 'one', metavar: 'N', group: SIGNIFICANCE,
    help: 'bootstrap resamples for --confidence (default: 1000)' },
  { key: 'pairedBs', names: ['--paired-bs', '-pbs'], arity: 'flag', group: SIGNIFICANCE,
    help: 'several systems: paired bootstrap resampling test against the first (the baseline)' },
  { key: 'pairedBsN', names: ['--paired-bs-n', '-pbsn'], arity: 'one', metavar: 'N', group: SIGNIFICANCE,
    help: 'resamples of --paired-bs (default: 1000)' },
  { key: 'pairedAr', names: ['--paired-ar', '-par'], arity: 'flag', group: SIGNIFICANCE,
    help: 'several systems: paired approximate randomization test against the first (the baseline)' },
  { key: 'pairedArN', names: ['--paired-ar-n', '-parn'], arity: 'one', metavar: 'N', group: SIGNIFICANCE,
    help: 'trials of --paired-ar (default: 10000)' },
  { key: 'pairedJobs', names: ['--paired-jobs', '-j'], arity: 'one', metavar: 'N', group: SIGNIFICANCE,
    help: 'accepted for sacrebleu compatibility (0 or more); the tests run in-process, the results do not depend on it' },
  { key: 'help', names: ['--help', '-h'], arity: 'flag', group: REPORT, help: 'show this help and exit' },
  { key: 'version', names: ['--version', '-V'], arity: 'flag', group: REPORT, help: "show Palette's version and exit" },
  ...(
    [
      ['testSet', ['--test-set', '-t'], 'one'],
      ['languagePair', ['--language-pair', '-l'], 'one'],
    ] as const
  ).map(([key, names, arity]) => ({
    key: `unavailable:${key}`,
    names,
    arity,
    group: UNAVAILABLE,
    help: 'no built-in test sets: give reference files',
  })),
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
  readonly format: OutputFormat;
  /** Whether `-f`/`--format` was given (with `-sl`, an explicit `-f json` gives one JSON object per line). */
  readonly formatGiven: boolean;
  /** `--confidence` and its `--confidence-n`, `--paired-bs`/`--paired-ar` and their `-n`, `--paired-jobs`. */
  readonly significance: SignificanceOptions;
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

function intValue(flag: string, raw: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = pyParseInt(raw);
  if (value === undefined || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer in ${min}..${max}`;
    throw badOption(flag, range, raw);
  }
  return value;
}

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

/** `--rouge-limit`: `100w` (words) or `665b` (bytes). */
function rougeLimit(raw: string): { words: number } | { bytes: number } {
  const m = /^([0-9]+)([wb])$/.exec(raw);
  if (m === null) throw badOption('--rouge-limit', 'a number of words or bytes such as 100w or 665b', raw);
  const n = Number(m[1]);
  if (!Number.isSafeInteger(n)) throw badOption('--rouge-limit', 'a number of words or bytes such as 100w or 665b', raw);
  return m[2] === 'w' ? { words: n } : { bytes: n };
}

/** The ROUGE flags, checked one by one (combinations are the metric's to check, with its flavor). */
function rougeSettings(str: (key: string) => string | undefined, flag: (key: string) => boolean): RougeSettings {
  const maybe = <T>(key: string, read: (raw: string) => T): T | undefined => {
    const raw = str(key);
    return raw === undefined ? undefined : read(raw);
  };
  return {
    flavor: maybe('rougeFlavor', (raw) => choice('--rouge-flavor', raw, ROUGE_FLAVORS)),
    wWeight: maybe('rougeWWeight', (raw) => numberValue('--rouge-w-weight', raw, 'a number > 0', (x) => x > 0)),
    tokenizer: maybe('rougeTokenizer', (raw) => {
      if (isRougeTokenizerName(raw) || isTokenizerName(raw)) return raw;
      throw unknownTokenizer(raw, [...ROUGE_TOKENIZER_NAMES, ...TOKENIZER_NAMES]);
    }),
    stem: flag('stem'),
    removeStopwords: flag('stopwords'),
    alpha: maybe('rougeAlpha', (raw) => numberValue('--rouge-alpha', raw, 'a number from 0 to 1', (x) => x >= 0 && x <= 1)),
    beta: maybe('rougeBeta', (raw) => numberValue('--rouge-beta', raw, 'a number >= 0', (x) => x >= 0)),
    multiReference: maybe('rougeMultiRef', (raw) => choice('--rouge-multi-ref', raw, ROUGE_MULTI_REFERENCE)),
    split: maybe('splitSentences', (raw) => {
      try {
        parseSentenceSplit(raw);
      } catch {
        throw badOption('--split-sentences', 'none, newline, punct, t-tags or marker:STR (STR not empty)', raw);
      }
      return raw;
    }),
    limit: maybe('rougeLimit', rougeLimit),
    average: maybe('rougeAverage', (raw) => choice('--rouge-average', raw, ROUGE_AVERAGES)),
    jackknife: flag('rougeJackknife'),
  };
}

/** The ParaEval flags given, or undefined when none is (the metric's defaults apply). */
function paraEvalSettings(s: ParaEvalSettings): ParaEvalSettings | undefined {
  return Object.values(s).every((v) => v === undefined) ? undefined : s;
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
  for (const spec of SCORE_OPTION_SPECS) {
    if (spec.key.startsWith('unavailable:') && values.has(spec.key)) {
      throw new InputError('E_BAD_OPTION', `option ${spec.names[0]} is not available in this version: ${spec.help}`);
    }
  }
  const str = (key: string): string | undefined => values.get(key) as string | undefined;
  const flag = (key: string): boolean => values.get(key) === true;
  const list = (key: string): string[] | undefined => values.get(key) as string[] | undefined;

  const refs = [...positionals];
  if (refs.length === 0) {
    throw new InputError('E_BAD_OPTION', 'no reference file given: palette score REF [REF ...] -i HYP [HYP ...]');
  }
  const inputs = list('input') ?? null;
  if (inputs !== null && inputs.length === 0) throw new InputError('E_BAD_OPTION', 'option -i/--input needs at least one file');
  const numRefs = str('numRefs') === undefined ? 1 : intValue('--num-refs', str('numRefs')!, 1);
  if (numRefs !== 1 && refs.length > 1) {
    throw new InputError('E_BAD_OPTION', '--num-refs splits one tab-separated reference file: give a single reference file');
  }
  const encoding = resolveEncoding(str('encoding') ?? 'utf-8');

  const metrics = [...new Set(list('metrics') ?? ['bleu'])];
  const sentenceLevel = flag('sentenceLevel');
  if (sentenceLevel && metrics.length > 1) {
    throw new InputError('E_BAD_OPTION', 'only one metric can be used with --sentence-level');
  }

  const tokenizer = (key: string): TokenizerName | undefined => {
    const name = str(key);
    if (name !== undefined && !isTokenizerName(name)) throw unknownTokenizer(name, TOKENIZER_NAMES);
    return name;
  };
  const maybeChoice = <T extends string>(key: string, flagName: string, choices: readonly T[]): T | undefined =>
    str(key) === undefined ? undefined : choice(flagName, str(key)!, choices);
  const maybeInt = (key: string, flagName: string, min: number, max?: number): number | undefined =>
    str(key) === undefined ? undefined : intValue(flagName, str(key)!, min, max);
  const editTokenizer = (key: string, flagName: string): EditTokenizer | undefined =>
    maybeChoice(key, flagName, EDIT_TOKENIZERS);
  let smoothValue: number | undefined;
  if (str('smoothValue') !== undefined) {
    smoothValue = pyParseFloat(str('smoothValue')!);
    if (smoothValue === undefined || !Number.isFinite(smoothValue)) throw badOption('--smooth-value', 'a number', str('smoothValue'));
  }
  const bleuFlavor = choice('--bleu-flavor', str('bleuFlavor') ?? 'sacrebleu', BLEU_FLAVORS);

  const metricSettings: MetricSettings = {
    sentenceLevel,
    bleu: {
      flavor: bleuFlavor,
      tokenize: tokenizer('tokenize'),
      lowercase: flag('lowercase'),
      smoothMethod: maybeChoice('smoothMethod', '--smooth-method', SMOOTH_METHODS),
      smoothValue,
      effectiveOrder: flag('bleuEffectiveOrder'),
      maxNgramOrder: maybeInt('bleuMaxNgramOrder', '--bleu-max-ngram-order', 1),
      refLength: maybeChoice('bleuRefLength', '--bleu-ref-length', REF_LENGTHS),
      nltkSmoothing: maybeInt('nltkSmoothing', '--nltk-smoothing', 0, 7) as NltkSmoothingMethod | undefined,
    },
    chrf: {
      charOrder: maybeInt('chrfCharOrder', '--chrf-char-order', 0),
      wordOrder: maybeInt('chrfWordOrder', '--chrf-word-order', 0),
      beta: maybeInt('chrfBeta', '--chrf-beta', 1),
      whitespace: flag('chrfWhitespace'),
      lowercase: flag('chrfLowercase'),
      epsSmoothing: flag('chrfEpsSmoothing'),
    },
    nist: {
      flavor: maybeChoice('nistFlavor', '--nist-flavor', NIST_FLAVORS),
      maxOrder: maybeInt('nistMaxOrder', '--nist-max-ngram-order', 1),
      tokenize: tokenizer('nistTokenize'),
      lowercase: flag('nistLowercase'),
    },
    rouge: rougeSettings(str, flag),
    ter: {
      flavor: maybeChoice('terFlavor', '--ter-flavor', TER_FLAVORS),
      caseSensitive: flag('terCaseSensitive'),
      asianSupport: flag('terAsianSupport'),
      noPunct: flag('terNoPunct'),
      normalized: flag('terNormalized'),
      beamWidth: maybeInt('terBeam', '--ter-beam', 0),
      maxShiftDistance: maybeInt('terMaxShiftDistance', '--ter-max-shift-distance', 0),
    },
    wer: { tokenize: editTokenizer('werTokenize', '--wer-tokenize'), lowercase: flag('werLowercase') },
    per: { tokenize: editTokenizer('perTokenize', '--per-tokenize'), lowercase: flag('perLowercase') },
    gtm: {
      exponent:
        str('gtmExponent') === undefined
          ? undefined
          : numberValue('--gtm-exponent', str('gtmExponent')!, 'a number >= 1', (x) => x >= 1),
      tokenize: editTokenizer('gtmTokenize', '--gtm-tokenize'),
      lowercase: flag('gtmLowercase'),
    },
    paraeval: paraEvalSettings({
      table: str('paraphraseTable'),
      format: maybeChoice('paraphraseFormat', '--paraphrase-format', PARAPHRASE_FORMATS),
      minWords: maybeInt('paraphraseMinWords', '--paraphrase-min-words', 1),
      tokenize: tokenizer('paraevalTokenize'),
      lowercase: flag('paraevalLowercase') || undefined,
      score: maybeChoice('paraevalScore', '--paraeval-score', PARAEVAL_SCORES),
    }),
  };

  const maybeNumber = (key: string, flagName: string, expected: string, ok: (x: number) => boolean): number | undefined =>
    str(key) === undefined ? undefined : numberValue(flagName, str(key)!, expected, ok);
  const npchunk: NpChunkSettings = {
    chunker: maybeChoice('chunker', '--chunker', CHUNKER_NAMES),
    alpha: maybeNumber('impactAlpha', '--impact-alpha', 'a number from 0 to 1', (x) => x >= 0 && x <= 1),
    beta: maybeNumber('impactBeta', '--impact-beta', 'a number >= 1', (x) => x >= 1),
    rounds: maybeInt('impactRounds', '--impact-rounds', 0),
    delta: maybeNumber('npchunkDelta', '--npchunk-delta', 'a number >= 0', (x) => x >= 0),
    lowercase: flag('impactLowercase'),
  };

  const width = str('width') === undefined ? 1 : intValue('--width', str('width')!, 0, MAX_WIDTH);
  let format: OutputFormat = choice('--format', str('format') ?? 'json', OUTPUT_FORMATS);
  // sacrebleu lets SACREBLEU_FORMAT override -f when it names a valid format.
  const envFormat = env.SACREBLEU_FORMAT?.toLowerCase();
  if (envFormat !== undefined && (OUTPUT_FORMATS as readonly string[]).includes(envFormat)) format = envFormat as OutputFormat;

  if (flag('pairedBs') && flag('pairedAr')) {
    throw new InputError('E_BAD_OPTION', 'options --paired-bs and --paired-ar are mutually exclusive');
  }
  const paired = flag('pairedBs') ? 'bs' : flag('pairedAr') ? 'ar' : null;
  if (sentenceLevel && (paired !== null || flag('confidence'))) {
    throw new InputError('E_BAD_OPTION', 'statistical tests are unavailable with --sentence-level');
  }
  // sacrebleu reads these as Python ints; a count below 1 would leave it without resamples (0 takes its default).
  const count = (key: string, flagName: string, fallback: number): number => {
    const raw = str(key);
    if (raw === undefined) return fallback;
    const v = intValue(flagName, raw, 0);
    return v === 0 ? fallback : v;
  };
  const significance: SignificanceOptions = {
    confidence: flag('confidence'),
    confidenceN: str('confidenceN') === undefined ? 1000 : intValue('--confidence-n', str('confidenceN')!, 2),
    paired,
    pairedBsN: count('pairedBsN', '--paired-bs-n', 1000),
    pairedArN: count('pairedArN', '--paired-ar-n', 10000),
    pairedJobs: str('pairedJobs') === undefined ? 1 : intValue('--paired-jobs', str('pairedJobs')!, 0),
  };

  return {
    kind: 'run',
    options: {
      significance,
      refs,
      inputs,
      numRefs,
      encoding,
      metrics,
      metricSettings: { ...metricSettings, npchunk },
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
    },
  };
}

/** `palette score --help`. */
export function scoreHelp(metricIds: readonly string[]): string {
  return [
    'usage: palette score REF [REF ...] [-i HYP [HYP ...]] [-m METRIC [METRIC ...]] [options]',
    '',
    'Scores one or more systems against reference files, sacrebleu 2.x compatible: same flags, defaults and output.',
    `Metrics: ${metricIds.join(', ')}. References come before -i. Exit status: 0 ok, 2 bad input or usage, 1 internal error.`,
    formatOptionHelp(SCORE_OPTION_SPECS),
    '',
  ].join('\n');
}

/** The option groups of `palette score` that hold metric settings (no input, selection, reporting or test flags). */
const METRIC_SETTING_GROUPS: readonly string[] = [BLEU, PALETTE_BLEU, CHRF, NIST, ROUGE, TER, EDIT, PARAEVAL, NPCHUNK];

/** Every metric-setting flag of `palette score`, for commands that take them beside their own options. */
export const METRIC_OPTION_SPECS: readonly OptionSpec[] = SCORE_OPTION_SPECS.filter((s) => METRIC_SETTING_GROUPS.includes(s.group));

/** The ParaEval, IMPACT and NP-chunk flags alone (for commands whose other metrics have fixed settings). */
export const PARAPHRASE_CHUNK_OPTION_SPECS: readonly OptionSpec[] = SCORE_OPTION_SPECS.filter((s) => s.group === PARAEVAL || s.group === NPCHUNK);

/**
 * The metric settings of metric flags another command parsed with some of {@link METRIC_OPTION_SPECS}: the flags
 * are written back and read by {@link parseScoreCommand} itself, so that a setting means the same thing, and is
 * refused with the same message, in every command.
 * @throws InputError as {@link parseScoreCommand} for a bad value.
 */
export function parseMetricFlags(values: ReadonlyMap<string, ParsedValue>, specs: readonly OptionSpec[] = METRIC_OPTION_SPECS): MetricSettings {
  const argv = ['REF', '-i', 'HYP'];
  for (const spec of specs) {
    const v = values.get(spec.key);
    if (v === undefined) continue;
    const name = spec.names[0];
    if (v === true) argv.push(name);
    else if (typeof v === 'string') argv.push(`${name}=${v}`);
    else argv.push(name, ...v);
  }
  const parsed = parseScoreCommand(argv);
  if (parsed.kind !== 'run') throw new Error('palette score parser returned no run for metric flags');
  return parsed.options.metricSettings;
}
