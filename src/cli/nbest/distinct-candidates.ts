/**
 * Identical candidates of one segment, scored once. A Moses n-best list holds the same string many times (one per
 * derivation that produced it: Moses' own MERT test lists have 60–937 distinct strings in 1000 lines), and a
 * candidate's statistics depend only on its text and its segment's references, so `palette nbest` scores each
 * distinct text of a segment once and copies its row to the repeats. Duplicate *removal* (Moses' rule, equal
 * features as well) is a separate, later step and is not affected.
 */
import type { TaskSegments } from './nbest-metrics.js';

/** A task's distinct candidates and where each candidate's row comes from. */
export interface DistinctCandidates {
  /** The task of the first occurrence of each distinct (segment, text), in file order. */
  readonly task: TaskSegments;
  /** `source[h]`: the index in `task` of candidate `h`'s text. */
  readonly source: Int32Array;
}

/** The distinct candidates of `task`, or undefined when every candidate's text is new within its segment. */
export function distinctCandidates(task: TaskSegments): DistinctCandidates | undefined {
  const { hyps, hypLocal, segmentIds } = task;
  const n = hyps.length;
  const source = new Int32Array(n);
  const firsts: number[] = [];
  const seen = new Map<string, number>();
  let segment = -1;
  for (let h = 0; h < n; h++) {
    if (hypLocal[h] !== segment) {
      segment = hypLocal[h];
      seen.clear();
    }
    const text = hyps[h];
    const earlier = seen.get(text);
    if (earlier !== undefined) {
      source[h] = earlier;
      continue;
    }
    seen.set(text, firsts.length);
    source[h] = firsts.length;
    firsts.push(h);
  }
  if (firsts.length === n) return undefined;
  const m = firsts.length;
  const distinctHyps: string[] = new Array(m);
  const distinctLocal = new Int32Array(m);
  const starts = new Int32Array(segmentIds.length + 1);
  for (let k = 0; k < m; k++) {
    const h = firsts[k];
    distinctHyps[k] = hyps[h];
    distinctLocal[k] = hypLocal[h];
    starts[hypLocal[h] + 1]++;
  }
  for (let s = 0; s < segmentIds.length; s++) starts[s + 1] += starts[s];
  return {
    task: { hyps: distinctHyps, hypLocal: distinctLocal, segmentIds, segmentStarts: starts },
    source,
  };
}

/** Rows of every candidate (`width` each) from the rows of the distinct ones. */
export function expandRows(distinctRows: Float64Array, source: Int32Array, width: number): Float64Array {
  const out = new Float64Array(source.length * width);
  for (let h = 0; h < source.length; h++) {
    const from = source[h] * width;
    for (let c = 0; c < width; c++) out[h * width + c] = distinctRows[from + c];
  }
  return out;
}
