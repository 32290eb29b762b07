/**
 * A Web Worker of the browser's corpus pool (the page side is ./worker-pool.ts): it installs the compiled kernels it
 * is handed, builds the run's metrics from their ids and settings with the default registry, and runs tasks through
 * the same code as the calling thread (src/engine/corpus/task.ts), so a row does not depend on the thread. A
 * metric's input error goes back as data, as in the Node pool.
 */
import { InputError } from '../errors.js';
import { CorpusTaskMetric } from '../engine/corpus/index.js';
import { defaultRegistry } from '../metrics/registry.js';
import { useWasmModule } from '../wasm/load.js';
import type { WorkerScope } from './web-globals.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

const scope = globalThis as unknown as WorkerScope;
let metrics: CorpusTaskMetric[] = [];

function reply(message: FromWorker, transfer: readonly unknown[] = []): void {
  scope.postMessage(message, transfer);
}

scope.onmessage = (event) => {
  const message = event.data as ToWorker;
  if (message.type === 'setup') {
    try {
      useWasmModule(message.module, 'release');
      const { ids, settings, references } = message.setup;
      metrics = ids.map(
        (id) => new CorpusTaskMetric(defaultRegistry.create(id, settings).metric, references, defaultRegistry.describe?.(id)?.wholeReference === true),
      );
      reply({ type: 'ready' });
    } catch (err) {
      reply({ type: 'failed', id: null, message: (err as Error).message });
    }
    return;
  }
  const { id, task } = message;
  try {
    const rows = metrics[task.metric].rows(task);
    reply({ type: 'result', id, result: { ok: true, rows } }, [rows.buffer]);
  } catch (err) {
    if (err instanceof InputError) {
      reply({ type: 'result', id, result: { ok: false, error: { code: err.code, message: err.message, line: err.line } } });
    } else {
      reply({ type: 'failed', id, message: (err as Error).message });
    }
  }
};
