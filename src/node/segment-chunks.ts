/**
 * Streaming an n-best list file as chunks of whole segments (the cutting rules are those of
 * ../corpus/stream/segment-chunks.ts). Memory: one buffer of about twice the chunk size (more only for a segment
 * longer than that) plus the chunks in flight.
 */
import { InputError } from '../errors.js';
import { countLf, segmentCut, type SegmentChunk } from '../corpus/stream/segment-chunks.js';
import { openForReading, readInto, withRoom } from './chunk-buffer.js';

/**
 * Streams an n-best list as chunks of whole segments of about `chunkBytes` bytes; with `shared`, each chunk's
 * bytes live in a `SharedArrayBuffer` (posted to a worker without a copy, and still there for a retry).
 * @throws InputError `E_FILE_NOT_FOUND`/`E_FILE_UNREADABLE` (reading), `E_EMPTY_INPUT` for a 0-byte file.
 */
export async function* readSegmentChunks(path: string, chunkBytes: number, shared = false): AsyncGenerator<SegmentChunk> {
  if (!Number.isInteger(chunkBytes) || chunkBytes < 1) throw new RangeError(`chunkBytes must be a positive integer (got ${chunkBytes})`);
  const fh = await openForReading(path);
  try {
    let buf = Buffer.allocUnsafe(2 * chunkBytes);
    let filled = 0;
    let base = 0;
    let line = 1;
    let eof = false;
    while (true) {
      while (!eof && filled < chunkBytes) {
        buf = withRoom(buf, filled, chunkBytes);
        const bytesRead = await readInto(fh, buf, filled, buf.length - filled, path);
        if (bytesRead === 0) eof = true;
        filled += bytesRead;
      }
      let cut = eof ? filled : segmentCut(buf, filled);
      if (cut === 0 && !eof) {
        // One segment fills the buffer: read on until it ends (the chunk grows).
        const grown = Buffer.allocUnsafe(2 * buf.length);
        buf.copy(grown, 0, 0, filled);
        buf = grown;
        const more = filled;
        while (!eof && filled < more + chunkBytes) {
          const bytesRead = await readInto(fh, buf, filled, buf.length - filled, path);
          if (bytesRead === 0) eof = true;
          filled += bytesRead;
        }
        cut = eof ? filled : segmentCut(buf, filled);
        if (cut === 0) continue;
      }
      if (cut === 0) break;
      const bytes = new Uint8Array(shared ? new SharedArrayBuffer(cut) : new ArrayBuffer(cut));
      bytes.set(buf.subarray(0, cut));
      yield { bytes, firstLine: line, byteOffset: base };
      line += countLf(bytes, cut);
      buf.copyWithin(0, cut, filled);
      base += cut;
      filled -= cut;
      if (eof && filled === 0) break;
    }
    if (base === 0) {
      throw new InputError('E_EMPTY_INPUT', 'empty input (0 bytes): expected one segment per line', { file: path });
    }
  } finally {
    await fh.close();
  }
}
