/**
 * METEOR's one-pass 13a scan-and-look-up (TokenTable.scan13a) against the plain path it stands in for: `bleuScan`
 * with the 13a scanner, each token cut out and given an id by first appearance. Random lines from a
 * punctuation-heavy alphabet (digit/period/comma runs, dashes after digits and not, the always-split punctuation,
 * Python whitespace of several kinds, non-ASCII letters, astral characters) without the characters that send a line
 * down the plain path (`<`, `&`, line feed), all through one table so that later lines hit tokens earlier ones added;
 * then METEOR itself on lines with and without those characters against the same computation on the 13a tokens.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Meteor } from '../src/metrics/meteor/meteor.js';
import { TokenTable } from '../src/metrics/meteor/token-table.js';
import { sentenceScore } from '../src/metrics/metric.js';
import { bleuScan, getTokenScanner, TokenBounds, tokenize13a } from '../src/text/tokenizers/index.js';

const PIECES = [
  ...'0123456789',
  ...'..,,,--\'\'',
  ...'!"#$%()*+/:;=>?@[\\]^_`{|}~',
  ...'aZéß',
  'der', 'Der', 'ist', '1.5', '3,000', '...',
  ' ', ' ', '  ', '\t', '\r', '\u00a0', '\u2003', '\u3000', '\u200b', '\u0085', '\x1c',
  '中', '。', '\u2014', '\u201c', '😀', '\u{20000}',
];
const line = fc.array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 40 }).map((a) => a.join(''));

describe('TokenTable.scan13a', () => {
  it('gives the ids the 13a scanner and a Map of the cut-out tokens give, on random lines', () => {
    const table = new TokenTable();
    const byText = new Map<string, number>();
    const idOf = (token: string): number => {
      let id = byText.get(token);
      if (id === undefined) byText.set(token, (id = byText.size));
      return id;
    };
    const bounds = new TokenBounds();
    const scanner = getTokenScanner('13a');
    fc.assert(
      fc.property(line, (s) => {
        const source = bleuScan(s, scanner, false, bounds);
        const expected: number[] = [];
        for (let k = 0; k < bounds.count; k++) expected.push(idOf(source.slice(bounds.start(k), bounds.end(k))));
        const ids = new Int32Array(s.length);
        const n = table.scan13a(s, ids, (text, start, end) => idOf(text.slice(start, end)));
        expect(Array.from(ids.subarray(0, n))).toEqual(expected);
      }),
      { numRuns: 4000 },
    );
    // The table (1,024 slots at first, kept at most half full) grew twice at least, so its rehashing was exercised.
    expect(byText.size).toBeGreaterThan(1024);
  });
});

describe('METEOR with the default tokenizer', () => {
  it('scores as on the 13a tokens split on spaces, for lines 13a rewrites and lines it does not', () => {
    const meteor = new Meteor();
    const onTokens = new Meteor({ tokenize: 'none' });
    const words = fc.array(fc.constantFrom('the', 'The', 'cats', 'cat', 'car', 'auto', '3.5', '&amp;', '<skipped>', 'a-\nb', ',', '.', 'ran', 'running'), { maxLength: 12 });
    fc.assert(
      fc.property(words, words, (h, r) => {
        const hyp = h.join(' ');
        const ref = r.join(' ');
        expect(sentenceScore(meteor, hyp, [ref]).score).toBe(sentenceScore(onTokens, tokenize13a(hyp), [tokenize13a(ref)]).score);
      }),
      { numRuns: 1500 },
    );
  });

  it('reads references longer than its line buffer (a long line replaces the buffer while it is scanned)', () => {
    // 400 distinct words: every one matches exactly, in one chunk.
    const words = Array.from({ length: 400 }, (_, k) => `w${k}`);
    const line = words.join(' ');
    for (const tokenize of ['13a', 'none'] as const) {
      const meteor = new Meteor({ tokenize });
      expect(sentenceScore(meteor, line, [line]).score).toBeCloseTo(1 - 0.5 / 400 ** 3, 12);
      expect(sentenceScore(meteor, 'w0', [line]).score).toBeGreaterThan(0);
    }
  });
});
