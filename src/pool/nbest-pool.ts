/**
 * The worker pool of `palette nbest`: whole chunks of the n-best list (raw bytes) are parsed, tokenized, interned,
 * scored by every metric, deduplicated and encoded in the workers (./kinds/nbest.ts); the main thread reads the
 * file, cuts it at segment boundaries, writes the returned bytes in order and scores a chunk itself whenever the
 * workers hold all the tasks they can: the engine's scheduling loop (src/engine/nbest/run.ts), for which this pool
 * is the runner ({@link nbestWorkerPool}). Workers, retries and task capacity are the one pool's (./task-pool.ts).
 *
 * - References are posted once: every reference line's UTF-8 bytes in one `SharedArrayBuffer` with offsets; a task
 *   decodes and prepares only the references of its own segments.
 * - A task's input is a `SharedArrayBuffer` of raw bytes (no copy on posting; still there for a retry); its result
 *   is one transferred byte array (the encoded blocks), never an object per hypothesis.
 * - Token ids: tokenization and interning happen in the workers, per task. A segment lives in exactly one task, and
 *   each metric prepares the task's references and reads the task's candidates into one vocabulary of its own, so
 *   the ids of a candidate and of its references come from the same table; statistics depend only on token
 *   equality within a segment, so the output is identical for any number of workers and any task size (NIST, whose
 *   weights need every reference, prepares the whole reference set once per worker).
 * - A task whose second attempt fails rejects with {@link PoolTaskError}. Bad input is not a failure: it comes back
 *   as data (file, line, message).
 */
import type { SegmentChunk } from '../corpus/stream/segment-chunks.js';
import type { ChunkResult } from '../engine/nbest/chunk-job.js';
import type { NbestChunkRunner, NbestRunnerFactory } from '../engine/nbest/run.js';
import type { NbestWorkerSetup } from './kinds/nbest.js';
import { TaskPool, type InjectedFault } from './task-pool.js';

/** A fault injected into one task (tests only; never reachable from the command line). */
export interface NbestInjectedFault {
  readonly task: number;
  readonly kind: InjectedFault;
  readonly attempts: number;
  readonly then?: InjectedFault;
}

/** Options of an {@link NbestPool}. */
export interface NbestPoolOptions extends NbestWorkerSetup {
  /** Worker threads (≥ 1). */
  readonly workers: number;
  /** Compiled kernels (default `wasmModule()`). */
  readonly module?: WebAssembly.Module;
  /**
   * Tests of the retry path: task number `task` simulates `kind` on its first `attempts` attempts, then `then` (if
   * set) on the next one.
   */
  readonly injectFault?: NbestInjectedFault;
}

/** A pool of n-best workers; see the file comment. */
export class NbestPool implements NbestChunkRunner {
  private readonly pool: TaskPool<'nbest'>;
  private readonly fault: NbestInjectedFault | undefined;
  private nextTask = 0;
  private ready = false;

  constructor(options: NbestPoolOptions) {
    const { workers, module, injectFault, refs, settings, spec } = options;
    this.pool = new TaskPool({ kind: 'nbest', workers, module, setup: { refs, settings, spec } });
    this.fault = injectFault;
    // A worker that fails to start fails its tasks too (and they are reported): started either way.
    this.pool.start().then(
      () => (this.ready = true),
      () => (this.ready = true),
    );
  }

  /** Whether every worker has loaded and set up (the scheduling loop does not wait on tasks before that). */
  get started(): boolean {
    return this.ready;
  }

  /** Worker threads. */
  get workers(): number {
    return this.pool.workers;
  }

  /** Tasks run, tasks retried (each at most once), time spent inside tasks (ms, summed over workers). */
  get counters(): { readonly tasks: number; readonly retries: number; readonly busyMs: number } {
    return this.pool.counters;
  }

  /** Waits until every worker has loaded (and warmed up). */
  start(): Promise<void> {
    return this.pool.start();
  }

  /** Tasks handed to {@link run} and not yet settled. */
  get inFlight(): number {
    return this.pool.inFlight;
  }

  /** Tasks the workers can hold at once: more would only wait in the queue. */
  get capacity(): number {
    return this.pool.capacity;
  }

  /**
   * Runs one chunk (retried once on a worker failure).
   * @throws PoolTaskError when both attempts fail.
   */
  async run(chunk: SegmentChunk): Promise<ChunkResult> {
    const t = this.nextTask++;
    const fault = this.fault;
    let faults: InjectedFault[] | undefined;
    if (fault !== undefined && fault.task === t) {
      faults = new Array<InjectedFault>(fault.attempts).fill(fault.kind);
      if (fault.then !== undefined) faults.push(fault.then);
    }
    const task = { bytes: chunk.bytes, firstLine: chunk.firstLine, byteOffset: chunk.byteOffset };
    const outcome = await this.pool.run(task, { label: () => `n-best task ${t} (lines from ${chunk.firstLine})`, faults });
    return outcome.result;
  }

  /** Stops the workers. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * The engine's runner factory with a pool of n-best workers (`palette nbest --workers N`, the library's
 * `scoreNbest(…, { workers: N, pool: nbestWorkerPool })`); `injectFault` is for tests of the retry path.
 */
export function nbestPoolRunner(options: { readonly injectFault?: NbestInjectedFault } = {}): NbestRunnerFactory {
  return (setup) => new NbestPool({ ...setup, injectFault: options.injectFault });
}

/** The worker pool of streaming n-best scoring (see {@link nbestPoolRunner}). */
export const nbestWorkerPool: NbestRunnerFactory = nbestPoolRunner();
