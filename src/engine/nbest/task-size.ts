// In a module of its own: the CLI decides whether to start a pool early from it, before the engine's code loads.
/**
 * Default bytes per task: about 1.5k candidates of 150 bytes, a few ms of work for four metrics on the fast path.
 * Smaller than 1 MiB so that a task's short-lived strings fit V8's default young generation: with 1 MiB tasks they
 * outlive scavenges and 1M candidates (4 metrics, 2 workers) took 6.5 s instead of 4.0 s; it also shortens the idle
 * tail of a pooled run.
 */
export const DEFAULT_TASK_SIZE = 1 << 18;
