/**
 * N-gram statistics (`clippedNgramCounts` of `src/wasm/ngram.ts`) of large batches on the worker pool
 * (./task-pool.ts, n-gram kind: ./kinds/ngram.ts).
 *
 * Design (spec/PERFORMANCE.md, "The glue is where speed is lost"):
 * - The batch is copied once into `SharedArrayBuffer` CSR arrays; every task is a plain message of numbers and
 *   shared buffers. A task is a range of hypotheses cut at segment boundaries, sized to about `taskTokens` units of
 *   work (hypothesis tokens + reference tokens of its segments; the default is ~10 ms of kernel time, so the 21–36 µs
 *   piscina round trip stays well under 1 %). All tasks are queued at once, so every worker has several in flight.
 * - Each task writes its rows into its own disjoint slice of one shared output buffer; no result is cloned back.
 * - Rows are bit-identical to the in-thread call for any number of workers and any task size: a task scores each
 *   of its hypotheses against exactly that hypothesis's segment's references, which is all a row depends on.
 * - Small batches (less than `minParallelWork`) and, by default, `workers: 1` run in-thread on this thread's default engine and
 *   never start the pool; the pool itself starts lazily, on the first batch that needs it.
 * - A task that fails is retried once (the pool's rule); a worker that threw drops its kernel instance, so the retry
 *   runs on a fresh instance either way. A task's second failure rejects the call with {@link PoolTaskError}.
 *
 * Token ids: the pool receives ids already interned. Today interning happens on the main thread (one
 * `Vocabulary` over hypotheses and references) before the batch is shared, so the ids of a segment's hypothesis and
 * references agree by construction. Tokenizing and interning in parallel would need either one shared hash table
 * (a SharedArrayBuffer open-addressing table with atomic compare-and-swap inserts, ids handed out by an atomic
 * counter; ids then depend on scheduling, which is fine because only equality matters) or per-worker vocabularies
 * whose local ids are remapped to global ids by a merge step on the main thread before the n-gram tasks run.
 */
import { availableParallelism } from 'node:os';
import { clippedNgramCounts, KernelNgramWeights, type NgramBatch, type NgramWeights } from '../wasm/ngram.js';
import { checkCsr, checkHypSegments, checkMaxOrder, checkSegmentOffsets } from '../wasm/check-input.js';
import { PoolTaskError } from './pool-error.js';
import { batchWork, shareNgramBatch, taskEnds, shareNgramWeights, type NgramTask } from './ngram-task.js';
import { TaskPool, type InjectedFault } from './task-pool.js';

/** Default work units per task: ~10 ms of the BLEU-4 kernel (measured ~40 M units/s on one core). */
export const DEFAULT_TASK_WORK = 400_000;

/** Options of an {@link NgramPool}. */
export interface NgramPoolOptions {
  /** Worker threads (default: `os.availableParallelism()`); 1 runs everything in-thread unless `minParallelWork` is set. */
  readonly workers?: number;
  /** Work units per task (hypothesis tokens + hypotheses + reference tokens); default {@link DEFAULT_TASK_WORK}. */
  readonly taskWork?: number;
  /**
   * Batches with less work run in-thread (default: twice `taskWork`, or never pooled with one worker). Setting it
   * with `workers: 1` forces a one-worker pool (benchmarks, tests).
   */
  readonly minParallelWork?: number;
  /** The compiled kernels to hand to the workers (default: `wasmModule()`). */
  readonly module?: WebAssembly.Module;
}

/** Per-call options. */
export interface NgramPoolCallOptions {
  /** NIST weights (from `ngramWeights`), as in `clippedNgramCounts`. */
  readonly weights?: NgramWeights;
  /** Overrides the pool's `taskWork` for this call. */
  readonly taskWork?: number;
  /**
   * Tests of the retry path: task `task` simulates `kind` (throw in the worker, or exit the worker thread) on its
   * first `attempts` attempts.
   */
  readonly injectFault?: { readonly task: number; readonly kind: InjectedFault; readonly attempts: number };
}

/** What the last call did (for benchmarks and tests). */
export interface NgramPoolCallInfo {
  /** Whether the call ran in-thread. */
  readonly inThread: boolean;
  /** Tasks run (0 in-thread). */
  readonly tasks: number;
  /** Tasks retried (each at most once, so also the failed attempts that were retried). */
  readonly retries: number;
  /** The retried tasks' numbers, ascending. */
  readonly retriedTasks: readonly number[];
  /** Time spent inside the call's tasks, ms, summed over workers (0 in-thread). */
  readonly busyMs: number;
}

let nextRunId = 1;

/** A pool of kernel workers computing n-gram statistics of large batches; see the file comment. */
export class NgramPool {
  /** Worker threads of the pool. */
  readonly workers: number;
  private readonly taskWork: number;
  private readonly minParallelWork: number;
  private readonly module: WebAssembly.Module | undefined;
  private taskPool: TaskPool<'ngram'> | null = null;
  private closed = false;
  private info: NgramPoolCallInfo = { inThread: true, tasks: 0, retries: 0, retriedTasks: [], busyMs: 0 };

  constructor(options: NgramPoolOptions = {}) {
    const workers = options.workers ?? availableParallelism();
    if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be an integer ≥ 1 (got ${workers})`);
    const taskWork = options.taskWork ?? DEFAULT_TASK_WORK;
    if (!(taskWork > 0)) throw new RangeError(`taskWork must be > 0 (got ${taskWork})`);
    this.workers = workers;
    this.taskWork = taskWork;
    this.minParallelWork = options.minParallelWork ?? (workers === 1 ? Infinity : 2 * taskWork);
    this.module = options.module;
  }

  /** What the last call did. */
  get lastCall(): NgramPoolCallInfo {
    return this.info;
  }

  /**
   * Starts the workers now (each warms up when it loads) instead of on the first large batch, and waits until
   * every one has run a task.
   */
  async start(): Promise<void> {
    await this.pool().start();
  }

  /**
   * `clippedNgramCounts(batch, maxOrder, weights)`, the same rows bit for bit, computed by the workers when the batch
   * is large enough. The rows of a pooled call are a view of a `SharedArrayBuffer`.
   * @throws as `clippedNgramCounts` for bad input; {@link PoolTaskError} when a task fails twice.
   */
  async clippedNgramCounts(batch: NgramBatch, maxOrder: number, options: NgramPoolCallOptions = {}): Promise<Float64Array> {
    if (this.closed) throw new Error('the n-gram pool is closed');
    const { weights } = options;
    const taskWork = options.taskWork ?? this.taskWork;
    if (batchWork(batch) < this.minParallelWork || batch.hyps.offsets.length <= 2) {
      this.info = { inThread: true, tasks: 0, retries: 0, retriedTasks: [], busyMs: 0 };
      return clippedNgramCounts(batch, maxOrder, weights);
    }
    checkBatch(batch, maxOrder);
    if (weights !== undefined && !(weights instanceof KernelNgramWeights)) {
      throw new TypeError('weights must come from ngramWeights() of src/wasm (a KernelNgramWeights)');
    }
    const nHyps = batch.hyps.offsets.length - 1;
    const width = (weights ? 3 : 2) * maxOrder;
    const out = new SharedArrayBuffer(nHyps * width * 8);
    const shared = shareNgramBatch(batch);
    const sharedWeights = weights ? shareNgramWeights(weights) : null;
    const runId = nextRunId++;
    const pool = this.pool();
    const retriedTasks: number[] = [];
    let busyMs = 0;
    const fault = options.injectFault;
    const runTask = async (t: number, hypStart: number, hypEnd: number): Promise<void> => {
      const task: NgramTask = { runId, batch: shared, maxOrder, weights: sharedWeights, out, hypStart, hypEnd };
      const faults = fault !== undefined && fault.task === t ? new Array<InjectedFault>(fault.attempts).fill(fault.kind) : undefined;
      const outcome = await pool.run(task, { label: () => `n-gram task ${t} (hypotheses ${hypStart}..${hypEnd})`, faults });
      busyMs += outcome.busyMs;
      if (outcome.retried) retriedTasks.push(t);
    };
    // Each task is posted as soon as its range is planned (all of them before the first await).
    const running: Promise<void>[] = [];
    let hypStart = 0;
    for (const hypEnd of taskEnds(batch, taskWork)) {
      running.push(runTask(running.length, hypStart, hypEnd));
      hypStart = hypEnd;
    }
    await Promise.all(running);
    retriedTasks.sort((a, b) => a - b);
    this.info = { inThread: false, tasks: running.length, retries: retriedTasks.length, retriedTasks, busyMs };
    return new Float64Array(out);
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.taskPool;
    this.taskPool = null;
    if (pool !== null) await pool.close();
  }

  /** The worker pool, started on first use. */
  private pool(): TaskPool<'ngram'> {
    this.taskPool ??= new TaskPool({ kind: 'ngram', workers: this.workers, setup: null, module: this.module });
    return this.taskPool;
  }
}

/** The checks `clippedNgramCounts` makes, done once on the main thread before the batch is cut into tasks. */
function checkBatch(batch: NgramBatch, maxOrder: number): void {
  checkMaxOrder(maxOrder);
  checkCsr('batch.hyps', batch.hyps);
  checkCsr('batch.refs', batch.refs);
  checkSegmentOffsets('batch.segRefOffsets', batch.segRefOffsets, batch.refs.offsets.length - 1);
  checkHypSegments('batch.hypSegment', batch.hypSegment, batch.hyps.offsets.length - 1, batch.segRefOffsets.length - 1);
}
