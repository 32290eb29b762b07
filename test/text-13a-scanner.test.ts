/**
 * The fast paths of the 13a/zh tokenizers against the plain regex pipeline they replace: sacrebleu's
 * `TokenizerRegexp` stage (`regexpPost`) vs the one-pass scanner, and full `13a` vs `tokenize13aRegex`, on random
 * strings from a punctuation-heavy alphabet (digits, `. , - '`, the always-split ASCII punctuation, whitespace of
 * several kinds, `<skipped>`/entity/`-\n` fragments, non-ASCII letters and astral characters).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pyStrip } from '../src/text/pystr.js';
import { regexpPost } from '../src/text/tokenizers/regexp-post.js';
import { regexpPostScan } from '../src/text/tokenizers/regexp-post-scanner.js';
import { tokenize13a, tokenize13aRegex } from '../src/text/tokenizers/tokenizer-13a.js';
import { tokenizeZh, tokenizeZhFixed } from '../src/text/tokenizers/tokenizer-zh.js';
import { isZhCharFixed, isZhCharSacrebleu } from '../src/text/tokenizers/zh-ranges.js';

const PIECES = [
  ...'0123456789',
  ...'..,,,--\'\'',
  ...'!"#$%&()*+/:;<=>?@[\\]^_`{|}~',
  ...'aZé',
  ' ', ' ', '  ', '\t', '\n', '\r', '\u00a0', '\u2003', '\u3000', '\u200b', '\u0085', '\x1c',
  '<skipped>', '<skip', 'ped>', '&amp;', '&quot;', '&lt;', '&gt;', '&', 'amp;', '-\n',
  '中', '。', '\u2014', '\u201c', '😀', '\u{20000}', '\u{2f800}',
];
const line = fc.array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 40 }).map((a) => a.join(''));
const RUNS = { numRuns: 3000 };

describe('regex stage scanner', () => {
  it('equals the regex pipeline on random strings (padded and not)', () => {
    fc.assert(
      fc.property(line, fc.boolean(), (s, pad) => {
        expect(regexpPostScan(s, pad)).toBe(regexpPost(pad ? ` ${s} ` : s));
      }),
      RUNS,
    );
  });

  it('handles the period/comma runs whose matches overlap', () => {
    for (const s of ['a.,b', '1.,2', '1,.5', '..1', '1..', 'a...b', '1-2', '1--2', '-1', '5.', '.5', ',', '', ' ']) {
      for (const pad of [false, true]) expect(regexpPostScan(s, pad)).toBe(regexpPost(pad ? ` ${s} ` : s));
    }
  });

  it('returns the input itself when it is already tokenized', () => {
    const s = 'this is already tokenized';
    expect(regexpPostScan(s, true)).toBe(s);
  });

  it('handles lines long enough to grow its token buffer', () => {
    const s = Array.from({ length: 700 }, (_, i) => `w${i},x`).join(' ');
    expect(regexpPostScan(s, true)).toBe(regexpPost(` ${s} `));
  });
});

describe('13a fast path', () => {
  it('equals the plain regex 13a tokenizer on random strings', () => {
    fc.assert(
      fc.property(line, (s) => {
        expect(tokenize13a(s)).toBe(tokenize13aRegex(s));
      }),
      RUNS,
    );
  });
});

// The zh tokenizer written as sacrebleu writes it: per code point, with the regex stage.
function zhReference(s: string, isZh: (cp: number) => boolean): string {
  let out = '';
  for (const ch of pyStrip(s)) out += isZh(ch.codePointAt(0)!) ? ` ${ch} ` : ch;
  return regexpPost(out);
}

describe('zh fast path', () => {
  it('equals the per-character reference on random strings (buggy and fixed tables)', () => {
    fc.assert(
      fc.property(line, (s) => {
        expect(tokenizeZh(s)).toBe(zhReference(s, isZhCharSacrebleu));
        expect(tokenizeZhFixed(s)).toBe(zhReference(s, isZhCharFixed));
      }),
      RUNS,
    );
  });
});
