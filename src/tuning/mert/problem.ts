/**
 * What a MERT optimisation works on, as flat typed arrays: every candidate's feature vector, its statistics row,
 * the candidates of each sentence, and the objective that turns summed statistics into the corpus score to
 * maximise. No text and no files: the CLI (`palette mert`) reads Moses' FEATURES_TXT / SCORES_TXT files into this.
 *
 * Precision is Moses' `mert` (mert/Types.h): features and weights are single-precision floats, a dot product
 * sums single-precision products in double and is stored as a float. {@link mertProblem} rounds the features to
 * float once, so every caller sees the numbers Moses computes with.
 */
import type { Metric } from '../../metrics/metric.js';
import { mosesBleuCached, mosesBleuLogCached } from './moses-bleu-objective.js';

/** The corpus score MERT maximises, from the column sums of the chosen candidates' statistics rows. */
export interface MertObjective {
  /** Name (Moses' scorer type: `BLEU`, or a metric id). */
  readonly name: string;
  /** Columns of a statistics row. */
  readonly width: number;
  /**
   * The score of summed statistics; higher is better. Must not keep or change `totals` (the line search reuses
   * the buffer).
   */
  score(totals: Float64Array): number;
  /**
   * Optional: a number that orders totals as `score` does (`score` a non-decreasing function of it), cheaper to
   * compute. The line search then scores an interval only when its rank beats the best interval's.
   */
  rank?(totals: Float64Array): number;
}

/**
 * Moses' BLEU objective (`BleuScorer::calculateScore`): corpus BLEU on the 0–1 scale from rows
 * `m1 t1 … mN tN reflen`, no smoothing, 0 when an order has no match, in Moses' single-precision arithmetic
 * (`mosesBleu`'s numbers; logarithms of integer statistics are cached: ./moses-bleu-objective.ts).
 * @param order n-gram order (Moses fixes 4) @default 4
 */
export function mosesBleuObjective(order = 4): MertObjective {
  if (!Number.isInteger(order) || order < 1) throw new RangeError(`order must be an integer >= 1 (got ${order})`);
  return {
    name: 'BLEU',
    width: 2 * order + 1,
    score: (totals) => mosesBleuCached(totals, order),
    rank: (totals) => mosesBleuLogCached(totals, order),
  };
}

/**
 * Any metric's corpus score as the objective: `metric.scoreFromStats(totals).score`, negated for a metric whose
 * lower scores are better (error rates), so that MERT always maximises.
 * @param direction whether higher or lower scores of `metric` are better @default 'higher'
 */
export function metricObjective(metric: Metric, direction: 'higher' | 'lower' = 'higher'): MertObjective {
  // 0 − score, not −score: a perfect error rate is the objective 0, not −0 (printed "-0").
  const score = direction === 'lower'
    ? (totals: Float64Array) => 0 - metric.scoreFromStats(totals).score
    : (totals: Float64Array) => metric.scoreFromStats(totals).score;
  return { name: metric.id, width: metric.statsWidth, score };
}

/** The input of {@link mertProblem}. */
export interface MertProblemInput {
  /** Feature values, `candidates × dimensions`, row-major (rounded to single precision, as Moses reads them). */
  readonly features: Float64Array | Float32Array;
  /** Features per candidate. */
  readonly dimensions: number;
  /** Statistics rows, `candidates × objective.width`, row-major. */
  readonly stats: Float64Array | Float32Array | Int32Array;
  /** `sentences + 1` offsets: the candidates of sentence `s` are rows `candidateOffsets[s] .. candidateOffsets[s + 1]`. */
  readonly candidateOffsets: Int32Array;
  /** The score to maximise. */
  readonly objective: MertObjective;
}

/** A checked MERT problem (see {@link mertProblem}). */
export interface MertProblem {
  /** Features, `candidates × dimensions`, single precision. */
  readonly features: Float32Array;
  readonly dimensions: number;
  /** Statistics rows, `candidates × objective.width`. */
  readonly stats: Float64Array | Float32Array | Int32Array;
  readonly candidateOffsets: Int32Array;
  readonly sentences: number;
  readonly candidates: number;
  readonly objective: MertObjective;
}

/**
 * Checks a problem and rounds its features to single precision (a `Float32Array` is used as it is).
 * @throws RangeError when the arrays disagree in size, the offsets do not increase from 0 to the number of
 * candidates, a sentence has no candidate, or a feature is not finite.
 */
export function mertProblem(input: MertProblemInput): MertProblem {
  const { dimensions, candidateOffsets, objective, stats } = input;
  if (!Number.isInteger(dimensions) || dimensions < 1) throw new RangeError(`dimensions must be an integer >= 1 (got ${dimensions})`);
  const sentences = candidateOffsets.length - 1;
  if (sentences < 1 || candidateOffsets[0] !== 0) throw new RangeError('candidateOffsets must start at 0 and hold at least one sentence');
  for (let s = 0; s < sentences; s++) {
    if (!(candidateOffsets[s + 1] > candidateOffsets[s])) {
      throw new RangeError(`sentence ${s} has no candidate (candidateOffsets must increase)`);
    }
  }
  const candidates = candidateOffsets[sentences];
  if (input.features.length !== candidates * dimensions) {
    throw new RangeError(`features must hold ${candidates} × ${dimensions} values (got ${input.features.length})`);
  }
  if (stats.length !== candidates * objective.width) {
    throw new RangeError(`stats must hold ${candidates} × ${objective.width} values (got ${stats.length})`);
  }
  const features = input.features instanceof Float32Array ? input.features : Float32Array.from(input.features);
  for (let i = 0; i < features.length; i++) {
    if (!Number.isFinite(features[i])) {
      throw new RangeError(`feature ${i % dimensions} of candidate ${Math.floor(i / dimensions)} is not a finite float (${input.features[i]})`);
    }
  }
  return { features, dimensions, stats, candidateOffsets, sentences, candidates, objective };
}
