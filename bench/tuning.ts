/**
 * Tuning API benchmark (issue 5; targets in spec/PERFORMANCE.md "Tuning loops": `scoreFromTotals` for BLEU ≤ 1 µs,
 * a selection score over 1000 segments ≤ 50 µs).
 *
 * Workload: bench/workload.ts's seeded model, 1000 segments × 100 candidates (25 tokens), 4 references each; the
 * BLEU-4 statistics matrix is built from the n-gram kernel's rows (`clippedNgramCounts` with `hypSegment`, the
 * same rows `buildStatsMatrix` produces for token ids) so the figures cover the loop, not text processing.
 *   1. `scoreFromTotals(bleu, totals)` on 1024 precomputed corpus totals (ns/call), beside `bleuScore` and
 *      `Bleu.scoreFromStats` (the allocating paths) for comparison.
 *   2. `selectionScore(matrix, selection, out)` on 64 precomputed random selections (µs/selection).
 *   3. A line-search step: `applyRowDelta` on running totals, then `scoreFromTotals` (ns/step).
 * Each task runs a batch of calls per tinybench iteration (per-call times are below the timer's resolution); the
 * printed figure is the median batch time divided by the batch size.
 *
 * Run: npx tsx bench/tuning.ts (or through bench/index.ts once the `tuning` scope is registered there).
 */
import '../src/node/install.js';
import { Bench } from 'tinybench';
import { Bleu, chooseRefLength } from '../src/metrics/bleu/bleu.js';
import { bleuScore } from '../src/metrics/bleu/score.js';
import { scoreFromTotals } from '../src/tuning/score-from-totals.js';
import { applyRowDelta, selectionScore, selectionTotals } from '../src/tuning/selection.js';
import type { StatsMatrix } from '../src/tuning/stats-matrix.js';
import { clippedNgramCounts } from '../src/wasm/ngram.js';
import { generateBatch, prng, type Workload } from './workload.js';

/** The BLEU-4 statistics matrix of a generated n-best batch. */
function bleuMatrix(metric: Bleu, w: Workload): StatsMatrix {
  const batch = generateBatch(w, 11);
  const n = metric.options.maxNgramOrder;
  const counts = clippedNgramCounts(batch, n);
  const rows = batch.hypSegment.length;
  const width = metric.statsWidth;
  const stats = new Float64Array(rows * width);
  const segmentOffsets = new Int32Array(w.segments + 1);
  const refLengths = new Int32Array(batch.refs.offsets.length - 1);
  for (let r = 0; r < refLengths.length; r++) refLengths[r] = batch.refs.offsets[r + 1] - batch.refs.offsets[r];
  for (let h = 0; h < rows; h++) {
    const s = batch.hypSegment[h];
    segmentOffsets[s + 1]++;
    const hypLen = batch.hyps.offsets[h + 1] - batch.hyps.offsets[h];
    stats[h * width] = hypLen;
    stats[h * width + 1] = chooseRefLength('closest', hypLen, refLengths, batch.segRefOffsets[s], batch.segRefOffsets[s + 1]);
    stats.set(counts.subarray(h * 2 * n, (h + 1) * 2 * n), h * width + 2);
  }
  for (let s = 0; s < w.segments; s++) segmentOffsets[s + 1] += segmentOffsets[s];
  return { metric, width, rows, segments: w.segments, stats, rowSegment: batch.hypSegment, segmentOffsets };
}

async function perCall(name: string, batch: number, unit: 'ns' | 'µs', fn: () => void): Promise<number> {
  const bench = new Bench({ iterations: 30, time: 0, warmupIterations: 5, warmupTime: 0, throws: true });
  bench.add(name, fn);
  await bench.run();
  const result = bench.tasks[0].result;
  const ms = result.state === 'completed' ? result.latency.p50 : NaN;
  const per = unit === 'ns' ? (ms * 1e6) / batch : (ms * 1e3) / batch;
  console.log(`${name.padEnd(44)} ${per.toFixed(unit === 'ns' ? 0 : 2).padStart(8)} ${unit}/call  (median of batches of ${batch})`);
  return per;
}

/** Runs the tuning benchmark and prints the workload and per-call figures. */
export async function benchTuning(): Promise<void> {
  const metric = new Bleu();
  const w: Workload = { segments: 1000, hypsPerSegment: 100, refsPerSegment: 4, length: 25, vocabulary: 10000 };
  const matrix = bleuMatrix(metric, w);
  const random = prng(3);
  const selections: Int32Array[] = [];
  for (let i = 0; i < 64; i++) {
    selections.push(Int32Array.from({ length: w.segments }, (_, s) => s * w.hypsPerSegment + Math.floor(random() * w.hypsPerSegment)));
  }
  const totals = selections.map((sel) => selectionTotals(matrix, sel));
  const pool: Float64Array[] = [];
  for (let i = 0; i < 1024; i++) pool.push(totals[i % 64].map((v, c) => (c < 2 ? v : Math.max(0, v - Math.floor(random() * 50)))));
  console.log(
    `tuning: BLEU-4 (sacrebleu, smooth exp), ${w.segments} segments × ${w.hypsPerSegment} candidates ` +
      `(${w.length} tokens, ${w.refsPerSegment} refs, vocabulary ${w.vocabulary}); matrix ${matrix.rows} × ${matrix.width}`,
  );
  const reduction = { maxNgramOrder: 4, smoothMethod: 'exp' as const, effectiveOrder: false };
  const scratch = new Float64Array(12);
  let sink = 0;
  await perCall('scoreFromTotals(bleu)', 1024, 'ns', () => {
    for (let i = 0; i < 1024; i++) sink += scoreFromTotals(metric, pool[i]);
  });
  await perCall('bleuScore (src/metrics, with scratch)', 1024, 'ns', () => {
    for (let i = 0; i < 1024; i++) sink += bleuScore(pool[i], reduction, 0, scratch);
  });
  await perCall('Bleu.scoreFromStats (full score object)', 1024, 'ns', () => {
    for (let i = 0; i < 1024; i++) sink += metric.scoreFromStats(pool[i]).score;
  });
  const out = new Float64Array(matrix.width);
  await perCall(`selectionScore (${w.segments} segments)`, 64, 'µs', () => {
    for (let i = 0; i < 64; i++) sink += selectionScore(matrix, selections[i], out);
  });
  const running = selectionTotals(matrix, selections[0]);
  const current = selections[0].slice();
  let k = 0;
  await perCall('line-search step (applyRowDelta + score)', 1024, 'ns', () => {
    for (let i = 0; i < 1024; i++) {
      const s = (k = (k + 7919) % w.segments);
      const to = s * w.hypsPerSegment + ((current[s] + 13) % w.hypsPerSegment);
      applyRowDelta(matrix, running, current[s], to);
      current[s] = to;
      sink += scoreFromTotals(metric, running);
    }
  });
  if (Number.isNaN(sink)) console.log('(unreachable: keeps the results live)');
}

if (import.meta.url === `file://${process.argv[1]}`) await benchTuning();
