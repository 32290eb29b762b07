/**
 * Sentence splitting rules and ROUGE-1.5.5's `-l`/`-b` length limits.
 * Expected values are hand-derived from the rule definitions (shared/golden/README.md "tokpunct") and from
 * ROUGE-1.5.5.pl's readText / readText_LCS subs; the ../shared suite (rouge-text-shared.test.ts) checks the
 * limits against ROUGE-1.5.5's counts on SummEval and SL2003.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsrBuilder } from '../src/text/csr.js';
import { InputError } from '../src/errors.js';
import { pySplit } from '../src/text/pystr.js';
import { truncateRouge155, utf8Length } from '../src/text/rouge/rouge155-truncate.js';
import { RougeInterner, rougeTokens } from '../src/text/rouge/rouge-tokenizer.js';
import { internRougeSummary, rougeSummarySentences, rougeSummaryTokens } from '../src/text/rouge/summary.js';
import { parseSentenceSplit, sentenceSplitName, splitSentences } from '../src/text/rouge/sentence-split.js';

describe('sentence splitting rules', () => {
  it.each([
    ['none', 'a b . c\nd', ['a b . c\nd']],
    ['none', '', []],
    ['newline', 'a b\n\nc\r\n', ['a b', 'c\r']],
    ['newline', '\n', []],
    ['punct', 'a b . c d ! e', ['a b .', 'c d !', 'e']],
    ['punct', 'a . . ! b ? c', ['a . . !', 'b ?', 'c']],
    ['punct', '. a', ['.', 'a']],
    ['punct', '  a\u00a0 b\t.  ', ['a b .']],
    ['punct', 'a. b .. c ?! d', ['a. b .. c ?! d']], // only tokens that are exactly . ! ?
    ['punct', '   ', []],
    ['t-tags', '<t> a b . </t> <t> c </t>', [' a b . ', ' c ']],
    ['t-tags', 'x <t>a</t> y <t></t><t>b', ['a']],
    ['marker:<q>', 'a b<q>c<q><q>d', ['a b', 'c', 'd']],
    ['marker:##', '##', []],
  ])('%s: %j', (rule, text, expected) => {
    expect(splitSentences(text, rule)).toEqual(expected);
  });

  it('punct = whitespace split, cut after each maximal run of "." "!" "?" tokens (property)', () => {
    const token = fc.constantFrom('.', '!', '?', 'a', 'b.', '..', 'x?y');
    const space = fc.constantFrom(' ', '  ', '\t', '\u00a0', '\n');
    const arb = fc.array(fc.tuple(token, space), { maxLength: 20 }).map((xs) => xs.map(([t, s]) => t + s).join(''));
    fc.assert(
      fc.property(arb, (text) => {
        const tokens = pySplit(text);
        const expected: string[] = [];
        let current: string[] = [];
        tokens.forEach((t, i) => {
          current.push(t);
          const stop = t === '.' || t === '!' || t === '?';
          const nextStop = i + 1 < tokens.length && ['.', '!', '?'].includes(tokens[i + 1]);
          if (stop && !nextStop) {
            expected.push(current.join(' '));
            current = [];
          }
        });
        if (current.length > 0) expected.push(current.join(' '));
        expect(splitSentences(text, 'punct')).toEqual(expected);
      }),
    );
  });

  it('parses and names rules', () => {
    expect(parseSentenceSplit('marker:<q>')).toEqual({ kind: 'marker', marker: '<q>' });
    expect(parseSentenceSplit('punct')).toEqual({ kind: 'punct' });
    for (const name of ['none', 'newline', 'punct', 't-tags', 'marker::']) expect(sentenceSplitName(parseSentenceSplit(name))).toBe(name);
  });

  it.each(['', 'tokpunct', 'marker:', 'Newline'])('rejects %j with E_BAD_OPTION', (name) => {
    expect(() => parseSentenceSplit(name)).toThrow(InputError);
    expect(() => splitSentences('x', name)).toThrow(/sentence split must be one of none, newline, punct, t-tags, marker:STR/);
  });
});

describe('ROUGE-1.5.5 word limit (-l)', () => {
  const s = ['a b c', 'd-e f', 'g h i j'];

  it('keeps whole sentences below the limit and cuts the one that reaches it, in both readers', () => {
    for (const purpose of ['ngram', 'lcs'] as const) {
      expect(truncateRouge155(s, { words: 5 }, purpose)).toEqual(['a b c', 'd-e f']);
      expect(truncateRouge155(s, { words: 6 }, purpose)).toEqual(['a b c', 'd-e f', 'g']);
      expect(truncateRouge155(s, { words: 2 }, purpose)).toEqual(['a b']);
      expect(truncateRouge155(s, { words: 100 }, purpose)).toEqual(s);
    }
  });

  it('counts raw whitespace words, not tokens: `d-e` is one word and two tokens', () => {
    const kept = truncateRouge155(s, { words: 4 }, 'ngram');
    expect(kept).toEqual(['a b c', 'd-e']);
    expect(kept.flatMap((x) => rougeTokens(x))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it("counts Perl's leading empty field of a sentence that starts with whitespace as a word", () => {
    expect(truncateRouge155([' x y z'], { words: 2 }, 'ngram')).toEqual([' x']);
    expect(truncateRouge155(['\tx y'], { words: 1 }, 'ngram')).toEqual(['']);
    // Perl's \s is ASCII only: a no-break space is part of a word.
    expect(truncateRouge155(['x\u00a0y z'], { words: 1 }, 'ngram')).toEqual(['x\u00a0y']);
  });

  it('skips empty sentences, as the sentence-per-line reader skips empty lines', () => {
    expect(truncateRouge155(['', 'a b', '', 'c'], { words: 3 }, 'ngram')).toEqual(['a b', 'c']);
    expect(truncateRouge155(['', 'a'], {}, 'lcs')).toEqual(['a']);
  });
});

describe('ROUGE-1.5.5 byte limit (-b)', () => {
  it('ngram reader: running byte total over sentences (joining spaces not counted), cut mid-word', () => {
    expect(truncateRouge155(['abcd', 'efgh', 'ijkl'], { bytes: 10 }, 'ngram')).toEqual(['abcd', 'efgh', 'ij']);
    expect(truncateRouge155(['abcd', 'efgh'], { bytes: 8 }, 'ngram')).toEqual(['abcd', 'efgh']);
    expect(truncateRouge155(['abcd', 'efgh'], { bytes: 6 }, 'ngram')).toEqual(['abcd', 'ef']);
  });

  it('lcs reader: compares each sentence with the limit on its own (ROUGE never adds to its total)', () => {
    expect(truncateRouge155(['abcd', 'efgh', 'ijkl'], { bytes: 10 }, 'lcs')).toEqual(['abcd', 'efgh', 'ijkl']);
    expect(truncateRouge155(['abcd', 'efghijklmnop', 'q'], { bytes: 10 }, 'lcs')).toEqual(['abcd', 'efghijklmn']);
    expect(truncateRouge155(['abcd', 'efgh'], { bytes: 4 }, 'lcs')).toEqual(['abcd']);
  });

  it('counts UTF-8 bytes and drops a character the limit cuts through', () => {
    expect(utf8Length('a\u00e9\u65e5\u{1f600}')).toBe(1 + 2 + 3 + 4);
    expect(truncateRouge155(['\u00e9t\u00e9 x'], { bytes: 4 }, 'ngram')).toEqual(['\u00e9t']);
    expect(truncateRouge155(['ab\u{1f600}cd'], { bytes: 5 }, 'ngram')).toEqual(['ab']);
    expect(truncateRouge155(['ab\u{1f600}cd'], { bytes: 6 }, 'ngram')).toEqual(['ab\u{1f600}']);
  });
});

describe('limit validation', () => {
  it('no limit (absent or 0) returns the non-empty sentences', () => {
    expect(truncateRouge155(['a', '', 'b'], {}, 'ngram')).toEqual(['a', 'b']);
    expect(truncateRouge155(['a', 'b'], { words: 0, bytes: 0 }, 'lcs')).toEqual(['a', 'b']);
  });

  it.each([
    [{ words: 3, bytes: 10 }, /limit\.words and limit\.bytes cannot both be set/],
    [{ words: -1 }, /limit\.words must be a non-negative integer \(got -1\)/],
    [{ bytes: 2.5 }, /limit\.bytes must be a non-negative integer \(got 2\.5\)/],
  ])('%j → RangeError', (limit, message) => {
    expect(() => truncateRouge155(['a'], limit, 'ngram')).toThrow(RangeError);
    expect(() => truncateRouge155(['a'], limit, 'ngram')).toThrow(message);
  });
});

describe('a summary through split, limit and tokenizer', () => {
  it('gives token strings per sentence and one CSR row per sentence', () => {
    const text = 'The cats sat . The dogs ran away !  Then rain';
    const summary = { split: 'punct', limit: { words: 7 } } as const;
    expect(rougeSummarySentences(text, summary)).toEqual(['The cats sat .', 'The dogs ran']);
    expect(rougeSummaryTokens(text, summary, { tokenizer: 'rouge155', stem: true })).toEqual([
      ['the', 'cat', 'sat'],
      ['the', 'dog', 'ran'],
    ]);
    const interner = new RougeInterner({ tokenizer: 'rouge155', stem: true });
    const out = new CsrBuilder();
    expect(internRougeSummary(interner, text, out, summary)).toBe(2);
    const csr = out.finish();
    expect(Array.from(csr.offsets)).toEqual([0, 3, 6]);
    expect(Array.from(csr.tokens, (id) => interner.vocabulary.token(id))).toEqual(['the', 'cat', 'sat', 'the', 'dog', 'ran']);
  });

  it('defaults to one sentence and no limit', () => {
    expect(rougeSummaryTokens('A b. C')).toEqual([['a', 'b', 'c']]);
    expect(rougeSummaryTokens('')).toEqual([]);
  });
});
