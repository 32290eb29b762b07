/**
 * The 13a token-id kernel (src/wasm/words-13a.ts) against its plain oracle (test/reference/words-13a.ts): the same
 * rows of ids and the same vocabulary, building and looking up, on random lines from a punctuation-heavy alphabet
 * (digits, `. , -`, the always-split ASCII punctuation, Python whitespace of several kinds at the end and inside,
 * `<skipped>`/entity/`-\n` fragments, non-ASCII letters, among them some whose first byte could start a wide space,
 * long runs of letters, astral characters and lone surrogates).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildWords, byteVocabularyTokens, codePointRows, lookupWords, mapRowIds, words13aBuild, words13aLookup, Words13aGrowing,
} from '../src/wasm/words-13a.js';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { oracleBuild13a, oracleBuildSplit, oracleCodePoints, oracleLookup13a } from './reference/words-13a.js';
import type { Csr } from '../src/text/csr.js';
import { getUtf16Writer, setUtf16Writer } from '../src/wasm/wtf8.js';

const PIECES = [
  ...'0123456789',
  ...'..,,,--\'\'',
  ...'!"#$%&()*+/:;<=>?@[\\]^_`{|}~',
  ...'aZéß',
  'word', 'Wort', 'a', 'b',
  ' ', ' ', '  ', '\t', '\n', '\r', '\u00a0', '\u2003', '\u3000', '\u200b', '\u0085', '\x1c', '\u1680', '\u202f',
  '<skipped>', '<skip', 'ped>', '&amp;', '&quot;', '&lt;', '&gt;', '&', 'amp;', '-\n', '&amp;lt;',
  '中', '。', '\u2014', '\u201c', '😀', '\u{20000}', '\ud800', '\udc00', '\ufffd', '\ufeff',
  // Letters whose UTF-8 starts with a byte that also starts a wide space (C2, E1, E3) or one beside those (E0), and
  // a letter run past sixteen bytes: the kernel finds the end of a run of letters sixteen bytes at a time.
  '§', '\u16a0', '\u0904', 'Zusammenarbeit',
];
const line = fc.array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 30 }).map((a) => a.join(''));
const lines = fc.array(line, { minLength: 0, maxLength: 12 });

function rowsOf(csr: Csr): number[][] {
  return Array.from({ length: csr.offsets.length - 1 }, (_, i) => Array.from(csr.tokens.subarray(csr.offsets[i], csr.offsets[i + 1])));
}

describe('13a token-id kernel', () => {
  it('builds the rows and vocabulary of the plain oracle', () => {
    fc.assert(
      fc.property(lines, (ls) => {
        const vocab = new Map<string, number>();
        const expected = oracleBuild13a(ls, vocab);
        const built = words13aBuild(ls);
        expect(rowsOf(built.rows)).toEqual(expected);
        expect(built.vocab.count).toBe(vocab.size);
        expect(byteVocabularyTokens(built.vocab)).toEqual([...vocab.keys()]);
      }),
      { numRuns: 1500 },
    );
  });

  it('builds the oracle\'s rows with lines encoded in TypeScript too (a host without a UTF-16 copy)', () => {
    const writer = getUtf16Writer();
    expect(writer).not.toBeNull();
    // Long ASCII runs beside non-ASCII units, so that the kernel's eight-unit steps meet every boundary.
    const mixed = fc.array(fc.constantFrom(...PIECES, 'abcdefgh', 'Zusammenarbeit', 'x'.repeat(15)), { maxLength: 30 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(mixed, { maxLength: 12 }), (ls) => {
        const expected = oracleBuild13a(ls, new Map<string, number>());
        expect(rowsOf(words13aBuild(ls).rows)).toEqual(expected);
        const growing = new Words13aGrowing();
        expect(rowsOf(growing.build(ls))).toEqual(expected);
        setUtf16Writer(null);
        try {
          expect(rowsOf(words13aBuild(ls).rows)).toEqual(expected);
          expect(rowsOf(new Words13aGrowing().build(ls))).toEqual(expected);
        } finally {
          setUtf16Writer(writer);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('looks lines up in a frozen vocabulary as the oracle does', () => {
    fc.assert(
      fc.property(lines, lines, (refs, hyps) => {
        const vocab = new Map<string, number>();
        oracleBuild13a(refs, vocab);
        const built = words13aBuild(refs);
        expect(rowsOf(words13aLookup(hyps, built.vocab, built.vocab.count))).toEqual(oracleLookup13a(hyps, vocab, vocab.size));
      }),
      { numRuns: 1500 },
    );
  });

  it('handles lines and vocabularies large enough to grow its memory and its table', () => {
    // Lines of distinct short tokens (one in about seven bytes), where the table starts with room for one in sixteen.
    const refs = Array.from({ length: 3000 }, (_, i) =>
      i % 2 === 0
        ? Array.from({ length: 10 }, (_, k) => `x${10 * i + k}`).join(' ')
        : `Satz ${i}: das Wort-${i % 977} „zitiert“, 1.${i} 3,5 &amp; mehr.  `);
    const hyps = Array.from({ length: 3000 }, (_, i) => `Satz ${i + 1}: das Wort-${i % 1013} „zitiert“, 1.${i} ${'x'.repeat(i % 50)}`);
    const vocab = new Map<string, number>();
    const expected = oracleBuild13a(refs, vocab);
    const built = words13aBuild(refs);
    expect(rowsOf(built.rows)).toEqual(expected);
    expect(rowsOf(words13aLookup(hyps, built.vocab, vocab.size))).toEqual(oracleLookup13a(hyps, vocab, vocab.size));
  });

  it('keeps a readable vocabulary beside BLEU references it interned', () => {
    const refs = new Bleu().prepareReferences([['Das ist ein Test.', 'Noch ein &quot;Test&quot; 3.5']]);
    expect(refs.bytes).toBeDefined();
    const oracle = new Map<string, number>();
    oracleBuild13a(['Das ist ein Test.', 'Noch ein &quot;Test&quot; 3.5'], oracle);
    expect(refs.unknownId).toBe(oracle.size);
    expect(refs.vocab.size).toBe(oracle.size);
    for (const [token, id] of oracle) expect([refs.vocab.token(id), refs.vocab.find(token)]).toEqual([token, id]);
  });

  it('grows a vocabulary of its own batch after batch as the oracle does, its new tokens read back as written', () => {
    // One object for every run: later batches meet tokens earlier ones added. A leading U+FEFF is part of a token
    // (not a byte order mark to drop), and batches now and then hold far more new tokens and bytes than the
    // regions have room for, so that every region moves and the table doubles within a call.
    const growing = new Words13aGrowing();
    const vocab = new Map<string, number>();
    let big = 0;
    const withBom = fc.array(fc.constantFrom(...PIECES, '\ufeff', '\ufeffDas', 'Das'), { minLength: 0, maxLength: 30 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(withBom, { minLength: 0, maxLength: 12 }), fc.nat(19), (ls, pick) => {
        if (pick === 0) {
          big++;
          ls = ls.concat(Array.from({ length: 2000 }, (_, i) => `g${big}x${i} ${'y'.repeat(i % 40)}${big} \ufeffz${i}`));
        }
        const known = vocab.size;
        const expected = oracleBuild13a(ls, vocab);
        expect(rowsOf(growing.build(ls))).toEqual(expected);
        expect(growing.count).toBe(vocab.size);
        expect(growing.tokens(known)).toEqual([...vocab.keys()].slice(known));
      }),
      { numRuns: 300 },
    );
    expect(big).toBeGreaterThan(3);
    expect(vocab.size).toBeGreaterThan(30000);
  });
});

describe('split token-id kernel', () => {
  it('builds the rows and vocabulary of Python\'s str.split() words, growing a base vocabulary', () => {
    fc.assert(
      fc.property(lines, lines, (first, second) => {
        const vocab = new Map<string, number>();
        const expectedFirst = oracleBuildSplit(first, vocab);
        const sizeFirst = vocab.size;
        const expectedSecond = oracleBuildSplit(second, vocab);
        const built = buildWords('split', first);
        expect(rowsOf(built.rows)).toEqual(expectedFirst);
        expect(built.vocab.count).toBe(sizeFirst);
        const grown = buildWords('split', second, built.vocab);
        expect(rowsOf(grown.rows)).toEqual(expectedSecond);
        expect(byteVocabularyTokens(grown.vocab)).toEqual([...vocab.keys()]);
      }),
      { numRuns: 1500 },
    );
  });

  it('looks words up in a frozen vocabulary', () => {
    fc.assert(
      fc.property(lines, lines, (refs, hyps) => {
        const vocab = new Map<string, number>();
        oracleBuildSplit(refs, vocab);
        const built = buildWords('split', refs);
        const expected = hyps.map((h) => oracleBuildSplit([h], new Map(vocab))[0].map((id) => (id < vocab.size ? id : -1)));
        expect(rowsOf(lookupWords('split', hyps, built.vocab, -1))).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('split token-id kernel at its densest', () => {
  it('holds lines of one-byte words, as many as their bytes allow', () => {
    // Every line is as dense as split words get ((n + 1) / 2 words in n bytes), with words new to the vocabulary.
    const refs = Array.from({ length: 2000 }, (_, i) => [...'abcdefghijklmnop'].map((c, k) => (k === i % 16 ? String(i) : c)).join(' '));
    const hyps = Array.from({ length: 2000 }, (_, i) => (i % 3 === 0 ? 'q' : [...'ABCDEFGHIJ'].join(' ')));
    const vocab = new Map<string, number>();
    const expectedRefs = oracleBuildSplit(refs, vocab);
    const expectedHyps = oracleBuildSplit(hyps, vocab);
    const built = buildWords('split', refs);
    expect(rowsOf(built.rows)).toEqual(expectedRefs);
    const grown = buildWords('split', hyps, built.vocab);
    expect(rowsOf(grown.rows)).toEqual(expectedHyps);
    expect(byteVocabularyTokens(grown.vocab)).toEqual([...vocab.keys()]);
    expect(rowsOf(lookupWords('split', hyps, built.vocab, -1))).toEqual(expectedHyps.map((r) => r.map((id) => (id < built.vocab.count ? id : -1))));
  });
});

describe('code point kernel', () => {
  it('gives the code points of each line, Python whitespace dropped or kept', () => {
    fc.assert(
      fc.property(lines, fc.boolean(), (ls, keep) => {
        expect(rowsOf(codePointRows(ls, keep))).toEqual(ls.map((l) => oracleCodePoints(l, keep)));
      }),
      { numRuns: 1500 },
    );
  });
});

describe('lines written once for consecutive calls', () => {
  it('reuses the bytes of the call before only for the same strings', () => {
    const ls = ['Ein Satz.', 'zwei  Wörter', '&amp; 3.5'];
    const vocab = new Map<string, number>();
    const built = words13aBuild(ls);
    expect(rowsOf(built.rows)).toEqual(oracleBuild13a(ls, vocab));
    // The same strings in another array (as each metric's task slices them): the bytes are reused.
    expect(rowsOf(codePointRows(ls.slice(), false))).toEqual(ls.map((l) => oracleCodePoints(l, false)));
    expect(rowsOf(words13aLookup(ls.slice(), built.vocab, vocab.size))).toEqual(oracleLookup13a(ls, vocab, vocab.size));
    // The same array changed in place, to lines of the same length (the same layout): written again.
    ls[1] = 'drei  Wörter';
    expect(rowsOf(codePointRows(ls, false))).toEqual(ls.map((l) => oracleCodePoints(l, false)));
    expect(rowsOf(buildWords('split', ls).rows)).toEqual(oracleBuildSplit(ls, new Map()));
    expect(rowsOf(words13aLookup(ls, built.vocab, vocab.size))).toEqual(oracleLookup13a(ls, vocab, vocab.size));
  });
});

describe('id mapping kernel', () => {
  it('replaces every id of the rows by its entry in the map', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat(40), { maxLength: 12 }), { maxLength: 10 }), fc.array(fc.integer(), { minLength: 41, maxLength: 41 }), (rows, map) => {
        const offsets = Int32Array.from([0, ...rows.map((_, i) => rows.slice(0, i + 1).flat().length)]);
        const csr = { tokens: Int32Array.from([...rows.flat(), 7, 7]), offsets };
        const mapped = mapRowIds(csr, Int32Array.from(map));
        expect(rowsOf(mapped)).toEqual(rows.map((r) => r.map((t) => map[t] | 0)));
        expect(mapped.tokens.length).toBe(offsets[offsets.length - 1]);
      }),
      { numRuns: 300 },
    );
  });
});
