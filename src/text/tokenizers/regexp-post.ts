/**
 * The language-dependent regex stage shared by sacrebleu's `13a` and `zh` tokenizers (sacrebleu's
 * `TokenizerRegexp`): split ASCII punctuation, then periods/commas not between digits, then a dash after a
 * digit, then collapse Python whitespace. This is the plain regex version; `tokenizer-13a.ts` has a faster
 * scanner that is property-tested against it.
 */
import { pyJoinSplit } from '../pystr.js';

// ASCII punctuation other than `' , - .` (and the space, harmless since spaces are collapsed at the end).
const PUNCT = /([{-~[-` -&(-+:-@/])/g;
const PERIOD_COMMA_AFTER_NON_DIGIT = /([^0-9])([.,])/g;
const PERIOD_COMMA_BEFORE_NON_DIGIT = /([.,])([^0-9])/g;
const DASH_AFTER_DIGIT = /([0-9])(-)/g;

/**
 * sacrebleu `TokenizerRegexp.__call__`: the four substitutions in order (each non-overlapping, left to
 * right, as Python's `re.sub`), then `' '.join(line.split())`.
 */
export function regexpPost(line: string): string {
  line = line.replace(PUNCT, ' $1 ');
  line = line.replace(PERIOD_COMMA_AFTER_NON_DIGIT, '$1 $2 ');
  line = line.replace(PERIOD_COMMA_BEFORE_NON_DIGIT, ' $1 $2');
  line = line.replace(DASH_AFTER_DIGIT, '$1 $2 ');
  return pyJoinSplit(line);
}
