/**
 * How many tasks each pool worker holds at once (piscina's `concurrentTasksPerWorker`), shared by both pools.
 *
 * The task functions are synchronous, so a worker still runs one task at a time; the second one waits in its
 * message port. That removes the idle gap between tasks: with one task per worker, piscina posts the next task
 * only after the main thread has received the previous result (≈ 1 ms per task on a busy main thread, 5–9 % of
 * the workers' time). The price: a worker that dies takes every task it holds with it, so the pools retry each
 * of those tasks once (a task is retried at most once; its second failure fails the call).
 */
export const TASKS_PER_WORKER = 2;
