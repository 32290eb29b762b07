/**
 * The worker script of every pool (./task-pool.ts). It installs the compiled kernels it gets in `workerData` (never
 * reading or compiling the `.wasm` again), then imports the code of its pool's kind alone — a worker of n-gram
 * tasks never loads the n-best engine, the metric registry or ORANGE — and sets that kind up (warm-up included).
 * The exports are promises of the task functions, which piscina awaits before it reports the worker ready, so
 * that no task waits for the set-up. Each task message is run by the kind's handler; the time spent in it goes
 * back with the result.
 */
import { BroadcastChannel, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { compileWasm, useWasmModule } from '../wasm/load.js';
import type { TaskHandler } from './kinds/handler.js';
import { lazyImport } from './lazy-import.js';
import { movable } from './movable.js';
import { readSetup, SETUP_HELLO, waitForSetup, WRITTEN } from './setup-mailbox.js';
import type { PoolMessage, PoolReply, PoolSetupMessage, PoolWorkerData, TaskKind, TaskKinds } from './task-pool.js';

/** A kind's worker module: sets the kind up in a worker. */
interface KindModule<K extends TaskKind> {
  /** Loads the code its set-up will need, before the setup is known (a pool started early). */
  preload?(): Promise<void>;
  createHandler(
    setup: TaskKinds[K]['setup'],
    module: WebAssembly.Module,
  ): TaskHandler<TaskKinds[K]['task'], TaskKinds[K]['result']> | Promise<TaskHandler<TaskKinds[K]['task'], TaskKinds[K]['result']>>;
}

/**
 * This file's `require` when it runs as CommonJS (from the sources, through tsx), undefined in a built worker; see
 * ./lazy-import.ts for why it is never called as a literal `require`.
 */
const sourceRequire = typeof __filename === 'string' && typeof require === 'function' ? require : undefined;

/** Each kind's worker code, imported on demand. */
const KINDS: { readonly [K in TaskKind]: () => Promise<KindModule<K>> } = {
  ngram: () => lazyImport(() => import('./kinds/ngram.js'), sourceRequire && (() => sourceRequire('./kinds/ngram.js'))),
  nbest: () => lazyImport(() => import('./kinds/nbest.js'), sourceRequire && (() => sourceRequire('./kinds/nbest.js'))),
  orange: () => lazyImport(() => import('./kinds/orange.js'), sourceRequire && (() => sourceRequire('./kinds/orange.js'))),
  corpus: () => lazyImport(() => import('./kinds/corpus.js'), sourceRequire && (() => sourceRequire('./kinds/corpus.js'))),
  mert: () => lazyImport(() => import('./kinds/mert.js'), sourceRequire && (() => sourceRequire('./kinds/mert.js'))),
  pairwise: () => lazyImport(() => import('./kinds/pairwise.js'), sourceRequire && (() => sourceRequire('./kinds/pairwise.js'))),
  mbr: () => lazyImport(() => import('./kinds/mbr.js'), sourceRequire && (() => sourceRequire('./kinds/mbr.js'))),
};

/** The setup of a pool started early, from its channel (see ./task-pool.ts). */
function receiveSetup(name: string): Promise<PoolSetupMessage> {
  const channel = new BroadcastChannel(name);
  return new Promise((resolve) => {
    channel.onmessage = (event) => {
      const data = (event as MessageEvent).data as PoolSetupMessage | string;
      // Other workers' hellos go to every worker too.
      if (typeof data === 'string') return;
      channel.close();
      resolve(data);
    };
    channel.postMessage(SETUP_HELLO);
  });
}

/** Sets this worker's kind up. */
async function setUp(data: PoolWorkerData): Promise<TaskHandler<unknown, unknown>> {
  let module: WebAssembly.Module;
  let setup: unknown;
  let kind: KindModule<TaskKind>;
  if (data.channel !== undefined) {
    // Started before its setup: the kind's code loads while the setup is on its way.
    const loaded = KINDS[data.kind]().then(async (k) => {
      await (k as KindModule<TaskKind>).preload?.();
      return k as KindModule<TaskKind>;
    });
    let received: PoolSetupMessage | undefined;
    if (data.mailbox !== undefined && data.kernels !== undefined) {
      // The kernels compile here while the main thread gets the setup ready; the setup comes in shared memory.
      let own: WebAssembly.Module | undefined;
      try {
        own = compileWasm(readFileSync(data.kernels.path));
      } catch {
        own = undefined; // the main thread's kernels come on the channel then
      }
      if ((await waitForSetup(data.mailbox)) === WRITTEN && own !== undefined) {
        received = { module: own, setup: readSetup(data.mailbox) as never };
      }
    }
    received ??= await receiveSetup(data.channel);
    ({ module, setup } = received);
    useWasmModule(module);
    kind = await loaded;
  } else {
    module = data.module!;
    setup = data.setup;
    useWasmModule(module);
    kind = (await KINDS[data.kind]()) as KindModule<TaskKind>;
  }
  return (await kind.createHandler(setup as never, module)) as TaskHandler<unknown, unknown>;
}

/** Runs one task attempt; the result's buffers the handler names are transferred to the main thread, not copied. */
function runTask(handler: TaskHandler<unknown, unknown>, message: PoolMessage): unknown {
  if (message.fault === 'exit') process.exit(70);
  const start = performance.now();
  let result: unknown;
  try {
    if (message.fault === 'throw') throw new Error('injected fault');
    result = handler.run(message.task);
  } catch (error) {
    handler.failed?.();
    throw error;
  }
  const reply: PoolReply = { result: result as PoolReply['result'], busyMs: performance.now() - start };
  const transfer = handler.transfer?.(result) ?? [];
  if (transfer.length === 0) return reply;
  return movable(reply, transfer);
}

const ready = setUp(workerData as PoolWorkerData);

/** Runs one task attempt (see {@link runTask}). */
export default ready.then((handler) => (message: PoolMessage) => runTask(handler, message));

/** Answers once the worker is set up (`TaskPool.start` runs it on every worker). */
export const ping = ready.then(() => (): number => 0);
