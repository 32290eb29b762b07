/**
 * ROUGE-1.5.5's segment row (ROUGE-N, ROUGE-S/SU, ROUGE-L, BE; ROUGE-W with its f⁻¹ as `inverse`), written from
 * the pair rows with no object per pair and no string per score. It is the only definition of ROUGE-1.5.5's
 * combination of models (the tail of each `compute*Score` sub): `SegmentCombiner` (the metric, jackknifed subsets
 * included), the n-best fast path (a million rows per MERT iteration) and `palette rouge155`'s per-unit scores
 * (src/metrics/rouge155/unit.ts, which prints these numbers with `%7.5f`) all call it.
 */
import { perlRound5Fast } from './perl-round5.js';
import { PAIR_WIDTH } from './pair-stats.js';

/**
 * Writes the 7-column row (./segment-row.ts) of pairs `from .. to` of `pairs` ({@link PAIR_WIDTH} columns: hit,
 * peer count, model count, rounded recall), leaving pair `skip` out (-1: none), into `out` at `at`: `-f A` sums the
 * counts over the models, `-f B` keeps the first model with the best rounded recall; R and P rounded to 5 decimals
 * (`%7.5f`), F = P·R / ((1−α)P + αR) from the rounded values, rounded again. `inverse` (ROUGE-W's f⁻¹) is applied
 * to both ratios before rounding; without it they are rounded as they are.
 */
export function writeRouge155Row(
  pairs: Float64Array,
  from: number,
  to: number,
  formula: 'A' | 'B',
  alpha: number,
  out: Float64Array,
  at: number,
  inverse?: (x: number) => number,
  skip = -1,
): void {
  let hit = 0;
  let peerCount = 0;
  let modelCount = 0;
  if (formula === 'B') {
    let best = -1;
    for (let k = from; k < to; k++) {
      if (k === skip) continue;
      const score = pairs[k * PAIR_WIDTH + 3];
      // Strictly better only: the first model keeps a tie, as the Perl's `>` does.
      if (score > best) {
        best = score;
        hit = pairs[k * PAIR_WIDTH];
        peerCount = pairs[k * PAIR_WIDTH + 1];
        modelCount = pairs[k * PAIR_WIDTH + 2];
      }
    }
  } else {
    for (let k = from; k < to; k++) {
      if (k === skip) continue;
      hit += pairs[k * PAIR_WIDTH];
      peerCount += pairs[k * PAIR_WIDTH + 1];
      modelCount += pairs[k * PAIR_WIDTH + 2];
    }
  }
  let recall = modelCount !== 0 ? hit / modelCount : 0;
  let precision = peerCount !== 0 ? hit / peerCount : 0;
  if (inverse !== undefined) {
    recall = modelCount !== 0 ? inverse(recall) : 0;
    precision = peerCount !== 0 ? inverse(precision) : 0;
  }
  recall = perlRound5Fast(recall);
  precision = perlRound5Fast(precision);
  const denominator = (1 - alpha) * precision + alpha * recall;
  out[at] = hit;
  out[at + 1] = peerCount;
  out[at + 2] = modelCount;
  out[at + 3] = precision;
  out[at + 4] = recall;
  out[at + 5] = perlRound5Fast(denominator > 0 ? (precision * recall) / denominator : 0);
  out[at + 6] = 1;
}
