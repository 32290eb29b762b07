/**
 * Och's exact line search (Och 2003) as Moses' `mert` runs it (mert/Optimizer.cpp `Optimizer::LineOptimize`):
 * along `origin + x · direction` each candidate's model score is a line `f0 + x · slope`; each sentence's 1-best
 * changes only where the upper envelope of its lines bends, so the corpus score is constant between the merged
 * breakpoints of all sentences, and one pass over the sorted breakpoints, applying each sentence's change to
 * running statistics totals, scores every interval.
 *
 * Moses' choices, reproduced because they decide which point wins:
 * - Arithmetic: slopes and intercepts are dot products summed in double from single-precision products, stored as
 *   floats; intersections `(b2 − b1) / (m1 − m2)` are computed in float, a non-finite one becomes FLT_MAX.
 * - Envelope walk: from the line of lowest slope (of those, the highest intercept; the first on a tie), each step
 *   goes to the line of greater slope whose intersection is leftmost; on equal intersections the one of greater
 *   slope (then the later candidate) wins — Moses scans lines in slope order and keeps the last with `<=`.
 * - Breakpoints closer than 1e-4 to the previous one of the same sentence replace it: the earlier breakpoint's
 *   changes (every sentence's that shared that x) move to the new x, and this sentence's last change there becomes
 *   the new 1-best. A breakpoint at an x another sentence already has is shared (one sentence's consecutive
 *   changes at one x collapse into the last).
 * - The winner is the first interval of strictly greatest score; the point chosen inside it is the midpoint of a
 *   bounded interval, the right end − 1000 for the leftmost interval, the left end + 0.1 for the rightmost; an x
 *   within 0.00015 of 0 becomes 0 (the origin stays exactly where it was).
 *
 * Points live in the optimised subspace ({@link MertSpace}); with some features held fixed, Moses adds the fixed
 * weights' contribution to every dot product it takes with a point — the direction's included, so the slopes are
 * offset by it — and so does this module.
 */
import type { MertProblem } from './problem.js';

/** Largest single-precision float (Moses' MAX_FLOAT). */
export const FLT_MAX = 3.4028234663852886e38;
const MIN_INTERVAL = Math.fround(0.0001);
/** Relative margin of the skip test of the envelope walk: 2^-20, against float roundings of 2^-24 (see there). */
const SKIP_MARGIN = 2 ** -20;
const f32 = Math.fround;

/**
 * Which features are optimised: coordinates of a point are the features `optimized[i]`; every other feature keeps
 * its weight in `fixedWeights` (Moses `-o`).
 */
export interface MertSpace {
  /** Features per candidate. */
  readonly dimensions: number;
  /** Feature index of each coordinate of a point. */
  readonly optimized: Int32Array;
  /** Features not optimised, increasing. */
  readonly fixedFeatures: Int32Array;
  /** Their weights (single precision). */
  readonly fixedWeights: Float32Array;
}

/** Every feature optimised, coordinate i = feature i. */
export function fullSpace(dimensions: number): MertSpace {
  return {
    dimensions,
    optimized: Int32Array.from({ length: dimensions }, (_, i) => i),
    fixedFeatures: new Int32Array(0),
    fixedWeights: new Float32Array(0),
  };
}

/**
 * The features `optimized` optimised, the others fixed at their weight in `start` — Moses' `Optimizer`
 * constructor: when every feature is listed (in any order) nothing is fixed and coordinates are taken positionally.
 * @throws RangeError for an index out of range or listed twice.
 */
export function subSpace(dimensions: number, optimized: readonly number[], start: ArrayLike<number>): MertSpace {
  const seen = new Set<number>();
  for (const i of optimized) {
    if (!Number.isInteger(i) || i < 0 || i >= dimensions) throw new RangeError(`feature index ${i} is not in 0..${dimensions - 1}`);
    if (seen.has(i)) throw new RangeError(`feature index ${i} is listed twice`);
    seen.add(i);
  }
  if (optimized.length === dimensions) return fullSpace(dimensions);
  if (start.length !== dimensions) throw new RangeError(`start must hold ${dimensions} weights (got ${start.length})`);
  const fixed: number[] = [];
  for (let i = 0; i < dimensions; i++) if (!seen.has(i)) fixed.push(i);
  return {
    dimensions,
    optimized: Int32Array.from(optimized),
    fixedFeatures: Int32Array.from(fixed),
    fixedWeights: Float32Array.from(fixed, (i) => start[i]),
  };
}

/** Whether the space is every feature, positionally (Moses' `OptimizeAll`). */
export function isFullSpace(space: MertSpace): boolean {
  return space.fixedFeatures.length === 0;
}

/** Moses' `Point * FeatureStats`: the model score of candidate `row` under `point`, in double. */
export function dot(problem: MertProblem, space: MertSpace, point: Float32Array, row: number): number {
  const F = problem.features;
  const base = row * problem.dimensions;
  let prod = 0;
  if (space.fixedFeatures.length === 0) {
    for (let i = 0; i < point.length; i++) prod += f32(point[i] * F[base + i]);
  } else {
    const opt = space.optimized;
    for (let i = 0; i < point.length; i++) prod += f32(point[i] * F[base + opt[i]]);
    const fi = space.fixedFeatures;
    const fw = space.fixedWeights;
    for (let k = 0; k < fi.length; k++) prod += f32(fw[k] * F[base + fi[k]]);
  }
  return prod;
}

/** Model scores (as floats) of every candidate under `point`. */
export function modelScores(problem: MertProblem, space: MertSpace, point: Float32Array, out?: Float32Array): Float32Array {
  const scores = out ?? new Float32Array(problem.candidates);
  const F = problem.features;
  const D = problem.dimensions;
  if (space.fixedFeatures.length === 0 && point.length === D) {
    // The common case, inlined: every feature, positionally.
    // Four candidates at a time: each one's sum still adds its products in feature order (the same double as
    // Moses'), but four independent chains of additions keep the processor busy.
    const n = problem.candidates;
    let r = 0;
    let base = 0;
    for (; r + 4 <= n; r += 4, base += 4 * D) {
      let p0 = 0;
      let p1 = 0;
      let p2 = 0;
      let p3 = 0;
      const b1 = base + D;
      const b2 = b1 + D;
      const b3 = b2 + D;
      for (let i = 0; i < D; i++) {
        const w = point[i];
        p0 += f32(w * F[base + i]);
        p1 += f32(w * F[b1 + i]);
        p2 += f32(w * F[b2 + i]);
        p3 += f32(w * F[b3 + i]);
      }
      scores[r] = p0;
      scores[r + 1] = p1;
      scores[r + 2] = p2;
      scores[r + 3] = p3;
    }
    for (; r < n; r++, base += D) {
      let prod = 0;
      for (let i = 0; i < D; i++) prod += f32(point[i] * F[base + i]);
      scores[r] = prod;
    }
  } else {
    for (let r = 0; r < problem.candidates; r++) scores[r] = dot(problem, space, point, r);
  }
  return scores;
}

/** The slopes of every candidate's line along `direction`: the feature itself for a unit vector of the full space. */
function slopes(problem: MertProblem, space: MertSpace, direction: Float32Array, out: Float32Array): Float32Array {
  let unit = -1;
  if (space.fixedFeatures.length === 0) {
    for (let i = 0; i < direction.length; i++) {
      if (direction[i] === 0) continue;
      if (direction[i] !== 1 || unit >= 0) {
        unit = -2;
        break;
      }
      unit = i;
    }
  }
  if (unit >= 0) {
    // Every other product is ±0 and the features are finite, so the sum is the feature (−0 summed with +0 is +0).
    const F = problem.features;
    const D = problem.dimensions;
    for (let r = 0, k = unit; r < problem.candidates; r++, k += D) out[r] = F[k] + 0;
    return out;
  }
  return modelScores(problem, space, direction, out);
}

/** The scratch buffers of one line search, reusable across calls on one problem (not across threads). */
export interface LineSearchScratch {
  readonly slope: Float32Array;
  readonly intercept: Float32Array;
  readonly firstBest: Int32Array;
  readonly lastBest: Int32Array;
  readonly totals: Float64Array;
  /** Candidates of one sentence (the envelope walk's lines still ahead). */
  readonly active: Int32Array;
}

function largestSentence(problem: MertProblem): number {
  let most = 0;
  const o = problem.candidateOffsets;
  for (let s = 0; s < problem.sentences; s++) most = Math.max(most, o[s + 1] - o[s]);
  return most;
}

/** Scratch buffers for {@link lineOptimize} on `problem`. */
export function lineSearchScratch(problem: MertProblem): LineSearchScratch {
  return {
    slope: new Float32Array(problem.candidates),
    intercept: new Float32Array(problem.candidates),
    firstBest: new Int32Array(problem.sentences),
    lastBest: new Int32Array(problem.sentences),
    totals: new Float64Array(problem.objective.width),
    active: new Int32Array(largestSentence(problem)),
  };
}

/** The best point of one line search. */
export interface LineOptimum {
  /** Objective score of the chosen interval. */
  readonly score: number;
  /** Position on the line (`origin + step · direction`). */
  readonly step: number;
  /** The point (single precision). */
  readonly point: Float32Array;
  /** Intervals scored (breakpoints + 1). */
  readonly intervals: number;
}

/**
 * Moses' `LineOptimize` (see the file comment) from `origin` along `direction`, both points of `space`.
 * @param intercepts the candidates' model scores at `origin` when the caller has them ({@link modelScores}; a
 * Powell sweep takes every direction from one origin), else computed here
 * @param positive per coordinate, whether the weight must stay > 0 (Moses `-P`): an interval whose left end
 * violates it is not chosen
 */
export function lineOptimize(
  problem: MertProblem,
  space: MertSpace,
  origin: Float32Array,
  direction: Float32Array,
  scratch: LineSearchScratch = lineSearchScratch(problem),
  intercepts?: Float32Array,
  positive?: ArrayLike<boolean>,
): LineOptimum {
  const slope = slopes(problem, space, direction, scratch.slope);
  const f0 = intercepts ?? modelScores(problem, space, origin, scratch.intercept);
  const offsets = problem.candidateOffsets;
  const firstBest = scratch.firstBest;
  // Breakpoints: x → changes (sentence, new 1-best row) in order, flattened in pairs. The entry at −FLT_MAX (x = −∞)
  // stands for the first 1-bests and never holds a change that counts.
  const thresholds = new Map<number, number[]>();
  thresholds.set(-FLT_MAX, []);
  const active = scratch.active;
  for (let s = 0; s < problem.sentences; s++) {
    const begin = offsets[s];
    const end = offsets[s + 1];
    let prevKey = -FLT_MAX;
    // The lowest slope; of those, the highest intercept (the first on a tie).
    let cur = begin;
    for (let j = begin + 1; j < end; j++) {
      if (slope[j] < slope[cur] || (slope[j] === slope[cur] && f0[j] > f0[cur])) cur = j;
    }
    firstBest[s] = cur;
    // The lines still ahead of the walk (slope above the current line's), in candidate order: each step scans
    // them and keeps those of slope above the current line for the next step (slopes only grow along the walk).
    let ahead = 0;
    for (let j = begin; j < end; j++) active[ahead++] = j;
    for (;;) {
      const m = slope[cur];
      const b = f0[cur];
      let next = -1;
      let nextX = FLT_MAX;
      let nextM = 0;
      // A line whose intersection is surely right of `bound` (> nextX by far more than the float rounding of the
      // quotient and of its operands) cannot win, ties included: it is skipped with a multiplication instead of
      // three roundings and a division. `bound` is +∞ until a finite leftmost intersection is known.
      let bound = Infinity;
      const scan = ahead;
      ahead = 0;
      for (let t = 0; t < scan; t++) {
        const j = active[t];
        const mj = slope[j];
        if (!(mj > m)) continue;
        active[ahead++] = j;
        // m − mj < 0: (f0 − b) / (m − mj) > bound ⇔ f0 − b < bound · (m − mj).
        if (f0[j] - b < bound * (m - mj)) continue;
        let x = f32(f32(f0[j] - b) / f32(m - mj));
        if (!Number.isFinite(x)) x = FLT_MAX;
        // Leftmost; on a tie the later line in (slope, candidate) order.
        if (x < nextX || (x === nextX && (next < 0 || mj >= nextM))) {
          next = j;
          nextX = x;
          nextM = mj;
          if (x < FLT_MAX) bound = x + Math.abs(x) * SKIP_MARGIN + 1e-30;
        }
      }
      if (next < 0) break;
      if (f32(nextX - prevKey) < MIN_INTERVAL) {
        const prev = thresholds.get(prevKey)!;
        if (nextX === prevKey) {
          prev[prev.length - 1] = next;
        } else {
          const there = thresholds.get(nextX);
          if (there === undefined) {
            thresholds.delete(prevKey);
            thresholds.set(nextX, prev);
            prev[prev.length - 1] = next;
          } else {
            for (let k = 0; k < prev.length; k++) there.push(prev[k]);
            there[there.length - 1] = next;
            thresholds.delete(prevKey);
          }
          prevKey = nextX;
        }
      } else {
        const there = thresholds.get(nextX);
        if (there === undefined) {
          thresholds.set(nextX, [s, next]);
        } else if (there[there.length - 2] === s) {
          there[there.length - 1] = next;
        } else {
          there.push(s, next);
        }
        prevKey = nextX;
      }
      cur = next;
    }
  }

  const keys = Float64Array.from(thresholds.keys()).sort();
  const { objective, stats } = problem;
  const width = objective.width;
  const totals = scratch.totals;
  totals.fill(0);
  const last = scratch.lastBest;
  for (let s = 0; s < problem.sentences; s++) {
    const r = firstBest[s];
    last[s] = r;
    for (let c = 0, k = r * width; c < width; c++, k++) totals[c] += stats[k];
  }
  let bestScore = -FLT_MAX;
  let bestX = -FLT_MAX;
  const n = keys.length;
  let respoint: Float32Array | undefined;
  for (let sc = 0; sc < n; sc++) {
    if (sc > 0) {
      const changes = thresholds.get(keys[sc])!;
      for (let k = 0; k < changes.length; k += 2) {
        const s = changes[k];
        const to = changes[k + 1] * width;
        const from = last[s] * width;
        for (let c = 0; c < width; c++) totals[c] += stats[to + c] - stats[from + c];
        last[s] = changes[k + 1];
      }
    }
    const score = objective.score(totals);
    let valid = true;
    if (positive !== undefined) {
      respoint ??= new Float32Array(origin.length);
      const x = f32(keys[sc]);
      for (let k = 0; k < origin.length; k++) {
        respoint[k] = f32(origin[k] + f32(direction[k] * x));
        if (positive[k] && respoint[k] <= 0) valid = false;
      }
    }
    if (valid && score > bestScore) {
      bestScore = score;
      const leftX = sc === 0 ? -FLT_MAX : keys[sc];
      const rightX = sc + 1 < n ? keys[sc + 1] : FLT_MAX;
      if (leftX === -FLT_MAX) bestX = f32(rightX - 1000);
      else if (rightX === FLT_MAX) bestX = f32(leftX + 0.1);
      else bestX = f32(0.5 * f32(rightX + leftX));
    }
  }
  if (Math.abs(bestX) < 0.00015) bestX = 0;
  const point = new Float32Array(origin.length);
  for (let k = 0; k < origin.length; k++) point[k] = f32(f32(direction[k] * bestX) + origin[k]);
  return { score: bestScore, step: bestX, point, intervals: n };
}

/**
 * Moses' `Get1bests`: each sentence's candidate of highest model score under `point` (the first on a tie).
 * @param out optional buffer of one entry per sentence
 */
export function oneBests(problem: MertProblem, space: MertSpace, point: Float32Array, out?: Int32Array): Int32Array {
  const bests = out ?? new Int32Array(problem.sentences);
  const offsets = problem.candidateOffsets;
  for (let s = 0; s < problem.sentences; s++) {
    let best = -FLT_MAX;
    let idx = offsets[s];
    for (let r = offsets[s]; r < offsets[s + 1]; r++) {
      const v = f32(dot(problem, space, point, r));
      if (v > best) {
        best = v;
        idx = r;
      }
    }
    bests[s] = idx;
  }
  return bests;
}

/** The objective's score of one candidate (row) per sentence. */
export function selectionObjective(problem: MertProblem, rows: Int32Array, totals?: Float64Array): number {
  const width = problem.objective.width;
  const t = totals ?? new Float64Array(width);
  t.fill(0);
  for (let s = 0; s < rows.length; s++) {
    for (let c = 0, k = rows[s] * width; c < width; c++, k++) t[c] += problem.stats[k];
  }
  return problem.objective.score(t);
}
