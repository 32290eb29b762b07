/** CER as `-m cer` names it (jiwer 4.0), with its counts in JSON. */
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, FRACTION_WIDTH, type MetricDescriptor } from '../descriptor.js';
import { EDIT_GROUP } from '../edit/settings.js';
import type { CerOptions } from './cer.js';

/** CER's flags. */
export const CER_FLAGS: readonly OptionSpec[] = [
  { key: 'cerLowercase', names: ['--cer-lowercase'], arity: 'flag', group: EDIT_GROUP, help: 'case-insensitive CER' },
];

/** CER's class, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<CerOptions>('cer', async () => (await import('./factory.js')).createCer);

/** CER: an error rate (lower is better), corpus score from summed character edit counts; a fraction, 5 decimals. */
export const CER_DESCRIPTOR: MetricDescriptor<CerOptions, 'cer'> = {
  id: 'cer',
  aliases: [],
  family: null,
  scoreName: 'CER',
  direction: 'lower',
  reduction: () => 'sum',
  wholeReference: false,
  sentenceLevelSame: true,
  jsonFields: ['hits', 'substitutions', 'deletions', 'insertions'].map((key) => ({ key, detail: key, kind: 'count' })),
  defaultWidth: FRACTION_WIDTH,
  settingsKey: 'cer',
  options: [{ setting: 'lowercase', flag: 'cerLowercase', default: { value: false } }],
  flags: CER_FLAGS,
  readSettings: (f) => ({ lowercase: f.flag('cerLowercase') }),
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
