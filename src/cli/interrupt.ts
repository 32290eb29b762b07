/**
 * What an interrupt (SIGINT, SIGTERM, SIGHUP) does while a command holds something that must not outlive it — a
 * temporary output file: each registered cleanup runs (synchronously: nothing asynchronous runs once the process
 * starts exiting), then the process exits with 128 + the signal's number (130 for SIGINT, 143 for SIGTERM), as a
 * shell reports a process a signal ended. Worker threads (the n-best pool) end with the process.
 *
 * Listeners are on the process only while a cleanup is registered: between commands, in a test runner, and while
 * `palette score` computes (a run with no temporary file), a signal keeps its default effect, which also ends a
 * synchronous computation at once; a listener only runs when the event loop gets a turn. When the host process has
 * listeners of its own for the signal (`run()` called in-process by a program that handles Ctrl-C), the cleanups
 * run and the host decides whether the process ends.
 */
import { constants } from 'node:os';

/** The signals that end a run and remove its temporary files. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const cleanups = new Set<() => void>();
let installed = false;
/** Bumped on every registration, so that a deferred removal of the listeners sees that a new one came meanwhile. */
let generation = 0;

function onSignal(signal: NodeJS.Signals): void {
  for (const cleanup of [...cleanups]) {
    try {
      cleanup();
    } catch {
      // One failed cleanup must not keep the others from running, nor the process from ending.
    }
  }
  cleanups.clear();
  if (process.listenerCount(signal) > 1) return;
  process.exit(128 + constants.signals[signal]);
}

function install(): void {
  if (installed) return;
  installed = true;
  // First in line: a host's own listener may end the process, and the files must be gone by then.
  for (const signal of SIGNALS) process.prependListener(signal, onSignal);
}

function uninstall(): void {
  if (!installed || cleanups.size > 0) return;
  installed = false;
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

/**
 * Runs `cleanup` (synchronously; what it throws is ignored) if the process is interrupted before the returned
 * `release` is called; `release` is idempotent.
 *
 * The listeners stay on for two turns of the event loop after the last release: a signal that arrived while the
 * command was still computing synchronously waits in the event loop, is dropped if its listener is gone, and is
 * only read at the loop's next poll, which a single `setImmediate` can precede. So a Ctrl-C during a final
 * synchronous stretch still ends the process (with the output already complete) instead of being lost.
 */
export function onInterrupt(cleanup: () => void): () => void {
  const entry = (): void => cleanup();
  cleanups.add(entry);
  generation++;
  install();
  return () => {
    if (!cleanups.delete(entry) || cleanups.size > 0) return;
    const at = generation;
    setImmediate(() => setImmediate(() => {
      if (generation === at) uninstall();
    }));
  };
}
