/**
 * How a failed command ends: the one line it writes to standard error and the exit status it maps to. Shared by the
 * CLI's entry and by `palette score`, which is bundled as a file of its own and reports its own failures (an error
 * class of that file is not the entry's: an `instanceof` across the two would miss).
 */
import { InputError, PaletteError, locate } from '../errors.js';
import { EXIT_INPUT, EXIT_INTERNAL, type CliIo } from './io.js';

/** Writes the message of a failure and returns the exit status it maps to. */
export function reportError(err: unknown, io: CliIo): number {
  if (err instanceof InputError) {
    const hint = err.code === 'E_BAD_OPTION' || err.code === 'E_UNKNOWN_METRIC' || err.code === 'E_UNKNOWN_TOKENIZER'
      ? ' (see "palette score --help")'
      : '';
    io.stderr.write(`palette: error: ${locate(err.message, err.file, err.line)}${hint}\n`);
    return EXIT_INPUT;
  }
  if (err instanceof Error && err.name === 'QueueRunError') {
    // A queue run that failed (a shard failed twice, Redis away too long): not bad input, and no internal error.
    io.stderr.write(`palette: error: ${err.message}\n`);
    return EXIT_INTERNAL;
  }
  const message = err instanceof PaletteError
    ? locate(err.message, err.file, err.line)
    : err instanceof Error
      ? err.message
      : String(err);
  io.stderr.write(`palette: internal error: ${message}\n`);
  if (io.env?.PALETTE_DEBUG && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
  return EXIT_INTERNAL;
}
