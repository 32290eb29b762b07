/**
 * The runner of corpus scoring (src/engine/corpus/): tasks — one metric over the distinct hypotheses of a run of
 * segments — go to workers of the one pool (./task-pool.ts, corpus kind: ./kinds/corpus.ts), which build the run's
 * metrics once from their ids and settings; their rows come back transferred, not copied. Retries and task capacity
 * are the pool's.
 */
import type { CorpusRunnerFactory, CorpusTask, CorpusTaskResult, CorpusTaskRunner } from '../engine/corpus/index.js';
import { TaskPool } from './task-pool.js';

/** A pool of corpus workers for one run. */
class CorpusPool implements CorpusTaskRunner {
  private readonly pool: TaskPool<'corpus'>;
  private nextTask = 0;

  constructor(setup: Parameters<CorpusRunnerFactory>[0]) {
    const { workers, ids, settings, references } = setup;
    this.pool = new TaskPool({ kind: 'corpus', workers, setup: { ids, settings, references } });
  }

  /** Waits until every worker has loaded and built the run's metrics. */
  start(): Promise<void> {
    return this.pool.start();
  }

  get capacity(): number {
    return this.pool.capacity;
  }

  get inFlight(): number {
    return this.pool.inFlight;
  }

  async run(task: CorpusTask): Promise<CorpusTaskResult> {
    const t = this.nextTask++;
    const label = (): string => `corpus task ${t} (metric ${task.metric + 1}, segments from ${task.from + 1})`;
    return (await this.pool.run(task, { label })).result;
  }

  /** Stops the workers; a task still running is abandoned (the engine has taken its rows from its own thread). */
  close(): Promise<void> {
    return this.pool.inFlight > 0 ? this.pool.terminate() : this.pool.close();
  }
}

/**
 * The engine's runner factory for corpus scoring with pool workers (`palette score -j N`, the library's
 * `scoreSystemRows(…, { workers: N, pool: corpusWorkerPool })`).
 */
export const corpusWorkerPool: CorpusRunnerFactory = (setup) => new CorpusPool(setup);
