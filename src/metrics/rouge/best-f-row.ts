/**
 * The `best-f` segment row (rouge-score's multi-reference rule: the first reference with the highest F-measure)
 * written from the pair rows with no object per pair. It is the only definition of the rule: `SegmentCombiner`
 * (every path of the metric, jackknifed subsets included) and the n-best fast path both call it.
 */
import type { FMeasure } from './f-measure.js';
import { PAIR_WIDTH } from './pair-stats.js';

/**
 * A pair's recall or precision: `inverse(hit / count)`, 0 for a zero count. `inverse` is f⁻¹ for ROUGE-W (see
 * ./pair-stats.ts) and the identity otherwise; every ROUGE reduction (segment rows, ORANGE's pair scores) takes its
 * ratios from here.
 */
export function pairRatio(hit: number, count: number, inverse?: (x: number) => number): number {
  if (!(count > 0)) return 0;
  return inverse === undefined ? hit / count : inverse(hit / count);
}

/**
 * Writes the 7-column row (./segment-row.ts) of pairs `from .. to` of `pairs` ({@link PAIR_WIDTH} columns: hit,
 * hypothesis count, reference count, select) into `out` at `at`, leaving pair `skip` out (-1: none; a jackknife
 * subset): R = hit/ref, P = hit/hyp through `inverse` ({@link pairRatio}), F = `fmeasure(P, R)`; the pair with the
 * greatest F wins, the first one on ties; no pairs = all counts 0.
 */
export function writeBestFRow(
  pairs: Float64Array,
  from: number,
  to: number,
  fmeasure: FMeasure,
  out: Float64Array,
  at: number,
  inverse?: (x: number) => number,
  skip = -1,
): void {
  let hit = 0;
  let hyp = 0;
  let ref = 0;
  let precision = 0;
  let recall = 0;
  let f = fmeasure(0, 0);
  let first = true;
  for (let k = from; k < to; k++) {
    if (k === skip) continue;
    const h = pairs[k * PAIR_WIDTH];
    const n = pairs[k * PAIR_WIDTH + 1];
    const m = pairs[k * PAIR_WIDTH + 2];
    const r = pairRatio(h, m, inverse);
    const p = pairRatio(h, n, inverse);
    const fk = fmeasure(p, r);
    // The first pair is taken whatever its F (a NaN F included), later ones only when strictly better.
    if (first || fk > f) {
      first = false;
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
