/** GLEU as `-m gleu` names it (NLTK 3.8; Hugging Face evaluate's `google_bleu`). */
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, FRACTION_WIDTH, type MetricDescriptor } from '../descriptor.js';
import { NLTK_SENTENCE_GROUP, NLTK_TEXT_FLAGS, NLTK_TEXT_OPTIONS, readNltkTextSettings } from '../nltk-text/settings.js';
import type { GleuOptions } from './gleu.js';

/** GLEU's flags. */
export const GLEU_FLAGS: readonly OptionSpec[] = [
  ...NLTK_TEXT_FLAGS,
  { key: 'gleuMinLen', names: ['--gleu-min-len'], arity: 'one', metavar: 'N', group: NLTK_SENTENCE_GROUP,
    help: 'GLEU smallest n-gram order (default 1)' },
  { key: 'gleuMaxLen', names: ['--gleu-max-len'], arity: 'one', metavar: 'N', group: NLTK_SENTENCE_GROUP,
    help: 'GLEU largest n-gram order (default 4)' },
];

/** GLEU's class, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<GleuOptions>('gleu', async () => (await import('./factory.js')).createGleu);

/** GLEU: higher is better, corpus score from summed `tp, n_all` rows; a fraction, 5 decimals. */
export const GLEU_DESCRIPTOR: MetricDescriptor<GleuOptions, 'gleu'> = {
  id: 'gleu',
  aliases: ['google_bleu'],
  family: null,
  scoreName: 'GLEU',
  direction: 'higher',
  reduction: () => 'sum',
  wholeReference: false,
  sentenceLevelSame: true,
  jsonFields: [],
  defaultWidth: FRACTION_WIDTH,
  settingsKey: 'gleu',
  options: [
    ...NLTK_TEXT_OPTIONS,
    { setting: 'minLen', flag: 'gleuMinLen', default: { value: 1 } },
    { setting: 'maxLen', flag: 'gleuMaxLen', default: { value: 4 } },
  ],
  flags: GLEU_FLAGS,
  readSettings: (f) => ({
    ...readNltkTextSettings(f),
    minLen: f.int('gleuMinLen', '--gleu-min-len', 1),
    maxLen: f.int('gleuMaxLen', '--gleu-max-len', 1),
  }),
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
