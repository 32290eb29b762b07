/**
 * The streams and environment a CLI run uses, passed in so that tests run commands in-process with plain strings.
 */
import { createRequire } from 'node:module';

/** Where a run writes and what it reads. */
export interface CliIo {
  /** Standard output; `isTTY` decides colours, as sacrebleu's colorama does. */
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  /** Standard error: messages and warnings. */
  readonly stderr: { write(text: string): unknown };
  /** Standard input, read only when a command asks for it (`-i -`, or no `-i`). */
  readonly stdin?: AsyncIterable<Uint8Array | string>;
  /** Environment (`SACREBLEU_FORMAT`, `NO_COLOR`). @default {} */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Exit statuses of `palette`. */
export const EXIT_OK = 0;
/** An internal failure (a bug, or the machine): the message is printed, exit status 1. */
export const EXIT_INTERNAL = 1;
/** Bad input or usage the user must fix (argparse uses 2 for usage errors too). */
export const EXIT_INPUT = 2;

/**
 * The process's standard output for a CLI run, written with `write(2)` on descriptor 1 as long as that works.
 * `process.stdout` is a stream built on first access, and for a pipe its socket machinery: two dozen of Node's
 * modules to load, a good part of a short run. Writes stay synchronous and in order, as Node's own stdout is on
 * Linux for files, pipes and terminals. A descriptor that refuses a write for now (`EAGAIN`: one a parent set
 * non-blocking) hands this and every later write to `process.stdout`, which waits for it. When the reader has gone
 * (`EPIPE`, or `ECONNRESET` for a socket) the process ends quietly with the status it has so far, as sacrebleu does (SIGPIPE at its default).
 * `isTTY` is `process.stdout.isTTY`, asked of the stream only for a character device (a terminal is one; a pipe or
 * a file is not).
 */
export function processStdout(): CliIo['stdout'] {
  // node:fs through require: an ES module's import of it reads every export, and so loads Node's file streams and
  // with them the stream modules this is here to spare.
  const { fstatSync, writeSync } = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
  let stream: NodeJS.WriteStream | undefined;
  const built = (): NodeJS.WriteStream => {
    if (stream === undefined) {
      stream = process.stdout;
      streamsBuilt.add(stream);
      stream.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'EPIPE') process.exit(process.exitCode ?? EXIT_OK);
        throw err;
      });
    }
    return stream;
  };
  return {
    write(text: string): boolean {
      if (stream !== undefined) return stream.write(text);
      const bytes = Buffer.from(text, 'utf8');
      let at = 0;
      while (at < bytes.length) {
        try {
          at += writeSync(1, bytes, at, bytes.length - at);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          // A pipe's reader gone is EPIPE; a socket's (Node's child processes get socket pairs) ECONNRESET.
          if (code === 'EPIPE' || code === 'ECONNRESET') process.exit(process.exitCode ?? EXIT_OK);
          if (code === 'EAGAIN') return built().write(bytes.subarray(at));
          throw err;
        }
      }
      return true;
    },
    get isTTY(): boolean {
      if (stream === undefined) {
        try {
          if (!fstatSync(1).isCharacterDevice()) return false;
        } catch {
          // No usable descriptor 1: the stream decides.
        }
      }
      return built().isTTY === true;
    },
  };
}

/** The process's output streams that a run through {@link processIo} has built (see {@link processIoSettled}). */
const streamsBuilt = new Set<NodeJS.WriteStream>();

/**
 * Whether the process's output streams hold nothing still to be written: true when a run through
 * {@link processIo} built none of them (standard output written with `write(2)`, standard error never used) or
 * those it built have handed every byte on. A command that has finished may then end the process at once
 * (`process.exit`) instead of letting Node take its heap and threads down piece by piece first, without losing a
 * byte of its output.
 */
export function processIoSettled(): boolean {
  for (const stream of streamsBuilt) if (stream.writableLength > 0) return false;
  return true;
}

/** The process's own streams and environment, as bin/palette runs a command with them. */
export function processIo(): CliIo {
  // Node builds process.stdout, process.stderr and process.stdin on first access (a stream each, and for a pipe its
  // socket machinery): standard output is written without the stream (processStdout), and a run that never warns or
  // reads standard input builds neither of the others.
  return {
    stdout: processStdout(),
    get stderr() {
      streamsBuilt.add(process.stderr);
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
  };
}
