/** WER as `-m wer` names it (jiwer 4.0), with its counts in JSON and `-d`'s alignment. */
import { bleuScan, TokenBounds } from '../../text/tokenizers/index.js';
import type { OptionSpec } from '../../util/option-spec.js';
import { cliMetric, FRACTION_WIDTH, type CliMetric, type MetricDescriptor, type SegmentAlignment } from '../descriptor.js';
import { EDIT_GROUP, readEditSettings, type EditSettings } from '../edit/settings.js';
import { alignWords } from '../edit/word-alignment.js';
import { editTextOptions } from '../edit/words.js';
import { TerOp } from '../ter/alignment.js';
import { Wer } from './wer.js';

/** WER's flags. */
export const WER_FLAGS: readonly OptionSpec[] = [
  { key: 'werTokenize', names: ['--wer-tokenize'], arity: 'one', metavar: 'TOK', group: EDIT_GROUP,
    help: 'WER word split: jiwer (default, jiwer 4.0) or a -tok name (then a whitespace split)' },
  { key: 'werLowercase', names: ['--wer-lowercase'], arity: 'flag', group: EDIT_GROUP, help: 'case-insensitive WER' },
];

/** Words of reference `j` of `segment`, from the interned references. */
function refWordsOf(refs: ReturnType<Wer['prepareReferences']>, segment: number, j: number): string[] {
  const row = refs.segRefOffsets[segment] + j;
  const out: string[] = [];
  for (let k = refs.refs.offsets[row]; k < refs.refs.offsets[row + 1]; k++) out.push(refs.vocab.token(refs.refs.tokens[k]));
  return out;
}

/** WER (jiwer), with `-d`'s alignment against the reference with the fewest edits. */
function createWer(s: EditSettings): CliMetric {
  const wer = new Wer({ tokenize: s.tokenize, lowercase: s.lowercase });
  const text = editTextOptions(wer.tokenize, wer.lowercase);
  const bounds = new TokenBounds();
  const words = (line: string): string[] => {
    const source = bleuScan(line, text.scanner, text.lowercase, bounds);
    return Array.from({ length: bounds.count }, (_, k) => source.slice(bounds.start(k), bounds.end(k)));
  };
  return {
    ...cliMetric(wer),
    align(hyp, prepared, segment) {
      const refs = prepared as ReturnType<Wer['prepareReferences']>;
      const hypWords = words(hyp);
      let best: SegmentAlignment | undefined;
      for (let j = 0; j < refs.nRefs; j++) {
        const refWords = refWordsOf(refs, segment, j);
        const ops = alignWords(hypWords, refWords);
        let edits = 0;
        for (const op of ops) if (op !== TerOp.Match) edits++;
        // The metric's rule: the fewest edits, the first reference on ties.
        if (best === undefined || edits < best.edits) {
          best = { reference: j, hypWords, refWords, shifts: [], hypOrder: Int32Array.from(hypWords, (_, k) => k), ops, edits };
        }
      }
      return best!;
    },
  };
}

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
  create: (_id, settings) => createWer(settings),
};
