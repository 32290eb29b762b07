/**
 * The fast path of `palette nbest`: the rows of a task for the metrics that have a token stage
 * (../../../metrics/token-stage.ts) come from one pass over its lines instead of each metric's `segmentStats` in
 * layers. Each candidate and reference line is scanned once (./chunk-memo.ts), its chunks tokenized once per
 * tokenizer (stages with equal tokenizer keys share one), the tokens of every tokenizer built as CSR arrays, and
 * each stage writes the rows of all the candidates of the task at once with the candidate→segment map. A metric
 * without a stage (or whose settings need the text) gives its rows its own way (`NbestMetric.rows`), into the same
 * rows. Rows are the Metric API's, column for column: the stages are the metrics' own row writers; the tests
 * compare both paths bit for bit.
 */
import type { ChunkTokenizer, TokenStage } from '../../../metrics/token-stage.js';
import type { NbestMetric, ReferenceSource, TaskSegments } from '../nbest-metrics.js';
import { ChunkMemo, RowScratch } from './chunk-memo.js';
import { ResultStore } from '../../../wasm/linear-memory.js';

/** Distinct chunks a thread's memo holds before it is started afresh (bounds its memory on long lists). */
const MEMO_CHUNK_LIMIT = 1 << 20;

/**
 * Rows of a task for every metric of a run (the fused replacement of the per-metric loop of `scoreTask`), in the
 * function's own store: valid until its next call.
 */
export type FusedRows = (task: TaskSegments, refs: ReferenceSource) => Float64Array;

/** The fused rows of a run's metrics, or undefined when none of them has a token stage. */
export function fusedRows(metrics: readonly NbestMetric[]): FusedRows | undefined {
  const stages: (TokenStage | undefined)[] = metrics.map((m) => m.metric.tokenStage?.());
  if (stages.every((s) => s === undefined)) return undefined;
  const keys: string[] = [];
  const makers: (() => ChunkTokenizer)[] = [];
  const slot = stages.map((stage) => {
    if (stage === undefined) return -1;
    let k = keys.indexOf(stage.tokenizerKey);
    if (k < 0) {
      k = keys.length;
      keys.push(stage.tokenizerKey);
      makers.push(() => stage.createTokenizer());
    }
    return k;
  });
  let stride = 0;
  for (const m of metrics) stride += m.width;
  let memo: ChunkMemo | undefined;
  // The token rows of a task live until its kernels have run (they copy them), so the next task may reuse them.
  const refScratch = new RowScratch();
  const hypScratch = new RowScratch();
  const rowStore = new ResultStore((n) => new Float64Array(n));
  return (task, refs) => {
    const n = task.hypLocal.length;
    const nSegments = task.segmentIds.length;
    const { nRefs } = refs;
    // One memo for the tasks of a thread (rows depend only on token equality, so ids from a table grown over
    // earlier tasks give the same rows), started afresh when it has grown large.
    if (memo === undefined || memo.size > MEMO_CHUNK_LIMIT) memo = new ChunkMemo(makers.map((make) => make()));
    const refCsr = memo.rows(nSegments * nRefs, (i) => refs.line(i % nRefs, task.segmentIds[Math.floor(i / nRefs)]), refScratch);
    const bytes = task.hypBytes;
    const hypCsr = bytes === undefined
      ? memo.rows(n, (h) => task.hyps[h], hypScratch)
      : memo.rowsOfRanges(bytes.bytes, bytes.starts, bytes.ends, n, hypScratch);
    const segRefOffsets = new Int32Array(nSegments + 1);
    for (let k = 0; k <= nSegments; k++) segRefOffsets[k] = k * nRefs;
    const out = rowStore.space(n * stride).fill(0);
    let column = 0;
    metrics.forEach((m, i) => {
      const stage = stages[i];
      if (stage === undefined) {
        const rows = m.rows(task, refs);
        for (let h = 0; h < n; h++) out.set(rows.subarray(h * m.width, (h + 1) * m.width), h * stride + column);
      } else {
        const t = slot[i];
        stage.writeRows({ hyps: hypCsr[t], hypSegment: task.hypLocal, refs: refCsr[t], segRefOffsets }, out, column, stride);
      }
      column += m.width;
    });
    return out;
  };
}
