/**
 * The generated Unicode tables (src/text/unicode/) and the tokenizer behaviour that depends on their version:
 * intl's \p{P}/\p{S}/\p{N} must be Unicode 15.0 (the `regex` module sacreBLEU 2.6.0 ran with), not the runtime's.
 */
import { describe, expect, it } from 'vitest';
import { getTokenizer, TOKENIZER_NAMES } from '../src/text/tokenizers/index.js';
import { NUMBER_15, PUNCTUATION_15, SYMBOL_15 } from '../src/text/unicode/categories-15.js';
import { inRangeList } from '../src/text/unicode/range-list.js';
import { InputError } from '../src/errors.js';

describe('Unicode 15.0 category tables', () => {
  it('are sorted, disjoint inclusive ranges', () => {
    for (const list of [PUNCTUATION_15, SYMBOL_15, NUMBER_15]) {
      expect(list.length % 2).toBe(0);
      for (let i = 0; i < list.length; i += 2) {
        expect(list[i]).toBeLessThanOrEqual(list[i + 1]);
        if (i > 0) expect(list[i]).toBeGreaterThan(list[i - 1] + 1);
      }
    }
  });

  it.each([
    [0x2e, 'P'], [0x2014, 'P'], [0x3002, 'P'], [0x5f, 'P'],
    [0x24, 'S'], [0x2b, 'S'], [0x20ac, 'S'], [0x1f600, 'S'], [0x1fae8, 'S'], // U+1FAE8 is new in 15.0
    [0x35, 'N'], [0xbe, 'N'], [0x0663, 'N'], [0x2460, 'N'],
    [0x20c1, '-'], [0x2ebf0, '-'], [0x1cc00, '-'], [0x61, '-'], // 17.0, 15.1, 16.0 additions; a letter
  ])('U+%s is in %s', (cp, cat) => {
    expect(inRangeList(PUNCTUATION_15, cp)).toBe(cat === 'P');
    expect(inRangeList(SYMBOL_15, cp)).toBe(cat === 'S');
    expect(inRangeList(NUMBER_15, cp)).toBe(cat === 'N');
  });

  it('intl splits a Unicode 15.0 symbol but not a later one', () => {
    const intl = getTokenizer('intl');
    expect(intl('a\u{1fae8}b')).toBe('a \u{1fae8} b');
    expect(intl('a\u20c1b')).toBe('a\u20c1b');
  });
});

describe('getTokenizer', () => {
  it('knows every listed name', () => {
    for (const name of TOKENIZER_NAMES) expect(typeof getTokenizer(name)).toBe('function');
  });

  it('throws E_UNKNOWN_TOKENIZER for other names', () => {
    expect(() => getTokenizer('13b')).toThrow(InputError);
    expect(() => getTokenizer('13b')).toThrow(/unknown tokenizer "13b"/);
    try {
      getTokenizer('ja-mecab');
    } catch (e) {
      expect((e as InputError).code).toBe('E_UNKNOWN_TOKENIZER');
    }
    expect(() => getTokenizer('constructor')).toThrow(InputError);
  });
});

describe('zh and zh-fixed range tables', () => {
  const zh = getTokenizer('zh');
  const fixed = getTokenizer('zh-fixed');
  it.each([
    ['a\u2000b', 'a b', 'a b'], // U+2000 is not "Chinese" (the bug starts at U+2001) but is whitespace
    ['a\u2001b', 'a b', 'a b'], // whitespace too
    ['a\u201cb', 'a \u201c b', 'a\u201cb'], // curly quote: "Chinese" only under the bug
    ['a\u200bb', 'a \u200b b', 'a\u200bb'], // zero-width space
    ['a\u2a6db', 'a \u2a6d b', 'a\u2a6db'], // last code point of the buggy range
    ['a\u2a6eb', 'a\u2a6eb', 'a\u2a6eb'],
    ['a\u{20000}b', 'a\u{20000}b', 'a \u{20000} b'], // Extension B: only the fixed table
    ['a\u{2a6d6}b', 'a\u{2a6d6}b', 'a \u{2a6d6} b'],
    ['a\u{2f800}b', 'a\u{2f800}b', 'a \u{2f800} b'],
    ['a\u2f81b', 'a \u2f81 b', 'a \u2f81 b'], // Kangxi radicals in both
    ['中文,1990.', '中 文 , 1990.', '中 文 , 1990.'], // no padding: a final 1990. keeps its period
  ])('%j → zh %j, zh-fixed %j', (s, wantZh, wantFixed) => {
    expect(zh(s)).toBe(wantZh);
    expect(fixed(s)).toBe(wantFixed);
  });
});
