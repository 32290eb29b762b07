/**
 * The distinct (segment, hypothesis) pairs of several systems of one test set. Systems often agree on a segment
 * (the 20 WMT21 en-de systems have 14,856 distinct pairs among 20,060), and a statistics row depends only on the
 * hypothesis and the prepared references, so each distinct pair is scored once per metric and its row is copied to
 * every system that has it.
 */
import { InputError } from '../../errors.js';

/** Distinct hypotheses of a segment found by comparing each with those before it; more take a map. */
const SCAN_LIMIT = 16;

/** Distinct hypotheses grouped by segment, and where each system's hypotheses are among them. */
export interface DistinctHypotheses {
  /** Number of segments. */
  readonly segments: number;
  /** The distinct hypotheses, segment after segment; within a segment, in the order systems first give them. */
  readonly hyps: readonly string[];
  /** Segment of each distinct hypothesis (non-decreasing). */
  readonly segmentOf: Int32Array;
  /** Distinct hypotheses of segment `s` are `groupStarts[s] .. groupStarts[s + 1]` (`segments + 1` offsets). */
  readonly groupStarts: Int32Array;
  /** `index[k][s]`: the distinct hypothesis system `k` gives segment `s`. */
  readonly index: readonly Int32Array[];
}

/**
 * The distinct hypotheses of `systems` (`systems[k][s]`: system k's hypothesis of segment s).
 * @throws InputError `E_LINE_COUNT_MISMATCH` when a system's length is not `segments`.
 */
export function distinctHypotheses(systems: readonly (readonly string[])[], segments: number): DistinctHypotheses {
  systems.forEach((system, k) => {
    if (system.length !== segments) {
      throw new InputError(
        'E_LINE_COUNT_MISMATCH',
        `system ${k + 1} has ${system.length} hypotheses but the references have ${segments} segments`,
      );
    }
  });
  const index = systems.map(() => new Int32Array(segments));
  const hyps: string[] = [];
  const groupStarts = new Int32Array(segments + 1);
  const seen = new Map<string, number>();
  for (let s = 0; s < segments; s++) {
    const first = hyps.length;
    groupStarts[s] = first;
    // A segment's few distinct hypotheses are compared in turn (strings of other lengths differ at once, and no
    // hash of a long line is computed); past SCAN_LIMIT of them, a map of this segment's finds the rest.
    let mapped = false;
    for (let k = 0; k < systems.length; k++) {
      const hyp = systems[k][s];
      let at: number | undefined;
      if (!mapped) {
        at = first;
        while (at < hyps.length && hyps[at] !== hyp) at++;
        if (at === hyps.length) {
          hyps.push(hyp);
          if (hyps.length - first > SCAN_LIMIT) {
            mapped = true;
            seen.clear();
            for (let d = first; d < hyps.length; d++) seen.set(hyps[d], d);
          }
        }
      } else {
        at = seen.get(hyp);
        if (at === undefined) {
          at = hyps.length;
          hyps.push(hyp);
          seen.set(hyp, at);
        }
      }
      index[k][s] = at;
    }
  }
  groupStarts[segments] = hyps.length;
  const segmentOf = new Int32Array(hyps.length);
  for (let s = 0; s < segments; s++) segmentOf.fill(s, groupStarts[s], groupStarts[s + 1]);
  return { segments, hyps, segmentOf, groupStarts, index };
}

/** Each system's rows (`segments × width`), copied from the rows of the distinct hypotheses. */
export function systemRowsOf(distinct: DistinctHypotheses, rows: Float64Array, width: number): Float64Array[] {
  return distinct.index.map((index) => {
    const out = new Float64Array(distinct.segments * width);
    // A plain copy: a subarray view per row costs more than the few numbers it moves.
    for (let s = 0; s < index.length; s++) {
      const from = index[s] * width;
      const to = s * width;
      for (let c = 0; c < width; c++) out[to + c] = rows[from + c];
    }
    return out;
  });
}
