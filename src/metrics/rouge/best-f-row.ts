/**
 * The `best-f` segment row (rouge-score's multi-reference rule: the first reference with the highest F-measure)
 * written from the pair rows with no object per pair: the numbers of `SegmentCombiner` for the flavors other than
 * rouge155, without jackknifing, for the types whose recall and precision are plain ratios (all but ROUGE-W). The
 * n-best fast path uses it, where the row is built once per candidate.
 */
import type { FMeasure } from './f-measure.js';
import { PAIR_WIDTH } from './pair-stats.js';

/**
 * Writes the 7-column row (./segment-row.ts) of pairs `from .. to` of `pairs` ({@link PAIR_WIDTH} columns: hit,
 * hypothesis count, reference count, select) into `out` at `at`: R = hit/ref, P = hit/hyp (0 for a zero count),
 * F = `fmeasure(P, R)`; the pair with the greatest F wins, the first one on ties; no pairs = all counts 0.
 */
export function writeBestFRow(
  pairs: Float64Array,
  from: number,
  to: number,
  fmeasure: FMeasure,
  out: Float64Array,
  at: number,
): void {
  let hit = 0;
  let hyp = 0;
  let ref = 0;
  let precision = 0;
  let recall = 0;
  let f = fmeasure(0, 0);
  for (let k = from; k < to; k++) {
    const h = pairs[k * PAIR_WIDTH];
    const n = pairs[k * PAIR_WIDTH + 1];
    const m = pairs[k * PAIR_WIDTH + 2];
    const r = m > 0 ? h / m : 0;
    const p = n > 0 ? h / n : 0;
    const fk = fmeasure(p, r);
    // The first pair is taken whatever its F (a NaN F included), later ones only when strictly better.
    if (k === from || fk > f) {
      hit = h;
      hyp = n;
      ref = m;
      precision = p;
      recall = r;
      f = fk;
    }
  }
  out[at] = hit;
  out[at + 1] = hyp;
  out[at + 2] = ref;
  out[at + 3] = precision;
  out[at + 4] = recall;
  out[at + 5] = f;
  out[at + 6] = 1;
}
