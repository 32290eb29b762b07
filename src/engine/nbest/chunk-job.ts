/**
 * A chunk of the n-best list (raw bytes of whole segments) turned into its output bytes: decoded (strict UTF-8),
 * parsed, scored, duplicates removed, encoded. The main thread (in-thread mode) and the pool's workers run exactly
 * this, so the output does not depend on where, or in how many pieces, the list was processed.
 *
 * Also the references as the workers see them: every reference line once in one `SharedArrayBuffer` of UTF-8 bytes
 * with line offsets, posted to each worker once and decoded only for the segments a task uses.
 */
import { InputError } from '../../errors.js';
import { firstInvalidUtf8 } from '../../corpus/read-lines.js';
import { buildNbestMetrics, type NbestMetric, type NbestMetricSpec, type ReferenceSource } from './nbest-metrics.js';
import {
  encodeTask, scoreTask, taskEncoder, taskErrorData, type NbestTaskSettings, type TaskErrorData,
} from './nbest-task.js';
import type { BlockEncoder } from './stats-format.js';
import { ByteOut } from './byte-out.js';
import { fusedRows, type FusedRows } from './fast/fused-scorer.js';
import type { MetricRegistry } from '../../metrics/registry.js';
import { ResultStore } from '../../wasm/linear-memory.js';

/** References in shared memory: line `s · nRefs + j` is reference `j` of segment `s`. */
export interface SharedReferences {
  readonly nRefs: number;
  readonly segments: number;
  /** UTF-8 bytes of every line, segment-major. */
  readonly bytes: SharedArrayBuffer;
  /** `segments · nRefs + 1` byte offsets (Int32). */
  readonly offsets: SharedArrayBuffer;
}

const referenceEncoder = new TextEncoder();
/** Decodes reference lines as they were encoded: a leading U+FEFF is part of the line, not a byte order mark. */
const referenceDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Copies reference streams (`streams[j][s]`) into shared memory. */
export function shareReferences(streams: readonly (readonly string[])[]): SharedReferences {
  const nRefs = streams.length;
  const segments = streams[0].length;
  const encoded: Uint8Array[] = [];
  const offsets = new SharedArrayBuffer(4 * (segments * nRefs + 1));
  const off = new Int32Array(offsets);
  let total = 0;
  for (let s = 0; s < segments; s++) {
    for (let j = 0; j < nRefs; j++) {
      const b = referenceEncoder.encode(streams[j][s]);
      encoded.push(b);
      total += b.length;
      off[s * nRefs + j + 1] = total;
    }
  }
  const bytes = new SharedArrayBuffer(total);
  const view = new Uint8Array(bytes);
  let at = 0;
  for (const b of encoded) {
    view.set(b, at);
    at += b.length;
  }
  return { nRefs, segments, bytes, offsets };
}

/** A {@link ReferenceSource} over shared references (decodes a line when asked). */
export function sharedReferenceSource(shared: SharedReferences): ReferenceSource {
  const bytes = new Uint8Array(shared.bytes);
  const off = new Int32Array(shared.offsets);
  const { nRefs, segments } = shared;
  return {
    nRefs,
    segments,
    // A copy of the line's bytes: browsers' TextDecoder refuses views of shared memory.
    line: (j, s) => referenceDecoder.decode(bytes.slice(off[s * nRefs + j], off[s * nRefs + j + 1])),
  };
}

/** A {@link ReferenceSource} over reference streams in memory. */
export function streamReferenceSource(streams: readonly (readonly string[])[]): ReferenceSource {
  return { nRefs: streams.length, segments: streams[0].length, line: (j, s) => streams[j][s] };
}

/** What a chunk gave: its output, or the first bad input it holds. */
export type ChunkResult =
  | {
      readonly ok: true;
      /** Encoded blocks of the chunk's segments, in order. */
      readonly out: Uint8Array;
      /** Their FEATURES_TXT blocks, when the settings ask for them (`featuresTxt`). */
      readonly features?: Uint8Array;
      /** Candidates read (before duplicate removal). */
      readonly hyps: number;
      /** First and last segment id (-1 when the chunk holds no candidate). */
      readonly firstId: number;
      readonly lastId: number;
      /** Line of the first candidate (0 when none). */
      readonly firstIdLine: number;
      /** Time spent in the job, ms (pool overhead accounting). */
      readonly busyMs: number;
    }
  | { readonly ok: false; readonly error: TaskErrorData; readonly busyMs: number };

/** Everything a thread needs to run chunk jobs: settings, metrics, references, encoder. */
export interface ChunkJobContext {
  readonly settings: NbestTaskSettings;
  readonly metrics: readonly NbestMetric[];
  readonly refs: ReferenceSource;
  readonly encode: BlockEncoder;
  /** The thread's output buffer (reused by every chunk job of the context). */
  readonly out: ByteOut;
  /** The thread's FEATURES_TXT buffer, when the settings ask for FEATURES_TXT blocks. */
  readonly featuresOut: ByteOut | undefined;
  /** The fast path's rows when some metric of the run has a token stage (./fast/fused-scorer.ts). */
  readonly fused: FusedRows | undefined;
  /** The thread's store for a task's rows where repeated candidates are expanded (reused by every task). */
  readonly rows: ResultStore<Float64Array>;
  /**
   * Output arrays already written out, for the output of later jobs run with `spareOut` ({@link runChunkJob}): a
   * new array per task is memory outside V8's heap that counts towards its full-GC trigger.
   */
  readonly spareOut: Uint8Array[];
}

/**
 * Builds a context (metrics instantiated in the calling thread; `registry` as {@link buildNbestMetrics} needs). The
 * fast path is used whenever the metrics allow it, unless `generic` (the tests compare both paths).
 */
export function chunkJobContext(
  settings: NbestTaskSettings,
  spec: NbestMetricSpec,
  refs: ReferenceSource,
  registry: MetricRegistry | undefined,
  generic = false,
): ChunkJobContext {
  const metrics = buildNbestMetrics(spec, registry);
  const fused = generic ? undefined : fusedRows(metrics);
  const featuresOut = settings.featuresTxt === undefined ? undefined : new ByteOut();
  return {
    settings, metrics, refs, encode: taskEncoder(settings, metrics), out: new ByteOut(), featuresOut, fused, rows: new ResultStore((n) => new Float64Array(n)),
    spareOut: [],
  };
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Strict UTF-8 decoding, with the streaming reader's message (absolute byte offset, line of the byte). */
export function decodeChunk(bytes: Uint8Array, byteOffset: number, firstLine: number, path: string): string {
  try {
    return decoder.decode(bytes);
  } catch {
    const at = Math.max(0, firstInvalidUtf8(bytes));
    let line = firstLine;
    for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) line++;
    const byte = bytes[at] ?? 0;
    throw new InputError(
      'E_INVALID_UTF8',
      `invalid UTF-8: byte 0x${byte.toString(16).padStart(2, '0')} at byte offset ${byteOffset + at} cannot be decoded`,
      { file: path, line },
    );
  }
}

/**
 * Bytes after which a chunk's text goes on in a new piece, cut at the next line feed (so a piece is this long plus
 * the rest of a line). A whole task's text as one string is a large object in V8, allocated straight into the old
 * generation, so one per task made most of a run's full garbage collections; pieces of this size are ordinary young
 * strings that die with their task.
 */
const PIECE_BYTES = 1 << 16;

/**
 * The text of a chunk, strictly decoded, in pieces cut after line feeds (a line feed never occurs inside a UTF-8
 * sequence, so the pieces decode exactly as the whole does and are valid exactly when it is). Offsets are UTF-16
 * offsets into the whole text; a slice lies within one line, hence within one piece.
 */
export class ChunkText {
  private readonly pieces: string[] = [];
  /** UTF-16 offset of each piece's start in the whole text, and the total length last. */
  private readonly starts: number[] = [0];
  private cursor = 0;

  /** @throws InputError `E_INVALID_UTF8` as {@link decodeChunk} does. */
  constructor(bytes: Uint8Array, byteOffset: number, firstLine: number, path: string) {
    let from = 0;
    try {
      while (from < bytes.length) {
        let to = bytes.length;
        if (to - from > PIECE_BYTES) {
          const lf = bytes.indexOf(0x0a, from + PIECE_BYTES);
          if (lf >= 0) to = lf + 1;
        }
        const piece = decoder.decode(bytes.subarray(from, to));
        this.pieces.push(piece);
        this.starts.push(this.starts[this.starts.length - 1] + piece.length);
        from = to;
      }
    } catch {
      // Some piece is invalid, so the whole is: the whole's decoding throws its message.
      decodeChunk(bytes, byteOffset, firstLine, path);
    }
  }

  /** The whole text's UTF-16 units `from .. to` (within one line). */
  slice(from: number, to: number): string {
    const { starts } = this;
    let p = this.cursor;
    if (starts[p] > from) p = 0;
    while (p + 1 < this.pieces.length && starts[p + 1] <= from) p++;
    this.cursor = p;
    return this.pieces[p].slice(from - starts[p], to - starts[p]);
  }

  /** The whole text. */
  toString(): string {
    return this.pieces.join('');
  }
}

/**
 * Runs one chunk: input errors become data (they cross thread boundaries), other errors propagate. With
 * `spareOut`, the output goes into one of the context's spare arrays when one is long enough (see
 * {@link ChunkJobContext.spareOut}).
 */
export function runChunkJob(ctx: ChunkJobContext, bytes: Uint8Array, firstLine: number, byteOffset: number, spareOut = false): ChunkResult {
  const start = performance.now();
  try {
    // Decoded only when something needs the text: the byte parse checks the UTF-8 itself, and a chunk it leaves to
    // the text parser is decoded then (which reports invalid UTF-8 as before).
    const text = (): ChunkText => new ChunkText(bytes, byteOffset, firstLine, ctx.settings.path);
    const task = scoreTask(text, firstLine, ctx.settings, ctx.metrics, ctx.refs, ctx.fused, bytes, ctx.rows);
    encodeTask(task, ctx.settings, ctx.encode, ctx.out, ctx.featuresOut);
    const out = ctx.out.take(spareOut ? ctx.spareOut : undefined);
    const features = ctx.featuresOut?.take();
    const n = task.hypLocal.length;
    const ids = task.segmentIds;
    return {
      ok: true,
      out,
      ...(features === undefined ? {} : { features }),
      hyps: n,
      firstId: n > 0 ? ids[0] : -1,
      lastId: n > 0 ? ids[ids.length - 1] : -1,
      firstIdLine: n > 0 ? task.lines[0] : 0,
      busyMs: performance.now() - start,
    };
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { ok: false, error: taskErrorData(err), busyMs: performance.now() - start };
  }
}
