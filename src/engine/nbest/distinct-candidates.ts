/**
 * Identical candidates of one segment, scored once. A Moses n-best list holds the same string many times (one per
 * derivation that produced it: Moses' own MERT test lists have 60–937 distinct strings in 1000 lines), and a
 * candidate's statistics depend only on its text and its segment's references, so `palette nbest` scores each
 * distinct text of a segment once and copies its row to the repeats. Duplicate *removal* (Moses' rule, equal
 * features as well) is a separate, later step and is not affected.
 */
import type { HypBytes, TaskSegments } from './nbest-metrics.js';
import type { ResultStore } from '../../wasm/linear-memory.js';

/** A task's distinct candidates and where each candidate's row comes from. */
export interface DistinctCandidates {
  /** The task of the first occurrence of each distinct (segment, text), in file order. */
  readonly task: TaskSegments;
  /** `source[h]`: the index in `task` of candidate `h`'s text. */
  readonly source: Int32Array;
}

/** Open-addressing table of one segment's distinct texts (indices into `firsts`, -1 = empty), reused. */
let slots = new Int32Array(64);

/**
 * A cheap hash of a candidate: its length and a few of its code units (O(1), no pass over the text; texts that
 * collide are told apart by `===`). Texts of one segment differ in a word or two, so a collision usually ends at
 * the first differing unit of the comparison.
 */
function sampleHash(text: string): number {
  const len = text.length;
  let h = Math.imul(len, 0x9e3779b1);
  if (len > 0) {
    const step = (len >> 3) + 1;
    for (let i = len - 1; i >= 0; i -= step) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return h ^ (h >>> 15);
}

/** {@link sampleHash} of the UTF-8 bytes `bytes[from .. to]`. */
function sampleHashBytes(bytes: Uint8Array, from: number, to: number): number {
  const len = to - from;
  let h = Math.imul(len, 0x9e3779b1);
  if (len > 0) {
    const step = (len >> 3) + 1;
    for (let i = to - 1; i >= from; i -= step) h = Math.imul(h ^ bytes[i], 0x01000193);
  }
  return h ^ (h >>> 15);
}

/** Whether candidates `a` and `b` have the same bytes (the same text: UTF-8 is one-to-one). */
function sameBytes(hypBytes: HypBytes, a: number, b: number): boolean {
  const { bytes, starts, ends } = hypBytes;
  const from = starts[a];
  const other = starts[b];
  const len = ends[a] - from;
  if (ends[b] - other !== len) return false;
  for (let k = 0; k < len; k++) if (bytes[from + k] !== bytes[other + k]) return false;
  return true;
}

/**
 * The distinct candidates of `task`, or undefined when every candidate's text is new within its segment. A task
 * parsed from bytes is compared by its candidates' byte ranges (its texts are not made for it).
 */
export function distinctCandidates(task: TaskSegments): DistinctCandidates | undefined {
  const { hypLocal, segmentIds, segmentStarts } = task;
  const n = hypLocal.length;
  const byBytes = task.hypBytes;
  const hyps = byBytes === undefined ? task.hyps : undefined;
  const source = new Int32Array(n);
  const firsts: number[] = [];
  for (let k = 0; k < segmentIds.length; k++) {
    const from = segmentStarts[k];
    const to = segmentStarts[k + 1];
    let size = 16;
    while (size < 2 * (to - from)) size *= 2;
    if (slots.length < size) slots = new Int32Array(size);
    slots.fill(-1, 0, size);
    const mask = size - 1;
    for (let h = from; h < to; h++) {
      let slot = (hyps === undefined ? sampleHashBytes(byBytes!.bytes, byBytes!.starts[h], byBytes!.ends[h]) : sampleHash(hyps[h])) & mask;
      let earlier = -1;
      for (let e = slots[slot]; e >= 0; slot = (slot + 1) & mask, e = slots[slot]) {
        if (hyps === undefined ? sameBytes(byBytes!, firsts[e], h) : hyps[firsts[e]] === hyps[h]) {
          earlier = e;
          break;
        }
      }
      if (earlier >= 0) {
        source[h] = earlier;
        continue;
      }
      slots[slot] = firsts.length;
      source[h] = firsts.length;
      firsts.push(h);
    }
  }
  if (firsts.length === n) return undefined;
  return distinctFrom(task, source, firsts);
}

/**
 * The distinct candidates of `task` given where each candidate's row comes from: `source[h]` indexes `firsts`, the
 * first candidate of each distinct (segment, text) in file order (found as {@link distinctCandidates} finds them,
 * or by the byte scan of ../../wasm/nbest-lines.ts).
 */
export function distinctFrom(task: TaskSegments, source: Int32Array, firsts: ArrayLike<number>): DistinctCandidates {
  const { hypLocal, segmentIds } = task;
  const m = firsts.length;
  const distinctLocal = new Int32Array(m);
  const starts = new Int32Array(segmentIds.length + 1);
  for (let k = 0; k < m; k++) {
    const h = firsts[k];
    distinctLocal[k] = hypLocal[h];
    starts[hypLocal[h] + 1]++;
  }
  for (let s = 0; s < segmentIds.length; s++) starts[s + 1] += starts[s];
  let hypBytes = task.hypBytes;
  if (hypBytes !== undefined) {
    const byteStarts = new Int32Array(m);
    const byteEnds = new Int32Array(m);
    for (let k = 0; k < m; k++) {
      byteStarts[k] = hypBytes.starts[firsts[k]];
      byteEnds[k] = hypBytes.ends[firsts[k]];
    }
    hypBytes = { bytes: hypBytes.bytes, starts: byteStarts, ends: byteEnds };
  }
  // The texts only when something reads them (as the task's own).
  let distinctHyps: string[] | undefined;
  return {
    task: {
      get hyps(): string[] {
        return (distinctHyps ??= Array.from(firsts, (h) => task.hyps[h]));
      },
      hypLocal: distinctLocal,
      segmentIds,
      segmentStarts: starts,
      hypBytes,
    },
    source,
  };
}

/**
 * Rows of every candidate (`width` each) from the rows of the distinct ones: a new array, or with `into` that
 * store's space (valid until its next use).
 */
export function expandRows(distinctRows: Float64Array, source: Int32Array, width: number, into?: ResultStore<Float64Array>): Float64Array {
  const out = into === undefined ? new Float64Array(source.length * width) : into.space(source.length * width);
  // Repeats are few: between two of them the sources run on consecutively, and such a run is one block copy.
  for (let h = 0; h < source.length; ) {
    const first = source[h];
    let end = h + 1;
    while (end < source.length && source[end] === first + (end - h)) end++;
    out.set(distinctRows.subarray(first * width, (first + end - h) * width), h * width);
    h = end;
  }
  return out;
}
