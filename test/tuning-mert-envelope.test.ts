/**
 * The MERT line search's per-sentence envelope walk with its prefilter (src/tuning/mert/line-search.ts `envelope`,
 * and its WebAssembly twin in assembly/mert.ts) against the plain walk of test/reference/mert-envelope-walk.ts,
 * which scans every line at every step: the same breakpoints and the same lines, on seeded sentences built to be
 * hard for a filter (ties of slope and intercept, lines through one point, slopes one float apart, magnitudes from
 * 1e-30 to near FLT_MAX, non-finite values). And the WebAssembly dot products and whole-problem walks
 * (src/wasm/mert.ts) against the TypeScript ones.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './helpers/mulberry32.js';
import { plainEnvelopeWalk } from './reference/mert-envelope-walk.js';
import { envelope, fullSpace, scalarModelScores, subSpace, modelScores, type MertSpace } from '../src/tuning/mert/line-search.js';
import { mertProblem, mosesBleuObjective } from '../src/tuning/mert/problem.js';
import { mertDotsOrNull } from '../src/wasm/mert.js';

const f32 = Math.fround;
const KINDS = ['uniform', 'quantized', 'wide', 'concurrent', 'near-parallel', 'huge', 'non-finite', 'duplicates', 'nan-slopes'] as const;
type Kind = (typeof KINDS)[number];

/** One sentence's slopes and intercepts (floats) of the given kind. */
function lines(rand: () => number, kind: Kind, n: number): { slope: number[]; f0: number[] } {
  const slope: number[] = [];
  const f0: number[] = [];
  const u = (): number => rand() * 2 - 1;
  const x0 = u() * 10;
  const y0 = u() * 10;
  for (let j = 0; j < n; j++) {
    let m: number;
    let b: number;
    switch (kind) {
      case 'uniform': {
        // The bench's shape: a feature in [−1, 1] with 4 decimals, an intercept summing 14 products.
        m = Math.round(u() * 1e4) / 1e4;
        b = 0;
        for (let i = 0; i < 14; i++) b += f32(f32(u()) * f32(Math.round(u() * 1e4) / 1e4));
        break;
      }
      case 'quantized':
        m = Math.floor(rand() * 9 - 4) / 4;
        b = Math.floor(rand() * 9 - 4) / 4;
        break;
      case 'wide':
        m = Math.sign(u()) * 10 ** (rand() * 60 - 30);
        b = Math.sign(u()) * 10 ** (rand() * 60 - 30);
        break;
      case 'concurrent':
        // Through (x0, y0), up to float rounding, and sometimes a float off.
        m = u() * (rand() < 0.5 ? 1 : 1e-3);
        b = f32(y0 - f32(m) * x0);
        if (rand() < 0.3) b = b + (rand() < 0.5 ? -1 : 1) * Math.abs(b) * 2 ** -23;
        break;
      case 'near-parallel': {
        // Pairs of slopes one float apart, intercepts close.
        const base = j % 2 === 0 ? u() : slope[j - 1];
        m = j % 2 === 0 ? base : base + Math.abs(base) * 2 ** -23 * (rand() < 0.5 ? 1 : 2);
        b = j % 2 === 0 ? u() : f0[j - 1] + u() * 1e-6;
        break;
      }
      case 'huge':
        m = u() * 3e38;
        b = u() * 3e38;
        if (rand() < 0.2) m = u() * 1e-3;
        break;
      case 'non-finite':
        m = u();
        b = rand() < 0.05 ? [Infinity, -Infinity, NaN][Math.floor(rand() * 3)] : u();
        if (rand() < 0.03) m = [Infinity, -Infinity][Math.floor(rand() * 2)];
        break;
      case 'nan-slopes':
        // A slope can be NaN (∞ − ∞ in a dot product): the walk's first pass then keeps lines by the order of
        // its comparisons.
        m = rand() < 0.04 ? [NaN, Infinity, -Infinity][Math.floor(rand() * 3)] : Math.round(u() * 100) / 100;
        b = rand() < 0.04 ? [NaN, Infinity][Math.floor(rand() * 2)] : u();
        break;
      case 'duplicates':
        if (j > 0 && rand() < 0.5) {
          const k = Math.floor(rand() * j);
          m = slope[k];
          b = rand() < 0.5 ? f0[k] : f0[k] + u() * 1e-4;
        } else {
          m = Math.round(u() * 100) / 100;
          b = Math.round(u() * 100) / 100;
        }
        break;
    }
    slope.push(f32(m));
    f0.push(f32(b));
  }
  return { slope, f0 };
}

/** A kernel whose one sentence is as long as the longest test sentence, to walk given lines on. */
const LONGEST = 605;
const walker = mertDotsOrNull(new Float32Array(LONGEST), 1, LONGEST, Int32Array.of(0, LONGEST));

describe('envelope walk with the prefilter', () => {
  for (const kind of KINDS) {
    it(`takes the plain walk's breakpoints and lines, in TypeScript and WebAssembly (${kind} sentences)`, () => {
      expect(walker, 'the kernel is loaded in the tests').not.toBeNull();
      const rand = mulberry32(KINDS.indexOf(kind) + 101);
      for (let trial = 0; trial < 300; trial++) {
        const n = 1 + Math.floor(rand() ** 2 * 600);
        // A sentence behind another one, so that begin and end are not the array's.
        const before = Math.floor(rand() * 5);
        const a = lines(rand, kind, before + n);
        const slope = Float32Array.from(a.slope);
        const f0 = Float32Array.from(a.f0);
        const active = new Int32Array(n);
        const stepX = new Float64Array(n);
        const stepRow = new Int32Array(n);
        const steps = envelope(slope, f0, before, before + n, active, stepX, stepRow);
        const plain = plainEnvelopeWalk(slope, f0, before, before + n);
        const what = `${kind} trial ${trial} (${n} lines)`;
        expect(Array.from(stepRow.subarray(0, steps)), what).toEqual(plain.rows);
        expect(Array.from(stepX.subarray(1, steps)), what).toEqual(plain.xs.slice(1));
        const kernel = walker!.envelope(slope.subarray(before), f0.subarray(before));
        expect(Array.from(kernel.rows, (r) => r + before), `${what}, WebAssembly`).toEqual(plain.rows);
        expect(Array.from(kernel.xs.subarray(1)), `${what}, WebAssembly`).toEqual(plain.xs.slice(1));
      }
    });
  }
});

describe('WebAssembly dot products', () => {
  /** A random problem whose features mix ordinary values, ±0, subnormals and large values. */
  function problem(seed: number) {
    const rand = mulberry32(seed);
    const D = 1 + Math.floor(rand() * 16);
    const sentences = 1 + Math.floor(rand() * 5);
    const offsets = new Int32Array(sentences + 1);
    for (let s = 0; s < sentences; s++) offsets[s + 1] = offsets[s] + 1 + Math.floor(rand() * 23);
    const n = offsets[sentences];
    const value = (): number => {
      const r = rand();
      if (r < 0.05) return -0;
      if (r < 0.1) return (rand() - 0.5) * 1e-40;
      if (r < 0.15) return (rand() - 0.5) * 1e30;
      return Math.round((rand() * 2 - 1) * 1e6) / 1e4;
    };
    const features = Float64Array.from({ length: n * D }, value);
    const stats = Float64Array.from({ length: n * 9 }, () => Math.floor(rand() * 5));
    return { p: mertProblem({ features, dimensions: D, stats, candidateOffsets: offsets, objective: mosesBleuObjective() }), value, rand };
  }

  it('give the TypeScript loops’ numbers: every space, one or two weight vectors, coordinate columns', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const { p, value, rand } = problem(seed);
      const D = p.dimensions;
      const dots = mertDotsOrNull(p.features, D, p.candidates, p.candidateOffsets);
      expect(dots, 'the kernel is loaded in the tests').not.toBeNull();
      const w = Float32Array.from({ length: D }, value);
      const v = Float32Array.from({ length: D }, value);
      const same = (a: Float32Array, b: Float32Array): void => expect(Array.from(a).map((x) => Object.is(x, -0) ? 'minus zero' : x)).toEqual(Array.from(b).map((x) => Object.is(x, -0) ? 'minus zero' : x));
      const full = fullSpace(D);
      same(modelScores(p, full, w), scalarModelScores(p, full, w));
      const both = dots!.dots(Int32Array.from({ length: D }, (_, i) => i), w, v);
      same(both.first.slice(), scalarModelScores(p, full, w));
      same(both.second!.slice(), scalarModelScores(p, full, v));
      for (let k = 0; k < D; k++) same(dots!.column(k), Float32Array.from({ length: p.candidates }, (_, r) => p.features[r * D + k] + 0));
      // Some features fixed: the optimised coordinates in a shuffled order, then the fixed features.
      const order = Array.from({ length: D }, (_, i) => i).sort(() => rand() - 0.5);
      const optimized = order.slice(0, 1 + Math.floor(rand() * D));
      const space = subSpace(D, optimized, Array.from({ length: D }, value));
      const point = Float32Array.from({ length: optimized.length }, value);
      same(modelScores(p, space, point), scalarModelScores(p, space, point));
    }
  });
});

describe('WebAssembly walks of a whole problem', () => {
  /**
   * Sentences of 1 to 700 candidates (some long enough for every stage of the prefilter); features in [−1, 1] with
   * 4 decimals as the bench's, with some ±0, ties and values large enough for products and sums to overflow.
   */
  function bigProblem(seed: number) {
    const rand = mulberry32(seed);
    const D = 1 + Math.floor(rand() * 14);
    const sentences = 1 + Math.floor(rand() * 12);
    const offsets = new Int32Array(sentences + 1);
    for (let s = 0; s < sentences; s++) offsets[s + 1] = offsets[s] + 1 + Math.floor(rand() ** 2 * 700);
    const n = offsets[sentences];
    const wild = seed % 3 === 0;
    const value = (): number => {
      const r = rand();
      if (r < 0.03) return -0;
      if (r < 0.06) return 0.5;
      if (wild && r < 0.2) return (rand() - 0.5) * 3e38;
      return Math.round((rand() * 2 - 1) * 1e4) / 1e4;
    };
    const features = Float64Array.from({ length: n * D }, value);
    const stats = Float64Array.from({ length: n * 9 }, () => Math.floor(rand() * 5));
    const p = mertProblem({ features, dimensions: D, stats, candidateOffsets: offsets, objective: mosesBleuObjective() });
    return { p, rand, weight: () => (wild && rand() < 0.4 ? (rand() - 0.5) * 1e10 : rand() * 2 - 1) };
  }

  /** Each sentence's TypeScript walk, as the kernel lays the walks out: counts, x and rows. */
  function typescriptWalks(p: ReturnType<typeof bigProblem>['p'], slope: Float32Array, f0: Float32Array) {
    const o = p.candidateOffsets;
    const counts: number[] = [];
    const xs: number[] = [];
    const rows: number[] = [];
    const active = new Int32Array(p.candidates);
    const stepX = new Float64Array(p.candidates);
    const stepRow = new Int32Array(p.candidates);
    for (let s = 0; s < p.sentences; s++) {
      const steps = envelope(slope, f0, o[s], o[s + 1], active, stepX, stepRow);
      counts.push(steps);
      // The first entry's x is not a breakpoint (the kernel leaves it unset).
      xs.push(NaN, ...stepX.subarray(1, steps));
      rows.push(...stepRow.subarray(0, steps));
    }
    return { counts, xs, rows };
  }

  it('give the TypeScript walks: along a coordinate, along a direction, with intercepts given, with fixed features', () => {
    let nonFinite = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const { p, rand, weight } = bigProblem(seed);
      const D = p.dimensions;
      const dots = mertDotsOrNull(p.features, D, p.candidates, p.candidateOffsets)!;
      expect(dots, 'the kernel is loaded in the tests').not.toBeNull();
      const check = (total: number, want: ReturnType<typeof typescriptWalks>, what: string): void => {
        expect(Array.from(dots.walkCounts), what).toEqual(want.counts);
        expect(total, what).toBe(want.rows.length);
        expect(Array.from(dots.walkRow.subarray(0, total)), what).toEqual(want.rows);
        const xs = Array.from(dots.walkX.subarray(0, total), (x, i) => (Number.isNaN(want.xs[i]) ? NaN : x));
        expect(xs, what).toEqual(want.xs);
      };
      const full = fullSpace(D);
      const terms = Int32Array.from({ length: D }, (_, i) => i);
      const origin = Float32Array.from({ length: D }, weight);
      const direction = Float32Array.from({ length: D }, weight);
      const f0 = scalarModelScores(p, full, origin);
      const k = Math.floor(rand() * D);
      const column = Float32Array.from({ length: p.candidates }, (_, r) => p.features[r * D + k] + 0);
      check(dots.walks(terms, origin, undefined, k, undefined), typescriptWalks(p, column, f0), `seed ${seed}, coordinate ${k}`);
      check(dots.walks(terms, undefined, f0, k, undefined), typescriptWalks(p, column, f0), `seed ${seed}, coordinate ${k}, intercepts given`);
      const slope = scalarModelScores(p, full, direction);
      nonFinite += slope.filter((m) => Number.isNaN(m)).length > 0 && f0.filter((b) => !Number.isFinite(b)).length > 0 ? 1 : 0;
      check(dots.walks(terms, origin, undefined, -1, direction), typescriptWalks(p, slope, f0), `seed ${seed}, direction`);
      check(dots.walks(terms, undefined, f0, -1, direction), typescriptWalks(p, slope, f0), `seed ${seed}, direction, intercepts given`);
      // Some features fixed: terms are the optimised features, then the fixed ones with their weights.
      const order = Array.from({ length: D }, (_, i) => i).sort(() => rand() - 0.5);
      const optimized = order.slice(0, 1 + Math.floor(rand() * D));
      const space: MertSpace = subSpace(D, optimized, Array.from({ length: D }, weight));
      const sub = Int32Array.from([...space.optimized, ...space.fixedFeatures]);
      const point = Float32Array.from({ length: optimized.length }, weight);
      const along = Float32Array.from({ length: optimized.length }, weight);
      const withFixed = (w: Float32Array): Float32Array => Float32Array.from([...w, ...space.fixedWeights]);
      check(
        dots.walks(sub, withFixed(point), undefined, -1, withFixed(along)),
        typescriptWalks(p, scalarModelScores(p, space, along), scalarModelScores(p, space, point)),
        `seed ${seed}, fixed features`,
      );
    }
    // Problems whose slopes include NaN and intercepts ±∞ or NaN (overflowing products and sums) were walked.
    expect(nonFinite).toBeGreaterThan(3);
  });
});
