/**
 * TER as `-m ter` names it: sacreBLEU 2.6.0's (default) or tercom 0.10.0's (`--ter-flavor`), with sacrebleu's
 * `--ter-*` flags and Palette's additions, and `-d`'s alignment of the chosen reference.
 */
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, type MetricDescriptor } from '../descriptor.js';
export { TER_FLAVORS, type TerFlavor, type TerSettings } from './settings.js';
import { TER_FLAVORS, type TerSettings } from './settings.js';

const TER = 'TER (sacrebleu flags; Palette: --ter-flavor, --ter-beam, --ter-max-shift-distance)';

/** TER's flags. */
export const TER_FLAGS: readonly OptionSpec[] = [
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
];

/** TER's classes, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<TerSettings>('ter', async () => (await import('./factory.js')).createTerMetric);

/** TER: an error rate (lower is better), corpus score from summed edits and reference lengths. */
export const TER_DESCRIPTOR: MetricDescriptor<TerSettings, 'ter'> = {
  id: 'ter',
  aliases: [],
  family: null,
  scoreName: 'TER',
  direction: 'lower',
  reduction: () => 'sum',
  wholeReference: false,
  sentenceLevelSame: true,
  jsonFields: [],
  defaultWidth: null,
  settingsKey: 'ter',
  options: [
    { setting: 'flavor', flag: 'terFlavor', default: { value: 'sacrebleu' } },
    { setting: 'caseSensitive', flag: 'terCaseSensitive', default: { value: false } },
    { setting: 'asianSupport', flag: 'terAsianSupport', default: { value: false } },
    { setting: 'noPunct', flag: 'terNoPunct', default: { value: false } },
    { setting: 'normalized', flag: 'terNormalized', default: { value: false } },
    // sacreBLEU's search limits are fixed (beam 25, shift distance 50): these are tercom's.
    { setting: 'beamWidth', flag: 'terBeam', default: { value: 20 }, appliesWith: { flavor: 'tercom' } },
    { setting: 'maxShiftDistance', flag: 'terMaxShiftDistance', default: { value: 50 }, appliesWith: { flavor: 'tercom' } },
  ],
  flags: TER_FLAGS,
  readSettings: (f) => ({
    flavor: f.choice('terFlavor', '--ter-flavor', TER_FLAVORS),
    caseSensitive: f.flag('terCaseSensitive'),
    asianSupport: f.flag('terAsianSupport'),
    noPunct: f.flag('terNoPunct'),
    normalized: f.flag('terNormalized'),
    beamWidth: f.int('terBeam', '--ter-beam', 0),
    maxShiftDistance: f.int('terMaxShiftDistance', '--ter-max-shift-distance', 0),
  }),
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
