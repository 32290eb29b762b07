/** The piscina worker of a BLEU-only `palette nbest` run (no metric registry loaded); see nbest-worker-core.ts. */
import { nbestWorkerHandlers } from './nbest-worker-core.js';

const handlers = nbestWorkerHandlers(undefined);

/** Runs one task. */
export default handlers.run;
/** Waits until the worker has loaded. */
export const ping = handlers.ping;
