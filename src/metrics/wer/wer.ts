/**
 * Word error rate exactly as jiwer 4.0 computes it (`jiwer.process_words` with its default transform): the word-level
 * Levenshtein distance (unit costs) of hypothesis and reference, S + D + I, over the reference's N = H + S + D words;
 * the corpus WER pools the counts of all lines (not a mean of line WERs). The S/D/I split is RapidFuzz's alignment,
 * which jiwer reports, so the per-line hits, substitutions, deletions and insertions match jiwer's as well; MER, WIL
 * and WIP come with the score (see ../edit/jiwer-measures.ts, also for jiwer's empty-reference values).
 *
 * With several references (jiwer takes one), each line is counted against the reference with the fewest edits, the
 * first one on ties, and divides by that reference's length (its counts enter the corpus pool).
 *
 * Statistics row (width 4): `hits, substitutions, deletions, insertions` of the line against its chosen reference.
 */
import { editDistances } from '../../wasm/edit.js';
import { jiwerMeasures } from '../edit/jiwer-measures.js';
import { wordTokenStage } from '../edit/token-stage.js';
import { WordMetric } from '../edit/word-metric.js';
import type { EditReferences, EditTokenizer } from '../edit/words.js';
import type { MetricScore } from '../metric.js';
import type { TokenBatch, TokenStage } from '../token-stage.js';

/** Options of {@link Wer}; the defaults are jiwer 4.0's. */
export interface WerOptions {
  /**
   * How lines become words: `jiwer` (jiwer's `wer_default`: whitespace runs collapsed, stripped, split on spaces) or a
   * sacrebleu tokenizer name (that tokenizer, then a Python whitespace split; `none` = the split alone).
   * @default 'jiwer'
   */
  readonly tokenize?: EditTokenizer;
  /** Lowercase both sides first (Python `str.lower()`, jiwer's `ToLowerCase`); jiwer is case-sensitive by default. @default false */
  readonly lowercase?: boolean;
}

/** Column names of a WER statistics row. */
export const WER_STATS_COLUMNS = ['hits', 'substitutions', 'deletions', 'insertions'] as const;

/**
 * Writes the WER row of every candidate of `batch` at `out[h · stride + column ..]`: the kernel's alignment counts
 * against the reference with the fewest edits (the first on ties).
 */
export function writeWerRows(batch: TokenBatch, out: Float64Array, column: number, stride: number): void {
  // Read at once: the engine's reusable stores rather than new arrays per batch.
  const { ops } = editDistances(batch, { alignment: true, reuse: true });
  const n = batch.hypSegment.length;
  // ops rows are `best, hits, substitutions, deletions, insertions`: the row is its last four.
  for (let h = 0; h < n; h++) for (let c = 0; c < 4; c++) out[h * stride + column + c] = ops![5 * h + 1 + c];
}

/** jiwer-compatible word error rate. */
export class Wer extends WordMetric {
  /** Metric id as given to `-m`. */
  readonly id = 'wer';
  /** 4. */
  readonly statsWidth = WER_STATS_COLUMNS.length;
  /** {@link WER_STATS_COLUMNS}. */
  readonly statsColumns: readonly string[] = WER_STATS_COLUMNS;
  protected readonly label = 'WER';

  /** @throws InputError `E_BAD_OPTION` for an unknown word split or a non-boolean `lowercase`. */
  constructor(options: WerOptions = {}) {
    super(options, 'jiwer');
  }

  /**
   * One row per hypothesis: its alignment counts against the reference with the fewest edits ({@link writeWerRows},
   * the rows of {@link tokenStage}, with the identity candidate→segment map).
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: EditReferences): Float64Array {
    return this.rowsOf(writeWerRows, hyps, refs);
  }

  /** The token stage (../token-stage.ts) of the jiwer and Python word splits; undefined for the others. */
  tokenStage(): TokenStage | undefined {
    return wordTokenStage(this.tokenize, this.lowercase, writeWerRows);
  }

  /**
   * WER from a row or the column sums: pooled counts, as `jiwer.process_words(refs, hyps)` over a corpus and
   * `jiwer.process_words(ref, hyp)` for a line.
   */
  protected scoreOfStats(stats: Float64Array): MetricScore {
    const [hits, substitutions, deletions, insertions] = stats;
    if (![hits, substitutions, deletions, insertions].every((x) => Number.isInteger(x) && x >= 0)) {
      throw new RangeError(`WER statistics must be non-negative integer counts (got ${Array.from(stats).join(', ')})`);
    }
    const { wer, mer, wil, wip } = jiwerMeasures(hits, substitutions, deletions, insertions);
    const refWords = hits + substitutions + deletions;
    const hypWords = hits + substitutions + insertions;
    return {
      name: 'WER',
      score: wer,
      verboseScore: `(H = ${hits}, S = ${substitutions}, D = ${deletions}, I = ${insertions}, ref words = ${refWords})`,
      details: { wer, mer, wil, wip, hits, substitutions, deletions, insertions, refWords, hypWords },
    };
  }
}
