/**
 * Parsing a chunk of an n-best list from its bytes (../../wasm/nbest-lines.ts) instead of its decoded text. Only
 * plainly well-formed lines are taken this way: a decimal id (blanks around it), ids in order and below the number
 * of segments, two to five separators, a plain decimal score; and only valid UTF-8. On anything else the chunk is
 * left to the text parser (`parseNbestLines`, after a strict decoding), which accepts the rarer forms (`NaN`,
 * `Infinity`, hexadecimal scores, other blanks) or throws its message for the byte or line; so both give the same
 * candidates and the same errors. Texts are made only when something asks for them.
 */
import { NbestCandidateScanner, type ScannedCandidates } from '../../wasm/nbest-lines.js';

/** Slices of a chunk's decoded text by UTF-16 offsets. */
export interface TextSlices {
  slice(from: number, to: number): string;
}

/** A parsed chunk: the candidates in file order. */
export interface ParsedChunk {
  /** Number of candidates. */
  readonly count: number;
  /** Their texts, sliced from the chunk's text when first read (the fast path reads `hypStarts`, `hypEnds`). */
  readonly hyps: string[];
  readonly ids: Int32Array;
  /** 1-based file line of each candidate. */
  readonly lines: Int32Array;
  /** Byte bounds of each hypothesis field in the chunk's bytes. */
  readonly hypStarts: Int32Array;
  readonly hypEnds: Int32Array;
  /** Byte bounds of each features field in the chunk's bytes. */
  readonly featureStarts: Int32Array;
  readonly featureEnds: Int32Array;
  /** The features fields as texts, sliced from the chunk's text when first read. */
  readonly features: string[];
  /** Where each candidate's row comes from when some hypothesis repeats within its segment (see `scan`). */
  readonly distinct: ScannedCandidates['distinct'];
}

let scanner: NbestCandidateScanner | undefined;

/** The thread's scanner (its own kernel instance). */
export function nbestScanner(): NbestCandidateScanner {
  return (scanner ??= new NbestCandidateScanner());
}

/**
 * The candidates of a chunk (`bytes`, whose strict decoding `text` gives when first asked; its first line is file
 * line `firstLine`), or undefined when the bytes are not valid UTF-8 or some line is not plainly well-formed (the
 * caller then decodes and parses the text). With `distinct`, also the repeats of each segment's hypotheses. The
 * columns live in the thread's scanner: valid until its next chunk is parsed (a task's candidates are read
 * before the thread parses its next task).
 */
export function parseChunkBytes(
  bytes: Uint8Array,
  text: () => TextSlices,
  firstLine: number,
  segments: number | undefined,
  distinct = false,
): ParsedChunk | undefined {
  const scanned = nbestScanner().scan(bytes, firstLine, segments, distinct, true);
  if (scanned === undefined) return undefined;
  const n = scanned.count;
  let hyps: string[] | undefined;
  let features: string[] | undefined;
  return {
    count: n,
    get hyps(): string[] {
      hyps ??= slices(text(), scanned.hypStarts16, scanned.hypEnds16, n);
      return hyps;
    },
    ids: scanned.ids,
    lines: scanned.lines,
    hypStarts: scanned.hypStarts,
    hypEnds: scanned.hypEnds,
    featureStarts: scanned.featureStarts,
    featureEnds: scanned.featureEnds,
    get features(): string[] {
      features ??= slices(text(), scanned.featureStarts16, scanned.featureEnds16, n);
      return features;
    },
    distinct: scanned.distinct,
  };
}

/** The `n` strings `text.slice(starts[k], ends[k])` (bounds in UTF-16 units). */
function slices(text: TextSlices, starts: ArrayLike<number>, ends: ArrayLike<number>, n: number): string[] {
  const out = new Array<string>(n);
  for (let k = 0; k < n; k++) out[k] = text.slice(starts[k], ends[k]);
  return out;
}
