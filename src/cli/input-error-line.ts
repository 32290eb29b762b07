/**
 * How a sub-command reports bad input: the one line `palette <command>: error: FILE:LINE: message` on standard error
 * and exit status 2. Anything that is not an InputError is a bug or the machine: it is rethrown, for src/cli/main.ts
 * to report as an internal failure.
 */
import { InputError, locate } from '../errors.js';
import { EXIT_INPUT, type CliIo } from './io.js';

/**
 * Prints `err` as `palette <command>: error: …` and returns {@link EXIT_INPUT} when it is an InputError.
 * @throws `err` itself when it is anything else.
 */
export function reportInputError(command: string, err: unknown, io: CliIo): number {
  if (!(err instanceof InputError)) throw err;
  io.stderr.write(`palette ${command}: error: ${locate(err.message, err.file, err.line)}\n`);
  return EXIT_INPUT;
}
