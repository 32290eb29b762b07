/**
 * METEOR's word ids with the default tokenizer (13a, case kept), which the words-13a WebAssembly kernel tokenizes and
 * interns batch by batch, against the plain path it stands in for: `bleuScan` with the 13a scanner, each token cut
 * out, lowercased (`str.lower`) and given an id by first appearance. Random lines from a punctuation-heavy alphabet
 * (digit/period/comma runs, dashes after digits and not, the always-split punctuation, 13a's rewrites `<skipped>`,
 * `&amp;`, `-\n`, Python whitespace of several kinds, non-ASCII letters, letters whose lowercase is longer, astral
 * characters, a lone surrogate, a leading U+FEFF), in batches through one METEOR object, so that later batches meet tokens earlier ones
 * added and the kernel's vocabulary grows across calls; then METEOR itself against the same computation on the 13a
 * tokens.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Meteor } from '../src/metrics/meteor/meteor.js';
import { sentenceScore } from '../src/metrics/metric.js';
import { pyLower } from '../src/text/pystr.js';
import { bleuScan, getTokenScanner, TokenBounds, tokenize13a } from '../src/text/tokenizers/index.js';

const PIECES = [
  ...'0123456789',
  ...'..,,,--\'\'',
  ...'!"#$%()*+/:;=>?@[\\]^_`{|}~<&',
  ...'aZéßİ',
  'der', 'Der', 'DER', 'ist', '1.5', '3,000', '...', '<skipped>', '&amp;', '&quot;', '&lt;', 'a-\nb', '\n',
  ' ', ' ', '  ', '\t', '\r', '\u00a0', '\u2003', '\u3000', '\u200b', '\u0085', '\x1c',
  '中', '。', '\u2014', '\u201c', '😀', '\u{20000}', '\ud800',
  // A token may begin with U+FEFF, which is then part of it (not a byte order mark to drop).
  '\ufeff', '\ufeffDer',
];
// Numbered words besides the pieces, so that the vocabulary outgrows the kernel's first table within a call.
const piece = fc.oneof(fc.constantFrom(...PIECES), fc.nat(30000).map((n) => `W${n}`));
const line = fc.array(piece, { minLength: 0, maxLength: 40 }).map((a) => a.join(''));

describe('METEOR word ids from the words-13a kernel', () => {
  it('are the ids of the lowercased 13a tokens by first appearance, batch after batch, on random lines', () => {
    const meteor = new Meteor();
    const byText = new Map<string, number>();
    const idOf = (token: string): number => {
      let id = byText.get(token);
      if (id === undefined) byText.set(token, (id = byText.size));
      return id;
    };
    const bounds = new TokenBounds();
    const scanner = getTokenScanner('13a');
    // A first batch of many lines creates the object's kernel instance; from then on every batch goes through it.
    expect(batchCheck(Array.from({ length: 600 }, (_, k) => `${PIECES[k % PIECES.length]} Wort${k} ${'ab '.repeat(k % 20)}`))).toBe(true);
    fc.assert(
      // References are read by the same kernel call as hypotheses, and their word ids are public.
      fc.property(fc.array(line, { minLength: 1, maxLength: 30 }), (batch) => batchCheck(batch)),
      { numRuns: 400 },
    );
    // Then one batch of far more new words than the vocabulary held, among known ones: the kernel's table (doubled
    // whenever a quarter full) grows within the call, over the tokens it was given from the earlier calls.
    const before = byText.size;
    const big = Array.from({ length: 8000 }, (_, k) => `Der V${k}, ${PIECES[k % PIECES.length]} v${k}.W${k}`);
    expect(batchCheck(big)).toBe(true);
    // Three times the words known: with their case variants, more than twice the tokens the kernel held.
    expect(byText.size - before).toBeGreaterThan(3 * before);
    expect(byText.size - before).toBeGreaterThan(4096);

    // A new object's first batch: a small one takes the general path, one with a long line besides goes through
    // the kernel; the ids are the same.
    const long = 'pad '.repeat(4200);
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 30 }), fc.boolean(), (lines, padded) => {
        const batch = padded ? [...lines, long] : lines;
        const fresh = new Meteor();
        const words = new Map<string, number>();
        const expected = batch.map((s) => {
          const source = bleuScan(s, scanner, false, bounds);
          const ids: number[] = [];
          for (let k = 0; k < bounds.count; k++) {
            const word = pyLower(source.slice(bounds.start(k), bounds.end(k)));
            if (!words.has(word)) words.set(word, words.size);
            ids.push(words.get(word)!);
          }
          return ids;
        });
        const prepared = fresh.prepareReferences([batch]);
        expect(prepared.lines.map(([ref]) => Array.from(ref.words.subarray(0, ref.length)))).toEqual(expected);
      }),
      { numRuns: 300 },
    );

    function batchCheck(batch: string[]): boolean {
      const expected = batch.map((s) => {
        const source = bleuScan(s, scanner, false, bounds);
        const ids: number[] = [];
        for (let k = 0; k < bounds.count; k++) ids.push(idOf(pyLower(source.slice(bounds.start(k), bounds.end(k)))));
        return ids;
      });
      const prepared = meteor.prepareReferences([batch]);
      expect(prepared.lines.map(([ref]) => Array.from(ref.words.subarray(0, ref.length)))).toEqual(expected);
      return true;
    }
  });
});

describe('METEOR with the default tokenizer', () => {
  it('scores as on the 13a tokens split on spaces, for lines 13a rewrites and lines it does not', () => {
    // Sentence by sentence, one object goes through the kernel (its instance made by a large first batch), another
    // takes the general path (small batches from the start).
    const kernel = new Meteor();
    kernel.prepareReferences([['x '.repeat(9000)]]);
    const general = new Meteor();
    const onTokens = new Meteor({ tokenize: 'none' });
    const words = fc.array(fc.constantFrom('the', 'The', 'cats', 'cat', 'car', 'auto', '3.5', '&amp;', '<skipped>', 'a-\nb', ',', '.', 'ran', 'running'), { maxLength: 12 });
    fc.assert(
      fc.property(words, words, (h, r) => {
        const hyp = h.join(' ');
        const ref = r.join(' ');
        const expected = sentenceScore(onTokens, tokenize13a(hyp), [tokenize13a(ref)]).score;
        expect(sentenceScore(kernel, hyp, [ref]).score).toBe(expected);
        expect(sentenceScore(general, hyp, [ref]).score).toBe(expected);
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
