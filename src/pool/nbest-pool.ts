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
import { TaskPool, type InjectedFault, type KernelsFile } from './task-pool.js';

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
  private readonly stopping: ((stopped: Promise<void>) => void) | undefined;
  private nextTask = 0;
  private ready = false;

  constructor(
    options: (NbestPoolOptions | { readonly early: EarlyNbestPool; readonly setup: NbestWorkerSetup; readonly injectFault?: NbestInjectedFault }) & {
      readonly stopping?: (stopped: Promise<void>) => void;
    },
  ) {
    if ('early' in options) {
      this.pool = options.early.adopt(options.setup);
    } else {
      const { workers, module, refs, settings, spec } = options;
      this.pool = new TaskPool({ kind: 'nbest', workers, module, setup: { refs, settings, spec } });
    }
    this.fault = options.injectFault;
    this.stopping = options.stopping;
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
  async run(chunk: SegmentChunk, spare?: Uint8Array): Promise<ChunkResult> {
    const t = this.nextTask++;
    const fault = this.fault;
    let faults: InjectedFault[] | undefined;
    if (fault !== undefined && fault.task === t) {
      faults = new Array<InjectedFault>(fault.attempts).fill(fault.kind);
      if (fault.then !== undefined) faults.push(fault.then);
    }
    const task = { bytes: chunk.bytes, firstLine: chunk.firstLine, byteOffset: chunk.byteOffset };
    // The spare output array goes to the worker with the first attempt only (transferred, it is gone if that fails).
    const first = spare === undefined ? undefined : { task: { ...task, out: spare }, transfer: [spare.buffer as ArrayBuffer] };
    const outcome = await this.pool.run(task, { label: () => `n-best task ${t} (lines from ${chunk.firstLine})`, faults, first });
    return outcome.result;
  }

  /**
   * Stops the workers. Given `stopping`, it only starts to: the promise of their stop goes to `stopping`, and this
   * resolves at once (see {@link nbestPoolRunner}).
   */
  close(): Promise<void> {
    const stopped = this.pool.close();
    if (this.stopping === undefined) return stopped;
    // Awaited by whoever `stopping` gives it to; until then a failure must not count as unhandled.
    stopped.catch(() => {});
    this.stopping(stopped);
    return Promise.resolve();
  }
}

/**
 * A pool of n-best workers started before the run's references and metrics are known (`palette nbest -j N` starts
 * it at the command's entry): its workers load their code on a core the starting command leaves idle, and get the
 * setup and the kernels when the run adopts the pool ({@link nbestPoolRunner}'s `early`). A pool no run adopted
 * (the run was merged, queued, ran in-thread or failed first) must be {@link dispose}d.
 */
export class EarlyNbestPool {
  private pool: TaskPool<'nbest'> | undefined;
  private taken = false;

  /**
   * Starts `workers` threads (≥ 1): the pool's, without the calling thread. With `kernels` (the file the run's
   * kernels will be read from), the workers compile them while they wait, and get the setup in shared memory.
   */
  constructor(readonly workers: number, kernels?: KernelsFile) {
    this.pool = new TaskPool({ kind: 'nbest', workers, kernels });
  }

  /** Whether a run took the pool (it closes it then). */
  get adopted(): boolean {
    return this.taken;
  }

  /** Gives the workers their setup (the kernels: `wasmModule()`); the pool is the caller's to close from now on. */
  adopt(setup: NbestWorkerSetup): TaskPool<'nbest'> {
    if (this.pool === undefined || this.taken) throw new Error('the early n-best pool was already adopted or disposed');
    this.taken = true;
    this.pool.configure(setup);
    return this.pool;
  }

  /** Stops the workers unless a run adopted the pool (that run closes it). */
  async dispose(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    if (pool !== undefined && !this.taken) await pool.terminate();
  }
}

/**
 * The engine's runner factory with a pool of n-best workers (`palette nbest --workers N`, the library's
 * `scoreNbest(…, { workers: N, pool: nbestWorkerPool })`); `injectFault` is for tests of the retry path. With
 * `early`, a run asking for as many pool workers as it started adopts it instead of starting a pool.
 *
 * With `stopping`, the run's end does not wait for the workers to stop: the promise of their stop goes to
 * `stopping` for the caller to await later. Stopping a worker thread (its heap and environment taken down) took
 * 12–19 ms at the end of a 1M-candidate run at -j 2, with the other core idle; `palette nbest` commits its output
 * (a rename, 20+ ms when it replaces a file of 100 MB) meanwhile.
 */
export function nbestPoolRunner(
  options: {
    readonly injectFault?: NbestInjectedFault;
    readonly early?: EarlyNbestPool;
    readonly stopping?: (stopped: Promise<void>) => void;
  } = {},
): NbestRunnerFactory {
  return (setup) => {
    const { early, injectFault, stopping } = options;
    if (early !== undefined && early.workers === setup.workers) {
      const { refs, settings, spec } = setup;
      return new NbestPool({ early, setup: { refs, settings, spec }, injectFault, stopping });
    }
    return new NbestPool({ ...setup, injectFault, stopping });
  };
}

/** The worker pool of streaming n-best scoring (see {@link nbestPoolRunner}). */
export const nbestWorkerPool: NbestRunnerFactory = nbestPoolRunner();
