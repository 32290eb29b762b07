/**
 * PER has no trusted golden (Moses' PerScorer computes in single precision and reports 1 − PER; no oracle output is
 * in ../shared), so every expected value here is worked by hand from the definition in src/metrics/per/per.ts:
 *   PER = 1 − (correct − max(0, n − m)) / m,   correct = |hypothesis words ∩ reference words| (multisets),
 * written as that very expression so the same doubles come out. A property test checks `correct` against the plain
 * multiset intersection of test/reference/edit.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { corpusScore, sentenceScore, sumRows } from '../src/metrics/metric.js';
import { Per, perFromStats } from '../src/metrics/per/per.js';
import { VERSION } from '../src/version.js';
import { multisetIntersection } from './reference/edit.js';

/** The PER of one line against its references. */
function per(hyp: string, refs: string[], per = new Per()): number {
  return sentenceScore(per, hyp, refs).score;
}

describe('PER from the definition (hand-worked)', () => {
  it('ignores word order: a permutation of the reference has PER 0', () => {
    // n = m = 6, correct = 6: 1 − (6 − 0)/6 = 0 (its WER would be 1).
    expect(per('on the mat the cat sat', ['the cat sat on the mat'])).toBe(0);
  });

  it('counts hypothesis words beyond the reference length as errors', () => {
    // m = 3, n = 5, correct = 3: 1 − (3 − 2)/3.
    expect(per('a b c d e', ['a b c'])).toBe(1 - (3 - 2) / 3);
  });

  it('counts unmatched reference words of a short hypothesis', () => {
    // m = 4, n = 2, correct = 2: 1 − (2 − 0)/4 = 0.5.
    expect(per('b a', ['a b c d'])).toBe(0.5);
  });

  it('clips repeated words to the reference count (multiset intersection)', () => {
    // "the" ×3 against "the" ×2 and "cat": correct = 2, n = m = 3: 1 − 2/3.
    expect(per('the the the', ['the the cat'])).toBe(1 - 2 / 3);
  });

  it('scores an empty hypothesis 1 and, without a division by zero, an empty reference by its error count', () => {
    expect(per('', ['a b c'])).toBe(1);
    expect(per('a b c', [''])).toBe(3);
    expect(per('', [''])).toBe(0);
    expect(perFromStats(0, 0, 0)).toBe(0);
  });

  it('scores the corpus from summed statistics, as Moses sums before scoring', () => {
    // Line 1: ref "a", hyp "a b c": correct 1, n 3, m 1. Line 2: ref "a b c", hyp "a": correct 1, n 1, m 3.
    // Summed: correct 2, n 4, m 4 → 1 − (2 − 0)/4 = 0.5 (summing per-line errors, 2 + 2 over 4, would give 1).
    const p = new Per();
    const rows = p.segmentStats(['a b c', 'a'], p.prepareReferences([['a', 'a b c']]));
    expect(Array.from(rows)).toEqual([1, 3, 1, 1, 1, 3]);
    expect(p.scoreFromStats(sumRows(rows, 3)).score).toBe(0.5);
    expect(corpusScore(p, ['a b c', 'a'], [['a', 'a b c']]).score).toBe(0.5);
  });

  it('with several references takes the fewest errors max(n, m) − correct, the first on ties', () => {
    // "a b c" vs "a b": 3 − 2 = 1 error; vs "a b c d": 4 − 3 = 1 error. First: 1 − (2 − 1)/2; else 1 − 3/4.
    expect(per('a b c', ['a b', 'a b c d'])).toBe(1 - (2 - 1) / 2);
    expect(per('a b c', ['a b c d', 'a b'])).toBe(1 - 3 / 4);
    // Fewer errors win over a lower rate: "x y" vs "a b c x y z" (4 errors) and "x q" (1 error).
    expect(per('x y', ['a b c x y z', 'x q'])).toBe(0.5);
  });
});

describe('PER statistics', () => {
  it('correct is the multiset intersection of the word lists', () => {
    const word = fc.constantFrom('a', 'b', 'c', 'the', 'The');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 70 }), fc.array(word, { maxLength: 70 }), (hyp, ref) => {
        const p = new Per();
        const row = p.segmentStats([hyp.join(' ')], p.prepareReferences([[ref.join(' ')]]));
        const ids = (ws: string[]) => ws.map((w) => ['a', 'b', 'c', 'the', 'The'].indexOf(w));
        expect(Array.from(row)).toEqual([multisetIntersection(ids(hyp), ids(ref)), hyp.length, ref.length]);
      }),
      { numRuns: 200 },
    );
  });

  it('rows are correct, hypLength, refLength; details and verbose string', () => {
    const p = new Per();
    expect(p.statsColumns).toEqual(['correct', 'hypLength', 'refLength']);
    const score = p.scoreFromStats(Float64Array.from([3, 5, 4]));
    expect(score).toEqual({
      name: 'PER',
      score: 1 - (3 - 1) / 4,
      verboseScore: '(correct = 3, hyp words = 5, ref words = 4)',
      details: { per: 1 - (3 - 1) / 4, correct: 3, hypLength: 5, refLength: 4 },
    });
  });

  it('splits on Python whitespace by default; takes sacrebleu tokenizers, jiwer, lowercase', () => {
    expect(per('a\tb', ['b a'])).toBe(0);
    expect(per('a\tb', ['b a'], new Per({ tokenize: 'jiwer' }))).toBe(1);
    expect(per('Hello, world', ['world hello'], new Per({ tokenize: '13a', lowercase: true }))).toBe(1 - (2 - 1) / 2);
  });

  it('signature: nrefs, case, tok and version', () => {
    expect(new Per().signature(1)).toBe(`nrefs:1|case:mixed|tok:none|version:${VERSION}`);
    expect(new Per({ lowercase: true, tokenize: 'intl' }).signature(4, true)).toBe(`#:4|c:lc|tok:intl|v:${VERSION}`);
  });

  it('argument errors', () => {
    expect(() => new Per({ tokenize: 'x' as never })).toThrow(InputError);
    expect(() => new Per().scoreFromStats(new Float64Array(4))).toThrow(RangeError);
    expect(() => new Per().segmentStats(['a'], new Per({ lowercase: true }).prepareReferences([['a']]))).toThrow(TypeError);
    expect(() => new Per().segmentStats(['a', 'b'], new Per().prepareReferences([['a']]))).toThrow(
      expect.objectContaining({ code: 'E_LINE_COUNT_MISMATCH' }),
    );
  });
});
