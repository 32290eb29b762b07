/**
 * Pairwise rows in a pool worker (the main side is ../pairwise-pool.ts): each worker builds the metric from its
 * `-m` name and settings and prepares both sets of texts once, then scores blocks of matrix rows, exactly as the
 * calling thread would (src/engine/pairwise, `PairwiseScorer.scoreRows`), so a block's scores do not depend on the
 * thread or the thread count.
 */
import '../../node/install.js';
import { PairwiseScorer } from '../../engine/pairwise/index.js';
import { defaultRegistry, type MetricSettings } from '../../metrics/registry.js';
import type { TaskHandler } from './handler.js';

/** What every pairwise worker receives once. */
export interface PairwiseWorkerSetup {
  /** The metric as `-m` names it. */
  readonly metric: string;
  /** Its settings. */
  readonly settings: MetricSettings;
  /** The hypotheses (matrix rows). */
  readonly hyps: readonly string[];
  /** The references (matrix columns). */
  readonly refs: readonly string[];
}

/** A block of matrix rows `[from, to)`. */
export interface PairwiseRowTask {
  readonly from: number;
  readonly to: number;
}

/** The pairwise kind: the texts and the metric; a block of rows; its `(to - from) × columns` scores. */
export interface PairwiseKind {
  readonly setup: PairwiseWorkerSetup;
  readonly task: PairwiseRowTask;
  readonly result: Float64Array;
}

/** Sets the kind up in a worker. */
export function createHandler(setup: PairwiseWorkerSetup): TaskHandler<PairwiseRowTask, Float64Array> {
  const { metric } = defaultRegistry.create(setup.metric, setup.settings);
  const scorer = new PairwiseScorer(metric, setup.hyps, setup.refs);
  return {
    run: ({ from, to }) => scorer.scoreRows(from, to),
    transfer: (scores) => [scores.buffer as ArrayBuffer],
  };
}
