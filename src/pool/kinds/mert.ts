/**
 * MERT runs in a pool worker (the main side is ../mert-pool.ts): each worker rebuilds the problem from the shared
 * arrays and the plan from the options (the plan is deterministic: the same start points and per-run seeds as the
 * calling thread drew), then runs start points by index, exactly as the calling thread would
 * (src/tuning/mert/optimizer.ts `runMertStart`), so the result does not depend on the thread or the thread count.
 */
import '../../node/install.js';
import { defaultRegistry } from '../../metrics/registry.js';
import { mertObjective } from '../../tuning/mert/objective-name.js';
import { prepareMertRuns, runMertStart, type MertOptions, type MertRun } from '../../tuning/mert/optimizer.js';
import { mertProblem } from '../../tuning/mert/problem.js';
import type { TaskHandler } from './handler.js';

/** What every MERT worker receives once. */
export interface MertWorkerSetup {
  /** Features, `candidates × dimensions` (on a SharedArrayBuffer: not copied per worker). */
  readonly features: Float32Array;
  readonly dimensions: number;
  /** Statistics rows (shared too). */
  readonly stats: Float64Array;
  readonly candidateOffsets: Int32Array;
  /** `--sctype`. */
  readonly scorer: string;
  /** The options of the run (`streams: 'per-run'`). */
  readonly options: MertOptions;
}

/** The MERT kind: the problem and options; one start point's index; its run. */
export interface MertKind {
  readonly setup: MertWorkerSetup;
  readonly task: number;
  readonly result: MertRun;
}

/** Sets the kind up in a worker. */
export function createHandler(setup: MertWorkerSetup): TaskHandler<number, MertRun> {
  const objective = mertObjective(setup.scorer, defaultRegistry);
  const problem = mertProblem({
    features: setup.features,
    dimensions: setup.dimensions,
    stats: setup.stats,
    candidateOffsets: setup.candidateOffsets,
    objective,
  });
  const plan = prepareMertRuns(problem, setup.options);
  return { run: (index) => runMertStart(problem, plan, index) };
}
