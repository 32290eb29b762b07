/** WER as `-m wer` names it (jiwer 4.0), with its counts in JSON and `-d`'s alignment. */
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, FRACTION_WIDTH, type MetricDescriptor } from '../descriptor.js';
import { EDIT_GROUP, readEditSettings, type EditSettings } from '../edit/settings.js';

/** WER's flags. */
export const WER_FLAGS: readonly OptionSpec[] = [
  { key: 'werTokenize', names: ['--wer-tokenize'], arity: 'one', metavar: 'TOK', group: EDIT_GROUP,
    help: 'WER word split: jiwer (default, jiwer 4.0) or a -tok name (then a whitespace split)' },
  { key: 'werLowercase', names: ['--wer-lowercase'], arity: 'flag', group: EDIT_GROUP, help: 'case-insensitive WER' },
];

/** WER's classes, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<EditSettings>('wer', async () => (await import('./factory.js')).createWerMetric);

/** WER: an error rate (lower is better), corpus score from summed edit counts; a fraction, 5 decimals. */
export const WER_DESCRIPTOR: MetricDescriptor<EditSettings, 'wer'> = {
  id: 'wer',
  aliases: [],
  family: null,
  scoreName: 'WER',
  direction: 'lower',
  reduction: () => 'sum',
  wholeReference: false,
  sentenceLevelSame: true,
  jsonFields: ['hits', 'substitutions', 'deletions', 'insertions'].map((key) => ({ key, detail: key, kind: 'count' })),
  defaultWidth: FRACTION_WIDTH,
  settingsKey: 'wer',
  options: [
    { setting: 'tokenize', flag: 'werTokenize', default: { value: 'jiwer' } },
    { setting: 'lowercase', flag: 'werLowercase', default: { value: false } },
  ],
  flags: WER_FLAGS,
  readSettings: (f) => readEditSettings(f, 'wer'),
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
