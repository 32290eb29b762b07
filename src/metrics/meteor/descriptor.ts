/** METEOR as `-m meteor` names it (NLTK 3.8's `meteor_score`; Hugging Face evaluate's `meteor`). */
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, FRACTION_WIDTH, type MetricDescriptor } from '../descriptor.js';
import { NLTK_SENTENCE_GROUP, NLTK_TEXT_FLAGS, NLTK_TEXT_OPTIONS, readNltkTextSettings } from '../nltk-text/settings.js';
import type { MeteorOptions } from './meteor.js';

/** METEOR's flags. */
export const METEOR_FLAGS: readonly OptionSpec[] = [
  ...NLTK_TEXT_FLAGS,
  { key: 'meteorAlpha', names: ['--meteor-alpha'], arity: 'one', metavar: 'X', group: NLTK_SENTENCE_GROUP,
    help: 'METEOR weight of precision against recall, in [0, 1] (default 0.9)' },
  { key: 'meteorBeta', names: ['--meteor-beta'], arity: 'one', metavar: 'X', group: NLTK_SENTENCE_GROUP,
    help: 'METEOR exponent of the fragmentation (default 3)' },
  { key: 'meteorGamma', names: ['--meteor-gamma'], arity: 'one', metavar: 'X', group: NLTK_SENTENCE_GROUP,
    help: 'METEOR weight of the fragmentation penalty (default 0.5)' },
];

/** METEOR's class, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<MeteorOptions>('meteor', async () => (await import('./factory.js')).createMeteor);

/** METEOR: higher is better, corpus score the mean of the line values (NLTK has none); a fraction, 5 decimals. */
export const METEOR_DESCRIPTOR: MetricDescriptor<MeteorOptions, 'meteor'> = {
  id: 'meteor',
  aliases: [],
  family: null,
  scoreName: 'METEOR',
  direction: 'higher',
  reduction: () => 'mean',
  wholeReference: false,
  sentenceLevelSame: true,
  jsonFields: [],
  defaultWidth: FRACTION_WIDTH,
  settingsKey: 'meteor',
  options: [
    ...NLTK_TEXT_OPTIONS,
    { setting: 'alpha', flag: 'meteorAlpha', default: { value: 0.9 } },
    { setting: 'beta', flag: 'meteorBeta', default: { value: 3 } },
    { setting: 'gamma', flag: 'meteorGamma', default: { value: 0.5 } },
  ],
  flags: METEOR_FLAGS,
  readSettings: (f) => ({
    ...readNltkTextSettings(f),
    alpha: f.number('meteorAlpha', '--meteor-alpha', 'a number in [0, 1]', (x) => x >= 0 && x <= 1),
    beta: f.number('meteorBeta', '--meteor-beta', 'a number', () => true),
    gamma: f.number('meteorGamma', '--meteor-gamma', 'a number', () => true),
  }),
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
