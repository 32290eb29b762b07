/** NIST as `-m nist` names it: mteval-v13a.pl's (default) or NLTK 3.8's, with Palette's `--nist-*` flags. */
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, type MetricDescriptor } from '../descriptor.js';
import { NIST_FLAVORS } from './flavor.js';
export type { NistSettings } from './settings.js';
import type { NistSettings } from './settings.js';

const NIST = 'NIST (Palette)';

/** NIST's flags. */
export const NIST_FLAGS: readonly OptionSpec[] = [
  { key: 'nistFlavor', names: ['--nist-flavor'], arity: 'one', metavar: 'FLAVOR', group: NIST,
    help: 'NIST implementation to match: mteval (mteval-v13a.pl, default) or nltk (NLTK 3.8)' },
  { key: 'nistMaxOrder', names: ['--nist-max-ngram-order'], arity: 'one', metavar: 'N', group: NIST,
    help: 'maximum n-gram order (default: 5)' },
  { key: 'nistTokenize', names: ['--nist-tokenize'], arity: 'one', metavar: 'TOK', group: NIST,
    help: 'NIST tokenizer, one of the -tok names (default: 13a)' },
  { key: 'nistLowercase', names: ['--nist-lowercase'], arity: 'flag', group: NIST,
    help: 'case-insensitive NIST (mteval-v13a without -c)' },
];

/** NIST's class, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<NistSettings>('nist', async () => (await import('./factory.js')).createNist);

/**
 * NIST: higher is better, corpus score from summed counts; its information weights are counted over every reference
 * of the corpus, so a row needs the whole reference set.
 */
export const NIST_DESCRIPTOR: MetricDescriptor<NistSettings, 'nist'> = {
  id: 'nist',
  aliases: [],
  family: null,
  scoreName: 'NIST',
  direction: 'higher',
  reduction: () => 'sum',
  wholeReference: true,
  sentenceLevelSame: true,
  jsonFields: [],
  defaultWidth: null,
  settingsKey: 'nist',
  options: [
    { setting: 'flavor', flag: 'nistFlavor', default: { value: 'mteval' } },
    { setting: 'maxOrder', flag: 'nistMaxOrder', default: { value: 5 } },
    { setting: 'tokenize', flag: 'nistTokenize', default: { value: '13a' } },
    { setting: 'lowercase', flag: 'nistLowercase', default: { value: false } },
  ],
  flags: NIST_FLAGS,
  readSettings: (f) => ({
    flavor: f.choice('nistFlavor', '--nist-flavor', NIST_FLAVORS),
    maxOrder: f.int('nistMaxOrder', '--nist-max-ngram-order', 1),
    tokenize: f.tokenizer('nistTokenize'),
    lowercase: f.flag('nistLowercase'),
  }),
  // The CLI reports where NIST's oracles give no number instead of printing NaN.
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
