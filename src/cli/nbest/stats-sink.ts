/**
 * Where `palette nbest` writes: standard output, or a file written atomically (../output-file.ts: a temporary file
 * beside the target, renamed only when the whole run succeeded and removed on failure or interrupt).
 */
import type { CliIo } from '../io.js';
import type { OutputFile } from '../output-file.js';

/** A destination of text or bytes that is either committed at the end or abandoned. */
export type StatsSink = OutputFile;

/** Text is gathered up to this many UTF-16 units before one write call (fewer system calls on big n-best lists). */
const FLUSH_AT = 1 << 20;

/** A sink writing to standard output (text only: binary formats need a file; bytes are taken as UTF-8 text). */
export function stdoutSink(io: CliIo): StatsSink {
  let pending = '';
  const decoder = new TextDecoder();
  return {
    write(chunk) {
      // Streaming: a queue run hands its shards' bytes over in blocks that may end inside a character.
      pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      if (pending.length >= FLUSH_AT) {
        io.stdout.write(pending);
        pending = '';
      }
    },
    writeBehind(bytes, written) {
      this.write(bytes);
      written();
    },
    settled() {
      return Promise.resolve();
    },
    commit() {
      pending += decoder.decode();
      if (pending.length > 0) io.stdout.write(pending);
      pending = '';
    },
    abort() {
      pending = '';
    },
  };
}
