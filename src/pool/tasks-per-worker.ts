/**
 * How many tasks each pool worker holds at once (piscina's `concurrentTasksPerWorker`), shared by both pools.
 *
 * The task functions are synchronous, so a worker still runs one task at a time; the others wait in its message
 * port. That removes the idle gap between tasks: piscina posts a worker's next task only when the main thread has
 * received a result, which takes ≈ 1 ms per task on a busy main thread and up to a whole chunk's scoring time when
 * the main thread scores chunks itself (`palette nbest`): with one task per worker the gaps were 5–9 % of the
 * workers' time, with two the 1M-candidate run at `-j 2` took 3.6–3.9 s, with four 3.3–3.6 s. The price: a worker
 * that dies takes every task it holds with it, so the pools retry each of those tasks once (a task is retried at
 * most once; its second failure fails the call).
 */
export const TASKS_PER_WORKER = 4;
