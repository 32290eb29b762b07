/**
 * `palette mbr -j N`: MBR decoding of runs of segments on N workers of the one pool (./task-pool.ts, mbr kind:
 * ./kinds/mbr.ts). The runs come back to the caller in segment order, with at most a few runs per worker in flight,
 * so memory stays bounded by those runs (their matrices included when `--matrix` asks for them).
 */
import { InputError } from '../errors.js';
import type { MbrTaskResult, MbrWorkerSetup } from './kinds/mbr.js';
import { TASKS_PER_WORKER, TaskPool } from './task-pool.js';

/** Pairs of one task, about: runs of segments are cut to hold this many (at least one segment). */
const PAIRS_PER_TASK = 1 << 18;

/** One run of segments' decisions. */
export type MbrRun = Extract<MbrTaskResult, { ok: true }>;

/**
 * Decides every segment of `setup.samples` on `workers` threads and hands each run of segments to `onRun` in
 * segment order.
 * @param pairsPerTask pairs a task holds, about (runs of segments are cut to it, at least one segment each)
 * @throws InputError the first input error of a segment (its line counted in the whole input).
 */
export async function mbrOnPool(
  setup: MbrWorkerSetup,
  workers: number,
  onRun: (from: number, to: number, run: MbrRun) => void,
  pairsPerTask = PAIRS_PER_TASK,
): Promise<void> {
  const segments = setup.samples[0]?.length ?? 0;
  const rows = setup.samples.length;
  const columns = setup.pseudoRefs?.length ?? rows;
  const perTask = Math.max(1, Math.floor(pairsPerTask / Math.max(1, rows * columns)));
  const tasks = Math.ceil(segments / perTask);
  if (tasks === 0) return;
  const pool = new TaskPool({ kind: 'mbr', workers: Math.max(1, Math.min(workers, tasks)), setup });
  try {
    const pending: Promise<MbrTaskResult>[] = [];
    const ahead = pool.workers * TASKS_PER_WORKER;
    let next = 0;
    for (let t = 0; t < tasks; t++) {
      while (next < tasks && next < t + ahead) {
        const from = next * perTask;
        const to = Math.min(segments, from + perTask);
        pending.push(pool.run({ from, to }, { label: () => `MBR segments ${from + 1}..${to}` }).then((o) => o.result));
        next++;
      }
      const result = await pending[t];
      delete pending[t];
      if (!result.ok) throw new InputError(result.error.code, result.error.message, { line: result.error.line });
      onRun(t * perTask, Math.min(segments, (t + 1) * perTask), result);
    }
  } finally {
    await pool.close();
  }
}
