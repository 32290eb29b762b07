/**
 * Tokenizer registry. A tokenizer maps one line to exactly the string sacrebleu 2.6.0's tokenizer of the same
 * name returns: for `13a`, `intl`, `zh` tokens joined by single ASCII spaces; `char` and `none` keep runs of
 * whitespace from the input, which BLEU drops when it splits the result (`str.split()`, see `pySplit`).
 */
import { unknownTokenizer } from '../../errors.js';
import { pyLower, pyRstrip } from '../pystr.js';
import type { TokenBounds, TokenScanner } from './token-bounds.js';
import { scan13a, tokenize13a } from './tokenizer-13a.js';
import { scanChar, tokenizeChar } from './tokenizer-char.js';
import { scanIntl, tokenizeIntl } from './tokenizer-intl.js';
import { scanNone, tokenizeNone } from './tokenizer-none.js';
import { scanZh, scanZhFixed, tokenizeZh, tokenizeZhFixed } from './tokenizer-zh.js';

/** A line tokenizer. */
export type Tokenizer = (line: string) => string;

/** Names accepted by `-tok`. */
export const TOKENIZER_NAMES = ['13a', 'intl', 'zh', 'zh-fixed', 'char', 'none'] as const;
/** One of {@link TOKENIZER_NAMES}. */
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];

const TOKENIZERS: Readonly<Record<TokenizerName, Tokenizer>> = {
  '13a': tokenize13a,
  intl: tokenizeIntl,
  zh: tokenizeZh,
  'zh-fixed': tokenizeZhFixed,
  char: tokenizeChar,
  none: tokenizeNone,
};

const SCANNERS: Readonly<Record<TokenizerName, TokenScanner>> = {
  '13a': scan13a,
  intl: scanIntl,
  zh: scanZh,
  'zh-fixed': scanZhFixed,
  char: scanChar,
  none: scanNone,
};

/** Whether `name` is a known tokenizer name. */
export function isTokenizerName(name: string): name is TokenizerName {
  return Object.prototype.hasOwnProperty.call(TOKENIZERS, name);
}

/**
 * The tokenizer called `name`.
 * @throws InputError `E_UNKNOWN_TOKENIZER` for a name not in {@link TOKENIZER_NAMES}.
 */
export function getTokenizer(name: string): Tokenizer {
  if (!isTokenizerName(name)) throw unknownTokenizer(name, TOKENIZER_NAMES);
  return TOKENIZERS[name];
}

/**
 * The tokenizer called `name` in scanner form: token bounds instead of a joined string, so that callers that
 * only need ids (see `internTokens`) never build the tokenized line.
 * @throws InputError `E_UNKNOWN_TOKENIZER` for a name not in {@link TOKENIZER_NAMES}.
 */
export function getTokenScanner(name: string): TokenScanner {
  if (!isTokenizerName(name)) throw unknownTokenizer(name, TOKENIZER_NAMES);
  return SCANNERS[name];
}

/**
 * What sacrebleu's BLEU hands its tokenizer for one segment: `tokenizer(rstrip(lower(line)))` with Python's
 * `str.lower()`/`str.rstrip()` (lowercase first, then right-strip). BLEU's n-grams are `pySplit` of the result.
 */
export function bleuTokenize(line: string, tokenizer: Tokenizer, lowercase: boolean): string {
  return tokenizer(pyRstrip(lowercase ? pyLower(line) : line));
}

/**
 * {@link bleuTokenize} in scanner form: fills `out` with the bounds of BLEU's tokens of `line` and returns the
 * string they index; `pySplit(bleuTokenize(line, t, lc))` are exactly those substrings.
 */
export function bleuScan(line: string, scanner: TokenScanner, lowercase: boolean, out: TokenBounds): string {
  return scanner(pyRstrip(lowercase ? pyLower(line) : line), out);
}

/** Token bounds and the scanner form of a tokenizer (see token-bounds.ts). */
export { TokenBounds, type TokenScanner } from './token-bounds.js';

/** The tokenizers themselves, for callers that know which one they need. */
export { tokenize13a, tokenizeChar, tokenizeIntl, tokenizeNone, tokenizeZh, tokenizeZhFixed };
