/**
 * ROUGE as `-m` names it: a family of names by pattern (`rouge-2`, `rouge-su4`, `rouge-w-1.5`, … see
 * ./rouge-type.ts) resolved to one canonical id per variant. Without `--rouge-flavor`, each variant follows the
 * implementation users know it from: rouge-score for the types rouge-score has (rouge1–rouge9, rougeL, rougeLsum:
 * what `evaluate`/`torchmetrics` users get), ROUGE-1.5.5 for the others (ROUGE-W, ROUGE-S/SU, ROUGE-N above 9), which
 * only it defines; the signature always says which (`flavor:`).
 */
import { badOption, InputError, unknownTokenizer } from '../../errors.js';
import { parseSentenceSplit } from '../../text/rouge/sentence-split.js';
import { isRougeTokenizerName, ROUGE_TOKENIZER_NAMES } from '../../text/rouge/tokenizer-names.js';
import { isTokenizerName, TOKENIZER_NAMES } from '../../text/tokenizers/index.js';
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, roundedFields, type FlagValues, type MetricDescriptor } from '../descriptor.js';
import { ROUGE_FLAVORS, ROUGE_MULTI_REFERENCE, type RougeAverage } from './options.js';
import { parseRougeType, rougeTypeId } from './rouge-type.js';
export type { RougeSettings } from './settings.js';
import type { RougeSettings } from './settings.js';

/** The ROUGE names `-m` takes, as patterns (./rouge-type.ts). */
export const ROUGE_METRIC_FAMILIES = [
  'rouge-N',
  'rouge-l',
  'rouge-lsum',
  'rouge-w[-WEIGHT]',
  'rouge-sD',
  'rouge-suD',
  'rouge-s*',
  'rouge-su*',
] as const;

const ROUGE = 'ROUGE (Palette; -m rouge-N rouge-l rouge-lsum rouge-w rouge-sD rouge-suD rouge-s* rouge-su*)';
const ROUGE_AVERAGES: readonly RougeAverage[] = ['segment', 'pooled'];

/** ROUGE's flags (ROUGE-1.5.5's `--stem`, `--stopwords`, `--split-sentences` and Palette's `--rouge-*`). */
export const ROUGE_FLAGS: readonly OptionSpec[] = [
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
];

/** `--rouge-limit`: `100w` (words) or `665b` (bytes). */
function rougeLimit(raw: string): { words: number } | { bytes: number } {
  const m = /^([0-9]+)([wb])$/.exec(raw);
  if (m === null) throw badOption('--rouge-limit', 'a number of words or bytes such as 100w or 665b', raw);
  const n = Number(m[1]);
  if (!Number.isSafeInteger(n)) throw badOption('--rouge-limit', 'a number of words or bytes such as 100w or 665b', raw);
  return m[2] === 'w' ? { words: n } : { bytes: n };
}

/** The ROUGE flags, checked one by one (combinations are the metric's to check, with its flavor). */
function readRougeSettings(f: FlagValues): RougeSettings {
  const maybe = <T>(key: string, read: (raw: string) => T): T | undefined => {
    const raw = f.string(key);
    return raw === undefined ? undefined : read(raw);
  };
  return {
    flavor: f.choice('rougeFlavor', '--rouge-flavor', ROUGE_FLAVORS),
    wWeight: f.number('rougeWWeight', '--rouge-w-weight', 'a number > 0', (x) => x > 0),
    tokenizer: maybe('rougeTokenizer', (raw) => {
      if (isRougeTokenizerName(raw) || isTokenizerName(raw)) return raw;
      throw unknownTokenizer(raw, [...ROUGE_TOKENIZER_NAMES, ...TOKENIZER_NAMES]);
    }),
    stem: f.flag('stem'),
    removeStopwords: f.flag('stopwords'),
    alpha: f.number('rougeAlpha', '--rouge-alpha', 'a number from 0 to 1', (x) => x >= 0 && x <= 1),
    beta: f.number('rougeBeta', '--rouge-beta', 'a number >= 0', (x) => x >= 0),
    multiReference: f.choice('rougeMultiRef', '--rouge-multi-ref', ROUGE_MULTI_REFERENCE),
    split: maybe('splitSentences', (raw) => {
      try {
        parseSentenceSplit(raw);
      } catch {
        throw badOption('--split-sentences', 'none, newline, punct, t-tags or marker:STR (STR not empty)', raw);
      }
      return raw;
    }),
    limit: maybe('rougeLimit', rougeLimit),
    average: f.choice('rougeAverage', '--rouge-average', ROUGE_AVERAGES),
    jackknife: f.flag('rougeJackknife'),
  };
}

/** ROUGE's classes, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<RougeSettings>('rouge', async () => (await import('./factory.js')).createRougeMetric);

/**
 * The ROUGE family: higher is better; the corpus score is the mean of the segments' P/R/F (`--rouge-average
 * pooled`: from summed counts); printed with ROUGE-1.5.5's 5 decimals.
 */
export const ROUGE_DESCRIPTOR: MetricDescriptor<RougeSettings, 'rouge'> = {
  id: 'rouge',
  aliases: [],
  family: {
    patterns: ROUGE_METRIC_FAMILIES,
    example: 'rouge-l',
    // Any name that starts with "rouge" (any case) is meant as a ROUGE variant, well formed or not.
    claims: (name) => /^rouge/i.test(name),
    resolve(name, settings) {
      try {
        return rougeTypeId(parseRougeType(name, settings.wWeight));
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        throw new InputError(
          'E_UNKNOWN_METRIC',
          `unknown ROUGE metric "${name}" (expected ${ROUGE_METRIC_FAMILIES.join(', ')}; N ≥ 1, D a whole number of gap words)`,
        );
      }
    },
  },
  scoreName: 'ROUGE-L',
  direction: 'higher',
  reduction: (s) => (s.average === 'pooled' ? 'sum' : 'mean'),
  wholeReference: false,
  sentenceLevelSame: true,
  jsonFields: roundedFields('precision', 'recall', 'fmeasure'),
  defaultWidth: 5,
  settingsKey: 'rouge',
  options: [
    { setting: 'flavor', flag: 'rougeFlavor', default: { text: 'rouge-score for rouge-1..9, rouge-l, rouge-lsum; rouge155 for the others' } },
    { setting: 'wWeight', flag: 'rougeWWeight', default: { value: 1.2 } },
    { setting: 'stem', flag: 'stem', default: { value: false } },
    { setting: 'removeStopwords', flag: 'stopwords', default: { value: false } },
    { setting: 'alpha', flag: 'rougeAlpha', default: { value: 0.5 }, appliesWith: { flavor: 'rouge155' } },
    { setting: 'beta', flag: 'rougeBeta', default: { value: 1 }, appliesWith: { flavor: 'paper' } },
    { setting: 'multiReference', flag: 'rougeMultiRef', default: { text: 'best-f (rouge-score), pool (rouge155), max (paper)' } },
    { setting: 'split', flag: 'splitSentences', default: { text: 'newline (rouge-score), none (the others)' } },
    { setting: 'tokenizer', flag: 'rougeTokenizer', default: { text: "the flavor's" } },
    { setting: 'limit', flag: 'rougeLimit', default: { text: 'no limit' } },
    { setting: 'average', flag: 'rougeAverage', default: { value: 'segment' } },
    { setting: 'jackknife', flag: 'rougeJackknife', default: { value: false } },
  ],
  flags: ROUGE_FLAGS,
  readSettings: readRougeSettings,
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
