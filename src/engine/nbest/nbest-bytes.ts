/**
 * Parsing a chunk of an n-best list from its line records (../../wasm/nbest-lines.ts) instead of searching its
 * decoded text. Only plainly well-formed lines are taken this way: a decimal id (blanks around it), ids in order
 * and below the number of segments, two to five separators, a plain decimal score. On anything else the chunk is
 * left to the text parser (`parseNbestLines`), which accepts the rarer forms (`NaN`, `Infinity`, hexadecimal
 * scores, other blanks) or throws its message for the line; so both give the same candidates and the same errors.
 */
import {
  L_DELIM, L_DELIM16, L_DELIMS, L_END, L_END16, L_START, LINE_RECORD, NbestLineScanner,
} from '../../wasm/nbest-lines.js';
import { isBlank } from './moses-dedup.js';

/** A parsed chunk: the candidates in file order. */
export interface ParsedChunk {
  /** Number of candidates. */
  readonly count: number;
  /**
   * Their texts, sliced from the chunk's text when first read: the fast path reads the candidates as byte ranges
   * (`hypStarts`, `hypEnds`), so a run whose metrics all have a token stage makes no string per candidate.
   */
  readonly hyps: string[];
  readonly ids: number[];
  readonly lines: number[];
  /** The features field of each candidate, when asked for. */
  readonly features: string[] | undefined;
  /** Byte bounds of each hypothesis field in the chunk's bytes. */
  readonly hypStarts: Int32Array;
  readonly hypEnds: Int32Array;
}

const MAX_ID = 0x7fffffff;
const DELIM_LENGTH = 3;

let scanner: NbestLineScanner | undefined;

/** The id of `bytes[from .. to]` (blanks around a decimal of at most 10 digits, below 2^31), or -1. */
function idOf(bytes: Uint8Array, from: number, to: number): number {
  while (from < to && isBlank(bytes[from])) from++;
  while (to > from && isBlank(bytes[to - 1])) to--;
  if (to === from || to - from > 10) return -1;
  let v = 0;
  for (let i = from; i < to; i++) {
    const d = bytes[i] - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v <= MAX_ID ? v : -1;
}

/**
 * Whether `bytes[from .. to]`, blanks around it dropped, is a decimal `Number` reads as a number:
 * `[+-]digits[.digits][e[+-]digits]` with a digit before or after the point.
 */
function isPlainNumber(bytes: Uint8Array, from: number, to: number): boolean {
  while (from < to && isBlank(bytes[from])) from++;
  while (to > from && isBlank(bytes[to - 1])) to--;
  let i = from;
  if (i < to && (bytes[i] === 0x2b || bytes[i] === 0x2d)) i++;
  let digits = 0;
  while (i < to && bytes[i] >= 0x30 && bytes[i] <= 0x39) {
    i++;
    digits++;
  }
  if (i < to && bytes[i] === 0x2e) {
    i++;
    while (i < to && bytes[i] >= 0x30 && bytes[i] <= 0x39) {
      i++;
      digits++;
    }
  }
  if (digits === 0) return false;
  if (i < to && (bytes[i] === 0x65 || bytes[i] === 0x45)) {
    i++;
    if (i < to && (bytes[i] === 0x2b || bytes[i] === 0x2d)) i++;
    let exponent = 0;
    while (i < to && bytes[i] >= 0x30 && bytes[i] <= 0x39) {
      i++;
      exponent++;
    }
    if (exponent === 0) return false;
  }
  return i === to;
}

/**
 * The candidates of a chunk (`bytes`, valid UTF-8, decoded as `text`; its first line is file line `firstLine`), or
 * undefined when some line is not plainly well-formed (the caller then parses `text` as text).
 */
export function parseChunkBytes(
  bytes: Uint8Array,
  text: { slice(from: number, to: number): string },
  firstLine: number,
  segments: number | undefined,
  withFeatures: boolean,
): ParsedChunk | undefined {
  scanner ??= new NbestLineScanner();
  const { records, count } = scanner.scan(bytes);
  const ids: number[] = [];
  const lines: number[] = [];
  const features: string[] | undefined = withFeatures ? [] : undefined;
  const hypStarts = new Int32Array(count);
  const hypEnds = new Int32Array(count);
  const hypStarts16 = new Int32Array(count);
  const hypEnds16 = new Int32Array(count);
  let previousId = 0;
  let n = 0;
  for (let i = 0, r = 0; i < count; i++, r += LINE_RECORD) {
    const start = records[r + L_START];
    const end = records[r + L_END];
    if (end === start) continue;
    const delims = records[r + L_DELIMS];
    if (delims < 2 || delims > 5) return undefined;
    const d0 = records[r + L_DELIM];
    const d1 = records[r + L_DELIM + 1];
    const id = idOf(bytes, start, d0);
    if (id < previousId || (segments !== undefined && id >= segments)) return undefined;
    if (delims >= 3) {
      const scoreEnd = delims >= 4 ? records[r + L_DELIM + 3] : end;
      if (!isPlainNumber(bytes, records[r + L_DELIM + 2] + DELIM_LENGTH, scoreEnd)) return undefined;
    }
    previousId = id;
    ids.push(id);
    lines.push(firstLine + i);
    hypStarts[n] = d0 + DELIM_LENGTH;
    hypEnds[n] = d1;
    hypStarts16[n] = records[r + L_DELIM16] + DELIM_LENGTH;
    hypEnds16[n] = records[r + L_DELIM16 + 1];
    if (features !== undefined) {
      const featuresEnd = delims >= 3 ? records[r + L_DELIM16 + 2] : records[r + L_END16];
      features.push(text.slice(records[r + L_DELIM16 + 1] + DELIM_LENGTH, featuresEnd));
    }
    n++;
  }
  let hyps: string[] | undefined;
  return {
    count: n,
    get hyps(): string[] {
      if (hyps === undefined) {
        hyps = new Array<string>(n);
        for (let k = 0; k < n; k++) hyps[k] = text.slice(hypStarts16[k], hypEnds16[k]);
      }
      return hyps;
    },
    ids,
    lines,
    features,
    hypStarts: hypStarts.subarray(0, n),
    hypEnds: hypEnds.subarray(0, n),
  };
}
