/**
 * The piscina worker of the n-gram pool. It installs the compiled `WebAssembly.Module` it is given in `workerData`
 * (never reading or compiling the `.wasm` again), instantiates its own kernels with a private linear memory (a shared
 * memory would put every instance's AssemblyScript static data at the same addresses), and warms the instance up
 * with a small batch when it loads, so that no real task runs on the baseline (Liftoff) tier.
 *
 * A task that fails drops the instance: the retry, here or on another worker, starts from a fresh memory.
 */
import { workerData } from 'piscina';
import { csrFromArrays } from '../text/csr.js';
import { instantiateKernels } from '../wasm/load.js';
import { KernelNgramWeights, NgramEngine } from '../wasm/ngram-engine.js';
import { runNgramTask, viewNgramBatch, type NgramTask } from './ngram-task.js';

/** What the pool passes to every worker. */
export interface NgramWorkerData {
  readonly module: WebAssembly.Module;
}

const { module } = workerData as NgramWorkerData;

let engine: NgramEngine | null = null;
let weightsRun = -1;
let weights: KernelNgramWeights | undefined;

function currentEngine(): NgramEngine {
  if (engine === null) {
    engine = new NgramEngine(instantiateKernels(module));
    weightsRun = -1;
    weights = undefined;
  }
  return engine;
}

/** Enough calls on a few hundred short segments for the engine to tier up (TurboFan) before real work. */
function warmUp(): void {
  const rows: number[][] = [];
  for (let i = 0; i < 400; i++) rows.push([i % 7, (i * 3) % 11, i % 5, (i + 1) % 7, i % 13, 2, 3, i % 4]);
  const hyps = csrFromArrays(rows);
  const refs = csrFromArrays(rows.map((r) => r.slice().reverse()));
  const segRefOffsets = Int32Array.from({ length: rows.length + 1 }, (_, i) => i);
  const e = currentEngine();
  for (let k = 0; k < 20; k++) e.clippedNgramCounts({ hyps, hypSegment: null, refs, segRefOffsets }, 4);
}

warmUp();

/** Runs one task (see `NgramTask`); returns the time spent in it, ms (the pool's overhead accounting). */
export default function ngramWorker(task: NgramTask): number {
  if (task.fault === 'exit') process.exit(70);
  const start = performance.now();
  try {
    if (task.fault === 'throw') throw new Error('injected fault');
    const e = currentEngine();
    if (task.weights === null) {
      weights = undefined;
      weightsRun = -1;
    } else if (task.runId !== weightsRun) {
      const w = task.weights;
      weights = new KernelNgramWeights(e, w.maxOrder, new Uint8Array(w.image), w.capacity);
      weightsRun = task.runId;
    }
    runNgramTask(e, task, viewNgramBatch(task.batch), weights);
    return performance.now() - start;
  } catch (error) {
    engine = null;
    throw error;
  }
}

/** A no-op task: `NgramPool.start` runs it to wait until the workers have loaded (and warmed up). */
export function ping(): number {
  return 0;
}
