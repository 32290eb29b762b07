/**
 * Raw chunks of a Moses n-best list cut at segment boundaries, for parallel parsing: the bytes are not decoded, only
 * scanned for line ends and for the id at the start of the lines near a cut, so the reading thread does little work
 * and the workers parse, tokenize and score (the Node adapter reads the chunks from a file:
 * src/node/segment-chunks.ts).
 *
 * A chunk holds whole lines and whole segments: it ends where the id of a line differs from the id of the line
 * before (ids parsed from the bytes: ASCII blanks, decimal digits, ASCII blanks, `|||`). A line whose id does not
 * parse that way (a malformed line, which its worker then reports) ends the run of equal ids like any other id. A
 * segment longer than the chunk size makes its chunk longer.
 *
 * Limits of the byte-level id (documented, not silent): an id surrounded by non-ASCII Unicode blanks, which the
 * line parser accepts, may start a new chunk inside its segment; the consumer detects this (the chunk's first id
 * equals the previous chunk's last) and reports it.
 */

/** Whole segments of the list: `bytes` start at byte `byteOffset` of the file, on line `firstLine`. */
export interface SegmentChunk {
  /** The chunk's bytes, in a buffer of their own (a `SharedArrayBuffer` when asked: workers read it in place). */
  readonly bytes: Uint8Array;
  /** 1-based line of the chunk's first byte. */
  readonly firstLine: number;
  /** File offset of the chunk's first byte. */
  readonly byteOffset: number;
  /**
   * Hands the chunk's buffer back to its source for a later chunk, once nothing reads `bytes` any more (its task
   * done and its output written): a new buffer per chunk is memory outside V8's heap whose allocation counts towards
   * the limit that starts a full garbage collection. Optional: a chunk never released keeps its buffer.
   */
  readonly release?: () => void;
}

const LF = 0x0a;
const PIPE = 0x7c;

function isBlank(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0b || b === 0x0c || b === 0x0d;
}

/**
 * The id at the start of the line `bytes[start .. end)`: -1 for an empty line (no id, belongs to no segment), -2
 * when it does not parse as a byte-level id.
 */
export function lineIdAt(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end && isBlank(bytes[i])) i++;
  if (i === end) return -1;
  let v = 0;
  let digits = 0;
  while (i < end && bytes[i] >= 0x30 && bytes[i] <= 0x39 && digits < 11) {
    v = v * 10 + bytes[i] - 0x30;
    digits++;
    i++;
  }
  if (digits === 0 || digits > 10) return -2;
  while (i < end && isBlank(bytes[i])) i++;
  if (i + 3 > end || bytes[i] !== PIPE || bytes[i + 1] !== PIPE || bytes[i + 2] !== PIPE) return -2;
  return v;
}

/**
 * Where to cut `bytes[0 .. filled)`: the start of the run of complete lines that share the id of the last complete
 * line (they may continue past the buffer). 0 when no cut is possible yet (no complete line, or a single run).
 */
export function segmentCut(bytes: Uint8Array, filled: number): number {
  const lastEnd = filled > 0 ? bytes.lastIndexOf(LF, filled - 1) : -1;
  if (lastEnd < 0) return 0;
  let id = -1;
  let end = lastEnd;
  let cut = lastEnd + 1;
  while (end >= 0) {
    const start = end === 0 ? 0 : bytes.lastIndexOf(LF, end - 1) + 1;
    const lineId = lineIdAt(bytes, start, end);
    if (lineId !== -1) {
      if (id === -1) id = lineId;
      else if (lineId !== id || id === -2) return cut;
    }
    cut = start;
    if (start === 0) return 0;
    end = start - 1;
  }
  return 0;
}
