/**
 * A segment's statistics row from its (hypothesis, reference) pairs: the multi-reference combination of the
 * flavor, optionally jackknifed (Lin & Och 2004 §5).
 *
 * Row columns ({@link ROUGE_STATS_COLUMNS}), documented once here:
 * 0 `hit`, 1 `hyp`, 2 `ref` — the combined counts (summed over references for `pool`, those of the chosen
 *   reference otherwise; of the best-F reference for `max`); ROUGE-W's are weighted (see ./pair-stats.ts);
 * 3 `precision`, 4 `recall`, 5 `fmeasure` — the segment's scores (rounded to 5 decimals as ROUGE-1.5.5 rounds
 *   them in the rouge155 flavor; jackknife averages when jackknifing);
 * 6 `segments` — 1, so that column sums give the number of segments for averaging.
 */
import { pairRatio, writeBestFRow } from './best-f-row.js';
import type { FMeasure } from './f-measure.js';
import type { ResolvedRougeOptions } from './options.js';
import { PAIR_WIDTH, type PairStats } from './pair-stats.js';
import { writeRouge155Row } from './rouge155-row.js';

/** Names of the row columns. */
export const ROUGE_STATS_COLUMNS = ['hit', 'hyp', 'ref', 'precision', 'recall', 'fmeasure', 'segments'] as const;
/** Width of a row. */
export const ROUGE_STATS_WIDTH = ROUGE_STATS_COLUMNS.length;

/**
 * The statistics rows (`nHyps` × {@link ROUGE_STATS_WIDTH}) of hypotheses whose pairs are `pairs`: one
 * {@link SegmentCombiner} row per hypothesis.
 */
export function segmentRows(pairs: PairStats, nHyps: number, options: ResolvedRougeOptions, fmeasure: FMeasure): Float64Array {
  const out = new Float64Array(nHyps * ROUGE_STATS_WIDTH);
  const combiner = new SegmentCombiner(options, fmeasure);
  for (let h = 0; h < nHyps; h++) {
    combiner.write(pairs.rows, pairs.rowOffsets[h], pairs.rowOffsets[h + 1], pairs.inverse, out, h * ROUGE_STATS_WIDTH);
  }
  return out;
}

/**
 * How a segment's pairs are reduced; built once per metric call. The flavor's rule is written by one function per
 * rule (ROUGE-1.5.5's models in ./rouge155-row.ts, rouge-score's best F in ./best-f-row.ts, `pool`, `best-recall`
 * and `max` here), each able to leave one pair out for the jackknife.
 */
export class SegmentCombiner {
  /** One combination's row, when jackknifing. */
  private readonly scratch = new Float64Array(ROUGE_STATS_WIDTH);
  private readonly formula: 'A' | 'B';
  private readonly alpha: number;

  constructor(
    private readonly options: ResolvedRougeOptions,
    private readonly fmeasure: FMeasure,
  ) {
    this.formula = options.multiReference === 'best-recall' ? 'B' : 'A';
    this.alpha = options.weighting.form === 'alpha' ? options.weighting.alpha : 0.5;
  }

  /**
   * Writes the row of the segment whose pairs are `pairs` rows `from .. to` into `out` at `at`.
   * @param inverse f⁻¹ for ROUGE-W, the identity otherwise.
   */
  write(
    pairs: Float64Array,
    from: number,
    to: number,
    inverse: (x: number) => number,
    out: Float64Array,
    at: number,
  ): void {
    this.combine(pairs, from, to, -1, inverse, out, at);
    if (this.options.jackknife && to - from >= 2) {
      const c = this.scratch;
      let p = 0;
      let r = 0;
      let f = 0;
      for (let k = from; k < to; k++) {
        this.combine(pairs, from, to, k, inverse, c, 0);
        p += c[3];
        r += c[4];
        f += c[5];
      }
      const n = to - from;
      out[at + 3] = p / n;
      out[at + 4] = r / n;
      out[at + 5] = f / n;
    }
  }

  /** The flavor's row of pairs `from .. to` except `skip` (-1: none), written at `out[at]`. */
  private combine(
    pairs: Float64Array,
    from: number,
    to: number,
    skip: number,
    inverse: (x: number) => number,
    out: Float64Array,
    at: number,
  ): void {
    const { flavor, multiReference } = this.options;
    if (flavor === 'rouge155') {
      writeRouge155Row(pairs, from, to, this.formula, this.alpha, out, at, inverse, skip);
      return;
    }
    switch (multiReference) {
      case 'best-f':
        writeBestFRow(pairs, from, to, this.fmeasure, out, at, inverse, skip);
        return;
      case 'max':
        this.writeMax(pairs, from, to, skip, inverse, out, at);
        return;
      case 'pool': {
        let hit = 0;
        let hyp = 0;
        let ref = 0;
        for (let k = from; k < to; k++) {
          if (k === skip) continue;
          hit += pairs[k * PAIR_WIDTH];
          hyp += pairs[k * PAIR_WIDTH + 1];
          ref += pairs[k * PAIR_WIDTH + 2];
        }
        this.writeCounts(hit, hyp, ref, inverse, out, at);
        return;
      }
      case 'best-recall': {
        let best = -1;
        for (let k = from; k < to; k++) {
          if (k === skip) continue;
          if (best < 0 || pairs[k * PAIR_WIDTH + 3] > pairs[best * PAIR_WIDTH + 3]) best = k;
        }
        if (best < 0) this.writeCounts(0, 0, 0, inverse, out, at);
        else this.writeCounts(pairs[best * PAIR_WIDTH], pairs[best * PAIR_WIDTH + 1], pairs[best * PAIR_WIDTH + 2], inverse, out, at);
        return;
      }
    }
  }

  /** The row of combined counts: R and P their ratios ({@link pairRatio}), F of those. */
  private writeCounts(
    hit: number, hyp: number, ref: number, inverse: (x: number) => number, out: Float64Array, at: number,
  ): void {
    const recall = pairRatio(hit, ref, inverse);
    const precision = pairRatio(hit, hyp, inverse);
    out[at] = hit;
    out[at + 1] = hyp;
    out[at + 2] = ref;
    out[at + 3] = precision;
    out[at + 4] = recall;
    out[at + 5] = this.fmeasure(precision, recall);
    out[at + 6] = 1;
  }

  /** `max`: the counts of the best-F pair (the first on ties), F of the best P and the best R over the pairs. */
  private writeMax(
    pairs: Float64Array, from: number, to: number, skip: number, inverse: (x: number) => number,
    out: Float64Array, at: number,
  ): void {
    writeBestFRow(pairs, from, to, this.fmeasure, out, at, inverse, skip);
    let maxP = out[at + 3];
    let maxR = out[at + 4];
    for (let k = from; k < to; k++) {
      if (k === skip) continue;
      const p = pairRatio(pairs[k * PAIR_WIDTH], pairs[k * PAIR_WIDTH + 1], inverse);
      const r = pairRatio(pairs[k * PAIR_WIDTH], pairs[k * PAIR_WIDTH + 2], inverse);
      if (p > maxP) maxP = p;
      if (r > maxR) maxR = r;
    }
    out[at + 3] = maxP;
    out[at + 4] = maxR;
    out[at + 5] = this.fmeasure(maxP, maxR);
  }
}
