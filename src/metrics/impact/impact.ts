/**
 * IMPACT (Echizen-ya & Araki 2007) as seed 003 uses it: the word-level score of eqs. 3–5 with every word weighing 1
 * in the route choice, so it reads no noun phrases.
 *
 * Palette's reading: among the LCS routes of a round, IMPACT keeps the one with the highest Σ_c length(c)^β (the
 * route score of eq. 1 with unit weights). The 2007 paper's own route heuristic ("the number of words in the common
 * parts and their position", seed 003 §2.2) is not in our papers; on the seed's Figure 2 it picks `, the` +
 * `amount of`, where this reading picks `, ` + `the amount of` (unit RS 13 against 11).
 *
 * Sentences are whitespace-separated words, compared case-sensitively unless `lowercase` (tokenize first, as the
 * paper's data was).
 * Multiple references: R and P are each the maximum over the references (eqs. 6–8). The corpus score is the mean
 * of the sentence scores (../npchunk/chunk-metric.ts); statistics row: `score, recall, precision, segments`.
 */
import type { MetricScore } from '../metric.js';
import { ChunkMetric, fourDecimals, type ImpactOptions } from '../npchunk/chunk-metric.js';
import type { SegmentResult } from '../npchunk/segment-scorer.js';

export type { ImpactOptions } from '../npchunk/chunk-metric.js';

/** Column names of an IMPACT statistics row. */
export const IMPACT_STATS_COLUMNS = ['score', 'recall', 'precision', 'segments'] as const;

/** IMPACT: the word-level LCS-rounds score with unit weights. */
export class Impact extends ChunkMetric {
  /** Metric id as given to `-m`. */
  readonly id = 'impact';
  /** 4. */
  readonly statsWidth = IMPACT_STATS_COLUMNS.length;
  /** {@link IMPACT_STATS_COLUMNS}. */
  readonly statsColumns: readonly string[] = IMPACT_STATS_COLUMNS;

  /** @throws InputError `E_BAD_OPTION` for α outside [0, 1], β < 1 or a bad RN. */
  constructor(options: ImpactOptions = {}) {
    super(options, null);
  }

  protected writeRow(r: SegmentResult, out: Float64Array, at: number): void {
    out[at] = r.score;
    out[at + 1] = r.wordRecall;
    out[at + 2] = r.wordPrecision;
    out[at + 3] = 1;
  }

  protected scoreOf(means: readonly number[], segments: number): MetricScore {
    const [score, recall, precision] = means;
    return {
      name: 'IMPACT',
      score,
      verboseScore: `(R = ${fourDecimals(recall)}, P = ${fourDecimals(precision)}, segments = ${segments})`,
      details: { recall, precision, segments },
    };
  }
}
