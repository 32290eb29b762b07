/**
 * Parsing Moses-format n-best lists: `id ||| hypothesis ||| features ||| score`, one hypothesis per line (the Node
 * adapter streams a file through it: src/node/nbest.ts).
 *
 * What Moses' `extractor` (mert/Data.cpp, `Data::loadNBest`) accepts, and what we do:
 * - Fields are separated by the 3 characters `|||` (the first occurrence wins, as a multi-character tokenizer finds
 *   it; `||||` is `|||` then `|`). Moses needs the id, hypothesis and feature fields; the 4th (total model score) is
 *   skipped; a 5th and 6th (phrase / word alignment) may follow. We accept 3 to 6 fields and reject any other count
 *   with `E_BAD_INPUT`: fewer than 3 makes Moses read past the line, more than 6 is never written by Moses or Joshua.
 * - Moses skips an empty line, so do we. A `'\r'` ending a line is removed (kenlm's `FilePiece::ReadLine`, which
 *   Moses reads with, strips it), so Windows line ends do not leak into the last field.
 * - The id is parsed by Moses with `strtol` (leading blanks, sign and trailing garbage accepted). We are stricter:
 *   after trimming ASCII blanks it must be decimal digits only, at most 2^31 − 1 (ids are C `int`s there too).
 * - Lists are grouped by id in non-decreasing order (Moses and Joshua write them so; sentences without any
 *   hypothesis may be missing, so ids may jump). A smaller id after a larger one is `E_BAD_INPUT`.
 * - With {@link NbestOptions.segmentCount} (the number of reference segments), an id ≥ that count is
 *   `E_LINE_COUNT_MISMATCH`, reported at the n-best line that needs the missing reference.
 * - The score field, when present, must be a non-empty number after trimming (JavaScript `Number` syntax); Moses
 *   ignores it, but a garbled score almost always means a garbled line. Absent scores are `NaN`.
 * - The hypothesis is the raw text between the first and second `|||`, surrounding blanks included (Moses hands it
 *   as is to its scorers, which split on whitespace); callers that need `strip()` semantics apply them.
 * - The features field is kept as its raw text (`name= v v name= v` in Moses, `name=v` in Joshua) only when asked:
 *   scoring does not need it.
 *
 * Every error names the file and the 1-based line. Lines come as line batches (./stream/line-batch.ts), so the line
 * semantics and strict UTF-8 are those of the streaming line reader.
 */
import { InputError } from '../errors.js';
import type { LineBatch } from './stream/line-batch.js';
import type { LineStreamOptions } from './stream/line-batch.js';

/** Options of the n-best readers (`readNbestBatches` on Node). */
export interface NbestOptions extends LineStreamOptions {
  /** Number of reference segments: an id ≥ this is an error at its line. Unchecked when absent. */
  readonly segmentCount?: number;
  /**
   * Whether to keep each line's raw features field in {@link NbestBatch.features}.
   * @default false
   */
  readonly features?: boolean;
}

/** Consecutive hypotheses of an n-best list (empty lines skipped). */
export interface NbestBatch {
  /** Number of hypotheses in the batch. */
  readonly count: number;
  /** Segment (sentence) id of each hypothesis, non-decreasing across the whole file. */
  readonly ids: Int32Array;
  /** Raw hypothesis text of each entry. */
  readonly hypotheses: string[];
  /** Raw features field of each entry, when {@link NbestOptions.features} is set. */
  readonly features: string[] | undefined;
  /** Total model score of each entry, `NaN` where the line has no score field. */
  readonly scores: Float64Array;
  /** 1-based file line of each entry (for messages of later checks). */
  readonly lines: Int32Array;
}

const DELIM = '|||';
const MAX_FIELDS = 6;
const MAX_ID = 0x7fffffff;
const FORMAT = '"id ||| hypothesis ||| features ||| score"';

/** Parses a trimmed decimal id; -1 when it is not one. */
function parseId(field: string): number {
  const s = field.trim();
  if (s.length === 0 || s.length > 10) return -1;
  let v = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v <= MAX_ID ? v : -1;
}

/** The error of a bad line (a function, not a closure per line: this runs once per hypothesis). */
function malformed(
  path: string,
  line: number,
  message: string,
  code: 'E_BAD_INPUT' | 'E_LINE_COUNT_MISMATCH' = 'E_BAD_INPUT',
): InputError {
  return new InputError(code, `malformed n-best line: ${message}`, { file: path, line });
}

/** Mutable parse state carried across batches: the id of the last hypothesis parsed (0 before the first). */
export interface NbestParseState {
  previousId: number;
}

/**
 * Parses the lines of one line batch (the rules of the module comment; empty lines skipped). The streaming reader
 * and the `palette nbest` workers, which parse the raw text of their own tasks, share it.
 * @throws InputError `E_BAD_INPUT` for a malformed line, `E_LINE_COUNT_MISMATCH` for an id without a reference
 * segment; each names `path` and the line.
 */
export function parseNbestLines(batch: LineBatch, path: string, options: NbestOptions, state: NbestParseState): NbestBatch {
  const { text, starts, ends } = batch;
  const n = batch.count;
  const ids = new Int32Array(n);
  const scores = new Float64Array(n);
  const lines = new Int32Array(n);
  const hypotheses: string[] = [];
  const features: string[] | undefined = options.features ? [] : undefined;
  const delims = new Int32Array(MAX_FIELDS - 1);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const start = starts[i];
    let end = ends[i];
    if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
    if (end === start) continue;
    const line = batch.firstLine + i;
    let nDelims = 0;
    let at = text.indexOf(DELIM, start);
    while (at >= 0 && at + DELIM.length <= end) {
      if (nDelims === MAX_FIELDS - 1) {
        throw malformed(path, line, `more than ${MAX_FIELDS} fields separated by "|||" (expected ${FORMAT})`);
      }
      delims[nDelims++] = at;
      at = text.indexOf(DELIM, at + DELIM.length);
    }
    if (nDelims < 2) {
      const got = `${nDelims + 1} field${nDelims === 0 ? '' : 's'}`;
      throw malformed(path, line, `${got} separated by "|||", expected at least 3 (${FORMAT})`);
    }
    const idField = text.slice(start, delims[0]);
    const id = parseId(idField);
    if (id < 0) {
      throw malformed(path, line, `the id ${JSON.stringify(idField.trim())} is not a non-negative integer below 2^31`);
    }
    if (id < state.previousId) {
      const why = 'an n-best list must be grouped by id in non-decreasing order';
      throw malformed(path, line, `id ${id} after id ${state.previousId}: ${why}`);
    }
    if (options.segmentCount !== undefined && id >= options.segmentCount) {
      throw malformed(path, line, 
        `id ${id} has no reference: the references have ${options.segmentCount} segment(s)`,
        'E_LINE_COUNT_MISMATCH',
      );
    }
    state.previousId = id;
    let score = Number.NaN;
    if (nDelims >= 3) {
      const scoreEnd = nDelims >= 4 ? delims[3] : end;
      const raw = text.slice(delims[2] + DELIM.length, scoreEnd).trim();
      score = Number(raw);
      if (raw.length === 0 || (Number.isNaN(score) && raw !== 'NaN')) {
        throw malformed(path, line, `the score ${JSON.stringify(raw)} is not a number`);
      }
    }
    ids[count] = id;
    scores[count] = score;
    lines[count] = line;
    hypotheses.push(text.slice(delims[0] + DELIM.length, delims[1]));
    features?.push(text.slice(delims[1] + DELIM.length, nDelims >= 3 ? delims[2] : end));
    count++;
  }
  return {
    count,
    ids: ids.subarray(0, count),
    hypotheses,
    features,
    scores: scores.subarray(0, count),
    lines: lines.subarray(0, count),
  };
}
