/**
 * The piscina worker of `palette nbest` (see nbest-pool.ts): installs the compiled kernels it is given (never
 * compiling the `.wasm` again; its instances get private memories), builds the run's metrics, warms up on a few
 * references scored as candidates, then runs chunk jobs: bytes in, encoded blocks out.
 */
import { workerData } from 'piscina';
import { useWasmModule } from '../wasm/load.js';
import { chunkJobContext, runChunkJob, sharedReferenceSource, type ChunkResult } from '../cli/nbest/chunk-job.js';
import { scoreTask } from '../cli/nbest/nbest-task.js';
import type { NbestPoolTask, NbestWorkerData } from './nbest-pool.js';

const data = workerData as NbestWorkerData;
useWasmModule(data.module);
const refs = sharedReferenceSource(data.refs);
const context = chunkJobContext(data.settings, data.spec, refs);

/** Scores a few segments' references as candidates, so that the first real task runs on optimized code. */
function warmUp(): void {
  let text = '';
  const segments = Math.min(refs.segments, 8);
  for (let s = 0; s < segments; s++) {
    for (let k = 0; k < 16; k++) text += `${s} ||| ${refs.line(k % refs.nRefs, s)} ||| 0 ||| 0\n`;
  }
  try {
    for (let r = 0; r < 4; r++) scoreTask(text, 1, { ...data.settings, allowDuplicates: true }, context.metrics, refs);
  } catch {
    // Warm-up only: a reference a metric refuses as a candidate changes nothing for the real tasks.
  }
}

warmUp();

/** Runs one task. */
export default function nbestWorker(task: NbestPoolTask): ChunkResult {
  if (task.fault === 'exit') process.exit(70);
  if (task.fault === 'throw') throw new Error('injected fault');
  // The result is one byte array (cloned back once, a memcpy), not an object per hypothesis.
  return runChunkJob(context, task.bytes, task.firstLine, task.byteOffset);
}

/** A no-op task: {@link NbestPool.start} runs it to wait until the workers have loaded. */
export function ping(): number {
  return 0;
}
