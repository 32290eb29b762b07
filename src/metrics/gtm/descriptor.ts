/** GTM as `-m gtm` names it, with its run exponent. */
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, FRACTION_WIDTH, type MetricDescriptor } from '../descriptor.js';
import { EDIT_GROUP, readEditSettings } from '../edit/settings.js';
export type { GtmSettings } from './settings.js';
import type { GtmSettings } from './settings.js';

/** GTM's flags. */
export const GTM_FLAGS: readonly OptionSpec[] = [
  { key: 'gtmExponent', names: ['--gtm-exponent'], arity: 'one', metavar: 'E', group: EDIT_GROUP,
    help: 'GTM run exponent, a number >= 1 (default: 1)' },
  { key: 'gtmTokenize', names: ['--gtm-tokenize'], arity: 'one', metavar: 'TOK', group: EDIT_GROUP,
    help: 'GTM word split: a -tok name (default: none, a whitespace split) or jiwer' },
  { key: 'gtmLowercase', names: ['--gtm-lowercase'], arity: 'flag', group: EDIT_GROUP, help: 'case-insensitive GTM' },
];

/** GTM's class, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<GtmSettings>('gtm', async () => (await import('./factory.js')).createGtm);

/** GTM: higher is better, corpus precision/recall/F from summed counts; a fraction, 5 decimals, P/R/F in JSON. */
export const GTM_DESCRIPTOR: MetricDescriptor<GtmSettings, 'gtm'> = {
  id: 'gtm',
  aliases: [],
  family: null,
  scoreName: 'GTM',
  direction: 'higher',
  reduction: () => 'sum',
  wholeReference: false,
  sentenceLevelSame: true,
  jsonFields: [
    { key: 'precision', detail: 'precision', kind: 'rounded' },
    { key: 'recall', detail: 'recall', kind: 'rounded' },
    { key: 'fmeasure', detail: 'f', kind: 'rounded' },
  ],
  defaultWidth: FRACTION_WIDTH,
  settingsKey: 'gtm',
  options: [
    { setting: 'exponent', flag: 'gtmExponent', default: { value: 1 } },
    { setting: 'tokenize', flag: 'gtmTokenize', default: { value: 'none' } },
    { setting: 'lowercase', flag: 'gtmLowercase', default: { value: false } },
  ],
  flags: GTM_FLAGS,
  readSettings: (f) => ({
    exponent: f.number('gtmExponent', '--gtm-exponent', 'a number >= 1', (x) => x >= 1),
    ...readEditSettings(f, 'gtm'),
  }),
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
