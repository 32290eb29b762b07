/**
 * `palette pairwise -j N`: the rows of an all-pairs matrix on N workers of the one pool (./task-pool.ts, pairwise
 * kind: ./kinds/pairwise.ts). Every worker prepares the texts once; a task is a block of rows, and the blocks come
 * back to the caller in row order (each is what `PairwiseScorer.scoreRows` gives in this thread), while the
 * workers run ahead by at most a few blocks each, so memory stays bounded by those blocks.
 */
import type { MetricSettings } from '../metrics/registry.js';
import { TASKS_PER_WORKER, TaskPool } from './task-pool.js';

/**
 * Scores rows `[0, hyps.length)` in blocks of `blockRows` on `workers` threads and hands each block to `onBlock` in
 * row order.
 * @param metric the `-m` name (workers rebuild the metric from it and `settings`)
 */
export async function pairwiseRowsOnPool(
  metric: string,
  settings: MetricSettings,
  hyps: readonly string[],
  refs: readonly string[],
  workers: number,
  blockRows: number,
  onBlock: (from: number, to: number, scores: Float64Array) => void,
): Promise<void> {
  const blocks = Math.ceil(hyps.length / blockRows);
  const pool = new TaskPool({ kind: 'pairwise', workers: Math.max(1, Math.min(workers, blocks)), setup: { metric, settings, hyps, refs } });
  try {
    const pending: Promise<Float64Array>[] = [];
    const ahead = pool.workers * TASKS_PER_WORKER;
    let next = 0;
    const submit = (): void => {
      const from = next * blockRows;
      const to = Math.min(hyps.length, from + blockRows);
      pending.push(pool.run({ from, to }, { label: () => `pairwise rows ${from + 1}..${to}` }).then((o) => o.result));
      next++;
    };
    for (let b = 0; b < blocks; b++) {
      while (next < blocks && next < b + ahead) submit();
      const scores = await pending[b];
      delete pending[b];
      onBlock(b * blockRows, Math.min(hyps.length, (b + 1) * blockRows), scores);
    }
  } finally {
    await pool.close();
  }
}
