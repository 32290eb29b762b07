/**
 * sacrebleu's `intl` tokenizer (mteval-v14 `--international-tokenization`): split Unicode punctuation unless
 * it sits between digits, split every Unicode symbol, collapse whitespace. No padding, no entity decoding.
 */
import { pyJoinSplit } from '../pystr.js';

// Temporary: runtime property tables (replaced by generated Unicode 15.0 tables).
const PUNCT_AFTER_NON_NUMBER = /(\P{N})(\p{P})/gu;
const PUNCT_BEFORE_NON_NUMBER = /(\p{P})(\P{N})/gu;
const SYMBOL = /(\p{S})/gu;

/** The `intl` tokenizer as sacrebleu 2.6.0 (`TokenizerV14International`) defines it. */
export function tokenizeIntl(line: string): string {
  line = line.replace(PUNCT_AFTER_NON_NUMBER, '$1 $2 ');
  line = line.replace(PUNCT_BEFORE_NON_NUMBER, ' $1 $2');
  line = line.replace(SYMBOL, ' $1 ');
  return pyJoinSplit(line);
}
