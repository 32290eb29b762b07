/**
 * Position-independent word error rate (Tillmann, Vogel, Ney, Zubiaga & Sawaf 1997) as Moses' `PerScorer` defines
 * it: the hypothesis and reference are compared as bags of words; `correct` is the size of their multiset
 * intersection (Σ_w min(count_hyp(w), count_ref(w))), and
 *   PER = 1 − (correct − max(0, n − m)) / m,
 * with n hypothesis and m reference words, i.e. (max(n, m) − correct) / m: every reference word not matched is an
 * error, and so is every hypothesis word beyond the reference's length. The corpus PER applies the formula to the
 * summed `correct`, n and m (Moses sums the statistics, then scores), not to per-line errors.
 *
 * Palette computes in double precision; Moses' `PerScorer::calculateScore` divides in single precision (`float`) and
 * reports 1 − PER, so its printed values can differ from 1 − Palette's in the seventh significant digit. Where Moses
 * returns 0 for an empty reference side (m = 0; "this shouldn't happen"), Palette counts the errors themselves,
 * n − correct = n, as jiwer does for WER, so that an empty reference is never a division by zero.
 *
 * With several references (Moses takes one), each line is counted against the reference with the fewest errors
 * max(n, m) − correct, the first one on ties.
 *
 * Statistics row (width 3): `correct, hypLength, refLength` of the line against its chosen reference.
 */
import { perReferenceNgramCounts } from '../../wasm/ngram.js';
import { wordTokenStage } from '../edit/token-stage.js';
import { WordMetric } from '../edit/word-metric.js';
import type { EditReferences, EditTokenizer } from '../edit/words.js';
import type { MetricScore } from '../metric.js';
import type { TokenBatch, TokenStage } from '../token-stage.js';

/** Options of {@link Per}. */
export interface PerOptions {
  /**
   * How lines become words: a sacrebleu tokenizer name (that tokenizer, then a Python whitespace split; `none` = the
   * split alone, what Moses' `PerScorer` does with already tokenized text) or `jiwer` (jiwer's `wer_default`).
   * @default 'none'
   */
  readonly tokenize?: EditTokenizer;
  /** Lowercase both sides first (Python `str.lower()`). @default false */
  readonly lowercase?: boolean;
}

/** Column names of a PER statistics row. */
export const PER_STATS_COLUMNS = ['correct', 'hypLength', 'refLength'] as const;

/** PER of summed (or one line's) statistics; see the file comment for m = 0. */
export function perFromStats(correct: number, hypLength: number, refLength: number): number {
  if (refLength === 0) return hypLength - correct;
  return 1 - (correct - Math.max(0, hypLength - refLength)) / refLength;
}

/**
 * The multi-reference rule: for each of `count` hypotheses, the per-reference order-1 rows `match, hypTotal,
 * refTotal` (pairs `rowOffsets[h]` to `rowOffsets[h + 1]`) against the reference with the fewest errors
 * max(n, m) − correct, the first one on ties, written to `out[h * stride + column ..+3]`. A hypothesis without
 * references leaves its cells as they are.
 */
export function writeFewestErrorRows(
  rows: ArrayLike<number>,
  rowOffsets: ArrayLike<number>,
  count: number,
  out: Float64Array,
  column: number,
  stride: number,
): void {
  for (let h = 0; h < count; h++) {
    let fewest = Infinity;
    for (let pair = rowOffsets[h]; pair < rowOffsets[h + 1]; pair++) {
      const correct = rows[3 * pair];
      const hypLength = rows[3 * pair + 1];
      const refLength = rows[3 * pair + 2];
      const errors = Math.max(hypLength, refLength) - correct;
      if (errors < fewest) {
        fewest = errors;
        const at = h * stride + column;
        out[at] = correct;
        out[at + 1] = hypLength;
        out[at + 2] = refLength;
      }
    }
  }
}

/**
 * Writes the PER row of every candidate of `batch` at `out[h · stride + column ..]`: clipped unigram counts (the
 * n-gram kernels' order 1: exactly the multiset intersection) against the reference with the fewest errors.
 */
export function writePerRows(batch: TokenBatch, out: Float64Array, column: number, stride: number): void {
  const { rows, rowOffsets } = perReferenceNgramCounts(batch, 1);
  writeFewestErrorRows(rows, rowOffsets, batch.hypSegment.length, out, column, stride);
}

/** Position-independent word error rate. */
export class Per extends WordMetric {
  /** Metric id as given to `-m`. */
  readonly id = 'per';
  /** 3. */
  readonly statsWidth = PER_STATS_COLUMNS.length;
  /** {@link PER_STATS_COLUMNS}. */
  readonly statsColumns: readonly string[] = PER_STATS_COLUMNS;
  protected readonly label = 'PER';

  /** @throws InputError `E_BAD_OPTION` for an unknown word split or a non-boolean `lowercase`. */
  constructor(options: PerOptions = {}) {
    super(options, 'none');
  }

  /**
   * One row per hypothesis against the reference with the fewest errors ({@link writePerRows}, the rows of
   * {@link tokenStage}, with the identity candidate→segment map).
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: EditReferences): Float64Array {
    return this.rowsOf(writePerRows, hyps, refs);
  }

  /** The token stage (../token-stage.ts) of the jiwer and Python word splits; undefined for the others. */
  tokenStage(): TokenStage | undefined {
    return wordTokenStage(this.tokenize, this.lowercase, writePerRows);
  }

  /** PER from a row or the column sums (one formula for a line and a corpus). */
  protected scoreOfStats(stats: Float64Array): MetricScore {
    return perScoreOfStats(stats);
  }
}

/** The PER score of a row or of column sums `correct, hypLength, refLength` (Palette's PER and Moses' rows). */
export function perScoreOfStats(stats: Float64Array): MetricScore {
  const [correct, hypLength, refLength] = stats;
  const score = perFromStats(correct, hypLength, refLength);
  return {
    name: 'PER',
    score,
    verboseScore: `(correct = ${correct}, hyp words = ${hypLength}, ref words = ${refLength})`,
    details: { per: score, correct, hypLength, refLength },
  };
}
