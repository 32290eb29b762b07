/**
 * Correlation coefficients: known values (the examples of scipy's documentation and a tied sample, computed with
 * scipy 1.17.1's pearsonr / spearmanr / kendalltau / rankdata), the undefined cases (NaN), and fast-check property
 * tests against the O(n²) textbook oracles of test/reference/correlation.ts. Relative tolerance 1e-12 (summation
 * orders differ); tau-b counts are exact so it is compared with the same tolerance only for the final division.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { averageRanks, kendallTauB, pearson, spearman, wmtRankPairs, wmtRankTau } from '../src/meta/correlation.js';
import {
  averageRanksBySortRef,
  averageRanksRef,
  kendallTauBRef,
  pearsonRef,
  spearmanRef,
  wmtRankTauRef,
} from './reference/correlation.js';

const f = (a: readonly number[]): Float64Array => Float64Array.from(a);

function close(actual: number, expected: number, rel = 1e-12): void {
  if (Number.isNaN(expected)) {
    expect(actual).toBeNaN();
    return;
  }
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.max(1e-15, rel * Math.abs(expected)));
}

describe('known values (scipy 1.17.1)', () => {
  it('pearsonr docs example', () => {
    close(pearson(f([1, 2, 3, 4, 5, 6, 7]), f([10, 9, 2.5, 6, 4, 3, 2])), -0.8285038835884277);
  });
  it('spearmanr docs example', () => {
    close(spearman(f([1, 2, 3, 4, 5]), f([5, 6, 7, 8, 7])), 0.8207826816681233);
  });
  it('kendalltau docs example (ties in both)', () => {
    close(kendallTauB(f([12, 2, 1, 12, 2]), f([1, 4, 7, 1, 0])), -0.4714045207910316);
  });
  const x = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9];
  const y = [2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4, 5, 9, 0, 4];
  it('a tied sample: all three coefficients and rankdata', () => {
    close(kendallTauB(f(x), f(y)), 0.1570874410539306);
    close(spearman(f(x), f(y)), 0.17916174391114706);
    close(pearson(f(x), f(y)), 0.11049560385085636);
    expect(Array.from(averageRanks(f(x)))).toEqual([4.5, 1.5, 6, 1.5, 8, 14, 3, 10, 8, 4.5, 8, 12, 14, 11, 14]);
  });
  it('perfect agreement and disagreement', () => {
    const a = f([1, 2, 3, 4]);
    const b = f([10, 20, 30, 45]);
    const c = f([4, 3, 2, 1]);
    close(pearson(a, a), 1);
    close(spearman(a, b), 1);
    expect(kendallTauB(a, b)).toBe(1);
    expect(kendallTauB(a, c)).toBe(-1);
    close(spearman(a, c), -1);
  });
});

describe('undefined cases are NaN', () => {
  const fns = { pearson, spearman, kendallTauB, wmtRankTau: (x: Float64Array, y: Float64Array) => wmtRankTau(x, y) };
  for (const [name, fn] of Object.entries(fns)) {
    it(`${name}: n < 2, constant input, NaN input`, () => {
      expect(fn(f([]), f([]))).toBeNaN();
      expect(fn(f([1]), f([2]))).toBeNaN();
      expect(fn(f([1, 2, 3]), f([NaN, 1, 2]))).toBeNaN();
      expect(fn(f([NaN, 2, 3]), f([0, 1, 2]))).toBeNaN();
      if (name !== 'wmtRankTau') expect(fn(f([1, 2, 3]), f([5, 5, 5]))).toBeNaN();
      expect(() => fn(f([1, 2]), f([1]))).toThrow(RangeError);
    });
  }
  it('pearson: a constant input whose floating mean is not exact is still constant', () => {
    expect(pearson(f([0.1, 0.1, 0.1]), f([1, 2, 3]))).toBeNaN();
  });
  it('wmtRankTau: no human preference at all is NaN', () => {
    expect(wmtRankTau(f([1, 2, 3]), f([5, 5, 5]))).toBeNaN();
  });
});

describe('WMT relative-ranking tau', () => {
  it('counts pairs inside groups, above the threshold, with metric ties discordant', () => {
    // group 0: humans 90 > 60 > 50; metric 0.9, 0.9, 0.1. Group 1: humans 10 < 80; metric 0.2 < 0.3.
    const metric = f([0.9, 0.9, 0.1, 0.2, 0.3]);
    const human = f([90, 60, 50, 10, 80]);
    const groups = [0, 0, 0, 1, 1];
    // delta 25: (90,60) tie → D, (90,50) C, (60,50) skipped (10 ≤ 25), (10,80) C.
    expect(wmtRankPairs(metric, human, groups, 25)).toEqual({ concordant: 2, discordant: 1 });
    close(wmtRankTau(metric, human, groups, 25), 1 / 3);
    // delta 0: (60,50) joins as concordant.
    expect(wmtRankPairs(metric, human, groups, 0)).toEqual({ concordant: 3, discordant: 1 });
    // No groups: cross pairs count too.
    const all = wmtRankPairs(metric, human);
    const ref = wmtRankTauRef(Array.from(metric), Array.from(human), undefined, 0);
    expect(all).toEqual({ concordant: ref.concordant, discordant: ref.discordant });
  });
  it('rejects a bad threshold and groups of the wrong length', () => {
    expect(() => wmtRankPairs(f([1, 2]), f([1, 2]), [0], 0)).toThrow(RangeError);
    expect(() => wmtRankPairs(f([1, 2]), f([1, 2]), undefined, -1)).toThrow(RangeError);
  });
});

describe('property tests against the O(n²) oracles', () => {
  // Small integers make ties common; doubles exercise the arithmetic.
  const smallInts = fc.array(fc.integer({ min: -4, max: 4 }), { minLength: 0, maxLength: 40 });
  // Magnitudes below 1e-6 become 0: products of subnormals underflow differently in the two formulas.
  const double = fc.double({ min: -1e3, max: 1e3, noNaN: true }).map((v) => (Math.abs(v) < 1e-6 ? 0 : v));
  const doubles = fc.array(double, { minLength: 0, maxLength: 40 });
  const tiedPairs = smallInts.chain((x) =>
    fc.tuple(fc.constant(x), fc.array(fc.integer({ min: -3, max: 3 }), { minLength: x.length, maxLength: x.length })));
  const doublePairs = doubles.chain((x) =>
    fc.tuple(fc.constant(x), fc.array(double, { minLength: x.length, maxLength: x.length })));

  for (const [label, arb] of [['tied integers', tiedPairs], ['doubles', doublePairs]] as const) {
    it(`kendallTauB = oracle (${label})`, () => {
      fc.assert(fc.property(arb, ([x, y]) => close(kendallTauB(f(x), f(y)), kendallTauBRef(x, y))), { numRuns: 300 });
    });
    it(`spearman and averageRanks = oracle (${label})`, () => {
      fc.assert(fc.property(arb, ([x, y]) => {
        expect(Array.from(averageRanks(f(x)))).toEqual(averageRanksRef(x));
        close(spearman(f(x), f(y)), spearmanRef(x, y), 1e-10);
      }), { numRuns: 300 });
    });
    it(`pearson = oracle (${label})`, () => {
      fc.assert(fc.property(arb, ([x, y]) => close(pearson(f(x), f(y)), pearsonRef(x, y), 1e-9)), { numRuns: 300 });
    });
    it(`wmtRankTau = oracle (${label})`, () => {
      fc.assert(fc.property(arb, fc.integer({ min: 0, max: 3 }), fc.nat(2), ([x, y], groupCount, delta) => {
        const groups = x.map((_, i) => (groupCount === 0 ? 0 : (i * 7) % (groupCount + 1)));
        const ref = wmtRankTauRef(x, y, groupCount === 0 ? undefined : groups, delta);
        const got = wmtRankPairs(f(x), f(y), groupCount === 0 ? undefined : groups, delta);
        expect(got).toEqual({ concordant: ref.concordant, discordant: ref.discordant });
        close(wmtRankTau(f(x), f(y), groupCount === 0 ? undefined : groups, delta), ref.tau);
      }), { numRuns: 300 });
    });
  }

  it('kendallTauB = oracle with few distinct y values (the Fenwick-tree inversion count)', () => {
    const arb = fc.integer({ min: 50, max: 200 }).chain((n) =>
      fc.tuple(
        fc.array(fc.integer({ min: 0, max: 60 }), { minLength: n, maxLength: n }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: n, maxLength: n }),
      ));
    fc.assert(fc.property(arb, ([x, y]) => close(kendallTauB(f(x), f(y)), kendallTauBRef(x, y))), { numRuns: 100 });
  });

  it('averageRanks of a large input (the radix-sort path) = oracle: negatives, ±0, infinities, ties, doubles', () => {
    let s = 99;
    const rnd = (): number => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s / 2147483648;
    };
    const specials = [0, -0, Infinity, -Infinity, 1e-300, -1e-300, 5e-324, -Number.MAX_VALUE, 2 ** 40];
    const a = Array.from({ length: 20000 }, (_, i) =>
      i % 7 === 0 ? specials[i % specials.length] : i % 3 === 0 ? Math.floor(rnd() * 50) - 25 : (rnd() - 0.5) * 1e6,
    );
    // The O(n²) oracle would take seconds here; its O(n log n) twin (checked against it below) does not.
    const want = averageRanksBySortRef(a);
    expect(averageRanksBySortRef(a.slice(0, 500))).toEqual(averageRanksRef(a.slice(0, 500)));
    const got = averageRanks(f(a));
    expect(Array.from(got)).toEqual(want);
  });

  it('kendallTauB on a large input equals the oracle (merge-sort counting across many runs)', () => {
    const n = 1500;
    let s = 12345;
    const rnd = (): number => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s / 2147483648;
    };
    const x = Array.from({ length: n }, () => Math.floor(rnd() * 50));
    const y = x.map((v) => Math.floor(v / 2 + rnd() * 30));
    close(kendallTauB(f(x), f(y)), kendallTauBRef(x, y));
  });
});
