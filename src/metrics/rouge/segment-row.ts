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
import { rouge155Scores, type ModelStats } from '../rouge155/score.js';
import type { FMeasure } from './f-measure.js';
import type { ResolvedRougeOptions } from './options.js';
import { PAIR_WIDTH, type PairStats } from './pair-stats.js';

/** Names of the row columns. */
export const ROUGE_STATS_COLUMNS = ['hit', 'hyp', 'ref', 'precision', 'recall', 'fmeasure', 'segments'] as const;
/** Width of a row. */
export const ROUGE_STATS_WIDTH = ROUGE_STATS_COLUMNS.length;

/** Combined statistics of some references of one segment. */
interface Combined {
  hit: number;
  hyp: number;
  ref: number;
  precision: number;
  recall: number;
  fmeasure: number;
}

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

/** How a segment's pairs are reduced; built once per metric call. */
export class SegmentCombiner {
  private readonly chosen: number[] = [];

  constructor(
    private readonly options: ResolvedRougeOptions,
    private readonly fmeasure: FMeasure,
  ) {}

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
    const all = this.combine(pairs, from, to, -1, inverse);
    out[at] = all.hit;
    out[at + 1] = all.hyp;
    out[at + 2] = all.ref;
    out[at + 6] = 1;
    if (this.options.jackknife && to - from >= 2) {
      let p = 0;
      let r = 0;
      let f = 0;
      for (let k = from; k < to; k++) {
        const c = this.combine(pairs, from, to, k, inverse);
        p += c.precision;
        r += c.recall;
        f += c.fmeasure;
      }
      const n = to - from;
      out[at + 3] = p / n;
      out[at + 4] = r / n;
      out[at + 5] = f / n;
    } else {
      out[at + 3] = all.precision;
      out[at + 4] = all.recall;
      out[at + 5] = all.fmeasure;
    }
  }

  /** The flavor's combination of pairs `from .. to` except `skip` (-1: none). */
  private combine(
    pairs: Float64Array,
    from: number,
    to: number,
    skip: number,
    inverse: (x: number) => number,
  ): Combined {
    const { chosen } = this;
    chosen.length = 0;
    for (let k = from; k < to; k++) if (k !== skip) chosen.push(k);
    const { flavor, multiReference, weighting } = this.options;
    if (flavor === 'rouge155') {
      const perModel: ModelStats[] = chosen.map((k) => ({
        hit: pairs[k * PAIR_WIDTH],
        peerCount: pairs[k * PAIR_WIDTH + 1],
        modelCount: pairs[k * PAIR_WIDTH + 2],
        score: pairs[k * PAIR_WIDTH + 3],
      }));
      const alpha = weighting.form === 'alpha' ? weighting.alpha : 0.5;
      const s = rouge155Scores(perModel, multiReference === 'best-recall' ? 'B' : 'A', alpha, inverse);
      return {
        hit: s.hit,
        hyp: s.peerCount,
        ref: s.modelCount,
        precision: Number(s.precision),
        recall: Number(s.recall),
        fmeasure: Number(s.fmeasure),
      };
    }
    const scoresOf = (hit: number, hyp: number, ref: number): Combined => {
      const recall = ref > 0 ? inverse(hit / ref) : 0;
      const precision = hyp > 0 ? inverse(hit / hyp) : 0;
      return { hit, hyp, ref, precision, recall, fmeasure: this.fmeasure(precision, recall) };
    };
    const pairScores = (k: number): Combined =>
      scoresOf(pairs[k * PAIR_WIDTH], pairs[k * PAIR_WIDTH + 1], pairs[k * PAIR_WIDTH + 2]);
    if (chosen.length === 0) return scoresOf(0, 0, 0);
    switch (multiReference) {
      case 'pool': {
        let hit = 0;
        let hyp = 0;
        let ref = 0;
        for (const k of chosen) {
          hit += pairs[k * PAIR_WIDTH];
          hyp += pairs[k * PAIR_WIDTH + 1];
          ref += pairs[k * PAIR_WIDTH + 2];
        }
        return scoresOf(hit, hyp, ref);
      }
      case 'best-recall': {
        let best = chosen[0];
        for (const k of chosen) if (pairs[k * PAIR_WIDTH + 3] > pairs[best * PAIR_WIDTH + 3]) best = k;
        return pairScores(best);
      }
      case 'best-f':
      case 'max': {
        // numpy.argmax: the first maximum.
        let best = pairScores(chosen[0]);
        let maxP = best.precision;
        let maxR = best.recall;
        for (let i = 1; i < chosen.length; i++) {
          const c = pairScores(chosen[i]);
          if (c.fmeasure > best.fmeasure) best = c;
          if (c.precision > maxP) maxP = c.precision;
          if (c.recall > maxR) maxR = c.recall;
        }
        if (multiReference === 'best-f') return best;
        return { ...best, precision: maxP, recall: maxR, fmeasure: this.fmeasure(maxP, maxR) };
      }
    }
  }
}
