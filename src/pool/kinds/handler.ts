/**
 * What a kind of task provides in a pool worker (../worker.ts): set up once per worker by the kind's
 * `createHandler(setup, module)`, then called for every task.
 */
export interface TaskHandler<T, R> {
  /** Runs one task. */
  run(task: T): R;
  /** Called after {@link run} threw: drops whatever state the failure may have left behind. */
  failed?(): void;
  /** Buffers of a result to transfer to the main thread instead of copying them (none by default). */
  transfer?(result: R): ArrayBuffer[];
}
