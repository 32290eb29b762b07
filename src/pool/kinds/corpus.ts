/**
 * Corpus scoring tasks in a pool worker (the main side is ../corpus-pool.ts): the run's metrics are built once per
 * worker from their ids and settings, with the default registry (the Node adapter installed first: a worker is a
 * fresh module graph, and a metric may read a paraphrase table file or load compromise), which loads the code of
 * the run's metrics alone (a worker starting beside a busy calling thread pays for every module it compiles), and
 * each task — one metric over the distinct hypotheses of a run of segments — gives its rows through the same code as
 * the calling thread (src/engine/corpus/task.ts), so rows do not depend on the thread. A metric's input error comes back as data.
 */
import '../../node/install.js';
import { InputError } from '../../errors.js';
import {
  CorpusTaskMetric, type CorpusRunnerSetup, type CorpusTask, type CorpusTaskResult,
} from '../../engine/corpus/index.js';
import { defaultRegistry } from '../../metrics/default-registry.js';
import type { TaskHandler } from './handler.js';

/** What every corpus worker receives once: the run's metrics and references. */
export type CorpusWorkerSetup = Omit<CorpusRunnerSetup, 'workers'>;

/** The corpus kind: metrics and references; one metric over a run of segments; its rows or input error. */
export interface CorpusKind {
  readonly setup: CorpusWorkerSetup;
  readonly task: CorpusTask;
  readonly result: CorpusTaskResult;
}

/**
 * This file's `require` when it runs as CommonJS (from the sources, through tsx), undefined in a built worker; see
 * ../lazy-import.ts for why it is never called as a literal `require`.
 */
const sourceRequire = typeof __filename === 'string' && typeof require === 'function' ? require : undefined;

/** Sets the kind up in a worker: the metrics are built now (a bad setting was reported by the calling thread). */
export async function createHandler(setup: CorpusWorkerSetup): Promise<TaskHandler<CorpusTask, CorpusTaskResult>> {
  // From the sources, the registry's import() of a metric's code fails in a worker thread (no loader hooks there):
  // the module that installs every metric's code is required instead.
  if (sourceRequire !== undefined) sourceRequire('../../metrics/registry.js');
  else await defaultRegistry.load?.(setup.ids);
  const metrics = setup.ids.map((id) => {
    const metric = defaultRegistry.create(id, setup.settings).metric;
    return new CorpusTaskMetric(metric, setup.references, defaultRegistry.describe?.(id)?.wholeReference === true);
  });
  return {
    run(task) {
      try {
        return { ok: true, rows: metrics[task.metric].rows(task) };
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        return { ok: false, error: { code: err.code, message: err.message, line: err.line } };
      }
    },
    transfer: (result) => (result.ok ? [result.rows.buffer as ArrayBuffer] : []),
  };
}
