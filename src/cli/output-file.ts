/**
 * Every file a `palette` command writes (`nbest --stats`, `report -o`) goes through here: written to a temporary
 * `.<name>.<pid>.<random>.tmp` in the target's directory (so the final rename stays on one file system and is
 * atomic) and renamed over the target only when the whole run succeeded. A failed run removes the temporary file,
 * and so does SIGINT, SIGTERM or SIGHUP while it is open (./interrupt.ts): nothing half-written is left, and an
 * existing output file is untouched until the rename.
 *
 * A big output is handed to the disk while it is written: after every {@link SYNC_EVERY} bytes the temporary file's
 * data is synced in the background (one `fdatasync` at a time, on a descriptor of its own, in libuv's thread pool),
 * never waited for. Renaming a file over an existing one makes ext4 allocate and start writing every block still
 * only in memory (its `auto_da_alloc` safeguard), in the rename call: for the 100 MB statistics of a million
 * candidates that was 25–85 ms at the very end of the run, now spread over the run. The same data goes to the disk
 * either way (the kernel writes dirty data within about 30 s anyway); what the rename still does is free the
 * replaced file's blocks. A sync that reports an error (the disk full after all, an I/O error) fails the commit:
 * without the sync that error would have been lost. The process still ends only once a sync under way is done.
 *
 * Bytes handed over with {@link OutputFile.writeBehind} are written in the background too (libuv's thread pool),
 * while the caller goes on computing: each write into a temporary file names its offset, so they need not end in
 * the order given, and one that has not ended holds up none after it. The 100 MB of a million candidates'
 * statistics took the scoring thread 45–60 ms of `write` calls (copying them into the page cache); now another
 * thread does it meanwhile. Past {@link BEHIND_LIMIT} bytes still waiting, bytes are written at once: a slow disk
 * slows the run rather than the output piling up in memory. A background write that fails fails the next write,
 * or the commit.
 *
 * A target that exists and is not a regular file (`/dev/null`, a named pipe, `/dev/stdout`) is written directly:
 * renaming a file over it would replace the device or pipe, and there is no half-written file to leave.
 *
 * Failures to create or write the file are InputErrors naming it and saying in words what is wrong (a missing
 * directory, a directory given as the file, no permission, a read-only file system…): the path is the user's to fix.
 */
import {
  close as closeFd, closeSync, fdatasync, openSync, realpathSync, renameSync, statSync, unlinkSync, write as writeFd, writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { systemErrorWords } from '../node/read-lines.js';
import { onInterrupt } from './interrupt.js';

/** A destination of text or bytes that is either committed at the end or abandoned. */
export interface OutputFile {
  /** Appends text (UTF-8) or bytes. */
  write(chunk: string | Uint8Array): void;
  /**
   * Appends bytes that stay the caller's to keep unchanged until `written` is called: written in the background
   * (see the module comment) or, at once, during the call.
   */
  writeBehind(bytes: Uint8Array, written: () => void): void;
  /** Resolves once no background write is waiting or under way (its error, if any, is the commit's). */
  settled(): Promise<void>;
  /** Finishes the output (renames the temporary file onto the target); background writes must have settled. */
  commit(): void;
  /** Abandons the output (removes the temporary file); safe to call more than once and after a failure. */
  abort(): void;
}

/** Text is gathered up to this many UTF-16 units before one write call (fewer system calls on big n-best lists). */
const FLUSH_AT = 1 << 20;

/** Bytes written between background syncs of a temporary file (see the module comment). */
export const SYNC_EVERY = 8 << 20;

/** Bytes at most waiting for a background write before {@link OutputFile.writeBehind} writes at once. */
export const BEHIND_LIMIT = 16 << 20;

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The nearest folder above `path` (or `path` itself) that exists, or that something else is in the way of. */
function nearestExisting(path: string): { path: string; stats: Stats } | undefined {
  let p = resolve(path);
  for (;;) {
    const stats = statOrUndefined(p);
    if (stats !== undefined) return { path: p, stats };
    const up = dirname(p);
    if (up === p) return undefined;
    p = up;
  }
}

/**
 * What is wrong with writing `path`, in words, from the error of creating, writing or renaming its file in `dir`.
 */
function whyNotWritable(err: NodeJS.ErrnoException, dir: string): string {
  switch (err.code) {
    case 'EISDIR':
      return 'it is a directory';
    case 'ENOENT': {
      const dirStats = statOrUndefined(dir);
      if (dirStats === undefined) {
        const found = nearestExisting(dir);
        if (found !== undefined && !found.stats.isDirectory()) return `${found.path} is not a directory`;
        return `the directory ${dir} does not exist`;
      }
      // The folder is there but refuses new files (/proc, /sys).
      return `no file can be created in ${dir} (${systemErrorWords(err)})`;
    }
    case 'ENOTDIR': {
      const found = nearestExisting(dir);
      return found !== undefined && !found.stats.isDirectory()
        ? `${found.path} is not a directory`
        : `a part of ${dir} is not a directory`;
    }
    case 'EACCES':
    case 'EPERM':
      return `permission denied (no file can be created in ${dir})`;
    case 'EROFS':
      return `${dir} is on a read-only file system`;
    default:
      return systemErrorWords(err);
  }
}

/**
 * Maps a failure to create, write or rename the output to an InputError naming it.
 * @param dir the folder the file was created in (the link's target's, when `path` is a symbolic link)
 */
export function outputFileError(err: unknown, path: string, dir = dirname(path)): InputError {
  const why = typeof (err as NodeJS.ErrnoException | undefined)?.code === 'string'
    ? whyNotWritable(err as NodeJS.ErrnoException, dir)
    : err instanceof Error ? err.message : String(err);
  return new InputError('E_FILE_UNWRITABLE', `cannot write the output file: ${why}`, { file: path });
}

/**
 * The temporary file for `path`, beside the file it will replace: through a symbolic link, beside the link's target,
 * so that the rename replaces that file and the link stays.
 */
function temporaryFor(path: string, exists: boolean): { temp: string; final: string } {
  const final = exists ? realpathSync(path) : path;
  return { temp: join(dirname(final), `.${basename(final)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`), final };
}

/** Throws the error of a target that is a directory (the rename would fail only after all the work). */
function refuseDirectory(path: string, stats: Stats | undefined): void {
  if (stats?.isDirectory()) throw outputFileError(Object.assign(new Error('is a directory'), { code: 'EISDIR' }), path);
}

/**
 * Checks, before a long computation whose result goes to `path`, that the file can be written there: the target is
 * not a directory and a file can be created in its folder (tried, then removed).
 * @throws InputError `E_FILE_UNWRITABLE` saying what is wrong.
 */
export function checkOutputFile(path: string): void {
  const stats = statOrUndefined(path);
  refuseDirectory(path, stats);
  if (stats !== undefined && !stats.isFile()) return;
  const { temp } = temporaryFor(path, stats !== undefined);
  try {
    closeSync(openSync(temp, 'wx'));
  } catch (err) {
    throw outputFileError(err, path, dirname(temp));
  }
  unlinkSync(temp);
}

/**
 * Opens `path` for an atomic write (see the module comment).
 * @throws InputError `E_FILE_UNWRITABLE` when the file cannot be created there.
 */
export function openOutputFile(path: string): OutputFile {
  const stats = statOrUndefined(path);
  refuseDirectory(path, stats);
  const direct = stats !== undefined && !stats.isFile();
  const { temp, final } = direct ? { temp: undefined, final: path } : temporaryFor(path, stats !== undefined);
  let fd: number | undefined;
  try {
    fd = openSync(temp ?? path, temp === undefined ? 'w' : 'wx');
  } catch (err) {
    throw outputFileError(err, path, dirname(final));
  }
  let pending = '';
  let done = false;
  // Background syncs (see the module comment): bytes written since the last one started, whether one is running,
  // and the first error one reported.
  let unsynced = 0;
  let syncing = false;
  let syncError: NodeJS.ErrnoException | undefined;
  const startSync = (): void => {
    if (temp === undefined || syncing || syncError !== undefined) return;
    let syncFd: number;
    try {
      // A descriptor of its own: the writing one may be closed (commit, abort, interrupt) while the sync runs.
      syncFd = openSync(temp, 'r');
    } catch {
      return;
    }
    syncing = true;
    unsynced = 0;
    fdatasync(syncFd, (err) => {
      if (err !== null && syncError === undefined) syncError = err;
      closeFd(syncFd, () => {
        syncing = false;
      });
    });
  };
  const wrote = (bytes: number): void => {
    unsynced += bytes;
    if (unsynced >= SYNC_EVERY) startSync();
  };
  // Offset of the next byte in the temporary file (writes name it: background writes run out of turn); null when
  // the target is written directly (a pipe has no offsets), which is never written in the background.
  let position: number | null = temp === undefined ? null : 0;
  /** Writes all of `bytes` now, at the next offset. */
  const writeNow = (bytes: Uint8Array): void => {
    let off = 0;
    while (off < bytes.length) off += writeSync(fd!, bytes, off, bytes.length - off, position === null ? null : position + off);
    if (position !== null) position += bytes.length;
    wrote(bytes.length);
  };
  // Background writes (see the module comment): how many are under way and the bytes they hold, the first error one
  // reported, and who waits for them all to end.
  let behind = 0;
  let behindBytes = 0;
  let writeError: NodeJS.ErrnoException | undefined;
  let waiting: (() => void)[] = [];
  // A descriptor closed while writes on it were under way: closed when the last of them ends.
  let closeAfterWrites: number | undefined;
  /** Writes `bytes[from ..]` at offset `at` in the background; `written` once all of them are. */
  const writeLater = (descriptor: number, bytes: Uint8Array, from: number, at: number, written: () => void): void => {
    behind++;
    writeFd(descriptor, bytes, from, bytes.length - from, at, (err, n) => {
      behind--;
      if (err !== null) writeError ??= err;
      else if (fd !== undefined && writeError === undefined) {
        wrote(n);
        // A short write goes on where it stopped.
        if (from + n < bytes.length) writeLater(fd, bytes, from + n, at + n, written);
        else {
          behindBytes -= bytes.length;
          written();
        }
      }
      if (behind > 0) return;
      if (closeAfterWrites !== undefined) closeFd(closeAfterWrites, () => {});
      closeAfterWrites = undefined;
      const wake = waiting;
      waiting = [];
      for (const w of wake) w();
    });
  };
  const close = (): void => {
    if (fd !== undefined) {
      if (behind > 0) closeAfterWrites = fd;
      else closeSync(fd);
    }
    fd = undefined;
  };
  const remove = (): void => {
    try {
      close();
    } catch {
      // A descriptor whose writes failed may fail to close too: the file is removed below either way.
    }
    if (temp === undefined) return;
    try {
      unlinkSync(temp);
    } catch {
      // Already gone.
    }
  };
  // Set when an interrupt removed the file and the process went on (a host's own listener kept it alive): the run
  // must then fail rather than report a file that is not there.
  let interrupted = false;
  const release = onInterrupt(() => {
    interrupted = true;
    done = true;
    remove();
  });
  const refuseInterrupted = (): void => {
    if (interrupted) throw new Error(`${path}: the output file was removed on an interrupt`);
  };
  const flushText = (): void => {
    if (pending.length === 0 || fd === undefined) return;
    if (position === null) wrote(writeSync(fd, pending));
    else writeNow(Buffer.from(pending, 'utf8'));
    pending = '';
  };
  const refuseFailed = (): void => {
    refuseInterrupted();
    if (done || fd === undefined) throw new Error('the output is already closed');
    if (writeError !== undefined) throw outputFileError(writeError, path, dirname(final));
  };
  const file: OutputFile = {
    write(chunk) {
      refuseFailed();
      try {
        if (typeof chunk === 'string') {
          pending += chunk;
          if (pending.length >= FLUSH_AT) flushText();
        } else {
          flushText();
          writeNow(chunk);
        }
      } catch (err) {
        throw outputFileError(err, path, dirname(final));
      }
    },
    writeBehind(bytes, written) {
      refuseFailed();
      try {
        flushText();
        if (position === null || behindBytes + bytes.length > BEHIND_LIMIT) {
          writeNow(bytes);
          written();
          return;
        }
      } catch (err) {
        throw outputFileError(err, path, dirname(final));
      }
      behindBytes += bytes.length;
      writeLater(fd!, bytes, 0, position, written);
      position += bytes.length;
    },
    settled() {
      if (behind === 0) return Promise.resolve();
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    commit() {
      refuseInterrupted();
      if (done) return;
      if (behind > 0) throw new Error('background writes are still under way: await settled() first');
      try {
        flushText();
        close();
        if (writeError !== undefined) throw writeError;
        if (syncError !== undefined) throw syncError;
        if (temp !== undefined) renameSync(temp, final);
      } catch (err) {
        file.abort();
        throw outputFileError(err, path, dirname(final));
      }
      done = true;
      release();
    },
    abort() {
      if (done) return;
      done = true;
      pending = '';
      remove();
      release();
    },
  };
  return file;
}
