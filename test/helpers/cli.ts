/**
 * Running a `palette` command in process for tests: the command writes into strings instead of the terminal, and its
 * exit status, standard output and standard error come back together; plus the check every bad-input test makes of
 * what the CLI printed (exit 2, nothing on stdout, one `palette <cmd>: error: …` line).
 */
import { expect } from 'vitest';
import { run, type CliIo } from '../../src/cli/main.js';

/** What one in-process run of a command gave. */
export interface CliResult {
  /** Exit status. */
  code: number;
  /** Everything written to standard output. */
  out: string;
  /** Everything written to standard error. */
  err: string;
}

/** A command entry point with the shape of `run` (main.ts) and the per-command `run…Command` functions. */
export type CliEntry = (argv: readonly string[], io: CliIo) => Promise<number>;

/** The parts of {@link CliIo} a test may set beyond the captured stdout and stderr. */
export type CliExtras = Omit<CliIo, 'stdout' | 'stderr'>;

/**
 * Runs `entry` on `argv` with stdout and stderr captured as strings. `extras` adds an environment or standard input;
 * without one the command sees the empty environment it sees by default.
 */
export async function captureCli(entry: CliEntry, argv: readonly string[], extras: CliExtras = {}): Promise<CliResult> {
  let out = '';
  let err = '';
  const io: CliIo = {
    ...extras,
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
  };
  const code = await entry(argv, io);
  return { code, out, err };
}

/**
 * A runner of `palette` through main.ts's `run`, with `prefix` (a subcommand, say) put before each call's arguments:
 * `cliRunner(['correlate'])(['--metric', f])` runs `palette correlate --metric f`.
 */
export function cliRunner(prefix: readonly string[] = [], entry: CliEntry = run): (argv: readonly string[]) => Promise<CliResult> {
  return (argv) => captureCli(entry, [...prefix, ...argv]);
}

/**
 * Expects what the CLI prints for bad input: exit status 2, nothing on standard output, and one line on standard
 * error that starts `palette <command>: error: ` and matches `message`.
 */
export function expectInputError(r: CliResult, command: string, message: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toMatch(new RegExp(`^palette ${command}: error: `));
  expect(r.err.trimEnd().split('\n')).toHaveLength(1);
  expect(r.err).toMatch(message);
}
