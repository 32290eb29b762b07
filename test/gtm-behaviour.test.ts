/**
 * GTM has no trusted golden (GTM's own tool is not among the oracles of ../shared), so every expected value here is
 * worked by hand from the definition in src/metrics/gtm/gtm.ts: runs taken greedily, longest first (smallest hypothesis
 * start, then smallest reference start, on ties), MMS = (Σ L^e)^(1/e), P = MMS/n, R = MMS/m, F = 2PR/(P + R). The
 * kernel's runs are checked against the plain enumeration of test/reference/edit.ts by the kernel property tests
 * (test/kernel-edit-properties.test.ts); here the metric is checked on examples, including one where the tie-break
 * changes the number.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { Gtm, gtmFromStats } from '../src/metrics/gtm/gtm.js';
import { corpusScore, sentenceScore, sumRows } from '../src/metrics/metric.js';
import { VERSION } from '../src/version.js';

/** F, P, R of one line at exponent e. */
function gtm(hyp: string, refs: string[], exponent: number): Record<string, number> {
  return sentenceScore(new Gtm({ exponent }), hyp, refs).details as Record<string, number>;
}

/** F from P and R, as the metric computes it. */
function f(p: number, r: number): number {
  return (2 * p * r) / (p + r);
}

describe('GTM from the definition (hand-worked)', () => {
  it('scores an identical line 1 at exponents 1, 2 and 3 (one run of 4: 4, √16, ∛64)', () => {
    for (const e of [1, 2, 3]) {
      expect(gtm('a b c d', ['a b c d'], e)).toMatchObject({ f: 1, precision: 1, recall: 1, mms: 4, runWeight: 4 ** e });
    }
  });

  it('rewards runs only for e > 1: "c d a b" against "a b c d" is two runs of 2', () => {
    expect(gtm('c d a b', ['a b c d'], 1)).toMatchObject({ f: 1, mms: 4 });
    // e = 2: Σ = 2² + 2² = 8, MMS = √8, P = R = √8/4.
    expect(gtm('c d a b', ['a b c d'], 2)).toMatchObject({ runWeight: 8, mms: Math.sqrt(8), f: f(Math.sqrt(8) / 4, Math.sqrt(8) / 4) });
    // e = 3: Σ = 16, MMS = ∛16.
    expect(gtm('c d a b', ['a b c d'], 3)).toMatchObject({ runWeight: 16, mms: Math.cbrt(16) });
  });

  it('e = 1 is the maximum matching: the multiset intersection', () => {
    // "the the cat" vs "cat the": matches the/the and cat/cat: MMS 2, P = 2/3, R = 1.
    expect(gtm('the the cat', ['cat the'], 1)).toEqual(
      expect.objectContaining({ mms: 2, precision: 2 / 3, recall: 1, f: f(2 / 3, 1), matched: 2 }),
    );
  });

  it('takes the longest run first', () => {
    // Hypothesis "a b c d", reference "c d a b c": the run "a b c" (3) is taken, leaving d ↔ d (1): Σ = 9 + 1.
    // (Taking "c d" first would leave "a b": 4 + 4 = 8.)
    expect(gtm('a b c d', ['c d a b c'], 2)).toMatchObject({ runWeight: 10, matched: 4, mms: Math.sqrt(10) });
  });

  it('breaks ties between equally long runs by the smallest hypothesis start, then reference start', () => {
    // Hypothesis b a c b (positions 0–3), reference c b a b a (0–4). Runs of 2: (hyp 0, ref 1) "b a",
    // (hyp 0, ref 3) "b a", (hyp 2, ref 0) "c b". Taken: (0, 1); left: c ↔ c (hyp 2, ref 0) and b ↔ b (hyp 3,
    // ref 3), single: Σ = 4 + 1 + 1 = 6. Taking (2, 0) first would leave "b a" ↔ "b a" (ref 3–4): 4 + 4 = 8.
    const out = gtm('b a c b', ['c b a b a'], 2);
    expect(out).toMatchObject({ runWeight: 6, matched: 4, mms: Math.sqrt(6), precision: Math.sqrt(6) / 4, recall: Math.sqrt(6) / 5 });
  });

  it('scores nothing in common, and empty sides, 0', () => {
    expect(gtm('x y', ['a b'], 2)).toMatchObject({ f: 0, mms: 0 });
    expect(gtm('', ['a b'], 2)).toMatchObject({ f: 0, precision: 0, recall: 0 });
    expect(gtm('a b', [''], 1)).toMatchObject({ f: 0 });
    expect(gtmFromStats(0, 0, 0, 3)).toEqual({ mms: 0, precision: 0, recall: 0, f: 0 });
  });

  it('scores the corpus as one grid of line blocks: Σ L^e, n and m summed before the root', () => {
    // Line 1: "a b" vs "a b": Σ = 4, n = m = 2. Line 2: "c d" vs "d c": runs 1 + 1, Σ = 2, n = m = 2.
    // Corpus: MMS = √6, P = R = √6/4 (not the mean of the line scores).
    const g = new Gtm({ exponent: 2 });
    const rows = g.segmentStats(['a b', 'c d'], g.prepareReferences([['a b', 'd c']]));
    expect(Array.from(rows)).toEqual([4, 2, 2, 2, 2, 2, 2, 2]);
    const corpus = g.scoreFromStats(sumRows(rows, 4));
    expect(corpus.score).toBe(f(Math.sqrt(6) / 4, Math.sqrt(6) / 4));
    expect(corpusScore(g, ['a b', 'c d'], [['a b', 'd c']]).score).toBe(corpus.score);
  });

  it('with several references takes the highest F, the first on ties', () => {
    // "a b c" vs "a b c d e" (run 3: P 1, R 3/5) and vs "a b" (run 2: P 2/3, R 1): F = 3/4 vs 4/5 → second.
    expect(gtm('a b c', ['a b c d e', 'a b'], 2)).toMatchObject({ refLength: 2, f: f(2 / 3, 1) });
    // Equal F against "a b x" and "y a b": the first.
    expect(sentenceScore(new Gtm(), 'a b', ['a b x', 'y a b']).details).toMatchObject({ refLength: 3, runWeight: 2 });
  });
});

describe('GTM options, statistics and signature', () => {
  it('rows are runWeight, matched, hypLength, refLength', () => {
    const g = new Gtm({ exponent: 3 });
    expect(g.statsColumns).toEqual(['runWeight', 'matched', 'hypLength', 'refLength']);
    expect(Array.from(g.segmentStats(['a b c x'], g.prepareReferences([['a b c']])))).toEqual([27, 3, 4, 3]);
  });

  it('takes any exponent ≥ 1: weights are Math.pow(L, e), the root Math.pow(Σ, 1/e)', () => {
    const out = gtm('a b c d', ['a b c d'], 1.5);
    expect(out.runWeight).toBe(Math.pow(4, 1.5));
    expect(out.mms).toBe(Math.pow(Math.pow(4, 1.5), 1 / 1.5));
  });

  it('splits on Python whitespace by default (U+00A0 included), case-sensitive unless lowercase', () => {
    expect(sentenceScore(new Gtm(), 'A\u00a0b', ['a b']).score).toBe(0.5);
    expect(sentenceScore(new Gtm({ lowercase: true }), 'A\u00a0b', ['a b']).score).toBe(1);
    expect(sentenceScore(new Gtm({ tokenize: 'jiwer', lowercase: true }), 'A\u00a0b', ['a b']).score).toBe(0);
  });

  it('signature: nrefs, case, tok, e and version', () => {
    expect(new Gtm().signature(1)).toBe(`nrefs:1|case:mixed|tok:none|e:1|version:${VERSION}`);
    expect(new Gtm({ exponent: 2, tokenize: '13a', lowercase: true }).signature(4, true)).toBe(`#:4|c:lc|tok:13a|e:2|v:${VERSION}`);
  });

  it('argument errors', () => {
    for (const exponent of [0.5, 0, -1, NaN, Infinity, '2']) {
      expect(() => new Gtm({ exponent: exponent as number })).toThrow(InputError);
    }
    expect(() => new Gtm({ exponent: 0.5 })).toThrow(/exponent must be a finite number ≥ 1/);
    expect(() => new Gtm().scoreFromStats(new Float64Array(3))).toThrow(RangeError);
    expect(() => new Gtm().segmentStats(['a'], new Gtm({ lowercase: true }).prepareReferences([['a']]))).toThrow(TypeError);
  });
});
