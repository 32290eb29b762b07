/**
 * The MERT entry points of the library on plain weight vectors (one weight per feature, as Float64Array or any
 * array of numbers): the selection score of a weight vector and one exact line search. A whole optimisation is
 * {@link mertOptimize} (./optimizer.ts); the problem is built with {@link mertProblem} (./problem.ts).
 *
 * @example
 * ```ts
 * const problem = mertProblem({ features, dimensions: 14, stats, candidateOffsets, objective: mosesBleuObjective() });
 * const { score, selection } = mertSelectionScore(problem, weights);
 * const line = mertLineSearch(problem, weights, direction); // { score, step, point, intervals }
 * const best = mertOptimize(problem, { start, min, max, restarts: 20, seed: 1000 }); // Moses mert -n 20 -r 1000
 * ```
 */
import { fullSpace, lineOptimize, lineSearchScratch, oneBests, selectionObjective, type LineSearchScratch } from './line-search.js';
import type { MertProblem } from './problem.js';

export { mertOptimize } from './optimizer.js';

function weights(name: string, v: ArrayLike<number>, n: number): Float32Array {
  if (v.length !== n) throw new RangeError(`${name} must hold ${n} weights (got ${v.length})`);
  const w = Float32Array.from(v);
  for (let i = 0; i < n; i++) if (!Number.isFinite(w[i])) throw new RangeError(`${name}[${i}] is not a finite float`);
  return w;
}

/** The result of {@link mertSelectionScore}. */
export interface MertSelection {
  /** The objective's score of the selection. */
  readonly score: number;
  /** Row (candidate index into the problem) chosen for each sentence. */
  readonly selection: Int32Array;
}

/**
 * Each sentence's 1-best candidate under `weights` (highest model score in Moses' single precision; the first on a
 * tie) and the objective's score of that selection: Moses' `Optimizer::GetStatScore`.
 * @throws RangeError when `weights` does not hold one finite weight per feature.
 */
export function mertSelectionScore(problem: MertProblem, weights_: ArrayLike<number>): MertSelection {
  const w = weights('weights', weights_, problem.dimensions);
  const selection = oneBests(problem, fullSpace(problem.dimensions), w);
  return { score: selectionObjective(problem, selection), selection };
}

/** Each problem's line-search buffers, made on its first line search and reused by the later ones. */
const scratches = new WeakMap<MertProblem, LineSearchScratch>();

/** The result of {@link mertLineSearch}. */
export interface MertLineResult {
  /** The best score on the line (−FLT_MAX when no interval was allowed by `positive`). */
  readonly score: number;
  /** Where on the line the point is: `point = origin + step · direction` (single precision). */
  readonly step: number;
  /** The point, one weight per feature. */
  readonly point: Float64Array;
  /** Intervals the line was cut into (breakpoints of the sentences' 1-bests, merged, plus one). */
  readonly intervals: number;
}

/**
 * One exact line search from `origin` along `direction` (Och 2003; Moses' `Optimizer::LineOptimize`, with its
 * tie-breaking, breakpoint merging and choice of the point inside the best interval: see ./line-search.ts).
 * @param options.positive per feature, whether its weight must stay > 0 (Moses `-P`)
 * @throws RangeError when a vector does not hold one finite weight per feature.
 */
export function mertLineSearch(
  problem: MertProblem,
  origin: ArrayLike<number>,
  direction: ArrayLike<number>,
  options: { readonly positive?: ArrayLike<boolean> } = {},
): MertLineResult {
  const D = problem.dimensions;
  const o = weights('origin', origin, D);
  const d = weights('direction', direction, D);
  if (options.positive !== undefined && options.positive.length !== D) {
    throw new RangeError(`positive must hold ${D} flags (got ${options.positive.length})`);
  }
  let scratch = scratches.get(problem);
  if (scratch === undefined) {
    scratch = lineSearchScratch(problem);
    scratches.set(problem, scratch);
  }
  const line = lineOptimize(problem, fullSpace(D), o, d, scratch, undefined, options.positive);
  return { score: line.score, step: line.step, point: Float64Array.from(line.point), intervals: line.intervals };
}
