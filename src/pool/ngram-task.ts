/**
 * One task of the n-gram pool: a contiguous range of hypotheses of a shared batch, scored against exactly the
 * segments those hypotheses belong to, with the rows written into the task's slice of a shared output.
 *
 * Both sides use this file: the main thread describes the batch and cuts it into tasks, a worker re-views the
 * batch and runs a task. A task's sub-batch rebases offsets and segment indices to the range, so the work (and the
 * copy into linear memory) is proportional to the task, not to the batch.
 */
import type { Csr } from '../text/csr.js';
import type { NgramBatch } from '../wasm/ngram.js';
import type { NgramEngine, KernelNgramWeights } from '../wasm/ngram-engine.js';
import { shareCsr, shareInt32, viewCsr, viewInt32, type SharedCsrDescriptor, type SharedInt32 } from './shared-csr.js';

/** An {@link NgramBatch} in shared memory (postable to workers). */
export interface SharedNgramBatch {
  readonly hyps: SharedCsrDescriptor;
  readonly hypSegment: SharedInt32 | null;
  readonly refs: SharedCsrDescriptor;
  readonly segRefOffsets: SharedInt32;
}

/** NIST weights in shared memory: the image of a {@link KernelNgramWeights} table. */
export interface SharedNgramWeights {
  readonly image: SharedArrayBuffer;
  readonly capacity: number;
  readonly maxOrder: number;
}

/** The message a worker receives: everything is either a number or shared memory. */
export interface NgramTask {
  /** Identifies one pool call; a worker keeps per-call state (the weights table) keyed by it. */
  readonly runId: number;
  readonly batch: SharedNgramBatch;
  readonly maxOrder: number;
  readonly weights: SharedNgramWeights | null;
  /** `nHyps × width` doubles; this task writes rows `hypStart .. hypEnd` only. */
  readonly out: SharedArrayBuffer;
  readonly hypStart: number;
  readonly hypEnd: number;
}

/** Copies a batch into shared memory. */
export function shareNgramBatch(batch: NgramBatch): SharedNgramBatch {
  return {
    hyps: shareCsr(batch.hyps),
    hypSegment: batch.hypSegment === null ? null : shareInt32(batch.hypSegment),
    refs: shareCsr(batch.refs),
    segRefOffsets: shareInt32(batch.segRefOffsets),
  };
}

/** Copies a weights table image into shared memory. */
export function shareNgramWeights(weights: KernelNgramWeights): SharedNgramWeights {
  const image = new SharedArrayBuffer(weights.image.byteLength);
  new Uint8Array(image).set(weights.image);
  return { image, capacity: weights.capacity, maxOrder: weights.maxOrder };
}

/** Views of a shared batch (no copy). */
export function viewNgramBatch(shared: SharedNgramBatch): NgramBatch {
  return {
    hyps: viewCsr(shared.hyps),
    hypSegment: shared.hypSegment === null ? null : viewInt32(shared.hypSegment),
    refs: viewCsr(shared.refs),
    segRefOffsets: viewInt32(shared.segRefOffsets),
  };
}

/** Rows `start .. end` of a CSR store as a store of its own: rebased offsets (copied), tokens viewed. */
function csrSlice(csr: Csr, start: number, end: number): Csr {
  const base = csr.offsets[start];
  const offsets = new Int32Array(end - start + 1);
  for (let i = 0; i <= end - start; i++) offsets[i] = csr.offsets[start + i] - base;
  return { tokens: csr.tokens.subarray(base, csr.offsets[end]), offsets };
}

/**
 * The sub-batch of hypotheses `hypStart .. hypEnd`: their segments `s0 .. s1` (the smallest range holding every
 * segment they use) with those segments' references, indices rebased to the range. Each hypothesis keeps exactly
 * its own references, so its row is the row it has in the whole batch.
 */
export function taskBatch(batch: NgramBatch, hypStart: number, hypEnd: number): NgramBatch {
  const n = hypEnd - hypStart;
  let s0 = hypStart;
  let s1 = hypEnd;
  let hypSegment: Int32Array | null = null;
  if (batch.hypSegment !== null) {
    s0 = 0x7fffffff;
    s1 = 0;
    for (let h = hypStart; h < hypEnd; h++) {
      const s = batch.hypSegment[h];
      if (s < s0) s0 = s;
      if (s + 1 > s1) s1 = s + 1;
    }
    if (n === 0) s0 = s1 = 0;
    hypSegment = new Int32Array(n);
    for (let i = 0; i < n; i++) hypSegment[i] = batch.hypSegment[hypStart + i] - s0;
  }
  const seg = batch.segRefOffsets;
  const r0 = seg[s0];
  const segRefOffsets = new Int32Array(s1 - s0 + 1);
  for (let i = 0; i <= s1 - s0; i++) segRefOffsets[i] = seg[s0 + i] - r0;
  return {
    hyps: csrSlice(batch.hyps, hypStart, hypEnd),
    hypSegment,
    refs: csrSlice(batch.refs, r0, seg[s1]),
    segRefOffsets,
  };
}

/**
 * Runs one task on an engine and writes its rows into the shared output.
 * @returns the number of rows written.
 */
export function runNgramTask(
  engine: NgramEngine,
  task: NgramTask,
  batch: NgramBatch,
  weights: KernelNgramWeights | undefined,
): number {
  const rows = engine.clippedNgramCounts(taskBatch(batch, task.hypStart, task.hypEnd), task.maxOrder, weights);
  const width = (weights ? 3 : 2) * task.maxOrder;
  new Float64Array(task.out).set(rows, task.hypStart * width);
  return task.hypEnd - task.hypStart;
}

/**
 * Cuts hypotheses `0 .. nHyps` into ranges of about `taskTokens` units of work each, cutting only where the
 * segment changes (a segment's hypotheses share its reference table, built once per task). The work of a range is
 * its hypothesis tokens plus the reference tokens of each segment it enters.
 * @returns `count + 1` hypothesis offsets of the tasks.
 */
export function planTasks(batch: NgramBatch, taskTokens: number): Int32Array {
  return Int32Array.from([0, ...taskEnds(batch, taskTokens)]);
}

/**
 * The end offsets of {@link planTasks}'s ranges, one at a time: the pool posts each task as soon as its end is
 * known, so the first worker starts after one task's share of the planning scan instead of the whole scan.
 */
export function* taskEnds(batch: NgramBatch, taskTokens: number): Generator<number, void, undefined> {
  const { hyps, hypSegment, refs, segRefOffsets } = batch;
  const nHyps = hyps.offsets.length - 1;
  let work = 0;
  let previous = -1;
  for (let h = 0; h < nHyps; h++) {
    const s = hypSegment === null ? h : hypSegment[h];
    if (s !== previous) {
      if (h > 0 && work >= taskTokens) {
        yield h;
        work = 0;
      }
      work += refs.offsets[segRefOffsets[s + 1]] - refs.offsets[segRefOffsets[s]];
      previous = s;
    }
    work += hyps.offsets[h + 1] - hyps.offsets[h] + 1;
  }
  if (nHyps > 0) yield nHyps;
}

/** Total work units of a batch as {@link planTasks} counts them (decides in-thread versus pool). */
export function batchWork(batch: NgramBatch): number {
  return batch.hyps.offsets[batch.hyps.offsets.length - 1] + batch.hyps.offsets.length - 1 + batch.refs.offsets[batch.refs.offsets.length - 1];
}
