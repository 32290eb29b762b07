/**
 * Reading ROUGE-1.5.5 summary files on Node: strict UTF-8 (ROUGE itself reads bytes, so any valid UTF-8 file reads
 * the same; an invalid one is refused with its line), lines split after each `\n` and keeping it, as Perl's `<FH>`
 * does, because the SEE reader keeps a sentence's `\n` (it counts as a byte under `-b`); the decoding is
 * ../corpus/rouge/summary-format.ts's. Files are read once and their sentences kept, since every peer of a unit is
 * compared with the same models.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../errors.js';
import { basicElementLines, decodeTerminatedLines, summarySentences, type Rouge155Format } from '../corpus/rouge/summary-format.js';
import { systemErrorWords } from './read-lines.js';

/** Maps a file-system error to an {@link InputError} naming the file. */
function fileError(err: unknown, path: string, what: string): InputError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new InputError('E_FILE_NOT_FOUND', `${what} not found`, { file: path });
  if (code === 'EISDIR')
    return new InputError('E_FILE_UNREADABLE', `${what} is a directory, not a file`, { file: path });
  if (code === 'EACCES' || code === 'EPERM') {
    return new InputError('E_FILE_UNREADABLE', `cannot read the ${what}: permission denied`, { file: path });
  }
  return new InputError('E_FILE_UNREADABLE', `cannot read the ${what}: ${systemErrorWords(err)}`, { file: path });
}

/**
 * The bytes of a file.
 * @param path as the user wrote it (used in messages)
 * @param cwd the directory relative paths start from
 * @param what what the file is, for messages (`model summary`, `configuration file`)
 * @throws InputError `E_FILE_NOT_FOUND` or `E_FILE_UNREADABLE`
 */
export function readInputBytes(path: string, cwd: string, what: string): Uint8Array {
  try {
    return readFileSync(resolve(cwd, path));
  } catch (err) {
    throw fileError(err, path, what);
  }
}

/** The summaries of one run, each file read once. */
export class SummaryFiles {
  private readonly cache = new Map<string, string[]>();

  /** @param cwd the directory relative summary paths start from */
  constructor(private readonly cwd: string) {}

  private lines(path: string, what: string): string[] {
    return decodeTerminatedLines(readInputBytes(path, this.cwd, what), path);
  }

  /**
   * The sentences of a summary as ROUGE-1.5.5 reads them in `format` (see ../corpus/rouge/summary-format.ts).
   * @param what `peer summary` or `model summary`, for messages
   */
  sentences(path: string, format: Exclude<Rouge155Format, 'SIMPLE'>, what: string): readonly string[] {
    const key = `${format}\u0000${path}`;
    let out = this.cache.get(key);
    if (out === undefined) {
      out = summarySentences(this.lines(path, what), format);
      this.cache.set(key, out);
    }
    return out;
  }

  /** The Basic Element lines of a summary (`-3`): a `SIMPLE` file's lines, none from an `ISI` file. */
  basicElements(path: string, format: 'SIMPLE' | 'ISI', what: string): readonly string[] {
    const key = `BE:${format}\u0000${path}`;
    let out = this.cache.get(key);
    if (out === undefined) {
      out = basicElementLines(this.lines(path, what), format);
      this.cache.set(key, out);
    }
    return out;
  }
}
