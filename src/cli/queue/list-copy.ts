/**
 * A gzip n-best list as plain bytes that a queue run's shards can be cut from (`palette nbest --queue`, `palette mbr
 * --nbest … --queue`): decompressed once, by the submitting process, into a file beside the run's result folder,
 * which then moves into that folder (the one every worker already reads and writes). Byte ranges cannot be cut from
 * a gzip stream without decompressing it from its start, so each worker would decompress everything before its
 * shard; the copy costs one pass over the list here and its size on disk for the run. (Holding the segments' text
 * in the jobs instead would put the whole list into Redis.)
 *
 * The copy gets the gzip file's modification time: a run submitted again decompresses the same bytes to a copy of
 * the same size and time, so its plan, run id and finished shards are those of the first submission. It is removed
 * as soon as the run is over (merged, failed or interrupted); only the finished shards' results are kept for a run
 * submitted again.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../errors.js';
import { fileBlocks } from '../../node/segment-chunks.js';
import { onInterrupt } from '../interrupt.js';

export class ListCopy {
  private path: string;
  private readonly release: () => void;

  private constructor(path: string) {
    this.path = path;
    this.release = onInterrupt(() => rmSync(this.path, { force: true }));
  }

  /**
   * Decompresses `nbest` (messages name it) into a temporary file in `folder` whose name starts with `prefix`.
   * @throws InputError `E_FILE_UNWRITABLE` when the copy cannot be written; the reader's errors for `nbest`
   * (`E_FILE_UNREADABLE` for gzip data it cannot decompress). Nothing is left behind.
   */
  static async of(nbest: string, folder: string, prefix: string): Promise<ListCopy> {
    const temp = join(folder, `${prefix}.palette-gunzip-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    let fd: number;
    try {
      fd = openSync(temp, 'w');
    } catch (err) {
      throw new InputError('E_FILE_UNWRITABLE', `cannot write the decompressed copy of the gzip list: ${(err as Error).message}`, { file: temp });
    }
    const copy = new ListCopy(temp);
    try {
      try {
        // The single-machine run's reader: the same bytes, and the same message for gzip data it cannot decompress.
        for await (const block of fileBlocks(nbest, 1 << 20)) {
          for (let at = 0; at < block.length; ) at += writeSync(fd, block, at, block.length - at);
        }
      } finally {
        closeSync(fd);
      }
      const { atime, mtime } = statSync(nbest);
      utimesSync(temp, atime, mtime);
    } catch (err) {
      copy.remove();
      throw err;
    }
    return copy;
  }

  get file(): string {
    return this.path;
  }

  /** Moves the copy into the run's result folder `resultDir` (created if need be), as its file `list`. */
  moveInto(resultDir: string): void {
    try {
      mkdirSync(resultDir, { recursive: true });
    } catch (err) {
      throw new InputError('E_FILE_UNWRITABLE', `cannot create the folder of the shard results: ${(err as Error).message}`, { file: resultDir });
    }
    const path = join(resultDir, 'list');
    renameSync(this.path, path);
    this.path = path;
  }

  remove(): void {
    rmSync(this.path, { force: true });
    this.release();
  }
}
