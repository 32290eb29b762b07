/**
 * chrF behaviour that the goldens do not isolate: the statistics layout, sacrebleu's quirks one at a time
 * (code points, Python whitespace, punctuation separation, zeroed hypothesis counts, best reference), option
 * validation and input errors, and "all paths agree" (sentence vs corpus API, prepared references reused).
 * Expected numbers are hand-derived from sacrebleu 2.6.0's definition (sacrebleu/metrics/chrf.py).
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { Chrf } from '../src/metrics/chrf/chrf.js';
import { chrfWords } from '../src/metrics/chrf/text.js';
import { corpusScore, sentenceScore, sentenceScores } from '../src/metrics/metric.js';

function row(metric: Chrf, hyp: string, refs: string[]): number[] {
  return Array.from(metric.segmentStats([hyp], metric.prepareReferences(refs.map((r) => [r]))));
}

describe('statistics layout', () => {
  it('is [hyp, ref, match] per character order, then per word order', () => {
    const metric = new Chrf({ charOrder: 2, wordOrder: 1 });
    expect(metric.statsWidth).toBe(9);
    expect(metric.statsColumns).toEqual([
      'c1_hyp',
      'c1_ref',
      'c1_match',
      'c2_hyp',
      'c2_ref',
      'c2_match',
      'w1_hyp',
      'w1_ref',
      'w1_match',
    ]);
    // hyp chars a,b,c (3) / bigrams ab, bc; ref chars a,b,d / ab, bd; words "ab c" vs "abd".
    expect(row(metric, 'ab c', ['abd'])).toEqual([3, 3, 2, 2, 2, 1, 2, 1, 0]);
  });

  it('names the score chrF<beta> with one + per word order', () => {
    expect(new Chrf().scoreName).toBe('chrF2');
    expect(new Chrf({ wordOrder: 2 }).scoreName).toBe('chrF2++');
    expect(new Chrf({ beta: 3, wordOrder: 1 }).scoreName).toBe('chrF3+');
  });
});

describe("sacrebleu's text handling", () => {
  it('counts Python code points, so an astral character is one character', () => {
    const metric = new Chrf({ charOrder: 2 });
    expect(row(metric, '😀x', ['😀x'])).toEqual([2, 2, 2, 1, 1, 1]);
  });

  it('removes Python whitespace (NBSP, U+3000, \\x1c) but not U+200B before counting characters', () => {
    const metric = new Chrf({ charOrder: 1 });
    expect(row(metric, 'a\u00a0b\u3000c\x1cd', ['abcd'])).toEqual([4, 4, 4]);
    expect(row(metric, 'a\u200bb', ['ab'])).toEqual([3, 2, 2]);
  });

  it('keeps whitespace as characters with whitespace=true', () => {
    const metric = new Chrf({ charOrder: 1, whitespace: true });
    expect(row(metric, 'a b', ['a b'])).toEqual([3, 3, 3]);
  });

  it('lowercases with Python rules when asked', () => {
    const metric = new Chrf({ charOrder: 1, lowercase: true });
    expect(row(metric, 'ABC', ['abc'])).toEqual([3, 3, 3]);
    expect(metric.signature(1)).toMatch(/^nrefs:1\|case:lc\|/);
  });

  it('splits one trailing, or else one leading, ASCII punctuation mark off each word', () => {
    expect(chrfWords('(hi) a. ,b x . «y»')).toEqual(['(hi', ')', 'a', '.', ',', 'b', 'x', '.', '«y»']);
    expect(chrfWords(' a\u00a0b ')).toEqual(['a', 'b']);
  });

  it('records a zero hypothesis count for an order the reference does not have', () => {
    // Reference "a" has no bigram: sacrebleu stores [0, 0, 0] for order 2, not [2, 0, 0].
    const metric = new Chrf({ charOrder: 2 });
    expect(row(metric, 'abc', ['a'])).toEqual([3, 1, 1, 0, 0, 0]);
  });

  it('keeps an empty reference (no n-grams), as sacrebleu 2.6.0 does', () => {
    const eff = new Chrf();
    const eps = new Chrf({ epsSmoothing: true });
    expect(sentenceScore(eff, 'abc', ['']).score).toBe(0);
    // Six orders of 1e-16 each (precision and recall both eps), summed one by one, times 100, over 6: sacreBLEU
    // gives 1.0000000000000002e-14 on golden/edge's empty_ref pairs.
    expect(sentenceScore(eps, 'abc', ['']).score).toBe(1.0000000000000002e-14);
  });
});

describe('several references', () => {
  it('keeps the row of the reference with the best sentence chrF', () => {
    const metric = new Chrf({ charOrder: 3 });
    const best = row(metric, 'abcdef', ['xyz', 'abcdex', 'abq']);
    expect(best).toEqual(row(metric, 'abcdef', ['abcdex']));
  });

  it('takes the first reference on ties', () => {
    const metric = new Chrf({ charOrder: 1 });
    // Neither reference shares a character: both score 0, and the first one's counts (ref count 2) are kept.
    expect(row(metric, 'ab', ['xy', 'zzzz'])).toEqual([2, 2, 0]);
    expect(row(metric, 'ab', ['zzzz', 'xy'])).toEqual([2, 4, 0]);
  });

  it('chooses with the smoothing in use (eps smoothing can pick another reference)', () => {
    const eff = new Chrf({ charOrder: 2 });
    const eps = new Chrf({ charOrder: 2, epsSmoothing: true });
    // Ref 1 "a": only unigrams, effective order 1, P = R = 1 → 100 without smoothing; with eps smoothing the
    // missing bigram order costs half. Ref 2 "ab…" matches both orders partly.
    const refs = ['a', 'abzz'];
    expect(row(eff, 'ab', refs)).toEqual(row(eff, 'ab', ['a']));
    expect(row(eps, 'ab', refs)).toEqual(row(eps, 'ab', ['abzz']));
  });
});

describe('all paths agree', () => {
  const hyps = ['Die Katze sitzt.', 'Ein Hund (braun) bellt!', ''];
  const refs = [['Die Katze saß.', 'Ein brauner Hund bellt.', 'leer']];

  it('sentence_score = corpus score of a one-segment corpus', () => {
    const metric = new Chrf({ wordOrder: 2 });
    hyps.forEach((h, i) => {
      expect(sentenceScore(metric, h, [refs[0][i]]).score).toBe(corpusScore(metric, [h], [[refs[0][i]]]).score);
    });
  });

  it('prepared references reused for several systems give the same rows as fresh ones', () => {
    const metric = new Chrf({ wordOrder: 2 });
    const prepared = metric.prepareReferences(refs);
    const other = ['Eine Katze.', 'Hund bellt (laut).', 'x'];
    const a1 = metric.segmentStats(hyps, prepared);
    metric.segmentStats(other, prepared);
    expect(Array.from(metric.segmentStats(hyps, prepared))).toEqual(Array.from(a1));
    expect(Array.from(metric.segmentStats(other, prepared))).toEqual(
      Array.from(metric.segmentStats(other, metric.prepareReferences(refs))),
    );
  });

  it('scoring leaves prepared references unchanged (unknown hypothesis words are only looked up)', () => {
    const metric = new Chrf({ wordOrder: 2 });
    const prepared = metric.prepareReferences(refs);
    const size = prepared.vocab.size;
    const unknown = ['völlig neue Wörter', 'noch mehr (neue) Wörter', 'und andere'];
    const rows = metric.segmentStats(unknown, prepared);
    expect(prepared.vocab.size).toBe(size);
    expect(Array.from(rows)).toEqual(Array.from(metric.segmentStats(unknown, metric.prepareReferences(refs))));
  });

  it('sentenceScores of a corpus equal sentence_score line by line', () => {
    const metric = new Chrf();
    const all = sentenceScores(metric, hyps, refs).map((s) => s.score);
    expect(all).toEqual(hyps.map((h, i) => sentenceScore(metric, h, [refs[0][i]]).score));
  });
});

describe('signature', () => {
  it("says eff:yes without eps smoothing and eff:no with it (sacrebleu's quirk)", () => {
    expect(new Chrf().signature(1)).toMatch(/^nrefs:1\|case:mixed\|eff:yes\|nc:6\|nw:0\|space:no\|version:/);
    expect(new Chrf({ epsSmoothing: true, wordOrder: 2, whitespace: true }).signature(3)).toMatch(
      /^nrefs:3\|case:mixed\|eff:no\|nc:6\|nw:2\|space:yes\|version:/,
    );
    expect(new Chrf().signature(1, true)).toMatch(/^#:1\|c:mixed\|e:yes\|nc:6\|nw:0\|s:no\|v:/);
    expect(new Chrf().signature(-1)).toMatch(/^nrefs:var\|/);
  });
});

describe('invalid input', () => {
  it.each([
    [{ charOrder: -1 }, 'charOrder must be a non-negative integer (got -1)'],
    [{ charOrder: 1.5 }, 'charOrder must be a non-negative integer (got 1.5)'],
    [{ wordOrder: -2 }, 'wordOrder must be a non-negative integer (got -2)'],
    [{ charOrder: 0, wordOrder: 0 }, 'charOrder + wordOrder must be at least 1 (got 0)'],
    [{ beta: 0 }, 'beta must be a positive number (got 0)'],
    [{ beta: Number.NaN }, 'beta must be a positive number (got null)'],
  ])('rejects %j', (opts, message) => {
    const make = () => new Chrf(opts);
    expect(make).toThrow(InputError);
    expect(make).toThrow(message);
    try {
      make();
    } catch (e) {
      expect((e as InputError).code).toBe('E_BAD_OPTION');
    }
  });

  it('rejects reference streams of different lengths and a hypothesis count mismatch', () => {
    const metric = new Chrf();
    expect(() => metric.prepareReferences([['a', 'b'], ['a']])).toThrow(
      'reference stream 2 has 1 lines, reference stream 1 has 2',
    );
    expect(() => metric.prepareReferences([])).toThrow(InputError);
    const refs = metric.prepareReferences([['a', 'b']]);
    expect(() => metric.segmentStats(['a'], refs)).toThrow('1 hypotheses but 2 reference segments');
  });

  it('rejects references prepared with other text options', () => {
    const refs = new Chrf().prepareReferences([['a']]);
    expect(() => new Chrf({ lowercase: true }).segmentStats(['a'], refs)).toThrow(TypeError);
  });

  it('rejects a statistics row of the wrong width', () => {
    expect(() => new Chrf().scoreFromStats(new Float64Array(3))).toThrow(RangeError);
  });
});
