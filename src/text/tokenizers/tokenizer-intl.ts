/**
 * sacrebleu's `intl` tokenizer (mteval-v14 `--international-tokenization`): split Unicode punctuation unless
 * it sits between digits, split every Unicode symbol, collapse whitespace. No padding, no entity decoding.
 *
 * sacrebleu runs these patterns with the `regex` module, whose \p{P}/\p{S}/\p{N} are Unicode 15.0; the
 * classes here are built from our generated Unicode 15.0 tables, never from the runtime's property data.
 */
import { pyJoinSplit } from '../pystr.js';
import { intlBounds, intlScan } from './intl-scanner.js';
import type { TokenBounds } from './token-bounds.js';
import { NUMBER_15, PUNCTUATION_15, SYMBOL_15 } from '../unicode/categories-15.js';
import { rangeListToClass } from '../unicode/range-list.js';

/** The three patterns, built on first use: their classes are long strings that a run without `intl` never needs. */
let patterns: { punctAfterNonNumber: RegExp; punctBeforeNonNumber: RegExp; symbol: RegExp } | undefined;

function intlPatterns(): NonNullable<typeof patterns> {
  if (patterns === undefined) {
    const P = `[${rangeListToClass(PUNCTUATION_15)}]`;
    const NOT_N = `[^${rangeListToClass(NUMBER_15)}]`;
    const S = `[${rangeListToClass(SYMBOL_15)}]`;
    patterns = {
      punctAfterNonNumber: new RegExp(`(${NOT_N})(${P})`, 'gu'),
      punctBeforeNonNumber: new RegExp(`(${P})(${NOT_N})`, 'gu'),
      symbol: new RegExp(`(${S})`, 'gu'),
    };
  }
  return patterns;
}

/**
 * The `intl` tokenizer through the plain regex pipeline (sacrebleu 2.6.0's `TokenizerV14International`): three
 * substitutions, each non-overlapping left to right over code points, then `' '.join(line.split())`. The
 * reference that the scanner is tested against.
 */
export function tokenizeIntlRegex(line: string): string {
  const { punctAfterNonNumber, punctBeforeNonNumber, symbol } = intlPatterns();
  line = line.replace(punctAfterNonNumber, '$1 $2 ');
  line = line.replace(punctBeforeNonNumber, ' $1 $2');
  line = line.replace(symbol, ' $1 ');
  return pyJoinSplit(line);
}

/**
 * The `intl` tokenizer, exactly as sacrebleu 2.6.0 computes it (a final `5.` keeps its period because nothing
 * follows it); one pass of the scanner in intl-scanner.ts.
 */
export function tokenizeIntl(line: string): string {
  return intlScan(line);
}

/** The `intl` tokenizer in scanner form (see `TokenScanner`): bounds into the line itself. */
export function scanIntl(line: string, out: TokenBounds): string {
  intlBounds(line, out);
  return line;
}
