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
import { mertDotsOrNull, type MertDots } from '../../wasm/mert.js';
import { Breakpoints } from './breakpoints.js';
import type { MertProblem } from './problem.js';

/** Largest single-precision float (Moses' MAX_FLOAT). */
export const FLT_MAX = 3.4028234663852886e38;
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

/** The kernel's dot products per problem (null: none to be had, the TypeScript loops compute them). */
const problemDots = new WeakMap<MertProblem, MertDots | null>();

function dotsOf(problem: MertProblem): MertDots | null {
  let dots = problemDots.get(problem);
  if (dots === undefined) {
    dots = mertDotsOrNull(problem.features, problem.dimensions, problem.candidates, problem.candidateOffsets);
    problemDots.set(problem, dots);
  }
  return dots;
}

/** Per space, the feature of each term of a dot product: the optimised features, then the fixed ones (Moses' order). */
const spaceTerms = new WeakMap<MertSpace, Int32Array>();

function termsOf(space: MertSpace, length: number): Int32Array {
  let terms = spaceTerms.get(space);
  if (terms === undefined || terms.length !== length + space.fixedFeatures.length) {
    terms = new Int32Array(length + space.fixedFeatures.length);
    for (let i = 0; i < length; i++) terms[i] = space.fixedFeatures.length === 0 ? i : space.optimized[i];
    terms.set(space.fixedFeatures, length);
    spaceTerms.set(space, terms);
  }
  return terms;
}

/** The weight of each term (see {@link termsOf}): the point's, then the fixed weights. */
function termWeights(space: MertSpace, point: Float32Array): Float32Array {
  if (space.fixedFeatures.length === 0) return point;
  const w = new Float32Array(point.length + space.fixedWeights.length);
  w.set(point);
  w.set(space.fixedWeights, point.length);
  return w;
}

/**
 * The coordinate `direction` is the unit vector of (a 1 there, ±0 elsewhere, every feature optimised), else −1:
 * its slopes are then that feature itself.
 */
function unitCoordinate(problem: MertProblem, space: MertSpace, direction: Float32Array): number {
  if (space.fixedFeatures.length !== 0 || direction.length !== problem.dimensions) return -1;
  let unit = -1;
  for (let i = 0; i < direction.length; i++) {
    if (direction[i] === 0) continue;
    if (direction[i] !== 1 || unit >= 0) return -1;
    unit = i;
  }
  return unit;
}

/** Model scores (as floats) of every candidate under `point`: on the WebAssembly kernel where there is one. */
export function modelScores(problem: MertProblem, space: MertSpace, point: Float32Array, out?: Float32Array): Float32Array {
  const dots = dotsOf(problem);
  if (dots === null) return scalarModelScores(problem, space, point, out);
  const scores = out ?? new Float32Array(problem.candidates);
  scores.set(dots.dots(termsOf(space, point.length), termWeights(space, point)).first);
  return scores;
}

/** {@link modelScores} in TypeScript (the numbers of the kernel, where there is none). */
export function scalarModelScores(problem: MertProblem, space: MertSpace, point: Float32Array, out?: Float32Array): Float32Array {
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
function scalarSlopes(problem: MertProblem, space: MertSpace, direction: Float32Array, out: Float32Array): Float32Array {
  const unit = unitCoordinate(problem, space, direction);
  if (unit >= 0) {
    // Every other product is ±0 and the features are finite, so the sum is the feature (−0 summed with +0 is +0).
    const F = problem.features;
    const D = problem.dimensions;
    for (let r = 0, k = unit; r < problem.candidates; r++, k += D) out[r] = F[k] + 0;
    return out;
  }
  return scalarModelScores(problem, space, direction, out);
}

function largestSentence(problem: MertProblem): number {
  let most = 0;
  const o = problem.candidateOffsets;
  for (let s = 0; s < problem.sentences; s++) most = Math.max(most, o[s + 1] - o[s]);
  return most;
}

/**
 * The scratch buffers of one line search, reusable across calls on one problem (not across threads): a line
 * search allocates nothing else of the problem's size.
 */
export class LineSearchScratch {
  readonly firstBest: Int32Array;
  readonly lastBest: Int32Array;
  readonly totals: Float64Array;
  /** Candidates of one sentence (the envelope walk's lines still ahead). */
  readonly active: Int32Array;
  /** One sentence's envelope walk: the breakpoints and the line that takes over at each. */
  readonly stepX: Float64Array;
  readonly stepRow: Int32Array;
  /** The merged breakpoints of all sentences. */
  readonly breakpoints = new Breakpoints();
  private slopeBuffer: Float32Array | undefined;
  private interceptBuffer: Float32Array | undefined;
  /** The sum of the statistics read ahead (kept so that the reads are not left out as unused). */
  touched = 0;
  private deltaBuffer = new Float64Array(0);
  private endBuffer = new Int32Array(0);

  constructor(private readonly candidates: number, sentences: number, width: number, largest: number) {
    this.firstBest = new Int32Array(sentences);
    this.lastBest = new Int32Array(sentences);
    this.totals = new Float64Array(width);
    this.active = new Int32Array(largest);
    this.stepX = new Float64Array(largest);
    this.stepRow = new Int32Array(largest);
  }

  /** Slopes of every candidate, where the TypeScript loops compute them (the kernel has its own buffers). */
  get slope(): Float32Array {
    return (this.slopeBuffer ??= new Float32Array(this.candidates));
  }

  /** Intercepts of every candidate, likewise. */
  get intercept(): Float32Array {
    return (this.interceptBuffer ??= new Float32Array(this.candidates));
  }

  /** The changes' differences of statistics rows: at least `length` doubles (grown, never shrunk). */
  deltaRows(length: number): Float64Array {
    if (this.deltaBuffer.length < length) this.deltaBuffer = new Float64Array(Math.max(length, 2 * this.deltaBuffer.length));
    return this.deltaBuffer;
  }

  /** Where each interval's changes end: at least `length` entries (grown, never shrunk). */
  intervalEnds(length: number): Int32Array {
    if (this.endBuffer.length < length) this.endBuffer = new Int32Array(Math.max(length, 2 * this.endBuffer.length));
    return this.endBuffer;
  }
}

/** Scratch buffers for {@link lineOptimize} on `problem`. */
export function lineSearchScratch(problem: MertProblem): LineSearchScratch {
  return new LineSearchScratch(problem.candidates, problem.sentences, problem.objective.width, largestSentence(problem));
}

/**
 * Relative margin of the envelope prefilter: a line is left out of the walk only when it lies below the upper
 * envelope of a few known lines by 2^-12 of the sentence's magnitudes (largest |intercept| + |x| · largest |slope|)
 * everywhere. The walk's float roundings move an intersection by a few units of 2^-24 of those magnitudes, so such a
 * line can never have the leftmost intersection of a step, ties included: the walk over the lines kept makes the
 * same choices as over all of them.
 */
const FILTER_MARGIN = 2 ** -12;
/** Known lines of the prefilter at most: the three extremes, and the highest line at each of their bends. */
const MAX_KNOWN = 5;

/** The prefilter's known lines: indices by increasing slope, and the bend between each and the next. */
const known = new Int32Array(MAX_KNOWN);
const bendX = new Float64Array(MAX_KNOWN);
const bendLimit = new Float64Array(MAX_KNOWN);

/**
 * Upper hull, in the (slope, intercept) plane, of the `count` lines in `known` (sorted by slope): the lines that are
 * the maximum somewhere, as far as double arithmetic tells (only the prefilter's strength depends on it). Returns
 * how many are kept at the front of `known`.
 */
function knownHull(slope: Float32Array, f0: Float32Array, count: number): number {
  let h = 0;
  for (let i = 0; i < count; i++) {
    const j = known[i];
    const mj = slope[j];
    const bj = f0[j];
    if (h > 0 && slope[known[h - 1]] === mj) {
      if (f0[known[h - 1]] >= bj) continue;
      h--;
    }
    while (h >= 2) {
      const a = known[h - 2];
      const b = known[h - 1];
      // b is under the chord a–j (or on it): it is nowhere the strict maximum of the three.
      if ((f0[b] - f0[a]) * (mj - slope[a]) <= (bj - f0[a]) * (slope[b] - slope[a])) h--;
      else break;
    }
    known[h++] = j;
  }
  return h;
}

/**
 * Moses' envelope walk over the candidates `begin .. end` of one sentence (see the file comment): writes the
 * first 1-best at `stepRow[0]` and each later change at `stepX[k]`, `stepRow[k]` (the line of greater slope with the
 * leftmost intersection), and returns the number of entries.
 *
 * Each step scans the lines still ahead of the walk, so the walk costs lines × steps; a prefilter first drops the
 * lines that lie well below the upper envelope of a few lines of the sentence (the first line, the line of greatest
 * slope, the highest at x = 0, then the highest at each bend of those), which no step can choose (FILTER_MARGIN).
 * Exported for the tests, which hold it to the plain walk of test/reference/mert-envelope-walk.ts.
 */
export function envelope(
  slope: Float32Array,
  f0: Float32Array,
  begin: number,
  end: number,
  active: Int32Array,
  stepX: Float64Array,
  stepRow: Int32Array,
): number {
  // The lowest slope; of those, the highest intercept (the first on a tie). Also the line of highest slope, the
  // highest line at x = 0, the lowest intercept, and the smallest nonzero |slope|. Every branch here is rarely
  // taken, so the pass runs at the speed of its loads.
  let cur = begin;
  let top = begin;
  let high = begin;
  let mMin = slope[begin];
  let mMax = mMin;
  let bMax = f0[begin];
  let bMin = bMax;
  let smallM = Infinity;
  let nan = false;
  for (let j = begin; j < end; j++) {
    const mj = slope[j];
    const bj = f0[j];
    if (mj < mMin || (mj === mMin && bj > f0[cur])) {
      cur = j;
      mMin = mj;
    }
    if (mj > mMax || (mj === mMax && bj > f0[top])) {
      top = j;
      mMax = mj;
    }
    if (bj > bMax) {
      high = j;
      bMax = bj;
    }
    if (bj < bMin) bMin = bj;
    const am = Math.abs(mj);
    if (am < smallM && am !== 0) smallM = am;
    if (mj !== mj || bj !== bj) nan = true;
  }
  stepRow[0] = cur;
  if (!(mMax > mMin)) return 1;

  let ahead = 0;
  // Without NaN the extremes are those of every line, and an infinite value is one of them: below FLT_MAX / 4, no
  // difference of two slopes or two intercepts overflows in float: the walk's arithmetic is that of the real
  // numbers up to rounding, which the skip test of the walk relies on (see there).
  const sm = Math.max(-mMin, mMax);
  const sb = Math.max(-bMin, bMax);
  const inRange = !nan && sm < FLT_MAX / 4 && sb < FLT_MAX / 4;
  // The prefilter's reasoning holds where moreover every intersection is below FLT_MAX / 2 (beyond, the walk's
  // FLT_MAX for every too-large quotient ties lines that geometry orders): two distinct slopes differ by at least
  // one unit in the last place of the smaller nonzero magnitude (or 2^-149), so no intersection exceeds
  // 2 · largest |intercept| / that.
  const closest = Math.max(smallM * 2 ** -24, 2 ** -149);
  if (inRange && 2 * sb < (FLT_MAX / 2) * closest) {
    const d0 = FILTER_MARGIN * sb;
    const dx = FILTER_MARGIN * sm;
    known[0] = cur;
    known[1] = high;
    known[2] = top;
    let count = slope[high] > mMin && slope[high] < mMax ? 3 : 2;
    if (count === 2) known[1] = top;
    count = knownHull(slope, f0, count);
    // First round, over every line: one or two bends. A line is dropped when it is below the limit at both bends
    // (at least as strict as at the bend its slope belongs to, which suffices): no branch on the slope, so the
    // loop does not mispredict on half the lines; the highest line at each bend is kept for the refinement.
    const u0 = known[0];
    const u1 = known[1];
    const u2 = count === 3 ? known[2] : u1;
    const x1 = (f0[u0] - f0[u1]) / (slope[u1] - slope[u0]);
    const lim1 = Math.min(slope[u0] * x1 + f0[u0], slope[u1] * x1 + f0[u1]) - (d0 + Math.abs(x1) * dx);
    const x2 = count === 3 ? (f0[u1] - f0[u2]) / (slope[u2] - slope[u1]) : x1;
    const lim2 = count === 3 ? Math.min(slope[u1] * x2 + f0[u1], slope[u2] * x2 + f0[u2]) - (d0 + Math.abs(x2) * dx) : lim1;
    let best1 = -1;
    let best1Y = -Infinity;
    let best2 = -1;
    let best2Y = -Infinity;
    for (let j = begin; j < end; j++) {
      const mj = slope[j];
      const bj = f0[j];
      const y1 = mj * x1 + bj;
      const y2 = mj * x2 + bj;
      if (y1 > best1Y) {
        best1Y = y1;
        best1 = j;
      }
      if (y2 > best2Y) {
        best2Y = y2;
        best2 = j;
      }
      active[ahead] = j;
      ahead += ((y1 >= lim1) as unknown as number) | ((y2 >= lim2) as unknown as number);
    }
    // One refinement over the lines kept: the highest line at each bend joins the known lines when it is above them
    // there, and the lines are filtered again, against every bend of the new hull: a line is dropped where it lies
    // below the limit at every bend (at its own bend is enough; testing them all in order needs no search for its
    // bend, whose end a branch mispredicts on most lines).
    if (ahead > 2 * count) {
      let added = 0;
      if (best1 >= 0 && best1Y > lim1 + (d0 + Math.abs(x1) * dx)) known[count + added++] = best1;
      if (count === 3 && best2 >= 0 && best2 !== best1 && best2Y > lim2 + (d0 + Math.abs(x2) * dx)) known[count + added++] = best2;
      if (added > 0) {
        // The new lines join the known ones, sorted by slope (a few entries: insertion sort).
        for (let i = count; i < count + added; i++) {
          const j = known[i];
          let q = i - 1;
          while (q >= 0 && slope[known[q]] > slope[j]) {
            known[q + 1] = known[q];
            q--;
          }
          known[q + 1] = j;
        }
        count = knownHull(slope, f0, count + added);
        const bends = count - 1;
        for (let k = 0; k < bends; k++) {
          const u = known[k];
          const v = known[k + 1];
          const x = (f0[u] - f0[v]) / (slope[v] - slope[u]);
          bendX[k] = x;
          bendLimit[k] = Math.min(slope[u] * x + f0[u], slope[v] * x + f0[v]) - (d0 + Math.abs(x) * dx);
        }
        let n = 0;
        for (let t = 0; t < ahead; t++) {
          const j = active[t];
          const mj = slope[j];
          const bj = f0[j];
          let k = 0;
          while (k < bends && mj * bendX[k] + bj < bendLimit[k]) k++;
          active[n] = j;
          n += (k < bends) as unknown as number;
        }
        ahead = n;
      }
    }
  } else {
    for (let j = begin; j < end; j++) active[ahead++] = j;
  }

  let steps = 1;
  for (;;) {
    const m = slope[cur];
    const b = f0[cur];
    let next = -1;
    let nextX = FLT_MAX;
    let nextM = 0;
    // A line whose intersection is surely right of `bound` (> nextX by far more than the float rounding of the
    // quotient and of its operands) cannot win, ties included: it is skipped with a multiplication instead of
    // three roundings and a division. `bound` is +∞ until a finite leftmost intersection is known, and stays +∞
    // where a float difference could overflow (its quotient is then 0 or FLT_MAX whatever the real one is).
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
        if (x < FLT_MAX && inRange) bound = x + Math.abs(x) * SKIP_MARGIN + 1e-30;
      }
    }
    if (next < 0) return steps;
    stepX[steps] = nextX;
    stepRow[steps] = next;
    steps++;
    cur = next;
  }
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
  const offsets = problem.candidateOffsets;
  const firstBest = scratch.firstBest;
  // Breakpoints: x → changes (sentence, new 1-best row) in order. The list at −FLT_MAX (x = −∞) stands for the
  // first 1-bests and never holds a change that counts.
  const bp = scratch.breakpoints;
  bp.reset();
  const dots = dotsOf(problem);
  if (dots === null) {
    const slope = scalarSlopes(problem, space, direction, scratch.slope);
    const f0 = intercepts ?? scalarModelScores(problem, space, origin, scratch.intercept);
    const active = scratch.active;
    const stepX = scratch.stepX;
    const stepRow = scratch.stepRow;
    for (let s = 0; s < problem.sentences; s++) {
      const steps = envelope(slope, f0, offsets[s], offsets[s + 1], active, stepX, stepRow);
      firstBest[s] = stepRow[0];
      bp.addSentence(s, steps, stepX, stepRow);
    }
  } else {
    // The kernel walks every sentence (its slopes and intercepts computed there, a sentence at a time); the walks'
    // entries, read here before the kernel's next call, are merged in sentence order as above.
    const unit = unitCoordinate(problem, space, direction);
    dots.walks(
      termsOf(space, origin.length),
      intercepts === undefined ? termWeights(space, origin) : undefined,
      intercepts,
      unit,
      unit >= 0 ? undefined : termWeights(space, direction),
    );
    const counts = dots.walkCounts;
    const stepX = dots.walkX;
    const stepRow = dots.walkRow;
    for (let s = 0, at = 0; s < problem.sentences; s++) {
      const steps = counts[s];
      firstBest[s] = stepRow[at];
      bp.addSentence(s, steps, stepX, stepRow, at);
      at += steps;
    }
  }

  const n = bp.sorted();
  const keys = bp.keys;
  const order = bp.order;
  const { objective, stats } = problem;
  const width = objective.width;
  const totals = scratch.totals;
  totals.fill(0);
  // The statistics rows of the first 1-bests and of every change are scattered over the whole matrix: one read of
  // each (both ends of a row, which may span two cache lines) in a loop of a few instructions a row lets the
  // processor have many of them in flight, so that the loops below, whose arithmetic holds fewer rows in flight,
  // find them in cache.
  let touched = 0;
  for (let s = 0; s < problem.sentences; s++) {
    const k = firstBest[s] * width;
    touched += stats[k] + stats[k + width - 1];
  }
  for (let r = 0, records = bp.recordCount; r < records; r++) {
    const k = bp.recRow[r] * width;
    touched += stats[k] + stats[k + width - 1];
  }
  scratch.touched = touched;
  const last = scratch.lastBest;
  for (let s = 0; s < problem.sentences; s++) {
    const r = firstBest[s];
    last[s] = r;
    for (let c = 0, k = r * width; c < width; c++, k++) totals[c] += stats[k];
  }
  // Each change's difference of statistics rows (new 1-best − previous one), in the order the scan applies them,
  // and where each interval's changes end. Reading the rows (scattered over the statistics) in a loop of their own,
  // where no load waits for another, lets the processor fetch many at once; the scan then adds them in order, the
  // same differences to the same totals.
  const deltas = scratch.deltaRows(bp.recordCount * width);
  const ends = scratch.intervalEnds(n);
  let applied = 0;
  for (let sc = 1; sc < n; sc++) {
    for (let r = bp.listHead[order[sc]]; r >= 0; r = bp.recNext[r]) {
      const s = bp.recSentence[r];
      const row = bp.recRow[r];
      const to = row * width;
      const from = last[s] * width;
      for (let c = 0, k = applied * width; c < width; c++, k++) deltas[k] = stats[to + c] - stats[from + c];
      last[s] = row;
      applied++;
    }
    ends[sc] = applied;
  }
  let bestScore = -FLT_MAX;
  let bestX = -FLT_MAX;
  const rank = objective.rank?.bind(objective);
  // The highest rank scored so far: no later interval of that rank or lower can score higher than the best.
  let bestRank = 0;
  let bestRanked = false;
  let respoint: Float32Array | undefined;
  for (let sc = 0, k = 0; sc < n; sc++) {
    if (sc > 0) {
      for (const end = ends[sc] * width; k < end; ) {
        for (let c = 0; c < width; c++, k++) totals[c] += deltas[k];
      }
    }
    let valid = true;
    if (positive !== undefined) {
      respoint ??= new Float32Array(origin.length);
      const x = f32(keys[sc]);
      for (let k = 0; k < origin.length; k++) {
        respoint[k] = f32(origin[k] + f32(direction[k] * x));
        if (positive[k] && respoint[k] <= 0) valid = false;
      }
    }
    if (!valid) continue;
    // An interval ranked no higher than the best one scores no higher: it cannot be strictly better.
    if (rank !== undefined) {
      const r = rank(totals);
      if (bestRanked && r <= bestRank) continue;
      bestRank = r;
      bestRanked = true;
    }
    const score = objective.score(totals);
    if (score > bestScore) {
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
  // The model scores as floats: f32(dot) of every candidate, on the kernel where there is one.
  const scores = modelScores(problem, space, point);
  for (let s = 0; s < problem.sentences; s++) {
    let best = -FLT_MAX;
    let idx = offsets[s];
    for (let r = offsets[s]; r < offsets[s + 1]; r++) {
      const v = scores[r];
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
