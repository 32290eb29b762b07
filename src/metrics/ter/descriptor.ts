/**
 * TER as `-m ter` names it: sacreBLEU 2.6.0's (default) or tercom 0.10.0's (`--ter-flavor`), with sacrebleu's
 * `--ter-*` flags and Palette's additions, and `-d`'s alignment of the chosen reference.
 */
import { badOption, InputError } from '../../errors.js';
import type { OptionSpec } from '../../util/option-spec.js';
import { cliMetric, type CliMetric, type MetricDescriptor } from '../descriptor.js';
import { TercomTer } from './tercom-ter.js';
import { Ter } from './ter.js';

/** TER implementations `--ter-flavor` selects. */
export const TER_FLAVORS = ['sacrebleu', 'tercom'] as const;

/** One of {@link TER_FLAVORS}: sacreBLEU 2.6.0 (the default) or tercom 0.10.0. */
export type TerFlavor = (typeof TER_FLAVORS)[number];

/** TER settings as the CLI gives them (`undefined` = sacreBLEU's default, or tercom's for its search limits). */
export interface TerSettings {
  /** `--ter-flavor`. @default 'sacrebleu' */
  readonly flavor?: TerFlavor;
  /** `--ter-case-sensitive`. @default false */
  readonly caseSensitive?: boolean;
  /** `--ter-asian-support`. @default false */
  readonly asianSupport?: boolean;
  /** `--ter-no-punct`. @default false */
  readonly noPunct?: boolean;
  /** `--ter-normalized`. @default false */
  readonly normalized?: boolean;
  /** `--ter-beam` (tercom flavor, tercom's `-b`). @default 20 */
  readonly beamWidth?: number;
  /** `--ter-max-shift-distance` (tercom flavor, tercom's `-d`). @default 50 */
  readonly maxShiftDistance?: number;
}

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

/** The TER of `s`: sacreBLEU's (default) or tercom's, with `-d`'s alignment of the chosen reference. */
function createTer(s: TerSettings): CliMetric {
  const flavor = s.flavor ?? 'sacrebleu';
  if (!(TER_FLAVORS as readonly string[]).includes(flavor)) {
    throw badOption('--ter-flavor', `one of ${TER_FLAVORS.join(', ')}`, flavor);
  }
  const text = {
    caseSensitive: s.caseSensitive,
    asianSupport: s.asianSupport,
    noPunct: s.noPunct,
    normalized: s.normalized,
  };
  if (flavor === 'sacrebleu') {
    for (const [flag, value] of [['--ter-beam', s.beamWidth], ['--ter-max-shift-distance', s.maxShiftDistance]] as const) {
      if (value !== undefined) {
        throw new InputError(
          'E_BAD_OPTION',
          `${flag} applies to --ter-flavor tercom (sacreBLEU's search limits are fixed: beam 25, shift distance 50)`,
        );
      }
    }
  }
  const ter =
    flavor === 'tercom'
      ? new TercomTer({ ...text, beamWidth: s.beamWidth, maxShiftDistance: s.maxShiftDistance })
      : new Ter(text);
  return {
    ...cliMetric(ter),
    align(hyp, prepared, segment) {
      // Each flavor aligns against its own prepared references; `prepared` came from this metric's prepareReferences.
      const a =
        ter instanceof TercomTer
          ? ter.alignSegment(hyp, prepared as Parameters<TercomTer['alignSegment']>[1], segment)
          : ter.alignSegment(hyp, prepared as Parameters<Ter['alignSegment']>[1], segment);
      const best = a.perReference[a.bestRef];
      const alignment = best.alignment ?? {
        shifts: [],
        hypOrder: Int32Array.from(a.hypWords, (_, k) => k),
        ops: new Uint8Array(0),
      };
      return {
        reference: a.bestRef,
        hypWords: a.hypWords,
        refWords: a.refWords[a.bestRef],
        shifts: alignment.shifts,
        hypOrder: alignment.hypOrder,
        ops: alignment.ops,
        edits: best.edits,
      };
    },
  };
}

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
  create: (_id, settings) => createTer(settings),
};
