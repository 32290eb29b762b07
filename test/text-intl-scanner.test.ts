/**
 * The one-pass `intl` scanner against the plain regex pipeline it replaces (both on our Unicode 15.0 tables),
 * on random strings over punctuation (ASCII, non-ASCII, astral), symbols, numbers of several scripts,
 * whitespace, look-alikes and letters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenizeIntl, tokenizeIntlRegex } from '../src/text/tokenizers/tokenizer-intl.js';

const PIECES = [
  ...'0123456789', '\u0663', '\u00bd', '\u216b', '\u{1d7ce}', '\u{10107}', // numbers: Arabic-Indic, ½, Ⅻ, 𝟎, Aegean
  ...'.,!-\'"()', '\u3002', '\u00ab', '\u2014', '\u2026', '\u{10100}', '\u{16e97}', // punctuation
  ...'$+^`|~', '\u20ac', '\u2122', '\u{1f600}', '\u{1fae8}', '\u20c1', // symbols (U+20C1: none in 15.0)
  ...'aZ', '\u00e9', '\u4e2d', '\u0301', '\u200d', '\u200b', '\ufeff', '\ud800',
  ' ', ' ', '\t', '\n', '\u00a0', '\u3000', '\u2028', '\x1c',
];
const line = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((a) => a.join(''));

describe('intl scanner', () => {
  it('equals the regex pipeline on random strings', () => {
    fc.assert(
      fc.property(line, (s) => {
        expect(tokenizeIntl(s)).toBe(tokenizeIntlRegex(s));
      }),
      { numRuns: 4000 },
    );
  });

  it.each([
    ['1990.', '1990.'], // nothing follows the period: kept
    ['1990. ', '1990 .'],
    ['3.14', '3.14'],
    ['a.b', 'a . b'],
    ['1,,2', '1 , , 2'],
    ['1,2,,3', '1,2 , , 3'],
    ['..5', '. . 5'],
    ['x...', 'x . . .'],
    ['\u0663.\u0664', '\u0663.\u0664'], // Arabic-Indic digits are numbers too
    ['$5', '$ 5'],
    ['a\u{1f600}\u{1f600}b', 'a \u{1f600} \u{1f600} b'],
  ])('%j → %j', (s, want) => {
    expect(tokenizeIntl(s)).toBe(want);
    expect(tokenizeIntlRegex(s)).toBe(want);
  });
});
