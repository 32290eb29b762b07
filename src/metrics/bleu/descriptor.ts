/**
 * BLEU as `-m bleu` names it: four implementations behind `--bleu-flavor` (sacreBLEU 2.6.0 by default, NLTK 3.8,
 * Moses MERT's BleuScorer, Lin & Och's BLEUS), sacrebleu's flags and Palette's `--bleu-*` additions.
 */
import { TOKENIZER_NAMES } from '../../text/tokenizers/index.js';
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, type MetricDescriptor } from '../descriptor.js';
import { BLEU_REF_LENGTHS } from './ref-length.js';
import type { NltkSmoothingMethod } from './nltk.js';
import { BLEU_SMOOTH_METHODS } from './score.js';
export { BLEU_FLAVORS, type BleuFlavor, type BleuSettings } from './settings.js';
import { BLEU_FLAVORS, type BleuSettings } from './settings.js';

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

/** BLEU's classes, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<BleuSettings>('bleu', async () => (await import('./factory.js')).createBleuMetric);

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
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
