/**
 * The piscina worker of a `palette nbest` run with any registry metric; see nbest-worker-core.ts. It installs the
 * Node adapter (a worker is a fresh module graph): its metrics may read a paraphrase table file or load compromise.
 */
import '../node/install.js';
import { defaultRegistry } from '../metrics/registry.js';
import { nbestWorkerHandlers } from './nbest-worker-core.js';

const handlers = nbestWorkerHandlers(defaultRegistry);

/** Runs one task. */
export default handlers.run;
/** Waits until the worker has loaded. */
export const ping = handlers.ping;
