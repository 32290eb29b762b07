/**
 * Seed 004's grade scale and Cohen's kappa (src/meta/agreement.ts) and the BLEUwN vs BLEUcM study
 * (src/meta/bleu-wc-study.ts) on hand-computed examples. Tolerance: kappa and Pearson 1e-12 (closed forms below).
 */
import { describe, expect, it } from 'vitest';
import { cohenKappa, grade, gradedKappa, grades } from '../src/meta/agreement.js';
import { bleuWcStudy } from '../src/meta/bleu-wc-study.js';

describe('grade scale', () => {
  it('maps [k/10, (k+1)/10[ to k and [0.9, 1] to 9, at the double boundaries', () => {
    expect([0, 0.05, 0.0999, 0.1, 0.25, 0.6999999999999999, 0.7, 0.89, 0.9, 0.95, 1].map(grade)).toEqual([
      0, 0, 0, 1, 2, 6, 7, 8, 9, 9, 9,
    ]);
  });

  it('refuses scores outside [0, 1] and NaN, naming the index', () => {
    expect(() => grade(-0.01)).toThrow(RangeError);
    expect(() => grade(1.0000001)).toThrow(RangeError);
    // A perfect score a few ulps above 1 (sacreBLEU sentence BLEU of an exact match on the 0–1 scale) is grade 9.
    expect(grade(1.0000000000000004)).toBe(9);
    expect(() => grade(1 + 1e-9)).toThrow(RangeError);
    expect(() => grade(NaN)).toThrow(RangeError);
    expect(() => grades([0.5, 2])).toThrow(/score 1/);
  });
});

describe("Cohen's kappa", () => {
  it('po = 3/4, pe = 1/2 → 0.5', () => {
    // a: two 0s, two 1s; b: one 0, three 1s; pe = 0.5·0.25 + 0.5·0.75.
    expect(cohenKappa([0, 0, 1, 1], [0, 1, 1, 1])).toBeCloseTo(0.5, 12);
  });

  it('po = 0.6, pe = 0.52 → 1/6', () => {
    expect(cohenKappa([1, 1, 2, 2, 2], [1, 2, 2, 2, 1])).toBeCloseTo(0.08 / 0.48, 12);
  });

  it('is 1 for identical varied lists, negative below chance, NaN when both are one constant grade', () => {
    expect(cohenKappa([0, 3, 9], [0, 3, 9])).toBe(1);
    // po = 0, pe = 0.5 → −1.
    expect(cohenKappa([0, 1], [1, 0])).toBe(-1);
    expect(cohenKappa([4, 4], [4, 4])).toBeNaN();
  });

  it('grades scores first in gradedKappa', () => {
    expect(gradedKappa([0.01, 0.02, 0.15, 0.16], [0.05, 0.11, 0.12, 0.19])).toBeCloseTo(0.5, 12);
  });

  it('refuses lists of different length, empty lists and grades outside 0..9', () => {
    expect(() => cohenKappa([1], [1, 2])).toThrow(RangeError);
    expect(() => cohenKappa([], [])).toThrow(RangeError);
    expect(() => cohenKappa([10], [1])).toThrow(RangeError);
    expect(() => cohenKappa([1.5], [1])).toThrow(RangeError);
  });
});

describe('BLEUwN vs BLEUcM study', () => {
  const word = new Map([
    [1, Float64Array.of(0.9, 0.7, 0.5, 0.3)],
    [2, Float64Array.of(0.8, 0.5, 0.3, 0.1)],
  ]);
  const char = new Map([
    [1, Float64Array.of(0.95, 0.85, 0.75, 0.65)],
    [2, Float64Array.of(0.7, 0.6, 0.2, 0.0)],
    [3, Float64Array.of(0.5, 0.1, 0.2, 0.0)],
  ]);

  it('best M by Pearson, by kappa, and the smallest M of the 90% rule', () => {
    const rows = bleuWcStudy(word, char);
    expect(rows.map((r) => r.n)).toEqual([1, 2]);
    // N = 1: BLEUc1 is an exact linear function of BLEUw1 (r = 1). Grades w1 9,7,5,3 vs c1 9,8,7,6: po = 1/4,
    // pe = 2/16 → kappa 1/7; c2 (7,6,2,0) and c3 (5,1,2,0): po = 0, pe = 1/16 → −1/15.
    expect(rows[0].bestPearson.m).toBe(1);
    expect(rows[0].bestPearson.r).toBeCloseTo(1, 12);
    expect(rows[0].bestKappa).toEqual({ m: 1, kappa: expect.closeTo(1 / 7, 12) });
    expect(rows[0].analogy).toBeNull();
    // N = 2: r(w2, c1) = 0.99438 > r(w2, c2) = 0.95444 > r(w2, c3) = 0.87846 (numpy corrcoef). Grades w2 8,5,3,1:
    // c1 shares 8 (pe 1/16 → −1/15), c2 shares none (kappa 0), c3 shares 5 and 1 (pe 1/8 → −1/7).
    expect(rows[1].bestPearson.m).toBe(1);
    expect(rows[1].bestPearson.r).toBeCloseTo(0.9943767126843689, 12);
    expect(rows[1].bestKappa).toEqual({ m: 2, kappa: 0 });
    // BLEUcM ≤ BLEUw1: c1 on 0 of 4 segments, c2 on 4 of 4 → M = 2.
    expect(rows[1].analogy).toEqual({ m: 2, share: 1 });
  });

  it('takes the smallest qualifying M and none when no M reaches 90%', () => {
    const rows = bleuWcStudy(word, new Map([[5, Float64Array.of(0.95, 0.85, 0.75, 0.65)]]));
    expect(rows[1].analogy).toBeNull();
    const both = bleuWcStudy(word, new Map([[4, Float64Array.of(0, 0, 0, 0.31)], [7, Float64Array.of(0, 0, 0, 0)]]));
    // M = 4 fails on one segment in four (75%), M = 7 passes all.
    expect(both[1].analogy).toEqual({ m: 7, share: 1 });
  });

  it('refuses score lists of different lengths', () => {
    expect(() => bleuWcStudy(word, new Map([[1, Float64Array.of(0.5)]]))).toThrow(RangeError);
  });
});
