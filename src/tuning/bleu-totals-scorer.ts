/**
 * Corpus BLEU from summed statistics without allocating: the tuning inner loop's reduction. It is `bleuScore`
 * (src/metrics/bleu/score.ts) with a scratch buffer owned by the scorer, so the doubles are the same by construction.
 */
import { bleuScore, type BleuReduction } from '../metrics/bleu/score.js';

/** Scores rows `[hyp_len, ref_len, correct_1..N, total_1..N]` with one fixed BLEU reduction. Not reentrant. */
export class BleuTotalsScorer {
  private readonly reduction: BleuReduction;
  private readonly scratch: Float64Array;

  constructor(reduction: BleuReduction) {
    this.reduction = reduction;
    this.scratch = new Float64Array(3 * reduction.maxNgramOrder);
  }

  /** Width of the rows this scorer reads (`2 + 2N`). */
  get width(): number {
    return 2 + 2 * this.reduction.maxNgramOrder;
  }

  /** BLEU (0–100) of the row starting at `offset` of `stats`. */
  score(stats: ArrayLike<number>, offset = 0): number {
    return bleuScore(stats, this.reduction, offset, this.scratch);
  }
}
