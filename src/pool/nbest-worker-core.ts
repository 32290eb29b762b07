/**
 * What the `palette nbest` workers run (see nbest-pool.ts), given the metric registry or none: the compiled kernels
 * from `workerData` are installed (never compiling the `.wasm` again; instances get private memories), the run's
 * metrics are built, a few references are scored as candidates to warm up, then chunk jobs run: bytes in, encoded
 * blocks out. Two entry files use it, so that a BLEU-only run never loads the registry (every metric and its
 * resources): nbest-worker.ts (BLEU only) and nbest-worker-metrics.ts (any metric). They import the registry
 * statically because a worker started from the TypeScript sources (tsx) cannot import a module dynamically.
 */
import { Piscina, workerData } from 'piscina';
import { useWasmModule } from '../wasm/load.js';
import {
  chunkJobContext, runChunkJob, sharedReferenceSource, type ChunkJobContext, type ChunkResult,
} from '../engine/nbest/chunk-job.js';
import { scoreTask } from '../engine/nbest/nbest-task.js';
import type { MetricRegistry } from '../metrics/registry.js';
import type { NbestPoolTask, NbestWorkerData } from './nbest-pool.js';

/** The task handlers of a worker. */
export interface NbestWorkerHandlers {
  /** Runs one task. */
  run(task: NbestPoolTask): ChunkResult | MovedResult;
  /** Returns once the worker has loaded and warmed up (`NbestPool.start` runs it on every worker). */
  ping(): number;
}

/** A result whose output bytes are transferred to the main thread, not copied (piscina's `move` protocol). */
export interface MovedResult {
  readonly [Piscina.transferableSymbol]: ArrayBuffer;
  readonly [Piscina.valueSymbol]: ChunkResult;
}

/** Scores a few segments' references as candidates, so that the first real task runs on optimized code. */
function warmUp(context: ChunkJobContext, data: NbestWorkerData): void {
  const { refs } = context;
  let text = '';
  const segments = Math.min(refs.segments, 8);
  for (let s = 0; s < segments; s++) {
    for (let k = 0; k < 16; k++) text += `${s} ||| ${refs.line(k % refs.nRefs, s)} ||| 0 ||| 0\n`;
  }
  try {
    const settings = { ...data.settings, allowDuplicates: true };
    for (let r = 0; r < 4; r++) scoreTask(text, 1, settings, context.metrics, refs, context.fused);
  } catch {
    // Warm-up only: a reference a metric refuses as a candidate changes nothing for the real tasks.
  }
}

/** Sets the worker up (once, when its entry file loads) and returns its handlers. */
export function nbestWorkerHandlers(registry: MetricRegistry | undefined): NbestWorkerHandlers {
  const data = workerData as NbestWorkerData;
  useWasmModule(data.module);
  const context = chunkJobContext(data.settings, data.spec, sharedReferenceSource(data.refs), registry);
  warmUp(context, data);
  return {
    run(task) {
      if (task.fault === 'exit') process.exit(70);
      if (task.fault === 'throw') throw new Error('injected fault');
      // The result is one byte array (its own buffer, transferred), not an object per hypothesis.
      const result = runChunkJob(context, task.bytes, task.firstLine, task.byteOffset);
      if (!result.ok) return result;
      const moved = { [Piscina.transferableSymbol]: result.out.buffer, [Piscina.valueSymbol]: result };
      return Piscina.move(moved as never) as unknown as MovedResult;
    },
    ping: () => 0,
  };
}
