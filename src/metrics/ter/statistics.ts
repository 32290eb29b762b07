/**
 * TER's sufficient statistics, sacreBLEU's layout: one row `[num_edits, ref_length]` per segment, where
 * `num_edits` is the fewest edits over the segment's references and `ref_length` the *average* reference length
 * (tercom's rule, also with several references). Corpus TER is `Σ num_edits / Σ ref_length`.
 */
import type { TerResult } from './alignment.js';

/** Width of a TER statistics row. */
export const TER_STATS_WIDTH = 2;

/** Column names of a TER statistics row. */
export const TER_STATS_COLUMNS: readonly string[] = Object.freeze(['num_edits', 'ref_length']);

/** One segment's statistics and which reference gave the fewest edits. */
export interface TerSegmentStats {
  /** Fewest edits over the references. */
  readonly edits: number;
  /** Sum of the reference lengths divided by their number (one double division, as sacreBLEU). */
  readonly refLength: number;
  /** Index of the first reference with the fewest edits. */
  readonly bestRef: number;
}

/**
 * Reduces per-reference results to the segment's statistics: the first reference with the fewest edits wins
 * (sacreBLEU keeps a strictly smaller count only).
 */
export function terSegmentStats(perReference: readonly Pick<TerResult, 'edits' | 'refLength'>[]): TerSegmentStats {
  let edits = Infinity;
  let bestRef = -1;
  let lengths = 0;
  perReference.forEach((r, k) => {
    lengths += r.refLength;
    if (r.edits < edits) {
      edits = r.edits;
      bestRef = k;
    }
  });
  return { edits, refLength: lengths / perReference.length, bestRef };
}

/**
 * TER on sacreBLEU's 0–100 scale from (summed) statistics: `100 · edits / refLength`; with no reference words,
 * 100 when there are edits and 0 when there are none.
 */
export function terScore(edits: number, refLength: number): number {
  let fraction: number;
  if (refLength > 0) fraction = edits / refLength;
  else fraction = edits > 0 ? 1 : 0;
  return 100 * fraction;
}
