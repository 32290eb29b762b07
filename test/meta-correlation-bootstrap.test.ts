/**
 * Bootstrap intervals of correlations against numpy + scipy (test/fixtures/correlate/bootstrap-expected.json, made by
 * make-bootstrap.py there): the same resamples (numpy default_rng choice rows), scipy's coefficients, numpy's
 * percentile. Segment level and system level (mean of segments, and a ratio of summed statistics re-reduced per
 * resample), resampling segments and documents. Tolerance 1e-9 relative (summation orders differ).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultRng } from '../src/meta/numpy-random.js';
import { kendallTauBRef, pearsonRef, spearmanRef } from './reference/correlation.js';
import {
  documentUnits,
  itemUnits,
  meanSide,
  numpyPercentile,
  segmentCorrelations,
  systemCorrelations,
  systemScores,
  type CorrelationEstimate,
  type SystemLevelData,
  type SystemSide,
} from '../src/meta/correlation-bootstrap.js';

interface Expected {
  systems: number;
  items: number;
  resamples: number;
  seed: number;
  system: number[];
  item: number[];
  doc_of_item: number[];
  human: number[];
  metric: number[];
  matches: number[];
  total: number[];
  [level: string]: unknown;
}

const expected = JSON.parse(
  readFileSync(new URL('./fixtures/correlate/bootstrap-expected.json', import.meta.url), 'utf8'),
) as Expected;
const system = Uint32Array.from(expected.system);
const item = Uint32Array.from(expected.item);
const human = Float64Array.from(expected.human);
const metric = Float64Array.from(expected.metric);
const docOfItem = Uint32Array.from(expected.doc_of_item);
const methods = ['pearson', 'spearman', 'kendall'] as const;

function close(actual: number, want: number): void {
  expect(Math.abs(actual - want)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
}

function check(got: CorrelationEstimate[], table: Record<string, number[]>, prefix = ''): void {
  got.forEach((e) => {
    const [value, low, high, undefinedCount] = table[`${prefix}${e.method}`];
    close(e.value, value);
    close(e.low, low);
    close(e.high, high);
    expect(e.undefinedResamples).toBe(undefinedCount);
    expect(e.resamples).toBe(expected.resamples);
  });
}

const unitsBy = {
  segments: itemUnits(expected.items),
  documents: documentUnits(docOfItem, Math.max(...expected.doc_of_item) + 1),
};

describe.each(Object.entries(unitsBy))('resampling %s (numpy + scipy)', (name, units) => {
  const options = { resamples: expected.resamples, seed: expected.seed, units };
  it('segment level', () => {
    const got = segmentCorrelations({ system, item, itemCount: expected.items, metric, human }, methods, options);
    check(got, expected[`segment_level_by_${name}`] as Record<string, number[]>);
  });
  it('system level, system score = mean of segments', () => {
    const data: SystemLevelData = {
      systemCount: expected.systems, system, item, itemCount: expected.items, metric: meanSide(metric), human: meanSide(human),
    };
    check(systemCorrelations(data, methods, options), expected[`system_level_by_${name}`] as Record<string, number[]>, 'mean_metric/');
  });
  it('system level, corpus statistic re-reduced from summed rows per resample', () => {
    const stats = new Float64Array(metric.length * 2);
    expected.matches.forEach((m, r) => {
      stats[2 * r] = m;
      stats[2 * r + 1] = expected.total[r];
    });
    const ratio: SystemSide = { kind: 'segments', stats, width: 2, reduce: (sums) => sums[0] / sums[1] };
    const data: SystemLevelData = {
      systemCount: expected.systems, system, item, itemCount: expected.items, metric: ratio, human: meanSide(human),
    };
    check(systemCorrelations(data, methods, options), expected[`system_level_by_${name}`] as Record<string, number[]>, 'ratio/');
  });
});

describe('property: segment-level intervals = oracle correlations of explicitly rebuilt resamples', () => {
  /** numpy's percentile (linear), written out: sort, virtual index q(n−1), interpolate. */
  const percentileRef = (values: number[], q: number): number => {
    const v = values.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
    if (v.length === 0) return NaN;
    const h = (q / 100) * (v.length - 1);
    const lo = Math.floor(h);
    const hi = Math.min(lo + 1, v.length - 1);
    return v[lo] + (h - lo) * (v[hi] - v[lo]);
  };
  const oracles = { pearson: pearsonRef, spearman: spearmanRef, kendall: kendallTauBRef };
  it('pearson, spearman (ranks resampled), kendall (ranks resampled)', () => {
    const data = fc.record({
      systems: fc.integer({ min: 1, max: 4 }),
      items: fc.integer({ min: 1, max: 8 }),
      seed: fc.nat(1000),
      values: fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 3 })), { minLength: 32, maxLength: 32 }),
    });
    fc.assert(
      fc.property(data, ({ systems: S, items: U, seed, values }) => {
        const n = S * U;
        const system = Uint32Array.from({ length: n }, (_, r) => Math.floor(r / U));
        const item = Uint32Array.from({ length: n }, (_, r) => r % U);
        const metric = Float64Array.from({ length: n }, (_, r) => values[r % 32][0] / 2);
        const human = Float64Array.from({ length: n }, (_, r) => values[(r * 7) % 32][1]);
        const B = 20;
        const got = segmentCorrelations({ system, item, itemCount: U, metric, human }, ['pearson', 'spearman', 'kendall'], { resamples: B, seed });
        const draws = defaultRng(seed).choice(U, B * U);
        for (const e of got) {
          const perResample: number[] = [];
          for (let b = 0; b < B; b++) {
            const x: number[] = [];
            const y: number[] = [];
            for (let k = 0; k < U; k++) {
              const i = draws[b * U + k];
              for (let r = 0; r < n; r++) if (item[r] === i) {
                x.push(metric[r]);
                y.push(human[r]);
              }
            }
            perResample.push(oracles[e.method as keyof typeof oracles](x, y));
          }
          const undefinedCount = perResample.filter(Number.isNaN).length;
          expect(e.undefinedResamples).toBe(undefinedCount);
          for (const [bound, q] of [[e.low, 2.5], [e.high, 97.5]] as const) {
            const want = percentileRef(perResample, q);
            if (Number.isNaN(want)) expect(bound).toBeNaN();
            else expect(Math.abs(bound - want)).toBeLessThanOrEqual(1e-9);
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('bootstrap details', () => {
  it('numpyPercentile interpolates as numpy (linear, lerp from the nearer end)', () => {
    const a = Float64Array.from([1, 2, 4, 8]);
    expect(numpyPercentile(a, 0)).toBe(1);
    expect(numpyPercentile(a, 100)).toBe(8);
    expect(numpyPercentile(a, 50)).toBe(3);
    close(numpyPercentile(a, 2.5), 1.075);
    close(numpyPercentile(a, 97.5), 7.7);
    expect(numpyPercentile(new Float64Array(0), 50)).toBeNaN();
  });
  it('the same seed gives the same interval, another seed another one', () => {
    const data = { system, item, itemCount: expected.items, metric, human };
    const a = segmentCorrelations(data, ['pearson'], { resamples: 50, seed: 1 });
    const b = segmentCorrelations(data, ['pearson'], { resamples: 50, seed: 1 });
    const c = segmentCorrelations(data, ['pearson'], { resamples: 50, seed: 2 });
    expect(a).toEqual(b);
    expect(c[0].low).not.toBe(a[0].low);
  });
  it('resamples = 0 gives the point value and NaN bounds; undefined resamples are counted, not used', () => {
    const data = { system, item, itemCount: expected.items, metric, human };
    const [e] = segmentCorrelations(data, ['kendall'], { resamples: 0 });
    expect(e.resamples).toBe(0);
    expect(e.low).toBeNaN();
    // Two items, one of them with constant human scores: a resample drawing it twice is undefined.
    const tiny = {
      system: Uint32Array.from([0, 1, 0, 1]),
      item: Uint32Array.from([0, 0, 1, 1]),
      itemCount: 2,
      metric: Float64Array.from([1, 2, 3, 5]),
      human: Float64Array.from([1, 1, 2, 3]),
    };
    const [t] = segmentCorrelations(tiny, ['pearson'], { resamples: 100, seed: 3 });
    expect(t.undefinedResamples).toBeGreaterThan(0);
    expect(t.undefinedResamples).toBeLessThan(100);
    expect(Number.isFinite(t.low) && Number.isFinite(t.high)).toBe(true);
  });
  it('system scores: a side with fixed values is not resampled; both fixed gives no interval', () => {
    const fixed: SystemSide = { kind: 'fixed', value: Float64Array.from([1, 2, 3, 4, 5, 6]) };
    const data: SystemLevelData = { systemCount: 6, system, item, itemCount: expected.items, metric: fixed, human: fixed };
    expect(systemScores(data, fixed)).toBe(fixed.value);
    const [e] = systemCorrelations(data, ['pearson'], { resamples: 10 });
    close(e.value, 1);
    expect(e.resamples).toBe(0);
    expect(e.high).toBeNaN();
  });
  it('rejects bad options', () => {
    const data = { system, item, itemCount: expected.items, metric, human };
    expect(() => segmentCorrelations(data, ['pearson'], { resamples: -1 })).toThrow(RangeError);
    expect(() => segmentCorrelations(data, ['pearson'], { confidence: 1 })).toThrow(RangeError);
  });
});
