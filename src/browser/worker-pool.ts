/**
 * The corpus engine's runner on Web Workers, the browser's counterpart of the Node pool (src/pool/corpus-pool.ts):
 * the engine (src/engine/corpus/) hands it tasks — one metric over the distinct hypotheses of a run of segments —
 * while the calling thread scores tasks of its own; rows come back transferred. Each worker gets the compiled
 * kernels once in its set-up message, so nothing is fetched or compiled again.
 */
import { PaletteError } from '../errors.js';
import type { CorpusRunnerFactory, CorpusRunnerSetup, CorpusTask, CorpusTaskResult, CorpusTaskRunner } from '../engine/corpus/index.js';
import { wasmModule } from '../wasm/load.js';
import { webGlobals, type WebWorker } from './web-globals.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

/** Options of {@link webWorkerPool}. */
export interface WebWorkerPoolOptions {
  /** The worker script (the bundle's `palette-worker.js`). @default beside the bundle that carries this code */
  readonly workerUrl?: string | URL;
}

/** Tasks a worker holds at once: one running and one waiting, so that it never idles between two. */
const PER_WORKER = 2;

class WebWorkerRunner implements CorpusTaskRunner {
  private readonly workers: WebWorker[] = [];
  private readonly pending = new Map<number, { resolve(r: CorpusTaskResult): void; reject(e: Error): void }>();
  private readonly load: number[] = [];
  private nextId = 0;
  private closed = false;

  constructor(setup: CorpusRunnerSetup, url: string | URL) {
    const Worker = webGlobals().Worker;
    if (Worker === undefined) throw new PaletteError('E_WASM', 'Web Workers are not available here');
    const module = wasmModule('release');
    const { ids, settings, references } = setup;
    for (let w = 0; w < setup.workers; w++) {
      const worker = new Worker(url, { type: 'module', name: `palette-corpus-${w + 1}` });
      worker.onmessage = (event) => this.answer(w, event.data as FromWorker);
      worker.onerror = (event) => this.failWorker(w, event.message ?? 'the worker failed to start');
      worker.postMessage({ type: 'setup', module, setup: { ids, settings, references } } satisfies ToWorker);
      this.workers.push(worker);
      this.load.push(0);
    }
  }

  get capacity(): number {
    return this.workers.length * PER_WORKER;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  private readonly owner = new Map<number, number>();

  private answer(w: number, message: FromWorker): void {
    if (message.type === 'ready') return;
    if (message.type === 'failed' && message.id === null) {
      this.failWorker(w, message.message);
      return;
    }
    const entry = this.pending.get(message.id!);
    if (entry === undefined) return;
    this.pending.delete(message.id!);
    this.owner.delete(message.id!);
    this.load[w]--;
    if (message.type === 'result') entry.resolve(message.result);
    else entry.reject(new PaletteError('E_WASM', `a scoring worker failed: ${message.message}`));
  }

  /** A worker that cannot run fails its tasks; the engine then scores them in the calling thread. */
  private failWorker(w: number, why: string): void {
    for (const [id, owner] of this.owner) {
      if (owner !== w) continue;
      const entry = this.pending.get(id)!;
      this.pending.delete(id);
      this.owner.delete(id);
      entry.reject(new PaletteError('E_WASM', `a scoring worker failed: ${why}`));
    }
    this.load[w] = Number.POSITIVE_INFINITY;
  }

  run(task: CorpusTask): Promise<CorpusTaskResult> {
    let w = 0;
    for (let k = 1; k < this.workers.length; k++) if (this.load[k] < this.load[w]) w = k;
    if (!Number.isFinite(this.load[w]) || this.closed) return Promise.reject(new PaletteError('E_WASM', 'no scoring worker is running'));
    const id = this.nextId++;
    this.load[w]++;
    this.owner.set(id, w);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.workers[w].postMessage({ type: 'task', id, task } satisfies ToWorker);
    });
  }

  /** Stops the workers; a task still running is abandoned (the engine has its rows from its own thread). */
  async close(): Promise<void> {
    this.closed = true;
    for (const worker of this.workers) worker.terminate();
    this.pending.clear();
    this.owner.clear();
  }
}

/**
 * The engine's runner factory for corpus scoring on Web Workers (`scoreSystemRows(…, { workers: N, pool })`): N − 1
 * workers beside the calling thread. The kernels must be loaded first (./wasm.ts `loadWasm`).
 */
export function webWorkerPool(options: WebWorkerPoolOptions = {}): CorpusRunnerFactory {
  const url = options.workerUrl ?? new URL('./palette-worker.js', import.meta.url);
  return (setup) => new WebWorkerRunner(setup, url);
}
