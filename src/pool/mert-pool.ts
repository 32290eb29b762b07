/**
 * `palette mert --threads N`: the start points of a MERT optimisation run on N workers of the one pool
 * (./task-pool.ts, mert kind: ./kinds/mert.ts). The features and statistics go to the workers once, on shared
 * memory; a task is a start point's index and its result the run's end point and score.
 *
 * Each run draws its random directions from its own glibc stream (`streams: 'per-run'`, seeded from the main
 * stream after the restarts), so the result is the same for every thread count; Moses' threads share one stream
 * and their results depend on the scheduling.
 */
import { prepareMertRuns, type MertOptions, type MertRun } from '../tuning/mert/optimizer.js';
import type { MertProblem } from '../tuning/mert/problem.js';
import { TaskPool } from './task-pool.js';

/** A copy of `a` on a SharedArrayBuffer (workers read it without copying). */
function shared<T extends Float32Array | Float64Array | Int32Array>(a: T, make: (b: SharedArrayBuffer) => T): T {
  const out = make(new SharedArrayBuffer(a.byteLength));
  out.set(a as never);
  return out;
}

/**
 * Runs every start point of `options` on `workers` threads and returns the runs in start-point order.
 * @param scorer the `--sctype` name of `problem.objective` (workers rebuild the objective from it)
 */
export async function runMertOnPool(problem: MertProblem, scorer: string, options: MertOptions, workers: number): Promise<MertRun[]> {
  const perRun: MertOptions = { ...options, streams: 'per-run' };
  const starts = prepareMertRuns(problem, perRun).starts.length;
  const stats = problem.stats instanceof Float64Array ? problem.stats : Float64Array.from(problem.stats);
  const pool = new TaskPool({
    kind: 'mert',
    workers: Math.min(workers, starts),
    setup: {
      features: shared(problem.features, (b) => new Float32Array(b)),
      dimensions: problem.dimensions,
      stats: shared(stats, (b) => new Float64Array(b)),
      candidateOffsets: problem.candidateOffsets,
      scorer,
      options: perRun,
    },
  });
  try {
    const outcomes = await Promise.all(
      Array.from({ length: starts }, (_, i) => pool.run(i, { label: () => `mert start point ${i + 1}` })),
    );
    return outcomes.map((o) => o.result);
  } finally {
    await pool.close();
  }
}
