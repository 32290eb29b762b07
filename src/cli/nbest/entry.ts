/**
 * `palette nbest` as one module, the way into the command from the CLI's entry (src/cli/main.ts) and, in the bundled
 * CLI, one CommonJS file run through a V8 code cache (dist/bundle/nbest-entry.cjs, scripts/build-cli.mjs): a run
 * then compiles one file from its cache instead of linking some forty chunks through the ES module loader, most of
 * the command's start-up on the thread that also scores.
 *
 * The pool of a `-j N` run starts first (./early-pool.ts, imported statically: it is evaluated when the file loads),
 * so that its workers load while this thread evaluates the command's code; the command and the Node adapter are
 * imported after it (evaluated then, from the same file). The file holds its own copy of every module it uses, so it
 * reports its own errors (an error class of one copy is not the other's): the CLI's entry gets an exit status back.
 */
import type { CliIo } from '../io.js';
import { reportError } from '../report-error.js';
import { startEarlyNbestPool } from './early-pool.js';

/**
 * The process's streams, and whether they are settled, for bin/palette's way into this module
 * (dist/bundle/nbest-entry-loader.cjs).
 */
export { processIo, processIoSettled } from '../io.js';

/**
 * Runs `palette nbest` with `argv` (the arguments after `nbest`) and returns the exit status; never throws. Bad
 * input: exit status 2 and no output file (./command.ts); an internal failure: 1, reported as the CLI reports it.
 */
export async function runNbestEntry(argv: readonly string[], io: CliIo): Promise<number> {
  let early: ReturnType<typeof startEarlyNbestPool>;
  try {
    early = startEarlyNbestPool(argv);
  } catch (err) {
    return reportError(err, io);
  }
  try {
    await import('../../node/install.js');
    return await (await import('./command.js')).runNbestCommand(argv, io, { early });
  } catch (err) {
    return reportError(err, io);
  } finally {
    await early?.dispose();
  }
}
