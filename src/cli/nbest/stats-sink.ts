/**
 * Where `palette nbest` writes: standard output, or a file written atomically. The file is written to a temporary
 * name in the same directory (so the final rename stays on one file system and is atomic) and renamed over the
 * target only when the whole run succeeded; {@link StatsSink.abort} removes it, so a failed run leaves nothing.
 */
import { closeSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../../errors.js';
import type { CliIo } from '../io.js';

/** A destination of text or bytes that is either committed at the end or abandoned. */
export interface StatsSink {
  /** Appends text (UTF-8) or bytes. */
  write(chunk: string | Uint8Array): void;
  /** Finishes the output (renames the temporary file onto the target). */
  commit(): void;
  /** Abandons the output (removes the temporary file); safe to call more than once and after a failure. */
  abort(): void;
}

/** Text is gathered up to this many UTF-16 units before one write call (fewer system calls on big n-best lists). */
const FLUSH_AT = 1 << 20;

/** A sink writing to standard output (text only: binary formats need a file; bytes are taken as UTF-8 text). */
export function stdoutSink(io: CliIo): StatsSink {
  let pending = '';
  const decoder = new TextDecoder();
  return {
    write(chunk) {
      pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk);
      if (pending.length >= FLUSH_AT) {
        io.stdout.write(pending);
        pending = '';
      }
    },
    commit() {
      if (pending.length > 0) io.stdout.write(pending);
      pending = '';
    },
    abort() {
      pending = '';
    },
  };
}

/** Maps a failure to create or write the output to an InputError naming it (a bad path is the user's to fix). */
function outputError(err: unknown, path: string): InputError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const why = code === 'ENOENT' ? 'its directory does not exist' : code === 'EACCES' ? 'permission denied' : (code ?? String(err));
  return new InputError('E_FILE_UNREADABLE', `cannot write the output file (${why})`, { file: path });
}

/**
 * A sink writing `path` atomically: to `.<name>.<pid>.<random>.tmp` beside it, renamed at {@link StatsSink.commit}.
 * @throws InputError `E_FILE_UNREADABLE` when the temporary file cannot be created.
 */
export function atomicFileSink(path: string): StatsSink {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx');
  } catch (err) {
    throw outputError(err, path);
  }
  let pending = '';
  let done = false;
  const flushText = (): void => {
    if (pending.length === 0 || fd === undefined) return;
    writeSync(fd, pending);
    pending = '';
  };
  const close = (): void => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  return {
    write(chunk) {
      if (done || fd === undefined) throw new Error('the output is already closed');
      try {
        if (typeof chunk === 'string') {
          pending += chunk;
          if (pending.length >= FLUSH_AT) flushText();
        } else {
          flushText();
          writeSync(fd, chunk);
        }
      } catch (err) {
        throw outputError(err, path);
      }
    },
    commit() {
      if (done) return;
      try {
        flushText();
        close();
        renameSync(temp, path);
      } catch (err) {
        this.abort();
        throw outputError(err, path);
      }
      done = true;
    },
    abort() {
      if (done) return;
      done = true;
      pending = '';
      try {
        close();
      } catch {
        // Closing a descriptor that failed to write: the file is removed below either way.
      }
      try {
        unlinkSync(temp);
      } catch {
        // Already gone.
      }
    },
  };
}
