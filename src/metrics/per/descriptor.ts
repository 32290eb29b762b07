/** PER as `-m per` names it. */
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, FRACTION_WIDTH, type MetricDescriptor } from '../descriptor.js';
import { EDIT_GROUP, readEditSettings, type EditSettings } from '../edit/settings.js';

/** PER's flags. */
export const PER_FLAGS: readonly OptionSpec[] = [
  { key: 'perTokenize', names: ['--per-tokenize'], arity: 'one', metavar: 'TOK', group: EDIT_GROUP,
    help: 'PER word split: a -tok name (default: none, a whitespace split) or jiwer' },
  { key: 'perLowercase', names: ['--per-lowercase'], arity: 'flag', group: EDIT_GROUP, help: 'case-insensitive PER' },
];

/** PER's class, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<EditSettings>('per', async () => (await import('./factory.js')).createPer);

/** PER: an error rate (lower is better), corpus score from summed counts; a fraction, 5 decimals. */
export const PER_DESCRIPTOR: MetricDescriptor<EditSettings, 'per'> = {
  id: 'per',
  aliases: [],
  family: null,
  scoreName: 'PER',
  direction: 'lower',
  reduction: () => 'sum',
  wholeReference: false,
  sentenceLevelSame: true,
  jsonFields: [],
  defaultWidth: FRACTION_WIDTH,
  settingsKey: 'per',
  options: [
    { setting: 'tokenize', flag: 'perTokenize', default: { value: 'none' } },
    { setting: 'lowercase', flag: 'perLowercase', default: { value: false } },
  ],
  flags: PER_FLAGS,
  readSettings: (f) => readEditSettings(f, 'per'),
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
