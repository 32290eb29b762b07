/**
 * The token-level stage of the metric contract: what a metric computes once its lines are token ids. A metric
 * that has one (`Metric.tokenStage`) names the tokenizer it needs and writes its statistics rows from a
 * {@link TokenBatch}: candidates with a candidate→segment map against the references of their segments. The n-best
 * engine feeds every metric of a run from one pass over the lines (each distinct space-separated chunk tokenized
 * once per tokenizer, tokenizers of equal keys shared); one hypothesis per segment is the special case of the
 * identity map, which is how the metrics' own `segmentStats` calls the same row writer.
 *
 * Chunk tokenizers. A line is cut at U+0020 into chunks and a tokenizer sees one chunk at a time; the line's
 * tokens are the concatenation of its chunks' tokens. That holds for a tokenizer only when a space always ends a
 * token and no token's reading depends on text past a space: the ROUGE scanners keep only runs of ASCII letters
 * and digits (U+212A, U+0130 included), so a space always ends a token; Python's split breaks at any whitespace;
 * jiwer breaks at a space, at any run of two or more whitespace characters and at the ends, so whitespace next to a
 * cut space separates in the whole line exactly as stripping does in the piece; Moses' split is the chunking itself.
 * (test/nbest-fast.test.ts checks each one on random lines.) Candidates and references of a batch are lines: a
 * text holding a line break is outside the stage, since a metric may read sentences at line breaks that token ids
 * no longer show.
 */
import type { Csr } from '../text/csr.js';

/** Where a tokenizer appends token ids. */
export interface TokenSink {
  /** Appends one token id. */
  push(id: number): void;
}

/** A tokenizer of chunks (text without U+0020): appends the ids of the chunk's tokens, ids of its own vocabulary. */
export interface ChunkTokenizer {
  /**
   * Whether a chunk is exactly one token whose id is the chunk's own number in order of first appearance (Moses'
   * split): a memo numbering its chunks may then write chunk ids without calling {@link tokenize}.
   */
  readonly chunkIds?: boolean;
  /** Appends the ids of the tokens of `chunk`. */
  tokenize(chunk: string, out: TokenSink): void;
}

/** Candidates and references as token ids of one tokenizer (one vocabulary for both). */
export interface TokenBatch {
  /** Candidate `h` is row `h`. */
  readonly hyps: Csr;
  /** Segment of candidate `h` (non-decreasing: the candidates of a segment are consecutive). */
  readonly hypSegment: Int32Array;
  /** The references, segment after segment. */
  readonly refs: Csr;
  /** References of segment `s` are rows `segRefOffsets[s] .. segRefOffsets[s + 1]` of `refs`. */
  readonly segRefOffsets: Int32Array;
}

/** The token-level stage of a metric with fixed settings. */
export interface TokenStage {
  /** Identifies the tokenizer: stages with equal keys get equal tokens, so they can share one batch. */
  readonly tokenizerKey: string;
  /** A fresh tokenizer (a new vocabulary) of that key. */
  createTokenizer(): ChunkTokenizer;
  /**
   * Writes the statistics row of every candidate of `batch` (the metric's `statsWidth` numbers, its columns) at
   * `out[h · stride + column ..]`: the rows `segmentStats` gives each candidate against its segment's references.
   */
  writeRows(batch: TokenBatch, out: Float64Array, column: number, stride: number): void;
}

/** `[0, 1, …, n − 1]`: candidate `h` is segment `h` (one hypothesis per segment). */
export function identitySegments(n: number): Int32Array {
  const map = new Int32Array(n);
  for (let h = 0; h < n; h++) map[h] = h;
  return map;
}
