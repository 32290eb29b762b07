/** chrF and chrF++ as `-m chrf` names them, with sacrebleu's `--chrf-*` flags. */
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, type MetricDescriptor } from '../descriptor.js';
export type { ChrfSettings } from './settings.js';
import type { ChrfSettings } from './settings.js';

const CHRF = 'chrF';

/** chrF's flags (sacrebleu's spellings). */
export const CHRF_FLAGS: readonly OptionSpec[] = [
  { key: 'chrfCharOrder', names: ['--chrf-char-order', '-cc'], arity: 'one', metavar: 'N', group: CHRF,
    help: 'character n-gram order (default: 6)' },
  { key: 'chrfWordOrder', names: ['--chrf-word-order', '-cw'], arity: 'one', metavar: 'N', group: CHRF,
    help: 'word n-gram order; 2 gives chrF++ (default: 0)' },
  { key: 'chrfBeta', names: ['--chrf-beta'], arity: 'one', metavar: 'N', group: CHRF,
    help: 'weight of recall relative to precision (default: 2)' },
  { key: 'chrfWhitespace', names: ['--chrf-whitespace'], arity: 'flag', group: CHRF,
    help: 'keep whitespace in character n-grams' },
  { key: 'chrfLowercase', names: ['--chrf-lowercase'], arity: 'flag', group: CHRF,
    help: 'case-insensitive chrF' },
  { key: 'chrfEpsSmoothing', names: ['--chrf-eps-smoothing'], arity: 'flag', group: CHRF,
    help: 'epsilon smoothing as chrF++.py, NLTK and Moses (instead of effective order)' },
];

/** chrF's class, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<ChrfSettings>('chrf', async () => (await import('./factory.js')).createChrf);

/** chrF: higher is better, corpus score from summed n-gram counts. */
export const CHRF_DESCRIPTOR: MetricDescriptor<ChrfSettings, 'chrf'> = {
  id: 'chrf',
  aliases: [],
  family: null,
  scoreName: 'chrF2',
  direction: 'higher',
  reduction: () => 'sum',
  wholeReference: false,
  sentenceLevelSame: true,
  jsonFields: [],
  defaultWidth: null,
  settingsKey: 'chrf',
  options: [
    { setting: 'charOrder', flag: 'chrfCharOrder', default: { value: 6 } },
    { setting: 'wordOrder', flag: 'chrfWordOrder', default: { value: 0 } },
    { setting: 'beta', flag: 'chrfBeta', default: { value: 2 } },
    { setting: 'whitespace', flag: 'chrfWhitespace', default: { value: false } },
    { setting: 'lowercase', flag: 'chrfLowercase', default: { value: false } },
    { setting: 'epsSmoothing', flag: 'chrfEpsSmoothing', default: { value: false } },
  ],
  flags: CHRF_FLAGS,
  readSettings: (f) => ({
    charOrder: f.int('chrfCharOrder', '--chrf-char-order', 0),
    wordOrder: f.int('chrfWordOrder', '--chrf-word-order', 0),
    beta: f.int('chrfBeta', '--chrf-beta', 1),
    whitespace: f.flag('chrfWhitespace'),
    lowercase: f.flag('chrfLowercase'),
    epsSmoothing: f.flag('chrfEpsSmoothing'),
  }),
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
