/**
 * Python 3.11 `str` behaviour (Unicode 14.0.0): `split()`, `strip()`, `rstrip()`, `' '.join(s.split())`,
 * `lower()`. Expected values are Python 3.11's own results (the whitespace list is CPython's
 * `_PyUnicode_IsWhitespace` table for Unicode 14.0.0, also listed in golden/edge/README.md).
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { isPyWhitespace, pyJoinSplit, pyLower, pyLstrip, pyRstrip, pySplit, pyStrip } from '../src/text/pystr.js';
import { pyLowerTables } from '../src/text/unicode/lower.js';

const PY_WHITESPACE = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
];

describe('isPyWhitespace', () => {
  it('is true on exactly the 29 code points of Python 3.11 whitespace', () => {
    const got: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (isPyWhitespace(c)) got.push(c);
    expect(got).toEqual(PY_WHITESPACE);
  });

  it('excludes the look-alikes U+200B, U+FEFF, U+180E', () => {
    for (const c of [0x200b, 0xfeff, 0x180e, 0x00ad, 0x2060]) expect(isPyWhitespace(c)).toBe(false);
  });
});

describe('pySplit', () => {
  it.each([
    ['', []],
    ['   ', []],
    [' a  b ', ['a', 'b']],
    ['a\tb\nc\rd\x0be\x0cf', ['a', 'b', 'c', 'd', 'e', 'f']],
    ['a\x1cb\x1dc\x1ed\x1fe', ['a', 'b', 'c', 'd', 'e']],
    ['a\u0085b\u00a0c\u1680d', ['a', 'b', 'c', 'd']],
    ['a\u2000b\u200ac\u2028d\u2029e\u202ff\u205fg\u3000h', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']],
    ['a\u200bb c\ufeffd e\u180ef', ['a\u200bb', 'c\ufeffd', 'e\u180ef']],
    ['😀 😀', ['😀', '😀']],
  ])('%j → %j', (s, want) => {
    expect(pySplit(s)).toEqual(want);
  });
});

describe('pyStrip / pyRstrip / pyLstrip', () => {
  it.each([
    ['', '', '', ''],
    ['  ', '', '', ''],
    [' a b ', 'a b', ' a b', 'a b '],
    ['\u3000\u0085a\u00a0\x1f', 'a', '\u3000\u0085a', 'a\u00a0\x1f'],
    ['\u200ba\u200b', '\u200ba\u200b', '\u200ba\u200b', '\u200ba\u200b'],
    ['a-\n', 'a-', 'a-', 'a-\n'],
  ])('%j → strip %j, rstrip %j, lstrip %j', (s, strip, rstrip, lstrip) => {
    expect(pyStrip(s)).toBe(strip);
    expect(pyRstrip(s)).toBe(rstrip);
    expect(pyLstrip(s)).toBe(lstrip);
  });
});

describe('pyJoinSplit', () => {
  it.each([
    ['', ''],
    [' ', ''],
    ['a  b', 'a b'],
    [' a\u3000b\tc ', 'a b c'],
    ['a\u200b b', 'a\u200b b'],
  ])('%j → %j', (s, want) => {
    expect(pyJoinSplit(s)).toBe(want);
  });

  it('returns already-normalised input unchanged', () => {
    const s = 'already normal text';
    expect(pyJoinSplit(s)).toBe(s);
  });
});

describe('pyLower (Python 3.11, Unicode 14.0.0)', () => {
  it.each([
    ['ASCII Only 123', 'ascii only 123'],
    ['İstanbul', 'i\u0307stanbul'], // full mapping: two code points
    ['ΟΔΟΣ', 'οδος'], // final sigma
    ['ΟΔΟΣ ΚΑΙ', 'οδος και'],
    ["ΑΣ'Α", "ασ'α"], // apostrophe is case-ignorable: Σ is not final
    ['Σ', 'σ'], // no cased letter before
    ['ΑΣ.', 'ας.'],
    ['Α\u0345Σ', 'α\u0345ς'], // case-ignorable mark between
    ['ΑΣ\u0345Α', 'ασ\u0345α'],
    ['𐐀Σ', '𐐨ς'], // astral cased letter before
    ['ẞ', 'ß'],
    ['\u212a', 'k'], // Kelvin sign
    ['\u2126', 'ω'], // Ohm sign
    ['\u212b', 'å'], // Angstrom sign
    ['ǅ ǈ ǋ ǲ', 'ǆ ǉ ǌ ǳ'], // titlecase digraphs
    ['ᲐᲑᲒ', 'აბგ'], // Georgian Mtavruli
    ['ᎠᎡ', 'ꭰꭱ'], // Cherokee
    ['𐐀𐐁', '𐐨𐐩'], // Deseret
    ['ÀÉÎÕÜ', 'àéîõü'],
  ])('%j → %j', (s, want) => {
    expect(pyLower(s)).toBe(want);
  });

  it('uses Unicode 14.0 tables: letters cased only in later versions stay as they are', () => {
    // U+1C89 CYRILLIC CAPITAL LETTER TJE and U+A7CB, U+A7DC (Unicode 16.0); Garay U+10D50 (16.0).
    for (const s of ['\u1c89', '\ua7cb', '\ua7dc', '\u{10d50}']) expect(pyLower(s)).toBe(s);
  });

  it('keeps a leading U+FEFF (BOM) and other format characters', () => {
    expect(pyLower('\ufeffΣΑ')).toBe('\ufeffσα');
    expect(pyLower('\ufeffÀ')).toBe('\ufeffà');
    expect(pyLower('\ufeffAB')).toBe('\ufeffab');
  });

  it('native fast path equals the table-driven path on random strings', () => {
    const pieces = [...'AaZzΣσΑΟ\'. ', 'İ', 'ẞ', '\u212a', 'Ǆ', 'ǅ', 'Ꭰ', 'Ა', '𐐀', '\u0345', '\u0301', '\ufeff', '\u1c89', 'À', '中'];
    const str = fc.array(fc.constantFrom(...pieces), { maxLength: 20 }).map((a) => a.join(''));
    fc.assert(
      fc.property(str, (s) => {
        expect(pyLower(s)).toBe(pyLowerTables(s));
      }),
      { numRuns: 2000 },
    );
  });

  it("reads a code point's Unicode 14 lowercase from the lists as the tables give it, for every BMP code point", async () => {
    // A fresh module: its tables are not built until pyLowerTables first runs, so tableLower reads the lists.
    vi.resetModules();
    const fresh = await import('../src/text/unicode/lower.js');
    const fromLists: string[] = [];
    for (let c = 0; c < 0x10000; c++) fromLists.push(fresh.tableLower(c));
    const differs: number[] = [];
    for (let c = 0; c < 0x10000; c++) {
      if ((c >= 0xd800 && c <= 0xdfff) || c === 0x3a3) continue; // lone surrogates and Σ take their own paths
      if (fromLists[c] !== fresh.pyLowerTables(String.fromCharCode(c))) differs.push(c);
    }
    expect(differs).toEqual([]);
    expect(fromLists[0x130]).toBe('i\u0307');
    expect(fromLists[0x41]).toBe('a');
  });

  it('returns ASCII-lowercase and caseless input unchanged', () => {
    const s = 'nothing to do here 中文 😀';
    expect(pyLower(s)).toBe(s);
  });
});
