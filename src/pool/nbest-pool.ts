/**
 * The worker pool of `palette nbest`: whole chunks of the n-best list (raw bytes) are parsed, tokenized, interned,
 * scored by every metric, deduplicated and encoded in the workers; the main thread reads the file, cuts it at
 * segment boundaries, writes the returned bytes in order and scores a chunk itself whenever the workers hold all
 * the tasks they can: the engine's scheduling loop (src/engine/nbest/run.ts), for which this pool is the runner
 * ({@link nbestWorkerPool}).
 *
 * Design (spec/PERFORMANCE.md, "The glue is where speed is lost"):
 * - piscina runs `nbest-worker.ts` (BLEU only) or `nbest-worker-metrics.ts` (`.js` once compiled). The kernels are compiled once on the main
 *   thread and the `WebAssembly.Module` goes to every worker in `workerData`; each worker instantiates it with its
 *   own private linear memory (AssemblyScript static data would collide in a shared memory) and warms up on load.
 * - References are posted once: every reference line's UTF-8 bytes in one `SharedArrayBuffer` with offsets; a task
 *   decodes and prepares only the references of its own segments.
 * - A task's input is a `SharedArrayBuffer` of raw bytes (no copy on posting; still there for a retry); its result
 *   is one transferred byte array (the encoded blocks), never an object per hypothesis.
 * - Token ids: tokenization and interning happen in the workers, per task. A segment lives in exactly one task, and
 *   each metric prepares the task's references and reads the task's candidates into one vocabulary of its own, so
 *   the ids of a candidate and of its references come from the same table; statistics depend only on token
 *   equality within a segment, so the output is identical for any number of workers and any task size (NIST, whose
 *   weights need every reference, prepares the whole reference set once per worker).
 * - Each worker holds {@link TASKS_PER_WORKER} tasks, so its next task is already waiting when one ends.
 * - A task whose worker throws, or dies (piscina replaces the thread), is retried once; a worker that dies fails
 *   every task it held, and each of them is retried once. A task's second failure rejects with
 *   {@link PoolTaskError}. Bad input is not a failure: it comes back as data (file, line, message).
 */
import { Piscina } from 'piscina';
import { wasmModule } from '../wasm/load.js';
import type { SegmentChunk } from '../corpus/stream/segment-chunks.js';
import type { ChunkResult, SharedReferences } from '../engine/nbest/chunk-job.js';
import { needsRegistry, type NbestMetricSpec } from '../engine/nbest/nbest-metrics.js';
import type { NbestTaskSettings } from '../engine/nbest/nbest-task.js';
import type { NbestChunkRunner, NbestRunnerFactory } from '../engine/nbest/run.js';
import type { InjectedFault } from './ngram-task.js';
import { PoolTaskError } from './pool-error.js';
import { TASKS_PER_WORKER } from './tasks-per-worker.js';
import { workerEntry } from './worker-entry.js';

/** What every worker of the pool receives once. */
export interface NbestWorkerData {
  readonly module: WebAssembly.Module;
  readonly refs: SharedReferences;
  readonly settings: NbestTaskSettings;
  readonly spec: NbestMetricSpec;
}

/** The message of one task. */
export interface NbestPoolTask {
  /** Raw bytes of whole segments, in shared memory. */
  readonly bytes: Uint8Array;
  readonly firstLine: number;
  readonly byteOffset: number;
  /** Set by fault injection (tests) for this attempt only. */
  readonly fault: InjectedFault | null;
}

/** A fault injected into one task (tests only; never reachable from the command line). */
export interface NbestInjectedFault {
  readonly task: number;
  readonly kind: InjectedFault;
  readonly attempts: number;
  readonly then?: InjectedFault;
}

/** Options of an {@link NbestPool}. */
export interface NbestPoolOptions extends Omit<NbestWorkerData, 'module'> {
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

/** The fault attempt `attempt` of task `t` simulates. */
function faultOf(fault: NbestInjectedFault | undefined, t: number, attempt: number): InjectedFault | null {
  if (fault === undefined || fault.task !== t) return null;
  if (attempt < fault.attempts) return fault.kind;
  return attempt === fault.attempts ? (fault.then ?? null) : null;
}

/** A pool of n-best workers; see the file comment. */
export class NbestPool implements NbestChunkRunner {
  /** Worker threads. */
  readonly workers: number;
  /**
   * Tasks run, tasks retried (each at most once, so also the failed attempts), and the time spent inside tasks
   * (ms, summed over workers).
   */
  readonly counters = { tasks: 0, retries: 0, busyMs: 0 };
  /** Tasks handed to {@link run} and not yet settled (queued, running or being retried). */
  private active = 0;
  private readonly piscina: Piscina;
  private readonly fault: NbestPoolOptions['injectFault'];
  private nextTask = 0;

  constructor(options: NbestPoolOptions) {
    if (!Number.isInteger(options.workers) || options.workers < 1) {
      throw new RangeError(`workers must be an integer ≥ 1 (got ${options.workers})`);
    }
    this.workers = options.workers;
    this.fault = options.injectFault;
    // BLEU alone never loads the metric registry (most of a second of start-up per worker).
    const { filename, execArgv } = workerEntry(needsRegistry(options.spec.ids) ? 'nbest-worker-metrics' : 'nbest-worker');
    const workerData: NbestWorkerData = {
      module: options.module ?? wasmModule(),
      refs: options.refs,
      settings: options.settings,
      spec: options.spec,
    };
    this.piscina = new Piscina({
      filename, execArgv, workerData, minThreads: this.workers, maxThreads: this.workers, idleTimeout: Infinity,
      concurrentTasksPerWorker: TASKS_PER_WORKER,
    });
    // A worker that dies is replaced by piscina; without a listener the event would throw.
    this.piscina.on('error', () => {});
  }

  /** Waits until every worker has loaded (and warmed up). */
  async start(): Promise<void> {
    await Promise.all(Array.from({ length: this.workers }, () => this.piscina.run(null, { name: 'ping' })));
  }

  /** Tasks handed to {@link run} and not yet settled. */
  get inFlight(): number {
    return this.active;
  }

  /** Tasks the workers can hold at once ({@link TASKS_PER_WORKER} each): more would only wait in piscina's queue. */
  get capacity(): number {
    return this.workers * TASKS_PER_WORKER;
  }

  /**
   * Runs one chunk (retried once on a worker failure).
   * @throws PoolTaskError when both attempts fail.
   */
  async run(chunk: SegmentChunk): Promise<ChunkResult> {
    this.active++;
    try {
      return await this.attempt(chunk);
    } finally {
      this.active--;
    }
  }

  /** {@link run}'s attempts. */
  private async attempt(chunk: SegmentChunk): Promise<ChunkResult> {
    const t = this.nextTask++;
    const fault = this.fault;
    for (let attempt = 0; ; attempt++) {
      const task: NbestPoolTask = {
        bytes: chunk.bytes,
        firstLine: chunk.firstLine,
        byteOffset: chunk.byteOffset,
        fault: faultOf(fault, t, attempt),
      };
      try {
        const result = (await this.piscina.run(task)) as ChunkResult;
        this.counters.tasks++;
        this.counters.busyMs += result.busyMs;
        return result;
      } catch (cause) {
        if (attempt >= 1) {
          throw new PoolTaskError(
            `n-best task ${t} (lines from ${chunk.firstLine}) failed twice: ${(cause as Error).message}`,
            { cause },
          );
        }
        this.counters.retries++;
      }
    }
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await this.piscina.close({ force: true });
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
