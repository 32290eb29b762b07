/**
 * All-pairs sentence scores (src/engine/pairwise), one core, in this thread.
 *
 * Workload: WMT21 en-de (../shared/data/wmt21-news-en-de/en-de; skipped with a message when absent), German
 * segments of ≈170 characters. Cases:
 *   - global: the first N lines of reference A as hypotheses × the next N lines as references (N = 512 for chrF,
 *     chrF++ and BLEU, 128 for TER), texts prepared once outside the timed call, then the whole N × N matrix;
 *   - prepare: tokenizing both sides (the once-per-text part), for the same N;
 *   - MBR: the 20 system outputs as samples of each of the first 100 segments (20 × 20 pairs per segment, the
 *     golden's shape), through mbrDecode: per segment tokenization, pairs and selection, end to end;
 *   - MBR 256: 256 near-identical samples of each of the first 10 segments (bench/mbr-samples.ts: the 20 systems, then
 *     copies edited at 1–3 places), 256 × 255 pairs per segment, the bit-set path of chrF and BLEU; and the same
 *     samples by reference aggregation (`aggregate: true`, 256 scores per segment).
 * Each line gives the wall-clock median of tinybench's runs (5 after one warm-up) and the process CPU time per run
 * (the steadier figure on a shared, loaded machine), and pairs/s from each.
 *
 * Run: npx tsx bench/index.ts pairwise
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { mbrDecode, PairwiseScorer } from '../src/engine/pairwise/index.js';
import { mbrSampleStreams, wmt21Systems } from './mbr-samples.js';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { Chrf } from '../src/metrics/chrf/chrf.js';
import type { Metric } from '../src/metrics/metric.js';
import { Ter } from '../src/metrics/ter/ter.js';
import { readLines } from '../src/node/read-lines.js';

const WMT21 = fileURLToPath(new URL('../../shared/data/wmt21-news-en-de/en-de/', import.meta.url));

/** Median wall milliseconds and mean CPU milliseconds of `f` over 5 runs after one warm-up run. */
async function measure(f: () => unknown): Promise<{ wall: number; cpu: number }> {
  let cpu = 0;
  let runs = 0;
  const bench = new Bench({ iterations: 5, time: 0, warmupIterations: 1, warmupTime: 0, throws: true });
  bench.add('case', () => {
    const start = process.cpuUsage();
    f();
    const used = process.cpuUsage(start);
    cpu += (used.user + used.system) / 1000;
    runs++;
  });
  await bench.run();
  const result = bench.tasks[0].result;
  // The warm-up run is counted in `runs` too: the mean is over every run, which only steadies it.
  return { wall: result.state === 'completed' ? result.latency.p50 : NaN, cpu: cpu / runs };
}

function line(label: string, pairs: number, m: { wall: number; cpu: number }): string {
  const rate = (ms: number): string => Math.round((pairs / ms) * 1000).toString().padStart(9);
  return `  ${label.padEnd(16)} ${pairs.toString().padStart(7)} pairs ${m.wall.toFixed(1).padStart(8)} ms wall ` +
    `${m.cpu.toFixed(1).padStart(8)} ms cpu ${rate(m.wall)} pairs/s (wall) ${rate(m.cpu)} pairs/s (cpu)`;
}

/** Runs the pairwise benchmark and prints the workload and the figures. */
export async function benchPairwise(): Promise<void> {
  if (!existsSync(`${WMT21}ref.A.de`)) {
    console.log('pairwise: skipped — ../shared/data/wmt21-news-en-de is absent (the workload lives there)');
    return;
  }
  const ref = readLines(`${WMT21}ref.A.de`);
  const chars = ref.slice(0, 1024).reduce((a, l) => a + [...l].length, 0) / 1024;
  console.log(`workload: WMT21 en-de reference A, ${chars.toFixed(0)} characters per segment on average`);
  const metrics: [string, Metric, number][] = [
    ['chrF', new Chrf(), 512],
    ['chrF++', new Chrf({ wordOrder: 2 }), 512],
    ['BLEU', new Bleu({ effectiveOrder: true }), 512],
    ['TER', new Ter(), 128],
  ];
  console.log('\nglobal N × N matrix, texts prepared once — median of 5 after one warm-up run (BLEU: sentence BLEU, effective order)');
  for (const [name, metric, n] of metrics) {
    const hyps = ref.slice(0, n);
    const refs = ref.slice(n, 2 * n);
    const prep = await measure(() => new PairwiseScorer(metric, hyps, refs));
    const scorer = new PairwiseScorer(metric, hyps, refs);
    const pairs = await measure(() => scorer.scoreRows(0, n));
    console.log(line(`${name} ${n}×${n}`, n * n, pairs));
    console.log(`  ${''.padEnd(16)} prepare ${(2 * n).toString()} texts: ${prep.wall.toFixed(1)} ms wall, ${prep.cpu.toFixed(1)} ms cpu`);
  }

  const files = readdirSync(`${WMT21}systems`).filter((f) => f.endsWith('.de')).sort();
  const samples = files.map((f) => readLines(`${WMT21}systems/${f}`).slice(0, 100));
  console.log(`\nMBR: ${samples.length} samples × 100 segments (${samples.length}² pairs each), mbrDecode end to end`);
  for (const [name, metric] of metrics) {
    const direction = metric instanceof Ter ? 'lower' : 'higher';
    const m = await measure(() => mbrDecode(metric, samples, { direction }));
    console.log(line(name, 100 * samples.length * samples.length, m));
  }

  const many = mbrSampleStreams(wmt21Systems(WMT21), 256, 10);
  console.log('\nMBR 256: 256 samples × 10 segments (256 × 255 pairs each, self-pairs left out), mbrDecode end to end');
  for (const [name, metric] of metrics.slice(0, 3)) {
    const m = await measure(() => mbrDecode(metric, many));
    console.log(line(name, 10 * 256 * 255, m));
  }
  console.log('  reference aggregation (--aggregate): one aggregate pseudo-reference per sample, figures in samples/s');
  for (const [name, metric] of metrics.slice(0, 3)) {
    const m = await measure(() => mbrDecode(metric, many, { aggregate: true }));
    console.log(line(`${name} aggregate`, 10 * 256, m).replace(/pairs/g, 'samples'));
  }
}
