/**
 * Mapping of Node file-system errors to typed input errors for the streaming readers. The wording matches
 * `src/corpus/read-lines.ts` so that a file fails the same way whichever reader opened it.
 */
import { InputError } from '../../errors.js';

/** Maps a Node file-system error (open/read failure) to an {@link InputError} naming the file. */
export function streamFileError(err: unknown, path: string): InputError {
  if (err instanceof InputError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return new InputError('E_FILE_NOT_FOUND', 'no such file', { file: path });
  if (code === 'EISDIR') return new InputError('E_FILE_UNREADABLE', 'is a directory, not a file', { file: path });
  if (code === 'EACCES' || code === 'EPERM') {
    return new InputError('E_FILE_UNREADABLE', 'cannot read the file: permission denied', { file: path });
  }
  const detail = err instanceof Error ? err.message : String(err);
  return new InputError('E_FILE_UNREADABLE', `cannot read the file (${code ?? detail})`, { file: path });
}
