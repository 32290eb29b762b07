/**
 * Moses' `mert` optimiser (mert/mert.cpp, Optimizer.cpp, Point.cpp) on a {@link MertProblem}: start points (the
 * given ones, then `restarts` drawn uniformly inside the INIT ranges), each run to convergence by the chosen
 * optimiser, the best end point L1-normalised.
 *
 * - `powell` (Moses' default, `SimpleOptimizer`): sweeps of line searches from the current point along every
 *   coordinate and `randomDirections` random directions; the sweep's best point becomes the current one; stop when
 *   a sweep gains no more than 1e-4 (in float, as Moses).
 * - `random-direction`: line searches along random directions, each from the last end point, until
 *   `randomDirections` in a row gain no more than 1e-4.
 * - `random`: the start point itself, scored.
 *
 * Random numbers are glibc's `rand()` seeded with `srand(seed)` (./glibc-random.ts), drawn in Moses' order: the
 * restarts' coordinates first (restart by restart), then the random directions of each run in turn. With one
 * stream and runs one after another that is Moses' order exactly (Moses built without threads, or with one);
 * {@link MertRunStreams} `per-run` gives each run its own stream instead, so that runs can go to several threads
 * and still give the same result for every thread count.
 */
import { GlibcRandom } from './glibc-random.js';
import {
  FLT_MAX,
  fullSpace,
  isFullSpace,
  lineOptimize,
  lineSearchScratch,
  modelScores,
  oneBests,
  selectionObjective,
  subSpace,
  type LineSearchScratch,
  type MertSpace,
} from './line-search.js';
import type { MertProblem } from './problem.js';

const f32 = Math.fround;
/** Moses' kEPS. */
const EPS = Math.fround(0.0001);

/** Moses' optimisers (`mert -t`). */
export type MertOptimizerType = 'powell' | 'random-direction' | 'random';

/** The optimiser types `-t` accepts. */
export const MERT_OPTIMIZERS: readonly MertOptimizerType[] = ['powell', 'random-direction', 'random'];

/**
 * Where each run's random directions come from: `shared`, Moses' one stream drawn by the runs in turn (the main
 * stream, after the restarts); `per-run`, a stream per run seeded from the main stream after the restarts, so that
 * runs are independent (threads).
 */
export type MertRunStreams = 'shared' | 'per-run';

/** Options of {@link mertOptimize} and {@link prepareMertRuns}. */
export interface MertOptions {
  /** The first start point, one weight per feature (Moses' INIT first line); also the fixed features' weights. */
  readonly start: ArrayLike<number>;
  /** Lower ends of the ranges restarts and random directions are drawn from (INIT second line). */
  readonly min: ArrayLike<number>;
  /** Upper ends (INIT third line). */
  readonly max: ArrayLike<number>;
  /** More start points run before the restarts (Moses: one per extra INIT file). @default [] */
  readonly extraStarts?: readonly ArrayLike<number>[];
  /** Random restarts (`-n`). @default 1 */
  readonly restarts?: number;
  /** Random directions per sweep (`-m`). @default 0 */
  readonly randomDirections?: number;
  /** Seed of glibc's `srand` (`-r`). @default 0 (glibc then seeds with 1, as `srand(0)`) */
  readonly seed?: number;
  /** Optimiser (`-t`). @default 'powell' */
  readonly optimizer?: MertOptimizerType;
  /** Indices of the features to optimise (`-o`), the others fixed at `start`. @default every feature */
  readonly optimize?: readonly number[];
  /** Indices of the features whose weight must stay positive (`-P`). @default none */
  readonly positive?: readonly number[];
  /** See {@link MertRunStreams}. @default 'shared' */
  readonly streams?: MertRunStreams;
}

/** One run: its start point and where it ended. */
export interface MertRun {
  /** Start point, every feature. */
  readonly start: Float64Array;
  /** End point, every feature (not normalised). */
  readonly point: Float64Array;
  /** Objective score at the end point. */
  readonly score: number;
}

/** The result of {@link mertOptimize}. */
export interface MertResult {
  /** The best end point, every feature, L1-normalised when every feature is optimised (as Moses). */
  readonly point: Float64Array;
  /** Its objective score. */
  readonly score: number;
  /** Every run, in order (given start points, then restarts). */
  readonly runs: readonly MertRun[];
}

/** The runs of an optimisation, prepared: what a thread needs to run any one of them. */
export interface MertPlan {
  readonly space: MertSpace;
  /** Start points in the optimised subspace. */
  readonly starts: Float32Array[];
  /** Range of each coordinate (subspace). */
  readonly min: Float32Array;
  readonly max: Float32Array;
  readonly optimizer: MertOptimizerType;
  readonly randomDirections: number;
  /** Per coordinate, whether it must stay positive; undefined when none must. */
  readonly positive: boolean[] | undefined;
  /** The stream runs draw directions from (`shared`), or each run's seed (`per-run`). */
  readonly shared: GlibcRandom | undefined;
  readonly runSeeds: Uint32Array | undefined;
}

function checkVector(name: string, v: ArrayLike<number>, n: number): void {
  if (v.length !== n) throw new RangeError(`${name} must hold ${n} weights (got ${v.length})`);
  for (let i = 0; i < n; i++) if (!Number.isFinite(v[i])) throw new RangeError(`${name}[${i}] is not a finite number`);
}

/**
 * Checks the options and draws the restarts: Moses' `mert` up to the point where it starts the runs.
 * @throws RangeError for options that do not fit the problem.
 */
export function prepareMertRuns(problem: MertProblem, options: MertOptions): MertPlan {
  const D = problem.dimensions;
  checkVector('start', options.start, D);
  checkVector('min', options.min, D);
  checkVector('max', options.max, D);
  const extra = options.extraStarts ?? [];
  extra.forEach((p, i) => checkVector(`extraStarts[${i}]`, p, D));
  const restarts = options.restarts ?? 1;
  const randomDirections = options.randomDirections ?? 0;
  if (!Number.isInteger(restarts) || restarts < 0) throw new RangeError(`restarts must be an integer >= 0 (got ${restarts})`);
  if (!Number.isInteger(randomDirections) || randomDirections < 0) {
    throw new RangeError(`randomDirections must be an integer >= 0 (got ${randomDirections})`);
  }
  const optimizer = options.optimizer ?? 'powell';
  if (!MERT_OPTIMIZERS.includes(optimizer)) throw new RangeError(`optimizer must be one of ${MERT_OPTIMIZERS.join(', ')} (got ${optimizer})`);
  const space = options.optimize === undefined ? fullSpace(D) : subSpace(D, options.optimize, options.start);
  // Moses' Point constructor: a full-length vector is read through the optimised indices, unless the space is
  // every feature (then positionally).
  const project = (v: ArrayLike<number>): Float32Array =>
    isFullSpace(space) ? Float32Array.from({ length: D }, (_, i) => v[i]) : Float32Array.from(space.optimized, (i) => v[i]);
  const min = project(options.min);
  const max = project(options.max);
  let positive: boolean[] | undefined;
  if (options.positive !== undefined && options.positive.length > 0) {
    const full = new Array<boolean>(D).fill(false);
    for (const i of options.positive) {
      if (!Number.isInteger(i) || i < 0 || i >= D) throw new RangeError(`positive feature index ${i} is not in 0..${D - 1}`);
      full[i] = true;
    }
    // Moses indexes its positivity flags by coordinate of the point.
    positive = Array.from({ length: space.optimized.length }, (_, k) => full[k]);
  }
  const rng = new GlibcRandom(options.seed ?? 0);
  const starts = [project(options.start), ...extra.map(project)];
  for (let i = 0; i < restarts; i++) {
    const p = project(options.start);
    for (let k = 0; k < p.length; k++) p[k] = rng.randInclFloat(min[k], max[k]);
    starts.push(p);
  }
  let runSeeds: Uint32Array | undefined;
  if ((options.streams ?? 'shared') === 'per-run') runSeeds = Uint32Array.from(starts, () => rng.next());
  return { space, starts, min, max, optimizer, randomDirections, positive, shared: runSeeds === undefined ? rng : undefined, runSeeds };
}

/** A random direction of the subspace: each coordinate uniform in its range (Moses' `Point::Randomize`). */
function randomDirection(plan: MertPlan, rng: GlibcRandom): Float32Array {
  const d = new Float32Array(plan.min.length);
  for (let k = 0; k < d.length; k++) d[k] = rng.randInclFloat(plan.min[k], plan.max[k]);
  return d;
}

/** Moses' `GetStatScore(point)`: the objective of the 1-best candidates under `point`. */
function pointScore(problem: MertProblem, plan: MertPlan, point: Float32Array, scratch: LineSearchScratch): number {
  return selectionObjective(problem, oneBests(problem, plan.space, point, scratch.lastBest), scratch.totals);
}

/** `SimpleOptimizer::TrueRun`. */
function powell(problem: MertProblem, plan: MertPlan, start: Float32Array, startScore: number, rng: GlibcRandom, scratch: LineSearchScratch): { point: Float32Array; score: number } {
  const dim = start.length;
  let P: Float32Array = start;
  let bestScore = -FLT_MAX;
  let best: Float32Array = new Float32Array(dim);
  if (startScore > bestScore) {
    bestScore = startScore;
    best = start;
  }
  const intercepts = new Float32Array(problem.candidates);
  let prevScore: number;
  do {
    prevScore = bestScore;
    modelScores(problem, plan.space, P, intercepts);
    for (let d = 0; d < dim + plan.randomDirections; d++) {
      let direction: Float32Array;
      if (d < dim) {
        direction = new Float32Array(dim);
        direction[d] = 1;
      } else {
        direction = randomDirection(plan, rng);
      }
      const line = lineOptimize(problem, plan.space, P, direction, scratch, intercepts, plan.positive);
      if (line.score > bestScore) {
        bestScore = line.score;
        best = line.point;
      }
    }
    P = best;
  } while (f32(bestScore - prevScore) > EPS);
  return { point: P, score: bestScore };
}

/** `RandomDirectionOptimizer::TrueRun`. */
function randomDirections(problem: MertProblem, plan: MertPlan, start: Float32Array, startScore: number, rng: GlibcRandom, scratch: LineSearchScratch): { point: Float32Array; score: number } {
  let P: Float32Array = start;
  let prevScore = startScore;
  for (let unchanged = 0; unchanged < plan.randomDirections; unchanged++) {
    const line = lineOptimize(problem, plan.space, P, randomDirection(plan, rng), scratch, undefined, plan.positive);
    P = line.point;
    if (f32(line.score - prevScore) > EPS) unchanged = -1;
    prevScore = line.score;
  }
  return { point: P, score: prevScore };
}

/** All weights of a subspace point (Moses' `GetAllWeights`). */
export function allWeights(space: MertSpace, point: Float32Array): Float64Array {
  if (isFullSpace(space)) return Float64Array.from(point);
  const w = new Float64Array(space.dimensions);
  space.optimized.forEach((f, k) => (w[f] = point[k]));
  space.fixedFeatures.forEach((f, k) => (w[f] = space.fixedWeights[k]));
  return w;
}

/**
 * Runs start point `index` of a plan (Moses' `Optimizer::Run`): scored, then optimised.
 * @param rng the shared stream (`plan.shared`) or the run's own; defaults to the plan's choice
 */
export function runMertStart(problem: MertProblem, plan: MertPlan, index: number, rng?: GlibcRandom): MertRun {
  const stream = rng ?? plan.shared ?? new GlibcRandom(plan.runSeeds![index]);
  const scratch = lineSearchScratch(problem);
  const start = Float32Array.from(plan.starts[index]);
  const startScore = pointScore(problem, plan, start, scratch);
  const end =
    plan.optimizer === 'powell'
      ? powell(problem, plan, start, startScore, stream, scratch)
      : plan.optimizer === 'random-direction'
        ? randomDirections(problem, plan, start, startScore, stream, scratch)
        : randomRun(problem, plan, stream, scratch);
  return { start: allWeights(plan.space, plan.starts[index]), point: allWeights(plan.space, end.point), score: end.score };
}

/** `RandomOptimizer::TrueRun`: a random point of the ranges, scored. */
function randomRun(problem: MertProblem, plan: MertPlan, rng: GlibcRandom, scratch: LineSearchScratch): { point: Float32Array; score: number } {
  const p = randomDirection(plan, rng);
  return { point: p, score: pointScore(problem, plan, p, scratch) };
}

/**
 * Moses' choice among finished runs: the first of strictly greatest score above 0 (all weights 0 when none is),
 * L1-normalised in single precision when every feature was optimised.
 */
export function bestOfRuns(plan: MertPlan, runs: readonly MertRun[]): MertResult {
  let best = 0;
  let bestPoint: Float64Array | undefined;
  for (const run of runs) {
    if (run.score > best) {
      best = run.score;
      bestPoint = run.point;
    }
  }
  const D = plan.space.dimensions;
  const p = Float32Array.from(bestPoint ?? allWeights(plan.space, new Float32Array(plan.space.optimized.length)));
  if (isFullSpace(plan.space)) {
    let norm = 0;
    for (let i = 0; i < D; i++) norm = f32(norm + Math.abs(p[i]));
    if (norm !== 0) for (let i = 0; i < D; i++) p[i] = f32(p[i] / norm);
  }
  return { point: Float64Array.from(p), score: best, runs };
}

/**
 * A whole MERT optimisation on one thread, exactly as Moses' `mert` (see the file comment): the given start
 * points, then `restarts` random ones, each run to its end, and the best end point.
 * @throws RangeError for options that do not fit the problem.
 */
export function mertOptimize(problem: MertProblem, options: MertOptions): MertResult {
  const plan = prepareMertRuns(problem, options);
  const runs: MertRun[] = [];
  for (let i = 0; i < plan.starts.length; i++) runs.push(runMertStart(problem, plan, i));
  return bestOfRuns(plan, runs);
}
