/**
 * N-gram statistics tasks in a pool worker (the main side is ../ngram-pool.ts): a range of hypotheses of a shared
 * batch, rows written into the task's slice of a shared output. The worker instantiates its own kernels (a private
 * linear memory: a shared memory would put every instance's AssemblyScript static data at the same addresses) and
 * warms the instance up with a small batch when it is set up, so that no real task runs on the baseline (Liftoff)
 * tier.
 *
 * A task that fails drops the instance: the retry, here or on another worker, starts from a fresh memory.
 */
import { csrFromArrays } from '../../text/csr.js';
import { instantiateKernels } from '../../wasm/load.js';
import { KernelNgramWeights, NgramEngine } from '../../wasm/ngram-engine.js';
import { runNgramTask, viewNgramBatch, type NgramTask } from '../ngram-task.js';
import type { TaskHandler } from './handler.js';

/** The n-gram kind: nothing to set up but the kernels; a task; the rows it wrote. */
export interface NgramKind {
  readonly setup: null;
  readonly task: NgramTask;
  readonly result: number;
}

/** Enough calls on a few hundred short segments for the engine to tier up (TurboFan) before real work. */
function warmUp(engine: NgramEngine): void {
  const rows: number[][] = [];
  for (let i = 0; i < 400; i++) rows.push([i % 7, (i * 3) % 11, i % 5, (i + 1) % 7, i % 13, 2, 3, i % 4]);
  const hyps = csrFromArrays(rows);
  const refs = csrFromArrays(rows.map((r) => r.slice().reverse()));
  const segRefOffsets = Int32Array.from({ length: rows.length + 1 }, (_, i) => i);
  for (let k = 0; k < 20; k++) engine.clippedNgramCounts({ hyps, hypSegment: null, refs, segRefOffsets }, 4);
}

/** Sets the kind up in a worker. */
export function createHandler(_setup: null, module: WebAssembly.Module): TaskHandler<NgramTask, number> {
  let engine: NgramEngine | null = null;
  let weightsRun = -1;
  let weights: KernelNgramWeights | undefined;
  const currentEngine = (): NgramEngine => {
    if (engine === null) {
      engine = new NgramEngine(instantiateKernels(module));
      weightsRun = -1;
      weights = undefined;
    }
    return engine;
  };
  warmUp(currentEngine());
  return {
    run(task) {
      const e = currentEngine();
      if (task.weights === null) {
        weights = undefined;
        weightsRun = -1;
      } else if (task.runId !== weightsRun) {
        // The weights table is posted with every task of a call; it is loaded once per call (`runId`).
        const w = task.weights;
        weights = new KernelNgramWeights(e, w.maxOrder, new Uint8Array(w.image), w.capacity);
        weightsRun = task.runId;
      }
      return runNgramTask(e, task, viewNgramBatch(task.batch), weights);
    },
    failed() {
      engine = null;
    },
  };
}
