/**
 * A char-code scanner that computes exactly what `regexpPost` (sacrebleu's `TokenizerRegexp`) computes, in one
 * pass over the line and without intermediate strings.
 *
 * The regex stage only ever inserts spaces, so its result is fixed by where token boundaries fall. Working
 * through the four leftmost, non-overlapping substitutions gives these rules on the source characters:
 * - Python whitespace ends a token; ASCII punctuation other than `' , - .` is always a token of its own.
 * - `-` is a token of its own exactly when the character before it is an ASCII digit (`([0-9])(-)`).
 * - In a maximal run of `.`/`,` every character but the last is a token of its own. `([^0-9])([.,])` splits the
 *   odd-numbered members of the run when the run follows a non-digit, the even-numbered ones when it follows a
 *   digit or the start of an unpadded line (each match consumes the character after it, so a run alternates);
 *   `([.,])([^0-9])` then splits every member followed by a non-digit. So the last member stays glued to its
 *   neighbours only when it was not split by the first rule and is followed by a digit or the end of the line.
 *   (Padding, as 13a does, puts a space before the first and after the last character.)
 * `test/text-13a-scanner.test.ts` checks these rules against the regex pipeline on random punctuation-heavy
 * strings; `test/text-tokenizers-golden.test.ts` against sacreBLEU itself.
 */
import { isPyWhitespace } from '../unicode/whitespace.js';
import { TokenBounds } from './token-bounds.js';

const PLAIN = 0;
const ALONE = 1; // always a token of its own
const SPACE = 2; // whitespace
const PERIOD_COMMA = 3;
const DASH = 4;

/** Class of each ASCII code unit. */
const ASCII_CLASS = new Uint8Array(128);
// `[{-~[-` -&(-+:-@/]`: sacrebleu's always-split class (its space is whitespace here).
for (const [a, b] of [
  [0x7b, 0x7e],
  [0x5b, 0x60],
  [0x21, 0x26],
  [0x28, 0x2b],
  [0x3a, 0x40],
  [0x2f, 0x2f],
]) {
  ASCII_CLASS.fill(ALONE, a, b + 1);
}
for (let c = 0; c < 128; c++) if (isPyWhitespace(c)) ASCII_CLASS[c] = SPACE;
ASCII_CLASS[0x2e] = PERIOD_COMMA;
ASCII_CLASS[0x2c] = PERIOD_COMMA;
ASCII_CLASS[0x2d] = DASH;

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

function isPeriodCommaAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c === 0x2e || c === 0x2c;
}

/**
 * Fills `tokens` with the bounds of the tokens of sacrebleu's `TokenizerRegexp` stage on `s` (padded with one
 * space each side first when `pad`, as 13a does); see the file comment for the rules.
 */
export function regexpPostBounds(s: string, pad: boolean, tokens: TokenBounds): void {
  tokens.clear();
  const n = s.length;
  let start = -1; // start of the open token, -1 when none
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    const cls = c < 128 ? ASCII_CLASS[c] : isPyWhitespace(c) ? SPACE : PLAIN;
    if (cls === PLAIN || (cls === DASH && (i === 0 || !isDigitAt(s, i - 1)))) {
      if (start < 0) start = i;
      i++;
    } else if (cls === PERIOD_COMMA) {
      let last = i;
      while (last + 1 < n && isPeriodCommaAt(s, last + 1)) last++;
      const afterDigitOrStart = i === 0 ? !pad : isDigitAt(s, i - 1);
      const beforeDigitOrEnd = last + 1 === n ? !pad : isDigitAt(s, last + 1);
      const oddLength = ((last - i + 1) & 1) === 1;
      const splitByFirstRule = afterDigitOrStart ? !oddLength : oddLength;
      const lastGlued = !splitByFirstRule && beforeDigitOrEnd;
      if (last > i || !lastGlued) {
        if (start >= 0) tokens.push(start, i);
        start = -1;
        for (let k = i; k < last; k++) tokens.push(k, k + 1);
      }
      if (!lastGlued) tokens.push(last, last + 1);
      else if (start < 0) start = last; // glued: continues the open token or opens the next one
      i = last + 1;
    } else {
      if (start >= 0) tokens.push(start, i);
      start = -1;
      if (cls !== SPACE) tokens.push(i, i + 1); // ALONE, or a DASH after a digit
      i++;
    }
  }
  if (start >= 0) tokens.push(start, n);
}

/**
 * sacrebleu's `TokenizerRegexp` stage on `line` (padded with one space each side first when `pad`, as 13a
 * does), computed by the scanner; equal to `regexpPost(pad ? ' ' + line + ' ' : line)`.
 */
export function regexpPostScan(line: string, pad: boolean): string {
  regexpPostBounds(line, pad, shared);
  return shared.join(line);
}

const shared = new TokenBounds();
