/** How WER's settings become an instance: the code ./descriptor.ts imports only when a run names WER. */
import { bleuScan, TokenBounds } from '../../text/tokenizers/index.js';
import { cliMetric, type CliMetric, type MetricFactory, type SegmentAlignment } from '../descriptor.js';
import type { EditSettings } from '../edit/settings.js';
import { alignWords } from '../edit/word-alignment.js';
import { editTextOptions } from '../edit/words.js';
import { TerOp } from '../ter/alignment.js';
import { Wer } from './wer.js';

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

/** WER with its settings. */
export const createWerMetric: MetricFactory<EditSettings> = (_id, settings) => createWer(settings);
