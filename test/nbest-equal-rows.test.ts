/**
 * The equal rows of a task's statistics found in WebAssembly (src/wasm/task-rows.ts `equalRows`) against the plain
 * scan of test/reference/equal-rows.ts, and Moses' duplicate removal built on them (src/engine/nbest/nbest-task.ts
 * `keptCandidates`) against the string-key oracle: rows of few values, so that equal rows are common, with -0 and 0,
 * NaNs of other bit patterns, wide and narrow rows, rows loaded once or copied per call, equal rows with equal and
 * with other features, and texts repeated by many derivations.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keptCandidates } from '../src/engine/nbest/nbest-task.js';
import { mosesFeatureKey } from '../src/engine/nbest/moses-dedup.js';
import { taskRowKernels } from '../src/wasm/task-rows.js';
import { equalRowLinks } from './reference/equal-rows.js';
import { mosesRemoveDuplicates } from './reference/moses-dedup.js';
import { mulberry32 } from './helpers/mulberry32.js';

/** A NaN with another payload than the one JavaScript writes. */
const OTHER_NAN = (() => {
  const view = new DataView(new ArrayBuffer(8));
  view.setUint32(0, 0x7ff80000 | 0x1234);
  view.setUint32(4, 0x5678);
  return view.getFloat64(0);
})();

/** Row values: few, so that rows repeat; both zeros and two NaNs, which must compare equal. */
const VALUES = [0, -0, 1, 2, 0.5, 1 / 3, 440, NaN, OTHER_NAN, -7, 2 ** 40];

const case_ = fc.record({
  width: fc.integer({ min: 0, max: 30 }),
  count: fc.integer({ min: 0, max: 120 }),
  // Values drawn from the first `spread` of VALUES: 2 makes nearly every row equal to another.
  spread: fc.integer({ min: 1, max: VALUES.length }),
  // Rows before and after the range (a sentence in the middle of a task).
  before: fc.integer({ min: 0, max: 5 }),
  after: fc.integer({ min: 0, max: 5 }),
  seed: fc.integer({ min: 0, max: 2 ** 30 }),
  loaded: fc.boolean(),
});

function rowsOf(width: number, rows: number, spread: number, next: () => number): Float64Array {
  const stats = new Float64Array(rows * width);
  const view = new DataView(stats.buffer);
  for (let i = 0; i < stats.length; i++) view.setFloat64(8 * i, VALUES[Math.floor(next() * spread)], true);
  // Copies of earlier rows, with -0 for 0 and the other NaN here and there: equal rows of other bits.
  for (let r = 1; r < rows; r++) {
    if (next() < 0.3) {
      const src = Math.floor(next() * r);
      for (let k = 0; k < width; k++) {
        const v = stats[src * width + k];
        stats[r * width + k] = v === 0 && next() < 0.5 ? -v : Number.isNaN(v) && next() < 0.5 ? OTHER_NAN : v;
      }
    }
  }
  return stats;
}

describe('equal rows of n-best statistics', () => {
  it('the kernel finds each row latest earlier equal row, as the plain scan does', () => {
    fc.assert(
      fc.property(case_, ({ width, count, spread, before, after, seed, loaded }) => {
        const next = mulberry32(seed);
        const stats = rowsOf(width, before + count + after, spread, next);
        const kernels = taskRowKernels();
        if (loaded) kernels.load(stats);
        try {
          const got = kernels.equalRows(stats, width, before, before + count);
          const want = equalRowLinks(stats, width, before, before + count);
          if (want.every((l) => l < 0)) {
            expect(got).toBeUndefined();
            return;
          }
          expect(got).toBeDefined();
          expect(Array.from(got!.links)).toEqual(want);
          for (let i = 0; i < count; i++) if (want[i] >= 0) expect(got!.hashes[i]).toBe(got!.hashes[want[i]]);
        } finally {
          kernels.release();
        }
      }),
      { numRuns: 400 },
    );
  });

  it('duplicate removal keeps the candidates and order of the string-key removal', () => {
    const FIELDS = ['a= 1 2', 'a= 1.0 2', 'a= 1 3', 'a= -0 2', 'a= 0 2', 'x=1 y=2', 'x=1 y=2.00', 'a= 5 5'];
    fc.assert(
      fc.property(case_, fc.integer({ min: 1, max: FIELDS.length }), ({ width, count, spread, before, after, seed, loaded }, nFields) => {
        const next = mulberry32(seed);
        const total = before + count + after;
        const stats = rowsOf(width, total, spread, next);
        const fields = Array.from({ length: total }, () => FIELDS[Math.floor(next() * nFields)]);
        // The key of a row as the oracle compares it: NaN and -0 written alike.
        const rowKey = (h: number): string =>
          Array.from(stats.subarray(h * width, (h + 1) * width), (v) => (Number.isNaN(v) ? 'NaN' : String(v))).join(' ');
        const keys = [];
        for (let h = before; h < before + count; h++) keys.push(`${mosesFeatureKey(fields[h])}|${rowKey(h)}`);
        const want = mosesRemoveDuplicates(keys).map((i) => i + before);
        const kernels = taskRowKernels();
        if (loaded) kernels.load(stats);
        try {
          expect(Array.from(keptCandidates(stats, width, fields, before, before + count))).toEqual(want);
        } finally {
          kernels.release();
        }
      }),
      { numRuns: 400 },
    );
  });

  it('one text from many derivations: rows all equal, features all different, then two alike', () => {
    const n = 600;
    const width = 9;
    const stats = new Float64Array(n * width).fill(3);
    const fields = Array.from({ length: n }, (_, i) => `d= ${i}`);
    expect(Array.from(keptCandidates(stats, width, fields, 0, n))).toEqual(Array.from({ length: n }, (_, i) => i));
    fields[n - 1] = 'd= 0.0';
    const keys = fields.map((f) => `${mosesFeatureKey(f)}|3`);
    expect(Array.from(keptCandidates(stats, width, fields, 0, n))).toEqual(mosesRemoveDuplicates(keys));
  });
});
