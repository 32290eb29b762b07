/**
 * An n-best list given as bytes (one array, or pieces cut anywhere: a network stream, a file read in blocks) or as
 * text, turned into chunks of whole segments of about a task's size; a segment ends where the file reader sees
 * it end (the byte-level ids of ../../corpus/stream/segment-chunks.ts). Where a chunk is cut does not change any
 * output byte: a segment lives in exactly one chunk either way.
 */
import { lineIdAt, segmentCut, type SegmentChunk } from '../../corpus/stream/segment-chunks.js';
import { nbestScanner } from './nbest-bytes.js';

const LF = 0x0a;

/**
 * Buffers of released chunks kept for later chunks, at most: as many as a run holds chunks in flight at once,
 * without keeping the peak of a run that held many more (a pool starting) for its whole length.
 */
const MAX_SPARE_BUFFERS = 32;

/** An n-best list: its text, its UTF-8 bytes, or its bytes in pieces (cut anywhere, in order). */
export type NbestInput = string | Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

/** Bytes not yet cut into chunks: `buf[start, end)` (`buf` may be the caller's array, which is never written). */
class Pending {
  private buf: Uint8Array = new Uint8Array(0);
  private start = 0;
  private end = 0;
  /** Whether `buf` is the caller's array. */
  private borrowed = false;
  /** Line and offset of the first pending byte. */
  private line = 1;
  private base = 0;
  /** Buffers of released chunks, for the next chunks. */
  private readonly free: (ArrayBuffer | SharedArrayBuffer)[] = [];

  /**
   * @param capacity bytes of the buffer of pending bytes (it grows for a longer segment)
   * @param spareBytes the least size of a new chunk's buffer: the longest chunk of the usual cut, so that a
   *   released buffer serves any later chunk
   */
  constructor(
    private readonly capacity: number,
    private readonly spareBytes: number,
  ) {}

  get filled(): number {
    return this.end - this.start;
  }

  append(piece: Uint8Array): void {
    if (this.filled === 0 && piece.length >= this.capacity) {
      // A large piece is cut where it lies: no copy of the whole input.
      this.buf = piece;
      this.start = 0;
      this.end = piece.length;
      this.borrowed = true;
      return;
    }
    this.makeRoom(piece.length);
    this.buf.set(piece, this.end);
    this.end += piece.length;
  }

  /**
   * The free bytes after the pending ones, at least `n` of them (the pending bytes moved to the front, or into a
   * larger buffer, when fewer are free), for a reader to fill in place; {@link filledBy} then counts what it wrote.
   */
  room(n: number): Uint8Array {
    this.makeRoom(n);
    return this.buf.subarray(this.end);
  }

  /** Takes `n` bytes written into {@link room} as pending. */
  filledBy(n: number): void {
    this.end += n;
  }

  /** Moves the pending bytes to the front of `buf` (its own). */
  private compact(): void {
    this.buf.copyWithin(0, this.start, this.end);
    this.end -= this.start;
    this.start = 0;
  }

  /** Makes `buf` this object's own with `n` free bytes after `end`. */
  private makeRoom(n: number): void {
    if (!this.borrowed && this.end + n <= this.buf.length) return;
    const filled = this.filled;
    if (!this.borrowed && filled + n <= this.buf.length) {
      this.compact();
      return;
    }
    const grown = new Uint8Array(Math.max(2 * this.buf.length, filled + n, this.capacity));
    grown.set(this.buf.subarray(this.start, this.end));
    this.buf = grown;
    this.borrowed = false;
    this.end = filled;
    this.start = 0;
  }

  /**
   * Takes the first `cut` pending bytes as a chunk, in a buffer of its own (shared when asked): one a released chunk
   * handed back when there is one large enough, else a new one of at least `spareBytes`.
   */
  take(cut: number, shared: boolean): SegmentChunk {
    // V8 copies into shared memory word by word only from a source as aligned as the target (a multiple of 8 here),
    // else byte by byte: a chunk of 443 KB took 110 µs instead of 14, 35 ms of a 1M-candidate run at -j 2. The
    // pending bytes are moved to the front of their buffer first (an ordinary copy) when they start elsewhere.
    if (shared && !this.borrowed && (this.buf.byteOffset + this.start) % 8 !== 0) this.compact();
    const source = this.buf.subarray(this.start, this.start + cut);
    const buffer = this.spare(cut, shared);
    const bytes = new Uint8Array(buffer, 0, cut);
    bytes.set(source);
    let released = false;
    const release = (): void => {
      // Once: a buffer listed twice would be handed to two chunks at a time.
      if (released) return;
      released = true;
      if (this.free.length < MAX_SPARE_BUFFERS) this.free.push(buffer);
    };
    const chunk = { bytes, firstLine: this.line, byteOffset: this.base, release };
    // Counted in WebAssembly, 16 bytes a step: in JavaScript the count was most of the reading thread's work. Counted
    // in the pending bytes, which go to the kernels' memory by an ordinary copy (a shared chunk's by V8's slower one).
    this.line += nbestScanner().countLineFeeds(source);
    this.start += cut;
    this.base += cut;
    return chunk;
  }

  /** A released buffer of at least `bytes` bytes of the asked kind, or a new one. */
  private spare(bytes: number, shared: boolean): ArrayBuffer | SharedArrayBuffer {
    const { free } = this;
    for (let i = free.length - 1; i >= 0; i--) {
      const b = free[i];
      if (b.byteLength >= bytes && (b instanceof SharedArrayBuffer) === shared) {
        free[i] = free[free.length - 1];
        free.pop();
        return b;
      }
    }
    const size = Math.max(bytes, this.spareBytes);
    return shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
  }

  /**
   * Where to cut a chunk of at most `chunkBytes` bytes: after the last segment that ends within them, else after the
   * first segment (when one longer than that has ended); 0 while no cut is possible yet.
   */
  cut(chunkBytes: number): number {
    const pending = this.buf.subarray(this.start, this.end);
    if (pending.length < chunkBytes) return 0;
    return segmentCut(pending, chunkBytes) || firstSegmentEnd(pending);
  }
}

/**
 * The start of the first complete line whose id differs from the first segment's (or follows a line whose id does
 * not parse, which ends its run as in `segmentCut`); 0 when there is none yet.
 */
function firstSegmentEnd(bytes: Uint8Array): number {
  let id = -1;
  let start = 0;
  for (let end = bytes.indexOf(LF); end >= 0; start = end + 1, end = bytes.indexOf(LF, start)) {
    const lineId = lineIdAt(bytes, start, end);
    if (lineId === -1) continue;
    if (id === -1) id = lineId;
    else if (lineId !== id || id === -2) return start;
  }
  return 0;
}

/** The pieces of an input, as byte arrays. */
async function* piecesOf(input: NbestInput): AsyncGenerator<Uint8Array> {
  if (typeof input === 'string') yield new TextEncoder().encode(input);
  else if (input instanceof Uint8Array) yield input;
  else yield* input;
}

/**
 * Cuts an n-best list into chunks of whole segments: each chunk ends at the last segment boundary within twice
 * `chunkBytes` of pending bytes (so chunks are between one and two `chunkBytes` long when segments are small, as a
 * reader that fills a buffer of twice the task size and cuts it makes them), or after its first segment when that
 * one is longer; with `shared`, each chunk's bytes live in a `SharedArrayBuffer` (posted to a worker without a copy).
 * Text is encoded as UTF-8 (a lone surrogate becomes U+FFFD). An empty input gives no chunk.
 */
export async function* segmentChunksOf(input: NbestInput, chunkBytes: number, shared = false): AsyncGenerator<SegmentChunk> {
  const { window, pending } = chunker(chunkBytes);
  for await (const piece of piecesOf(input)) {
    pending.append(piece);
    for (let cut = pending.cut(window); cut > 0; cut = pending.cut(window)) yield pending.take(cut, shared);
  }
  yield* lastChunks(pending, window, shared);
}

/**
 * Reads a source's next bytes into `into` (at most its length) and says how many it read: 0 at the end (a file
 * read with `read(2)`).
 */
export type ByteReader = (into: Uint8Array) => Promise<number>;

/**
 * {@link segmentChunksOf} of bytes a reader writes straight into the chunker's buffer, at least `blockBytes` at a
 * time: the same chunks, without a block array per read and a copy of each block into the buffer.
 *
 * The next read is under way while the last chunk cut from the bytes read so far is scored: a chunk is copied out
 * of the buffer (`take`) before that read starts, so the reader may fill the buffer meanwhile. Read in turn, a
 * thread scoring in-thread waited for each read (the 155 MB of a million candidates: 45–70 ms of its run).
 */
export async function* segmentChunksOfReader(
  read: ByteReader,
  chunkBytes: number,
  blockBytes: number,
  shared = false,
): AsyncGenerator<SegmentChunk> {
  const { window, pending } = chunker(chunkBytes);
  const next = (): Promise<number> => {
    const reading = read(pending.room(blockBytes));
    // A failure is thrown by the `await` below; until then (a chunk being scored) it must not count as unhandled.
    reading.catch(() => {});
    return reading;
  };
  let reading = next();
  try {
    for (;;) {
      const n = await reading;
      if (n === 0) break;
      pending.filledBy(n);
      let cut = pending.cut(window);
      if (cut === 0) reading = next();
      while (cut > 0) {
        const chunk = pending.take(cut, shared);
        cut = pending.cut(window);
        // The last chunk this read allows goes out with the next read under way.
        if (cut === 0) reading = next();
        yield chunk;
      }
    }
  } finally {
    // A consumer that stopped early (bad input further on) leaves a read under way into the buffer: let it end
    // before the reader's source is closed.
    await reading.then(() => {}, () => {});
  }
  yield* lastChunks(pending, window, shared);
}

/** The cutting window of a chunk size, and an empty buffer. */
function chunker(chunkBytes: number): { window: number; pending: Pending } {
  if (!Number.isInteger(chunkBytes) || chunkBytes < 1) throw new RangeError(`chunkBytes must be a positive integer (got ${chunkBytes})`);
  // Cutting at the last boundary within a window of twice the task size, rather than within the task size, keeps
  // tasks of a list whose segments are a large part of the task size (1000-best lists: ~150 KB a segment) at
  // 2-3 segments instead of one, which halves the per-task work of a run.
  const window = 2 * chunkBytes;
  return { window, pending: new Pending(2 * window, window) };
}

/** The chunks of what is pending at the end of the input. */
function* lastChunks(pending: Pending, window: number, shared: boolean): Generator<SegmentChunk> {
  // Every line is complete, so whatever remains is whole segments.
  while (pending.filled > window) {
    const cut = pending.cut(window);
    if (cut === 0) break;
    yield pending.take(cut, shared);
  }
  if (pending.filled > 0) yield pending.take(pending.filled, shared);
}
