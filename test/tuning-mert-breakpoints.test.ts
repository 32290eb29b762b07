/**
 * The merged breakpoints of the MERT line search in flat arrays (src/tuning/mert/breakpoints.ts) against the plain
 * Map of test/reference/mert-breakpoint-merge.ts (Moses' thresholdmap): the same x in the same order, each with
 * the same changes in the same order, on seeded walks built to hit every branch of Moses' merge — breakpoints
 * closer than 1e-4 to the sentence's previous one (to the right, at the same x, to the left), x shared exactly
 * with other sentences, ±0, FLT_MAX and −FLT_MAX — and on enough of them to make the hash table grow.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './helpers/mulberry32.js';
import { plainBreakpointMerge, type SentenceSteps } from './reference/mert-breakpoint-merge.js';
import { Breakpoints } from '../src/tuning/mert/breakpoints.js';

const FLT_MAX = 3.4028234663852886e38;
const f32 = Math.fround;

/** Seeded walks of `sentences` sentences, x drawn from a small shared pool and close to the previous x. */
function walks(seed: number, sentences: number): SentenceSteps[] {
  const rand = mulberry32(seed);
  const pool = Array.from({ length: 3 + Math.floor(rand() * 40) }, () => f32((rand() * 2 - 1) * 10));
  pool.push(0, -0, FLT_MAX, -FLT_MAX);
  return Array.from({ length: sentences }, () => {
    const n = Math.floor(rand() * 12);
    const xs: number[] = [];
    const rows: number[] = [];
    let x = f32((rand() * 2 - 1) * 10);
    for (let k = 0; k < n; k++) {
      const r = rand();
      if (r < 0.3) x = pool[Math.floor(rand() * pool.length)];
      else if (r < 0.45) x = f32(x + rand() * 1e-4);
      else if (r < 0.55) x = f32(x - rand() * 1e-4);
      else if (r < 0.6) x = f32(x + 1e-4);
      else if (r < 0.65) x = x;
      else x = f32(x + rand() * 2);
      xs.push(x);
      rows.push(Math.floor(rand() * 1000));
    }
    return { xs, rows };
  });
}

function flat(bp: Breakpoints, n: number): { keys: number[]; changes: [number, number][][] } {
  const keys = Array.from(bp.keys.subarray(0, n));
  const changes = Array.from(bp.order.subarray(0, n), (l) => {
    const list: [number, number][] = [];
    for (let r = bp.listHead[l]; r >= 0; r = bp.recNext[r]) list.push([bp.recSentence[r], bp.recRow[r]]);
    return list;
  });
  return { keys, changes };
}

describe('breakpoint merge in flat arrays', () => {
  it('gives the map of Moses’ merge, x and changes in order (400 seeded problems, one table reused)', () => {
    const bp = new Breakpoints();
    let merged = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const sentences = walks(seed, 1 + Math.floor(mulberry32(seed + 1e6)() * (seed % 40 === 0 ? 2000 : 40)));
      bp.reset();
      const stepX = new Float64Array(16);
      const stepRow = new Int32Array(16);
      sentences.forEach(({ xs, rows }, s) => {
        // The walk's entry 0 is the first 1-best, not a change.
        stepX.set(xs, 1);
        stepRow.set(rows, 1);
        bp.addSentence(s, xs.length + 1, stepX, stepRow);
      });
      const ref = plainBreakpointMerge(sentences);
      const got = flat(bp, bp.sorted());
      expect(got.keys.map((x) => (Object.is(x, -0) ? '-0' : x)), `seed ${seed}`).toEqual(ref.keys.map((x) => (Object.is(x, -0) ? '-0' : x)));
      expect(got.changes, `seed ${seed}`).toEqual(ref.changes);
      merged += ref.changes.filter((c) => new Set(c.map(([s]) => s)).size < c.length).length;
    }
    // Lists where one sentence appears twice exist only through merges of shared x: the walks do make them.
    expect(merged).toBeGreaterThan(0);
  });
});
