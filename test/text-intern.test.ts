/**
 * Interning: dense ids in order of first appearance, CSR rows and offsets, Python-`split()` token boundaries,
 * empty lines, one vocabulary shared across calls, frozen-vocabulary lookup, and agreement with a naive
 * `pySplit` + `Map` reference on random token lines (including hash-table growth).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsrBuilder, csrCount, csrRow } from '../src/text/csr.js';
import { internLine, internLines, lookupLine, tokenHash, Vocabulary } from '../src/text/intern.js';
import { pySplit } from '../src/text/pystr.js';

const rows = (csr: { tokens: Int32Array; offsets: Int32Array }): number[][] =>
  Array.from({ length: csrCount(csr) }, (_, i) => Array.from(csrRow(csr, i)));

describe('Vocabulary', () => {
  it('assigns dense ids from 0 in order of first appearance', () => {
    const v = new Vocabulary();
    expect(['b', 'a', 'b', 'c', 'a'].map((t) => v.id(t))).toEqual([0, 1, 0, 2, 1]);
    expect(v.size).toBe(3);
    expect([0, 1, 2].map((i) => v.token(i))).toEqual(['b', 'a', 'c']);
  });

  it('find() looks up without inserting', () => {
    const v = new Vocabulary();
    v.id('x');
    expect(v.find('x')).toBe(0);
    expect(v.find('y')).toBe(-1);
    expect(v.size).toBe(1);
  });

  it('keeps tokens that differ only in non-ASCII or astral code units apart, and the empty token', () => {
    const v = new Vocabulary();
    const toks = ['é', 'e\u0301', '😀', '😁', '\ud83d', '', 'İ', 'i̇'];
    expect(toks.map((t) => v.id(t))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(toks.map((t) => v.id(t))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('finds a token inside a longer string by range without creating it', () => {
    const v = new Vocabulary();
    v.id('cat');
    const s = 'the cat sat';
    expect(v.findRange(s, 4, 7, tokenHash(s, 4, 7))).toBe(0);
    expect(v.findRange(s, 0, 3, tokenHash(s, 0, 3))).toBe(-1);
    expect(v.idOfRange(s, 8, 11, tokenHash(s, 8, 11))).toBe(1);
    expect(v.token(1)).toBe('sat');
  });

  it('survives growth to many tokens with stable ids', () => {
    const v = new Vocabulary();
    const first = Array.from({ length: 20000 }, (_, i) => v.id(`t${i}`));
    expect(first.every((id, i) => id === i)).toBe(true);
    const again = Array.from({ length: 20000 }, (_, i) => v.id(`t${i}`));
    expect(again).toEqual(first);
    expect(v.size).toBe(20000);
    expect(v.token(12345)).toBe('t12345');
  });
});

describe('internLines / internLine', () => {
  it('builds one CSR row per line with offsets', () => {
    const v = new Vocabulary();
    const csr = internLines(v, ['a b c', 'b a', '', 'c c c c']);
    expect(Array.from(csr.offsets)).toEqual([0, 3, 5, 5, 9]);
    expect(rows(csr)).toEqual([[0, 1, 2], [1, 0], [], [2, 2, 2, 2]]);
  });

  it('gives empty and whitespace-only lines empty rows', () => {
    const csr = internLines(new Vocabulary(), ['', ' ', '\u3000\t\u00a0', 'x']);
    expect(rows(csr)).toEqual([[], [], [], [0]]);
  });

  it('splits on Python whitespace, not on U+200B, U+FEFF or U+180E', () => {
    const v = new Vocabulary();
    const csr = internLines(v, ['  a\u00a0b\u2003c\x1cd\u0085e\u3000 ', 'f\u200bg h\ufeffi j\u180ek']);
    expect(rows(csr)).toEqual([[0, 1, 2, 3, 4], [5, 6, 7]]);
    expect([5, 6, 7].map((i) => v.token(i))).toEqual(['f\u200bg', 'h\ufeffi', 'j\u180ek']);
  });

  it('agrees across calls that share a vocabulary', () => {
    const v = new Vocabulary();
    const first = internLines(v, ['the cat sat', 'on the mat']);
    const second = internLines(v, ['the mat sat', 'a new token']);
    expect(rows(first)).toEqual([[0, 1, 2], [3, 0, 4]]);
    expect(rows(second)).toEqual([[0, 4, 2], [5, 6, 7]]);
    const b = new CsrBuilder();
    internLine(v, 'cat token the', b);
    internLine(v, '', b);
    expect(rows(b.finish())).toEqual([[1, 7, 0], []]);
  });

  it('lookupLine maps unseen tokens to the given id and leaves the vocabulary unchanged', () => {
    const v = new Vocabulary();
    internLines(v, ['a b']);
    const b = new CsrBuilder();
    lookupLine(v, 'b zz a yy', b, 99);
    expect(rows(b.finish())).toEqual([[1, 99, 0, 99]]);
    expect(v.size).toBe(2);
  });

  it('equals a pySplit + Map reference on random lines', () => {
    const alphabet = ['a', 'b', 'ab', 'ba', 'é', '😀', ' ', ' ', '  ', '\t', '\u00a0', '\u200b', '.', 'x'.repeat(70), '\u0007', '\x1c', '\x1f', '\u0085', '\u2028', '\u0080', '\u0084', '\u0086', '\x21', '\x00'];
    const line = fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), (lines) => {
        const v = new Vocabulary();
        const got = rows(internLines(v, lines));
        const ids = new Map<string, number>();
        const want = lines.map((l) =>
          pySplit(l).map((t) => {
            if (!ids.has(t)) ids.set(t, ids.size);
            return ids.get(t)!;
          }),
        );
        expect(got).toEqual(want);
        expect(v.size).toBe(ids.size);
        for (const [t, id] of ids) expect(v.token(id)).toBe(t);
      }),
      { numRuns: 500 },
    );
  });
});
