/**
 * The flat ROUGE rows of the n-best fast path (src/metrics/rouge/rouge155-row.ts, best-f-row.ts) against their
 * plain oracle, the Metric API's `SegmentCombiner` (objects per pair, `%7.5f` strings): equal rows bit for bit for
 * random pair statistics, ROUGE-1.5.5's two `-f` formulas with any alpha, and `best-f` with F1 and F-beta; and
 * the string-free rounding (src/metrics/rouge/perl-round5.ts) against `Number(perlFixed5(x))`, on ratios of small
 * counts (where exact halves occur) and random doubles.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fMeasureOf } from '../src/metrics/rouge/f-measure.js';
import { resolveRougeOptions } from '../src/metrics/rouge/options.js';
import { writeBestFRow } from '../src/metrics/rouge/best-f-row.js';
import { perlRound5Fast } from '../src/metrics/rouge/perl-round5.js';
import { writeRouge155Row } from '../src/metrics/rouge/rouge155-row.js';
import { SegmentCombiner } from '../src/metrics/rouge/segment-row.js';
import { perlFixed5 } from '../src/metrics/rouge155/perl-format.js';
import { roundedRecall } from '../src/metrics/rouge155/score.js';

describe('perlRound5Fast = Number(perlFixed5(x))', () => {
  it('ratios of counts, exact halves included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400000 }), fc.integer({ min: 1, max: 400000 }), (a, b) => {
        const x = Math.min(a, b) / b;
        expect(perlRound5Fast(x)).toBe(Number(perlFixed5(x)));
      }),
      { numRuns: 5000 },
    );
    for (let k = 0; k < 200000; k += 1) expect(perlRound5Fast(k / 200000)).toBe(Number(perlFixed5(k / 200000)));
  });

  it('exact ties (odd multiples of 1/64) and the doubles next to them and to other near-ties', () => {
    const neighbours = (x: number): number[] => {
      const b = new Float64Array([x]);
      const bits = new BigInt64Array(b.buffer);
      const out: number[] = [];
      for (let d = -3n; d <= 3n; d++) {
        bits[0] = new BigInt64Array(new Float64Array([x]).buffer)[0] + d;
        if (b[0] >= 0) out.push(b[0]);
      }
      return out;
    };
    for (let q = 0; q < 128; q++) {
      for (const x of neighbours(q / 64)) expect(perlRound5Fast(x)).toBe(Number(perlFixed5(x)));
    }
    // Doubles nearest to (2k + 1)/200000 that are not binary fractions: near a tie, not on one.
    for (let k = 0; k < 200000; k += 7) {
      for (const x of neighbours((2 * k + 1) / 200000)) expect(perlRound5Fast(x)).toBe(Number(perlFixed5(x)));
    }
  });

  it('random doubles, inside and outside [0, 2)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 3, noNaN: true }), (x) => {
        expect(perlRound5Fast(x)).toBe(Number(perlFixed5(x)));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('writeRouge155Row = SegmentCombiner (rouge155 flavor, no jackknife)', () => {
  const pair = fc
    .record({ hyp: fc.integer({ min: 0, max: 60 }), ref: fc.integer({ min: 0, max: 60 }), hit: fc.nat(60) })
    .map(({ hyp, ref, hit }) => {
      const h = Math.min(hit, hyp, ref);
      return [h, hyp, ref, roundedRecall(h, ref)];
    });
  it.each([
    ['pool', 0.5],
    ['best-recall', 0.5],
    ['pool', 0.2],
    ['best-recall', 1],
    ['pool', 0],
  ] as const)('-f %s, alpha %d', (multiReference, alpha) => {
    const options = resolveRougeOptions({ type: 'rouge-s4', flavor: 'rouge155', multiReference, alpha });
    const combiner = new SegmentCombiner(options, fMeasureOf(options.weighting));
    fc.assert(
      fc.property(fc.array(pair, { minLength: 1, maxLength: 5 }), (pairs) => {
        const rows = Float64Array.from(pairs.flat());
        const expected = new Float64Array(7);
        combiner.write(rows, 0, pairs.length, (x) => x, expected, 0);
        const got = new Float64Array(9);
        writeRouge155Row(rows, 0, pairs.length, multiReference === 'best-recall' ? 'B' : 'A', alpha, got, 2);
        expect(Array.from(got.subarray(2))).toEqual(Array.from(expected));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('writeBestFRow = SegmentCombiner (best-f, no jackknife)', () => {
  const pair = fc
    .record({ hyp: fc.integer({ min: 0, max: 40 }), ref: fc.integer({ min: 0, max: 40 }), hit: fc.nat(40) })
    .map(({ hyp, ref, hit }) => {
      const h = Math.min(hit, hyp, ref);
      return [h, hyp, ref, ref > 0 ? h / ref : 0];
    });
  it.each([
    ['rouge-score', 'rouge-l', undefined],
    ['rouge-score', 'rouge-2', undefined],
    ['paper', 'rouge-l', 2],
    ['paper', 'rouge-s4', 0],
  ] as const)('%s %s beta %s', (flavor, type, beta) => {
    const options = resolveRougeOptions({ type, flavor, multiReference: 'best-f', beta });
    const fm = fMeasureOf(options.weighting);
    const combiner = new SegmentCombiner(options, fm);
    fc.assert(
      fc.property(fc.array(pair, { minLength: 0, maxLength: 5 }), (pairs) => {
        const rows = Float64Array.from(pairs.flat());
        const expected = new Float64Array(7);
        combiner.write(rows, 0, pairs.length, (x) => x, expected, 0);
        const got = new Float64Array(8);
        writeBestFRow(rows, 0, pairs.length, fm, got, 1);
        expect(Array.from(got.subarray(1))).toEqual(Array.from(expected));
      }),
      { numRuns: 3000 },
    );
  });
});
