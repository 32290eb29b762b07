/**
 * tercom 0.10.0's text preparation, worked out by hand from its Java (TER.load_segs, TerScorer.TER(String,
 * String), core/Normalizer.tokenize, java.lang.String.trim/split): the Java whitespace rules (ASCII `\s` only,
 * leading empty token, trailing empty tokens dropped, `""` is one token), trimming of control characters, case
 * folding, `-N` step by step (entities, ASCII punctuation, possessive `'s`, periods and commas next to digits,
 * dashes after digits), `-A` inside `-N` (CJK characters, kana runs split from their neighbours, CJK and
 * full-width punctuation), `-P` (and its leading empty token), `-A` alone (changes nothing but `-P`).
 * Lowercasing is checked against OpenJDK 17.0.15's own `toLowerCase()` (fixtures/ter-tercom/java-lowercase.jsonl).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TokenBounds } from '../src/text/tokenizers/token-bounds.js';
import { isJavaRegexSpace, javaLowerCase, javaSplitWhitespace, javaTrim } from '../src/metrics/ter/tercom-java-text.js';
import { tercomSegmentText, tercomTokenize } from '../src/metrics/ter/tercom-tokenizer.js';

function javaSplit(s: string): string[] {
  const b = new TokenBounds();
  javaSplitWhitespace(s, b);
  return Array.from({ length: b.count }, (_, k) => s.slice(b.start(k), b.end(k)));
}

describe('Java String semantics', () => {
  it.each([
    ['', ['']],
    ['a', ['a']],
    [' ', []],
    ['\t \n', []],
    [' a', ['', 'a']],
    ['  a  b ', ['', 'a', 'b']],
    ['a ', ['a']],
    ['a  b\tc\r\nd\fe\u000bf', ['a', 'b', 'c', 'd', 'e', 'f']],
  ])('split("\\\\s+") of %j', (s, tokens) => {
    expect(javaSplit(s)).toEqual(tokens);
  });

  it('\\s is ASCII only: no-break, em and ideographic spaces, U+0085 and U+001C stay inside tokens', () => {
    for (const c of ['\u00a0', '\u2003', '\u3000', '\u0085', '\u001c', '\u2028']) {
      expect(isJavaRegexSpace(c.charCodeAt(0))).toBe(false);
      expect(javaSplit(`a${c}b c`)).toEqual([`a${c}b`, 'c']);
    }
  });

  it("toLowerCase() is Java 17's: case pairs newer than Unicode 13 stay (OpenJDK 17.0.15)", () => {
    // Strings with a capital sigma are left out: Java picks final sigma by its word BreakIterator, which Palette
    // does not reproduce (documented in tercom-java-text.ts).
    const lines = readFileSync(new URL('./fixtures/ter-tercom/java-lowercase.jsonl', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { in: number[]; out: number[] })
      .filter((l) => !l.in.includes(0x3a3));
    expect(lines.length).toBeGreaterThan(250);
    let runtimeDiffers = 0;
    for (const { in: input, out } of lines) {
      const s = String.fromCodePoint(...input);
      expect(javaLowerCase(s), JSON.stringify(input)).toBe(String.fromCodePoint(...out));
      if (s.toLowerCase() !== String.fromCodePoint(...out)) runtimeDiffers++;
    }
    // The runtime's own lowercasing (Unicode 15 or later) differs on some of them: the table is needed.
    expect(runtimeDiffers).toBeGreaterThan(0);
    expect(tercomSegmentText('\u2c2fA\u{10570}', {})).toBe('\u2c2fa\u{10570}');
  });

  it('final sigma where Java and Unicode agree: at the end of a word before a space or the end, between letters', () => {
    expect(javaLowerCase('ΟΔΟΣ ΟΔΟΣ')).toBe('οδος οδος');
    expect(javaLowerCase('ΣΑΣ')).toBe('σας');
  });

  it('trim() drops every code unit up to U+0020 at both ends, nothing else', () => {
    expect(javaTrim('\u0001 \t a b \u001f\n')).toBe('a b');
    expect(javaTrim('\u00a0a\u3000')).toBe('\u00a0a\u3000');
    expect(javaTrim('   ')).toBe('');
  });
});

describe('tercomTokenize: defaults (no flags)', () => {
  it('lowercases and splits on ASCII whitespace only; punctuation stays attached', () => {
    expect(tercomTokenize('  Das ist  ein Test.  ')).toEqual(['das', 'ist', 'ein', 'test.']);
    expect(tercomTokenize('Das ist', { caseSensitive: true })).toEqual(['Das', 'ist']);
    // WMT21 en-de ref.A line 13 has such a no-break space: tercom counts one word where sacreBLEU counts two.
    expect(tercomTokenize('10\u00a0000 Euro')).toEqual(['10\u00a0000', 'euro']);
  });

  it('tercomSegmentText: trim then lowercase (an empty result is the empty-segment case)', () => {
    expect(tercomSegmentText(' \u0002ABC\t', {})).toBe('abc');
    expect(tercomSegmentText(' \t ', {})).toBe('');
    expect(tercomSegmentText('ABC', { caseSensitive: true })).toBe('ABC');
  });

  it('-A alone changes nothing', () => {
    expect(tercomTokenize('今日は、晴れ。 テストです', { asianSupport: true })).toEqual([
      '今日は、晴れ。',
      'テストです',
    ]);
  });
});

describe('tercomTokenize: -N', () => {
  const N = { normalized: true };

  it('splits ASCII punctuation, periods and commas away from digits, dashes after digits', () => {
    expect(tercomTokenize('Hello, world.', N)).toEqual(['hello', ',', 'world', '.']);
    expect(tercomTokenize('3.14 and 1,000 items; 5-6 x-y', N)).toEqual([
      '3.14',
      'and',
      '1,000',
      'items',
      ';',
      '5',
      '-',
      '6',
      'x-y',
    ]);
    expect(tercomTokenize('(a) [b] {c} "d" a/b a@b 50% $5 #1 ~x `q` ^', N)).toEqual([
      '(',
      'a',
      ')',
      '[',
      'b',
      ']',
      '{',
      'c',
      '}',
      '"',
      'd',
      '"',
      'a',
      '/',
      'b',
      'a',
      '@',
      'b',
      '50',
      '%',
      '$',
      '5',
      '#',
      '1',
      '~',
      'x',
      '`',
      'q',
      '`',
      '^',
    ]);
  });

  it("splits off the possessive 's before a space or at the end; other apostrophes stay", () => {
    expect(tercomTokenize("John's car", N)).toEqual(['john', "'s", 'car']);
    expect(tercomTokenize("at John's", N)).toEqual(['at', 'john', "'s"]);
    expect(tercomTokenize("it's rock'n'roll", N)).toEqual(['it', "'s", "rock'n'roll"]);
    // Case-sensitive: only a lowercase 's is split.
    expect(tercomTokenize("JOHN'S car", { ...N, caseSensitive: true })).toEqual(["JOHN'S", 'car']);
  });

  it('decodes four entities in order, after case folding', () => {
    expect(tercomTokenize('a &amp;lt; b', N)).toEqual(['a', '<', 'b']);
    expect(tercomTokenize('&QUOT;x&QUOT;', N)).toEqual(['"', 'x', '"']);
    expect(tercomTokenize('&QUOT;x', { ...N, caseSensitive: true })).toEqual(['&', 'QUOT', ';', 'x']);
    expect(tercomTokenize('&apos;', N)).toEqual(['&', 'apos', ';']);
  });

  it('removes <skipped>; a line of nothing else becomes one empty token', () => {
    expect(tercomTokenize('a <skipped> b', N)).toEqual(['a', 'b']);
    expect(tercomTokenize('<skipped>', N)).toEqual(['']);
  });

  it('treats a surrogate pair as one character next to a period', () => {
    expect(tercomTokenize('\u{1d49c}.', N)).toEqual(['\u{1d49c}', '.']);
  });
});

describe('tercomTokenize: -N -A', () => {
  const NA = { normalized: true, asianSupport: true };

  it('splits CJK ideographs, compatibility and enclosed characters into single characters', () => {
    expect(tercomTokenize('今日はいい天気です', NA)).toEqual(['今', '日', 'はいい', '天', '気', 'です']);
    expect(tercomTokenize('㈱会社', NA)).toEqual(['㈱', '会', '社']);
    expect(tercomTokenize('㍿⺀', NA)).toEqual(['㍿', '⺀']);
  });

  it("splits a kana run from the character before it (tercom's (^|\\P{In…}) alternative)", () => {
    expect(tercomTokenize('テストです', NA)).toEqual(['テスト', 'です']);
    expect(tercomTokenize('abcひらがなxyz', NA)).toEqual(['abc', 'ひらがな', 'xyz']);
    expect(tercomTokenize('ㇰㇱカタ', NA)).toEqual(['ㇰㇱ', 'カタ']);
  });

  it('splits CJK and full-width punctuation', () => {
    expect(tercomTokenize('はい、そう。「ええ」（ｘ）！', NA)).toEqual([
      'はい',
      '、',
      'そう',
      '。',
      '「',
      'ええ',
      '」',
      '（',
      'ｘ',
      '）',
      '！',
    ]);
  });
});

describe('tercomTokenize: -P', () => {
  it('removes .,?:;!"() and collapses spaces without stripping', () => {
    expect(tercomTokenize('Hallo, Welt! (Ja?) "gut": ok.', { noPunct: true })).toEqual([
      'hallo',
      'welt',
      'ja',
      'gut',
      'ok',
    ]);
    // A line starting with removed punctuation and a space keeps a leading empty token, as tercom's split does.
    expect(tercomTokenize('( a )', { noPunct: true })).toEqual(['', 'a']);
    expect(tercomTokenize('" Ja', { noPunct: true })).toEqual(['', 'ja']);
    expect(tercomTokenize('.', { noPunct: true })).toEqual(['']);
    expect(tercomTokenize('. .', { noPunct: true })).toEqual([]);
  });

  it('with -N, the normalised punctuation tokens disappear, leaving a leading empty token after an opening one', () => {
    expect(tercomTokenize('"Ja", sagte er.', { normalized: true, noPunct: true })).toEqual(['', 'ja', 'sagte', 'er']);
    expect(tercomTokenize('Er sagte: "ja".', { normalized: true, noPunct: true })).toEqual(['er', 'sagte', 'ja']);
  });

  it('with -A, also removes CJK and full-width punctuation (no -N needed)', () => {
    expect(tercomTokenize('今日は、晴れ。（はい）', { noPunct: true, asianSupport: true })).toEqual(['今日は晴れはい']);
    expect(tercomTokenize('今日は、晴れ。', { noPunct: true })).toEqual(['今日は、晴れ。']);
  });
});
