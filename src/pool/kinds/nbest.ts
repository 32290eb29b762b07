/**
 * N-best chunk tasks in a pool worker (the main side is ../nbest-pool.ts): raw bytes of whole segments in, encoded
 * blocks out (one byte array, transferred). The run's metrics are built once per worker — the metric registry, and
 * with it the Node adapter (a worker is a fresh module graph; its metrics may read a paraphrase table file or load
 * compromise), only when a metric other than BLEU asks for it, since it imports every metric and its resources —
 * and a few references are scored as candidates to warm up.
 */
import {
  chunkJobContext, runChunkJob, sharedReferenceSource, type ChunkJobContext, type ChunkResult, type SharedReferences,
} from '../../engine/nbest/chunk-job.js';
import { needsRegistry, type NbestMetricSpec } from '../../engine/nbest/nbest-metrics.js';
import { scoreTask, type NbestTaskSettings } from '../../engine/nbest/nbest-task.js';
import type { MetricRegistry } from '../../metrics/registry.js';
import { lazyImport } from '../lazy-import.js';
import type { TaskHandler } from './handler.js';

/** What every n-best worker receives once. */
export interface NbestWorkerSetup {
  readonly refs: SharedReferences;
  readonly settings: NbestTaskSettings;
  readonly spec: NbestMetricSpec;
}

/** One chunk of the list. */
export interface NbestChunkTask {
  /** Raw bytes of whole segments, in shared memory. */
  readonly bytes: Uint8Array;
  readonly firstLine: number;
  readonly byteOffset: number;
  /** An output array the calling thread has written out, for this task's output (transferred, this worker's now). */
  readonly out?: Uint8Array;
}

/** The n-best kind: the run's references and metrics; a chunk; its encoded blocks (bad input as data). */
export interface NbestKind {
  readonly setup: NbestWorkerSetup;
  readonly task: NbestChunkTask;
  readonly result: ChunkResult;
}

/** Output arrays a worker keeps from its tasks at most (each task's output takes one back with it). */
const MAX_WORKER_SPARES = 4;

/** Scores a few segments' references as candidates, so that the first real task runs on optimized code. */
function warmUp(context: ChunkJobContext, setup: NbestWorkerSetup): void {
  const { refs } = context;
  let text = '';
  const segments = Math.min(refs.segments, 8);
  for (let s = 0; s < segments; s++) {
    for (let k = 0; k < 16; k++) text += `${s} ||| ${refs.line(k % refs.nRefs, s)} ||| 0 ||| 0\n`;
  }
  try {
    const settings = { ...setup.settings, allowDuplicates: true };
    const bytes = new TextEncoder().encode(text);
    for (let r = 0; r < 4; r++) scoreTask(text, 1, settings, context.metrics, refs, context.fused, bytes);
  } catch {
    // Warm-up only: a reference a metric refuses as a candidate changes nothing for the real tasks.
  }
}

/**
 * This file's `require` when it runs as CommonJS (from the sources, through tsx), undefined in a built worker; see
 * ../lazy-import.ts for why it is never called as a literal `require`.
 */
const sourceRequire = typeof __filename === 'string' && typeof require === 'function' ? require : undefined;

/**
 * The metric registry with the Node adapter installed and the code of the run's metrics loaded (no other metric's),
 * or none for BLEU alone.
 */
async function registryFor(spec: NbestMetricSpec): Promise<MetricRegistry | undefined> {
  if (!needsRegistry(spec.ids)) return undefined;
  const defaultRegistry = await registryCode();
  // From the sources (through tsx) the registry's import() of a metric's code fails in a worker thread (no loader
  // hooks there): the module that installs every metric's code is required instead.
  if (sourceRequire !== undefined) sourceRequire('../../metrics/registry.js');
  else await defaultRegistry.load?.(spec.ids);
  return defaultRegistry;
}

/** The Node adapter installed and the catalog's registry, whose metrics' code is not loaded yet. */
async function registryCode(): Promise<MetricRegistry> {
  await lazyImport(() => import('../../node/install.js'), sourceRequire && (() => sourceRequire('../../node/install.js')));
  const { defaultRegistry } = await lazyImport(
    () => import('../../metrics/default-registry.js'),
    sourceRequire && (() => sourceRequire('../../metrics/default-registry.js')),
  );
  return defaultRegistry;
}

/**
 * Loads the registry's code before the run's metrics are known (a pool started early, while the calling thread is
 * still starting up): the metrics' own code loads in {@link createHandler}.
 */
export async function preload(): Promise<void> {
  await registryCode();
}

/** Sets the kind up in a worker. */
export async function createHandler(setup: NbestWorkerSetup): Promise<TaskHandler<NbestChunkTask, ChunkResult>> {
  const registry = await registryFor(setup.spec);
  const context = chunkJobContext(setup.settings, setup.spec, sharedReferenceSource(setup.refs), registry);
  warmUp(context, setup);
  return {
    run: (task) => {
      // The output goes into the array that came with the task when it is long enough: its buffer goes back with
      // the result, so the worker keeps none (the spare list stays at one or two).
      if (task.out !== undefined && context.spareOut.length < MAX_WORKER_SPARES) context.spareOut.push(task.out);
      return runChunkJob(context, task.bytes, task.firstLine, task.byteOffset, true);
    },
    // The result is one byte array (its own buffer; two with FEATURES_TXT blocks), not an object per hypothesis.
    transfer: (result) => {
      if (!result.ok) return [];
      const buffers = [result.out.buffer as ArrayBuffer];
      if (result.features !== undefined) buffers.push(result.features.buffer as ArrayBuffer);
      return buffers;
    },
  };
}
