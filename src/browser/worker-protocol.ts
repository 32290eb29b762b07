/** The messages between the browser's corpus pool (./worker-pool.ts) and its workers (./corpus-worker.ts). */
import type { CorpusRunnerSetup, CorpusTask, CorpusTaskResult } from '../engine/corpus/index.js';

/** What the pool sends a worker: once the set-up with the compiled kernels, then tasks. */
export type ToWorker =
  | { readonly type: 'setup'; readonly module: WebAssembly.Module; readonly setup: Omit<CorpusRunnerSetup, 'workers'> }
  | { readonly type: 'task'; readonly id: number; readonly task: CorpusTask };

/** What a worker answers: ready after the set-up, a task's result, or a failure it could not turn into data. */
export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'result'; readonly id: number; readonly result: CorpusTaskResult }
  | { readonly type: 'failed'; readonly id: number | null; readonly message: string };
