/**
 * The one worker pool of Palette: every kind of task (n-gram statistics ./ngram-pool.ts, n-best chunks
 * ./nbest-pool.ts, ORANGE blocks ./orange-pool.ts, corpus scoring ./corpus-pool.ts, MERT runs ./mert-pool.ts,
 * all-pairs rows ./pairwise-pool.ts, MBR segments ./mbr-pool.ts) runs on a {@link TaskPool} of piscina workers
 * started from one worker script (./worker.ts), which loads only the code of its pool's kind.
 *
 * Design (spec/PERFORMANCE.md, "The glue is where speed is lost"):
 * - The kernels are compiled once on the main thread and the `WebAssembly.Module` goes to every worker in
 *   `workerData`, with the kind and its setup (plain, postable data: shared references, settings); each worker
 *   instantiates the kernels with its own private linear memory (AssemblyScript static data would collide in a
 *   shared memory) and sets its kind up (and warms up) before it reports ready.
 * - A pool may also start before its setup is known ({@link TaskPool.configure} gives it later): its workers load
 *   their kind's code while the calling thread is still starting up (reading references, loading its own code), on
 *   a core that is idle then, and wait for the kernels and the setup on a `BroadcastChannel` of the pool's own. Given
 *   the file of the run's kernels, the workers compile them themselves while they wait, and the setup is written to
 *   shared memory they wait on (./setup-mailbox.ts): a message on the channel reaches only the workers already
 *   listening, and the others' hello is answered only when the calling thread's event loop turns, which it does
 *   not while it scores its first chunk.
 * - Each worker holds {@link TASKS_PER_WORKER} tasks, so its next task is already waiting when one ends.
 * - A task that fails (its worker throws, or dies and piscina replaces the thread) is retried once; a worker that
 *   dies fails every task it held, and each of them is retried once. A task's second failure rejects with
 *   {@link PoolTaskError}. Bad input is not a failure: a kind sends it back as data.
 * - The time spent inside each task is measured in the worker and comes back with its result, which may transfer
 *   its buffers instead of copying them.
 */
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { defaultWasmBuild, wasmModule, type WasmBuild } from '../wasm/load.js';
import type { CorpusKind } from './kinds/corpus.js';
import type { MbrKind } from './kinds/mbr.js';
import type { MertKind } from './kinds/mert.js';
import type { NbestKind } from './kinds/nbest.js';
import type { NgramKind } from './kinds/ngram.js';
import type { OrangeKind } from './kinds/orange.js';
import type { PairwiseKind } from './kinds/pairwise.js';
import { PoolTaskError } from './pool-error.js';
import { createSetupMailbox, SETUP_HELLO, setupOnChannel, writeSetup } from './setup-mailbox.js';

/**
 * How many tasks each pool worker holds at once (piscina's `concurrentTasksPerWorker`).
 *
 * The task functions are synchronous, so a worker still runs one task at a time; the others wait in its message
 * port. That removes the idle gap between tasks: piscina posts a worker's next task only when the main thread has
 * received a result, which takes ≈ 1 ms per task on a busy main thread and up to a whole chunk's scoring time when
 * the main thread scores chunks itself (`palette nbest`): with one task per worker the gaps were 5–9 % of the
 * workers' time, with two the 1M-candidate run at `-j 2` took 3.6–3.9 s, with four 3.3–3.6 s. The price: a worker
 * that dies takes every task it holds with it, so each of those tasks is retried once (a task is retried at most
 * once; its second failure fails the call).
 */
export const TASKS_PER_WORKER = 4;

/** A fault a task is told to simulate (tests of the retry path only). */
export type InjectedFault = 'throw' | 'exit';

/** The kinds of task, each with what its workers receive once, a task, and a task's result. */
export interface TaskKinds {
  readonly ngram: NgramKind;
  readonly nbest: NbestKind;
  readonly orange: OrangeKind;
  readonly corpus: CorpusKind;
  readonly mert: MertKind;
  readonly pairwise: PairwiseKind;
  readonly mbr: MbrKind;
}

/** A kind of task. */
export type TaskKind = keyof TaskKinds;

/** What every worker of a pool receives once (piscina's `workerData`). */
export interface PoolWorkerData<K extends TaskKind = TaskKind> {
  readonly kind: K;
  /** The compiled kernels (absent when they come later on {@link channel}). */
  readonly module?: WebAssembly.Module;
  readonly setup?: TaskKinds[K]['setup'];
  /**
   * A pool started before its setup was known: the name of the `BroadcastChannel` on which the worker says
   * {@link SETUP_HELLO} and receives a {@link PoolSetupMessage}.
   */
  readonly channel?: string;
  /**
   * A pool started before its setup was known, given the kernels' file: the shared memory the setup is written to
   * (./setup-mailbox.ts), and the file the worker compiles the kernels from while it waits for it.
   */
  readonly mailbox?: SharedArrayBuffer;
  readonly kernels?: KernelsFile;
}

/** A `.wasm` file of the kernels and the build it is. */
export interface KernelsFile {
  readonly build: WasmBuild;
  readonly path: string;
}


/** The kernels and the setup of a pool started early (every worker's, those that replace a dead one included). */
export interface PoolSetupMessage<K extends TaskKind = TaskKind> {
  readonly module: WebAssembly.Module;
  readonly setup: TaskKinds[K]['setup'];
}

/** The message of one task attempt. */
export interface PoolMessage<K extends TaskKind = TaskKind> {
  readonly task: TaskKinds[K]['task'];
  /** Set by fault injection (tests) for this attempt only. */
  readonly fault: InjectedFault | null;
}

/** What a worker sends back for one task. */
export interface PoolReply<K extends TaskKind = TaskKind> {
  readonly result: TaskKinds[K]['result'];
  /** Time spent inside the task in the worker, ms. */
  readonly busyMs: number;
}

/** One task's outcome. */
export interface TaskOutcome<R> {
  readonly result: R;
  /** Time spent inside the attempt that succeeded, ms. */
  readonly busyMs: number;
  /** Whether a first attempt failed. */
  readonly retried: boolean;
}

/** Options of a {@link TaskPool}. */
export interface TaskPoolOptions<K extends TaskKind> {
  readonly kind: K;
  /** Worker threads (≥ 1). */
  readonly workers: number;
  /** The workers' setup; absent: the pool starts now and gets it (and the kernels) from {@link TaskPool.configure}. */
  readonly setup?: TaskKinds[K]['setup'];
  /** Compiled kernels (default `wasmModule()`). */
  readonly module?: WebAssembly.Module;
  /**
   * A pool started without its setup: the file of the kernels the run will use (the provider's, of the build it
   * selects), which the workers then compile themselves while they wait; the setup then reaches them in shared
   * memory (./setup-mailbox.ts) when the run's kernels are that build's.
   */
  readonly kernels?: KernelsFile;
}

/** Options of one {@link TaskPool.run}. */
export interface TaskRunOptions<T = unknown> {
  /** Names the task in the error of its second failure (`n-gram task 3 (hypotheses 10..20)`). */
  readonly label: () => string;
  /** Tests of the retry path: the fault attempt `i` simulates (none past the end). */
  readonly faults?: readonly (InjectedFault | null)[];
  /**
   * The first attempt's task and the buffers it transfers to its worker (not copied); later attempts send the
   * task given to {@link TaskPool.run} instead, since a transferred buffer is gone with a worker that failed.
   */
  readonly first?: { readonly task: T; readonly transfer: readonly ArrayBuffer[] };
}

/**
 * The worker script and the `execArgv` it needs. In the bundled CLI (dist/bundle/: the split chunks and the
 * single-file commands alike) it is the bundle's single-file worker script, by the loader that compiles it with a
 * V8 code cache (scripts/code-cache-loader.cjs), given as a path so that piscina requires it: a worker then reads
 * and compiles one file from its cache instead of linking a chunk per module through the ES module loader, most of
 * its start-up. In a build (dist/pool/) it is `worker.js` beside this module; from the sources, `worker.ts` through
 * tsx.
 */
function workerScript(): { filename: string; execArgv: string[] } {
  // A build's module ends in .js; the single-file commands of the bundle in .cjs.
  if (/\.c?js$/.test(import.meta.url)) {
    const bundled = fileURLToPath(new URL('./worker-loader.cjs', import.meta.url));
    if (existsSync(bundled)) return { filename: bundled, execArgv: [] };
    const js = new URL('./worker.js', import.meta.url);
    if (existsSync(fileURLToPath(js))) return { filename: js.href, execArgv: [] };
  }
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename: new URL('../pool/worker.ts', import.meta.url).href, execArgv: ['--import', tsx] };
}

/** A pool of workers running tasks of one kind; see the file comment. */
export class TaskPool<K extends TaskKind> {
  /** Worker threads. */
  readonly workers: number;
  /** Tasks run, tasks retried (each at most once), time spent inside tasks (ms, summed over workers). */
  readonly counters = { tasks: 0, retries: 0, busyMs: 0 };
  private readonly piscina: Piscina;
  /** Tasks handed to {@link run} and not yet settled. */
  private active = 0;
  /** A pool started before its setup: the channel its workers get it from, and the setup once given. */
  private channel: BroadcastChannel | undefined;
  private setupMessage: PoolSetupMessage<K> | undefined;
  private mailbox: SharedArrayBuffer | undefined;
  private kernels: KernelsFile | undefined;

  constructor(options: TaskPoolOptions<K>) {
    if (!Number.isInteger(options.workers) || options.workers < 1) {
      throw new RangeError(`workers must be an integer ≥ 1 (got ${options.workers})`);
    }
    this.workers = options.workers;
    const { filename, execArgv } = workerScript();
    let workerData: PoolWorkerData<K>;
    if (options.setup === undefined) {
      const name = `palette-pool-${randomUUID()}`;
      const channel = new BroadcastChannel(name);
      // A worker that says hello before the setup is given gets it when it is (posted to all); one that says it
      // later (it started later, or replaces a dead worker) is answered here.
      channel.onmessage = (event) => {
        if ((event as MessageEvent).data === SETUP_HELLO && this.setupMessage !== undefined) channel.postMessage(this.setupMessage);
      };
      // The channel must not keep the process alive (a run that ends before giving the setup closes it anyway).
      channel.unref();
      this.channel = channel;
      this.kernels = options.kernels;
      this.mailbox = this.kernels === undefined ? undefined : createSetupMailbox();
      workerData = { kind: options.kind, channel: name, mailbox: this.mailbox, kernels: this.kernels };
    } else {
      workerData = { kind: options.kind, module: options.module ?? wasmModule(), setup: options.setup };
    }
    this.piscina = new Piscina({
      filename, execArgv, workerData, minThreads: this.workers, maxThreads: this.workers, idleTimeout: Infinity,
      concurrentTasksPerWorker: TASKS_PER_WORKER,
    });
    // A worker that dies is replaced by piscina; without a listener the event would throw.
    this.piscina.on('error', () => {});
  }

  /** Gives the workers of a pool started without its setup their setup and kernels (default `wasmModule()`). */
  configure(setup: TaskKinds[K]['setup'], module: WebAssembly.Module = wasmModule()): void {
    if (this.channel === undefined || this.setupMessage !== undefined) throw new Error('the pool already has its setup');
    this.setupMessage = { module, setup };
    // The workers compiled the kernels of a build from its file: the mailbox serves when the run's kernels are that
    // build's (the main thread's provider read the same file); other kernels go on the channel with the setup.
    const build = this.kernels?.build;
    const same = build !== undefined && build === defaultWasmBuild() && module === wasmModule(build);
    if (this.mailbox !== undefined) {
      if (same && writeSetup(this.mailbox, setup)) return;
      setupOnChannel(this.mailbox);
    }
    this.channel.postMessage(this.setupMessage);
  }

  /** Waits until every worker has loaded and set its kind up (warm-up included). */
  async start(): Promise<void> {
    await Promise.all(Array.from({ length: this.workers }, () => this.piscina.run(null, { name: 'ping' })));
  }

  /** Tasks handed to {@link run} and not yet settled (queued, running or being retried). */
  get inFlight(): number {
    return this.active;
  }

  /** Tasks the workers hold at once ({@link TASKS_PER_WORKER} each): more would only wait in the queue. */
  get capacity(): number {
    return this.workers * TASKS_PER_WORKER;
  }

  /**
   * Runs one task, retried once on a worker failure.
   * @throws PoolTaskError when both attempts fail.
   */
  async run(task: TaskKinds[K]['task'], options: TaskRunOptions<TaskKinds[K]['task']>): Promise<TaskOutcome<TaskKinds[K]['result']>> {
    this.active++;
    try {
      for (let attempt = 0; ; attempt++) {
        const first = attempt === 0 ? options.first : undefined;
        const message: PoolMessage<K> = { task: first === undefined ? task : first.task, fault: options.faults?.[attempt] ?? null };
        try {
          const reply = (await this.piscina.run(message, first === undefined ? undefined : { transferList: [...first.transfer] })) as PoolReply<K>;
          this.counters.tasks++;
          this.counters.busyMs += reply.busyMs;
          return { result: reply.result, busyMs: reply.busyMs, retried: attempt > 0 };
        } catch (cause) {
          if (attempt >= 1) throw new PoolTaskError(`${options.label()} failed twice: ${(cause as Error).message}`, { cause });
          this.counters.retries++;
        }
      }
    } finally {
      this.active--;
    }
  }

  /** Stops the workers: tasks not yet started are dropped, running ones end first. */
  async close(): Promise<void> {
    this.channel?.close();
    await this.piscina.close({ force: true });
  }

  /** Stops the workers now: tasks not yet settled fail (for a caller that no longer needs their results). */
  async terminate(): Promise<void> {
    this.channel?.close();
    await this.piscina.destroy();
  }
}
