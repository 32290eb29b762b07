/**
 * The MERT line search (src/tuning/mert/line-search.ts, Moses' LineOptimize) against the brute-force oracle of
 * test/reference/mert-line-search.ts on seeded random problems: the same optimum, and the point it returns lies in
 * an interval of that score. Plus the public API around it (src/tuning/mert/api.ts).
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './helpers/mulberry32.js';
import { bruteForceLineSearch, scoreAt, type PlainLineProblem } from './reference/mert-line-search.js';
import { dot, fullSpace, lineOptimize, modelScores } from '../src/tuning/mert/line-search.js';
import { mosesBleuCached, mosesBleuLogCached } from '../src/tuning/mert/moses-bleu-objective.js';
import { mosesBleu } from '../src/metrics/bleu/moses.js';
import { mertProblem, mosesBleuObjective, type MertProblem } from '../src/tuning/mert/problem.js';
import { mertLineSearch, mertSelectionScore } from '../src/tuning/mert/api.js';

const f32 = Math.fround;

interface Case {
  readonly plain: PlainLineProblem;
  readonly problem: MertProblem;
  readonly origin: number[];
  readonly direction: number[];
}

/** A random BLEU statistics row `m1 t1 … m4 t4 reflen` with at least one match per order. */
function bleuRow(rand: () => number): number[] {
  const len = 4 + Math.floor(rand() * 27);
  const row: number[] = [];
  let prev = len;
  for (let n = 1; n <= 4; n++) {
    const t = len - n + 1;
    const m = 1 + Math.floor(rand() * Math.min(prev, t));
    row.push(m, t);
    prev = m;
  }
  row.push(4 + Math.floor(rand() * 27));
  return row;
}

function randomCase(seed: number, unitDirection: boolean): Case {
  const rand = mulberry32(seed);
  // Two features at least: with one, every candidate's line passes through the point where the weight is 0, and
  // the float rounding of those equal intersections makes spurious tiny intervals no oracle in double has.
  const D = 2 + Math.floor(rand() * 5);
  const S = 1 + Math.floor(rand() * 12);
  const value = (scale: number): number => f32(Math.round((rand() * 2 - 1) * scale * 100) / 100);
  const features: number[][][] = [];
  const stats: number[][][] = [];
  for (let s = 0; s < S; s++) {
    const n = 1 + Math.floor(rand() * 16);
    features.push(Array.from({ length: n }, () => Array.from({ length: D }, () => value(10))));
    stats.push(Array.from({ length: n }, () => bleuRow(rand)));
  }
  const objective = mosesBleuObjective();
  const offsets = new Int32Array(S + 1);
  features.forEach((c, s) => (offsets[s + 1] = offsets[s] + c.length));
  const problem = mertProblem({
    features: Float64Array.from(features.flat(2)),
    dimensions: D,
    stats: Float64Array.from(stats.flat(2)),
    candidateOffsets: offsets,
    objective,
  });
  const origin = Array.from({ length: D }, () => value(1));
  const direction = unitDirection
    ? Array.from({ length: D }, (_, i) => (i === Math.floor(rand() * D) ? 1 : 0))
    : Array.from({ length: D }, () => value(1));
  return { plain: { features, stats, score: objective.score }, problem, origin, direction };
}

describe('line search against the brute-force oracle', () => {
  for (const unit of [true, false]) {
    it(`finds the best interval (${unit ? 'coordinate' : 'random'} directions, 150 seeded problems)`, () => {
      for (let seed = 1; seed <= 150; seed++) {
        const c = randomCase(seed * 7919 + (unit ? 1 : 2), unit);
        const fast = lineOptimize(c.problem, fullSpace(c.problem.dimensions), Float32Array.from(c.origin), Float32Array.from(c.direction));
        const ref = bruteForceLineSearch(c.plain, c.origin, c.direction);
        expect(fast.score, `seed ${seed}`).toBe(ref.score);
        // The chosen point is inside an interval of the best score.
        expect(scoreAt(c.plain, c.origin, c.direction, fast.step), `seed ${seed}`).toBe(fast.score);
        fast.point.forEach((w, i) => expect(w).toBe(f32(f32(c.direction[i] * fast.step) + c.origin[i])));
      }
    });
  }

  /** One sentence, lines −x (A), 1 (B), x + 1 − c (C) along the second feature from (1, 0); `best` scores 1. */
  function threeLines(c: number, best: 0 | 1 | 2): MertProblem {
    const stats = [0, 0, 0];
    stats[best] = 1;
    return mertProblem({
      features: Float64Array.from([0, -1, 1, 0, 1 - c, 1]),
      dimensions: 2,
      stats: Float64Array.from(stats),
      candidateOffsets: Int32Array.from([0, 3]),
      objective: { name: 'picked', width: 1, score: (t) => t[0] },
    });
  }
  const along = (p: MertProblem) => lineOptimize(p, fullSpace(2), Float32Array.from([1, 0]), Float32Array.from([0, 1]));

  it('places the point as Moses: midpoint, right end − 1000, left end + 0.1, and 0 within 0.00015', () => {
    // Breakpoints at −1 and c: the middle interval's midpoint is (c − 1) / 2.
    // The breakpoint B→C as Moses computes it: (b_C − b_B) / (m_B − m_C) in float.
    const at = (c: number): number => f32(f32(f32(1 - c) - 1) / -1);
    expect(along(threeLines(1.0004, 1)).step).toBe(f32(0.5 * f32(at(1.0004) - 1)));
    expect(along(threeLines(1.0002, 1)).step).toBe(0);
    expect(along(threeLines(1.0002, 1)).point).toEqual(Float32Array.from([1, 0]));
    expect(along(threeLines(3, 0)).step).toBe(-1001);
    expect(along(threeLines(3, 2)).step).toBe(f32(at(3) + 0.1));
    expect(along(threeLines(3, 1)).intervals).toBe(3);
  });

  it('merges breakpoints of one sentence closer than 1e-4', () => {
    // c = −0.99995: the breakpoint B→C (at c) is 5e-5 right of A→B (at −1), so B's interval is dropped and the
    // change goes straight from A to C at c.
    const r = along(threeLines(-0.99995, 1));
    expect(r.intervals).toBe(2);
    expect(r.score).toBe(0);
  });
});

describe('objective ranks', () => {
  it('an objective with a rank gives the optimum of its score alone (same score, step, point; positivity too)', () => {
    let ties = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const c = randomCase(seed * 31 + 5, seed % 2 === 0);
      const { objective } = c.problem;
      expect(objective.rank).toBeDefined();
      // Every fourth problem has no 4-gram match anywhere: every interval ranks −∞ and scores 0, the first wins.
      const problem = seed % 4 === 0 ? { ...c.problem, stats: c.problem.stats.map((v, i) => (i % 9 === 6 ? 0 : v)) } : c.problem;
      const unranked = { ...problem, objective: { name: objective.name, width: objective.width, score: objective.score } };
      const space = fullSpace(c.problem.dimensions);
      const positive = seed % 3 === 0 ? Array.from({ length: c.problem.dimensions }, (_, i) => i % 2 === 0) : undefined;
      const o = Float32Array.from(c.origin);
      const d = Float32Array.from(c.direction);
      const a = lineOptimize(problem, space, o, d, undefined, undefined, positive);
      const b = lineOptimize(unranked, space, o, d, undefined, undefined, positive);
      expect([a.score, a.step, a.intervals], `seed ${seed}`).toEqual([b.score, b.step, b.intervals]);
      expect(a.point).toEqual(b.point);
      // Several intervals of the best score: the first must win, which a rank that skipped ties wrongly would miss.
      if (a.intervals > 1 && bruteForceLineSearch(c.plain, c.origin, c.direction).points.filter((x) => scoreAt(c.plain, c.origin, c.direction, x) === b.score).length > 1) ties++;
    }
    expect(ties).toBeGreaterThan(10);
  });

  it('the BLEU rank orders statistics as the BLEU score does (−∞ exactly where an order has no match)', () => {
    const rand = mulberry32(7);
    const rows = Array.from({ length: 200 }, (_, i) => {
      const row = bleuRow(rand).map((v) => v * (1 + Math.floor(rand() * 50)));
      if (i % 5 === 0) row[2 * Math.floor(rand() * 4)] = 0;
      return row;
    });
    for (const a of rows) {
      expect(mosesBleuLogCached(a) === -Infinity).toBe(a[0] === 0 || a[2] === 0 || a[4] === 0 || a[6] === 0);
      for (const b of rows) {
        const [ra, rb] = [mosesBleuLogCached(a), mosesBleuLogCached(b)];
        if (ra <= rb) expect(mosesBleu(a)).toBeLessThanOrEqual(mosesBleu(b));
      }
    }
  });
});

describe('line search arithmetic', () => {
  it('model scores of every candidate (four at a time) are Moses’ dot products', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const c = randomCase(seed, false);
      const w = Float32Array.from(c.origin);
      const scores = modelScores(c.problem, fullSpace(c.problem.dimensions), w);
      for (let r = 0; r < c.problem.candidates; r++) expect(scores[r]).toBe(f32(dot(c.problem, fullSpace(c.problem.dimensions), w, r)));
    }
  });

  it('the cached Moses BLEU objective gives mosesBleu’s numbers', () => {
    const rand = mulberry32(99);
    for (let i = 0; i < 3000; i++) {
      const row = bleuRow(rand).map((v) => v * (1 + Math.floor(rand() * 5000)));
      if (i % 3 === 0) row[2 * Math.floor(rand() * 4)] = 0;
      if (i % 7 === 0) row[8] += 0.5;
      expect(mosesBleuCached(row)).toBe(mosesBleu(row));
      expect(mosesBleuCached(row)).toBe(mosesBleu(row));
    }
  });
});

describe('public tuning API', () => {
  it('mertSelectionScore is the objective of the 1-best candidates', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const c = randomCase(seed, false);
      const r = mertSelectionScore(c.problem, Float64Array.from(c.origin));
      expect(r.score).toBe(scoreAt(c.plain, c.origin, c.direction, 0));
      expect(r.selection).toHaveLength(c.problem.sentences);
    }
  });

  it('mertLineSearch takes full weight vectors and agrees with the oracle', () => {
    const c = randomCase(42, false);
    const r = mertLineSearch(c.problem, Float64Array.from(c.origin), Float64Array.from(c.direction));
    expect(r.score).toBe(bruteForceLineSearch(c.plain, c.origin, c.direction).score);
    expect(r.point).toBeInstanceOf(Float64Array);
    expect(r.point).toHaveLength(c.problem.dimensions);
  });

  it('refuses vectors of the wrong length', () => {
    const c = randomCase(3, false);
    expect(() => mertLineSearch(c.problem, new Float64Array(c.problem.dimensions + 1), Float64Array.from(c.direction))).toThrow(RangeError);
    expect(() => mertSelectionScore(c.problem, new Float64Array(0))).toThrow(RangeError);
  });
});
