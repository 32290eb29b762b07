/**
 * Worker-pool benchmark (issue 5): BLEU-4 clipped n-gram counts of 1M hypotheses (bench/workload.ts's seeded model,
 * 1000 segments × 1000 hypotheses of 25 tokens, 4 references each) in-thread, with 1 worker and with 2 workers.
 * Prints wall time per call (median of 3 after a warm call), speed-up over in-thread, the number of tasks, and the
 * task overhead share: 1 − (in-thread time ÷ (workers × pooled time)), i.e. the part of the workers' time that is
 * not kernel work (sharing the batch, planning, round trips, idle tails). The figures depend on the cores free at
 * the time: the machine's core count and load average are printed with them.
 *
 * Run: npx tsx bench/pool.ts (or through bench/index.ts once a `pool` scope is registered there).
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { NgramPool } from '../src/pool/ngram-pool.js';
import { clippedNgramCounts } from '../src/wasm/ngram.js';
import { generateBatch } from './workload.js';

async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[runs >> 1];
}

/** Runs the pool benchmark and prints the workload and the figures. */
export async function benchPool(): Promise<void> {
  const w = { segments: 1000, hypsPerSegment: 1000, refsPerSegment: 4, length: 25, vocabulary: 20_000 };
  const batch = generateBatch(w, 5);
  const nHyps = batch.hyps.offsets.length - 1;
  console.log(`workload: ${nHyps} hyps × ${w.length} tokens, ${w.segments} segments × ${w.refsPerSegment} refs; BLEU-4 counts`);
  console.log(`machine: ${availableParallelism()} cores, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const inThread = await median(3, async () => clippedNgramCounts(batch, 4));
  console.log(`in-thread   ${inThread.toFixed(0).padStart(6)} ms  ${(nHyps / inThread / 1e3).toFixed(2)} M hyps/s`);
  for (const workers of [1, 2]) {
    // minParallelWork 0: one worker would otherwise run in-thread by design.
    const pool = new NgramPool({ workers, minParallelWork: 0 });
    await pool.start();
    const t = await median(3, () => pool.clippedNgramCounts(batch, 4));
    const { tasks } = pool.lastCall;
    const overhead = 1 - inThread / (workers * t);
    console.log(
      `${workers} worker${workers > 1 ? 's' : ' '}   ${t.toFixed(0).padStart(6)} ms  ${(nHyps / t / 1e3).toFixed(2)} M hyps/s` +
        `  speed-up ${(inThread / t).toFixed(2)}×  ${tasks} tasks  overhead ${(overhead * 100).toFixed(1)} %`,
    );
    await pool.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPool();
