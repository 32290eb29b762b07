/** ParaEval as `-m paraeval` names it, over the paraphrase table `--paraphrase-table` names. */
import { PARAPHRASE_FORMATS } from '../../text/paraphrase/table-format.js';
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, FRACTION_WIDTH, roundedFields, type MetricDescriptor } from '../descriptor.js';
import { PARAEVAL_SCORES } from './score-kind.js';
export type { ParaEvalSettings } from './settings.js';
import type { ParaEvalSettings } from './settings.js';

const PARAEVAL = 'ParaEval (Palette; -m paraeval, seed 001)';

/** ParaEval's flags. */
export const PARAEVAL_FLAGS: readonly OptionSpec[] = [
  { key: 'paraphraseTable', names: ['--paraphrase-table'], arity: 'one', metavar: 'FILE', group: PARAEVAL,
    help: 'paraphrase table for -m paraeval: Moses phrase table (source = pivot), PPDB, or phrase<TAB>paraphrase lines' },
  { key: 'paraphraseFormat', names: ['--paraphrase-format'], arity: 'one', metavar: 'FMT', group: PARAEVAL,
    help: `table format: ${PARAPHRASE_FORMATS.join(', ')} (default: auto, from the first line)` },
  { key: 'paraphraseMinWords', names: ['--paraphrase-min-words'], arity: 'one', metavar: 'K', group: PARAEVAL,
    help: 'use only phrases of at least K words (default: 1)' },
  { key: 'paraevalTokenize', names: ['--paraeval-tokenize'], arity: 'one', metavar: 'TOK', group: PARAEVAL,
    help: 'tokenizer of the text and the table phrases, one of the -tok names (default: 13a)' },
  { key: 'paraevalLowercase', names: ['--paraeval-lowercase'], arity: 'flag', group: PARAEVAL,
    help: 'case-insensitive ParaEval (text and table phrases)' },
  { key: 'paraevalScore', names: ['--paraeval-score'], arity: 'one', metavar: 'WHICH', group: PARAEVAL,
    help: 'reported score: precision (default) or recall; JSON has both' },
];

/** ParaEval's classes, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<ParaEvalSettings>('paraeval', async () => (await import('./factory.js')).createParaEvalMetric);

/**
 * ParaEval: higher is better, corpus precision and recall from summed counts; a fraction, 5 decimals, both in JSON.
 * Its `-sl` instance is its plain one, so a command that needs both loads the table once.
 */
export const PARAEVAL_DESCRIPTOR: MetricDescriptor<ParaEvalSettings, 'paraeval'> = {
  id: 'paraeval',
  aliases: [],
  family: null,
  scoreName: 'ParaEval',
  direction: 'higher',
  reduction: () => 'sum',
  wholeReference: false,
  sentenceLevelSame: true,
  jsonFields: roundedFields('precision', 'recall'),
  defaultWidth: FRACTION_WIDTH,
  settingsKey: 'paraeval',
  options: [
    { setting: 'table', flag: 'paraphraseTable', default: { text: 'none: -m paraeval needs a table' } },
    { setting: 'format', flag: 'paraphraseFormat', default: { value: 'auto' } },
    { setting: 'minWords', flag: 'paraphraseMinWords', default: { value: 1 } },
    { setting: 'tokenize', flag: 'paraevalTokenize', default: { value: '13a' } },
    { setting: 'lowercase', flag: 'paraevalLowercase', default: { value: false } },
    { setting: 'score', flag: 'paraevalScore', default: { value: 'precision' } },
  ],
  flags: PARAEVAL_FLAGS,
  readSettings(f) {
    const s: ParaEvalSettings = {
      table: f.string('paraphraseTable'),
      format: f.choice('paraphraseFormat', '--paraphrase-format', PARAPHRASE_FORMATS),
      minWords: f.int('paraphraseMinWords', '--paraphrase-min-words', 1),
      tokenize: f.tokenizer('paraevalTokenize'),
      lowercase: f.flag('paraevalLowercase') || undefined,
      score: f.choice('paraevalScore', '--paraeval-score', PARAEVAL_SCORES),
    };
    return Object.values(s).every((v) => v === undefined) ? undefined : s;
  },
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
