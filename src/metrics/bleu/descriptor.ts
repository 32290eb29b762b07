/**
 * BLEU as `-m bleu` names it: four implementations behind `--bleu-flavor` (sacreBLEU 2.6.0 by default, NLTK 3.8,
 * Moses MERT's BleuScorer, Lin & Och's BLEUS), sacrebleu's flags and Palette's `--bleu-*` additions.
 */
import { badOption, InputError } from '../../errors.js';
import { TOKENIZER_NAMES, type TokenizerName } from '../../text/tokenizers/index.js';
import type { OptionSpec } from '../../util/option-spec.js';
import { cliMetric, type CliMetric, type MetricDescriptor } from '../descriptor.js';
import { Bleu, BLEU_REF_LENGTHS, type BleuRefLength } from './bleu.js';
import { LinOchBleu } from './lin-och.js';
import { MosesBleu } from './moses-metric.js';
import { NltkBleu } from './nltk-metric.js';
import type { NltkSmoothingMethod } from './nltk.js';
import { BLEU_SMOOTH_METHODS, type BleuSmoothMethod } from './score.js';

/** BLEU implementations `--bleu-flavor` selects, in the order help lists them. */
export const BLEU_FLAVORS = ['sacrebleu', 'nltk', 'moses', 'lin-och'] as const;

/**
 * One of {@link BLEU_FLAVORS}: sacreBLEU 2.6.0; NLTK 3.8 (0–1); Moses MERT's BleuScorer (0–1, BLEU+1 sentences);
 * Lin & Och's BLEUS (add one for n > 1, 0–100).
 */
export type BleuFlavor = (typeof BLEU_FLAVORS)[number];

/** BLEU settings as the CLI gives them (`undefined` = the flavor's default). */
export interface BleuSettings {
  /** `--bleu-flavor`. @default 'sacrebleu' */
  readonly flavor?: BleuFlavor;
  /**
   * `-tok`. @default '13a' (sacrebleu, lin-och), 'none' (nltk: whitespace-split, as NLTK's own tests), Moses' own
   * split on spaces (moses)
   */
  readonly tokenize?: TokenizerName;
  /** `-lc`. @default false */
  readonly lowercase?: boolean;
  /** `-s` (sacrebleu flavor). @default 'exp' */
  readonly smoothMethod?: BleuSmoothMethod;
  /** `-sv` (sacrebleu flavor). @default the method's default (floor 0.1, add-k 1) */
  readonly smoothValue?: number;
  /** `--bleu-effective-order` (sacrebleu flavor; forced on with `-sl`). @default false */
  readonly effectiveOrder?: boolean;
  /** `--bleu-max-ngram-order` (nltk flavor: uniform weights 1/N). @default 4 */
  readonly maxNgramOrder?: number;
  /** `--bleu-ref-length` (all flavors but nltk; moses truncates the average). @default 'closest' */
  readonly refLength?: BleuRefLength;
  /** `--nltk-smoothing`: NLTK `SmoothingFunction` method (nltk flavor). @default 0 */
  readonly nltkSmoothing?: NltkSmoothingMethod;
}

const BLEU = 'BLEU (sacrebleu flags)';
const PALETTE_BLEU = 'BLEU (Palette additions)';

/** BLEU's flags: sacrebleu's (`--force` among them, as in sacrebleu's BLEU group), then Palette's. */
export const BLEU_FLAGS: readonly OptionSpec[] = [
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
];

/** Why a flavor has no use for a sacrebleu smoothing flag. */
const OWN_SMOOTHING: Readonly<Record<Exclude<BleuFlavor, 'sacrebleu'>, string>> = {
  nltk: 'NLTK smooths with --nltk-smoothing',
  moses: "Moses' corpus BLEU is unsmoothed and its -sl sentence BLEU is BLEU+1",
  'lin-och': 'lin-och smoothing is fixed: add 1 for n > 1, no effective order',
};

/** Refuses the flags the chosen flavor has no use for. */
function checkBleuFlags(s: BleuSettings, flavor: BleuFlavor): void {
  if (flavor !== 'sacrebleu') {
    const smoothing = [
      ['-s/--smooth-method', s.smoothMethod],
      ['-sv/--smooth-value', s.smoothValue],
      ['--bleu-effective-order', s.effectiveOrder || undefined],
    ] as const;
    for (const [flag, value] of smoothing) {
      if (value !== undefined) {
        throw new InputError('E_BAD_OPTION', `${flag} applies to --bleu-flavor sacrebleu (${OWN_SMOOTHING[flavor]})`);
      }
    }
  }
  if (flavor === 'nltk' && s.refLength !== undefined) {
    throw new InputError(
      'E_BAD_OPTION',
      '--bleu-ref-length applies to --bleu-flavor sacrebleu, moses and lin-och ' +
        '(NLTK uses the closest reference length)',
    );
  }
  if (flavor !== 'nltk' && s.nltkSmoothing !== undefined) {
    throw new InputError('E_BAD_OPTION', '--nltk-smoothing needs --bleu-flavor nltk');
  }
}

function createBleu(s: BleuSettings, sentenceLevel: boolean): CliMetric {
  const flavor = s.flavor ?? 'sacrebleu';
  if (!(BLEU_FLAVORS as readonly string[]).includes(flavor)) {
    throw badOption('--bleu-flavor', `one of ${BLEU_FLAVORS.join(', ')}`, flavor);
  }
  checkBleuFlags(s, flavor);
  if (flavor === 'nltk') {
    const n = s.maxNgramOrder;
    const nltk = new NltkBleu({
      tokenize: s.tokenize,
      lowercase: s.lowercase,
      method: s.nltkSmoothing,
      weights: n === undefined ? undefined : Array.from({ length: n }, () => 1 / n),
    });
    return {
      metric: nltk,
      // NltkBleu has only the long form; its keys are Palette's own, so the short form keeps them.
      signature: (nRefs) => nltk.signature(nRefs),
      corpusScore: (rows) => nltk.corpusScoreFromRows(rows),
    };
  }
  if (flavor === 'moses') {
    const moses = new MosesBleu({
      tokenize: s.tokenize,
      lowercase: s.lowercase,
      refLength: s.refLength,
      maxNgramOrder: s.maxNgramOrder,
    });
    return {
      metric: moses,
      // -sl scores are Moses' smoothed sentence BLEU, which its signature says.
      signature: (nRefs, short) => (sentenceLevel ? moses.sentenceSignature(nRefs, short) : moses.signature(nRefs, short)),
      // Moses sums the statistics in single precision, in corpus order.
      corpusScore: (rows) => moses.corpusScoreFromRows(rows),
    };
  }
  const text = { tokenize: s.tokenize, lowercase: s.lowercase, maxNgramOrder: s.maxNgramOrder, refLength: s.refLength };
  if (flavor === 'lin-och') return cliMetric(new LinOchBleu(text));
  return cliMetric(
    new Bleu({
      ...text,
      smoothMethod: s.smoothMethod,
      smoothValue: s.smoothValue,
      // sacrebleu's CLI forces effective order on in sentence-level mode, which its signature then reports.
      effectiveOrder: sentenceLevel ? true : (s.effectiveOrder ?? false),
    }),
  );
}

/** BLEU: higher is better; corpus score from summed counts (NLTK's methods 5–7 and Moses read the rows in order). */
export const BLEU_DESCRIPTOR: MetricDescriptor<BleuSettings, 'bleu'> = {
  id: 'bleu',
  aliases: [],
  family: null,
  scoreName: 'BLEU',
  direction: 'higher',
  reduction(s) {
    if (s.flavor === 'moses') return 'ordered';
    if (s.flavor === 'nltk' && (s.nltkSmoothing ?? 0) >= 5) return 'ordered';
    return 'sum';
  },
  wholeReference: false,
  sentenceLevelSame: false,
  jsonFields: [],
  defaultWidth: null,
  settingsKey: 'bleu',
  options: [
    { setting: 'flavor', flag: 'bleuFlavor', default: { value: 'sacrebleu' } },
    { setting: 'tokenize', flag: 'tokenize', default: { text: "13a (sacrebleu, lin-och), none (nltk), Moses' split on spaces (moses)" } },
    { setting: 'lowercase', flag: 'lowercase', default: { value: false } },
    { setting: 'smoothMethod', flag: 'smoothMethod', default: { value: 'exp' }, appliesWith: { flavor: 'sacrebleu' } },
    { setting: 'smoothValue', flag: 'smoothValue', default: { text: "the method's: floor 0.1, add-k 1" }, appliesWith: { flavor: 'sacrebleu' } },
    { setting: 'effectiveOrder', flag: 'bleuEffectiveOrder', default: { value: false }, appliesWith: { flavor: 'sacrebleu' } },
    { setting: 'maxNgramOrder', flag: 'bleuMaxNgramOrder', default: { value: 4 } },
    { setting: 'refLength', flag: 'bleuRefLength', default: { value: 'closest' } },
    { setting: 'nltkSmoothing', flag: 'nltkSmoothing', default: { value: 0 }, appliesWith: { flavor: 'nltk' } },
  ],
  flags: BLEU_FLAGS,
  readSettings(f) {
    // In the order the flags were always checked, so that the first bad one is the one reported.
    const smoothValue = f.number('smoothValue', '--smooth-value', 'a number', () => true);
    const flavor = f.choice('bleuFlavor', '--bleu-flavor', BLEU_FLAVORS) ?? 'sacrebleu';
    return {
      flavor,
      tokenize: f.tokenizer('tokenize'),
      lowercase: f.flag('lowercase'),
      smoothMethod: f.choice('smoothMethod', '--smooth-method', BLEU_SMOOTH_METHODS),
      smoothValue,
      effectiveOrder: f.flag('bleuEffectiveOrder'),
      maxNgramOrder: f.int('bleuMaxNgramOrder', '--bleu-max-ngram-order', 1),
      refLength: f.choice('bleuRefLength', '--bleu-ref-length', BLEU_REF_LENGTHS),
      nltkSmoothing: f.int('nltkSmoothing', '--nltk-smoothing', 0, 7) as NltkSmoothingMethod | undefined,
    };
  },
  create: (_id, settings, context) => createBleu(settings, context.sentenceLevel),
};
