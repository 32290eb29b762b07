/** RIBES as `-m ribes` names it (NLTK 3.8's, not the official RIBES.py: see ./ribes.ts). */
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, FRACTION_WIDTH, type MetricDescriptor } from '../descriptor.js';
import { NLTK_SENTENCE_GROUP, NLTK_TEXT_FLAGS, NLTK_TEXT_OPTIONS, readNltkTextSettings } from '../nltk-text/settings.js';
import type { RibesOptions } from './ribes.js';

/** RIBES's flags. */
export const RIBES_FLAGS: readonly OptionSpec[] = [
  ...NLTK_TEXT_FLAGS,
  { key: 'ribesAlpha', names: ['--ribes-alpha'], arity: 'one', metavar: 'X', group: NLTK_SENTENCE_GROUP,
    help: 'RIBES exponent of the unigram precision (default 0.25)' },
  { key: 'ribesBeta', names: ['--ribes-beta'], arity: 'one', metavar: 'X', group: NLTK_SENTENCE_GROUP,
    help: 'RIBES exponent of the brevity penalty (default 0.10)' },
];

/** RIBES's class, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<RibesOptions>('ribes', async () => (await import('./factory.js')).createRibes);

/** RIBES: higher is better, corpus score the mean of the line values; a fraction, 5 decimals. */
export const RIBES_DESCRIPTOR: MetricDescriptor<RibesOptions, 'ribes'> = {
  id: 'ribes',
  aliases: [],
  family: null,
  scoreName: 'RIBES',
  direction: 'higher',
  reduction: () => 'mean',
  wholeReference: false,
  sentenceLevelSame: true,
  jsonFields: [],
  defaultWidth: FRACTION_WIDTH,
  settingsKey: 'ribes',
  options: [
    ...NLTK_TEXT_OPTIONS,
    { setting: 'alpha', flag: 'ribesAlpha', default: { value: 0.25 } },
    { setting: 'beta', flag: 'ribesBeta', default: { value: 0.1 } },
  ],
  flags: RIBES_FLAGS,
  readSettings: (f) => ({
    ...readNltkTextSettings(f),
    alpha: f.number('ribesAlpha', '--ribes-alpha', 'a number >= 0', (x) => x >= 0),
    beta: f.number('ribesBeta', '--ribes-beta', 'a number >= 0', (x) => x >= 0),
  }),
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
