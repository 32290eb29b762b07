/**
 * Significance benchmark (issue 6; target in the issue: bootstrap with 1000 resamples over 10k segments ≤ 1 s
 * for BLEU).
 *
 * Workload: 10,000 segments of seeded synthetic BLEU-4 statistics rows (two systems, integer counts as the n-gram
 * kernel produces them), so the figures cover the resampling, not text processing:
 *   1. `bootstrapScores` — 1000 resamples (numpy `choice(10000, (1000, 10000))` stream, float32 sums, BLEU each);
 *   2. `pairedTest` bs — the same 1000 resamples for baseline and system (what `--paired-bs` runs per system);
 *   3. `pairedTest` ar — 10,000 approximate-randomization trials (what `--paired-ar` runs per system);
 *   4. the raw numpy streams alone: 10M bounded draws, 100M bool draws, on the WebAssembly kernels (what the tests
 *      run on) and on the TypeScript generator (16-bit limbs) side by side.
 * tinybench medians (ms) of a few iterations each and the CPU time per run, printed side by side with the target.
 *
 * Run: npx tsx bench/index.ts meta
 */
import '../src/node/install.js';
import { Bench } from 'tinybench';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { defaultRng } from '../src/meta/numpy-random.js';
import { bootstrapScores, pairedTest, testedMetric } from '../src/meta/significance.js';
import { defaultPcg64Engine } from '../src/wasm/pcg64.js';

const SEGMENTS = 10_000;
const WIDTH = 10;

/** Seeded BLEU-4 rows `[hyp_len, ref_len, correct_1..4, total_1..4]` of one synthetic system. */
function syntheticRows(seed: number): Float64Array {
  let x = seed >>> 0 || 1;
  const next = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const rows = new Float64Array(SEGMENTS * WIDTH);
  for (let i = 0; i < SEGMENTS; i++) {
    const len = 8 + Math.floor(next() * 40);
    const ref = Math.max(1, len + Math.floor(next() * 9) - 4);
    rows[i * WIDTH] = len;
    rows[i * WIDTH + 1] = ref;
    let correct = Math.floor(len * (0.4 + 0.4 * next()));
    for (let n = 0; n < 4; n++) {
      const total = Math.max(0, len - n);
      correct = Math.min(total, Math.floor(correct * (0.5 + 0.3 * next())));
      rows[i * WIDTH + 2 + n] = correct;
      rows[i * WIDTH + 6 + n] = total;
    }
  }
  return rows;
}

/**
 * Median wall time (ms) of `iterations` runs after one warm-up, and the mean CPU time (ms, user + system) of all
 * runs: on a shared, loaded machine the CPU time is the steadier figure.
 */
async function median(name: string, iterations: number, fn: () => void): Promise<[number, number]> {
  const bench = new Bench({ iterations, time: 0, warmupIterations: 1, warmupTime: 0, throws: true });
  bench.add(name, fn);
  const before = process.cpuUsage();
  await bench.run();
  const cpu = process.cpuUsage(before);
  const r = bench.tasks[0].result;
  const runs = bench.tasks[0].runs + 1;
  return [r.state === 'completed' ? r.latency.p50 : NaN, (cpu.user + cpu.system) / 1000 / runs];
}

/** Runs the significance benchmark and prints medians. */
export async function benchMeta(): Promise<void> {
  const metric = testedMetric(new Bleu());
  const a = syntheticRows(1);
  const b = syntheticRows(2);
  console.log(`workload: ${SEGMENTS} segments of synthetic BLEU-4 statistics, two systems, seed 12345`);
  const rows: [string, [number, number], string][] = [];
  rows.push([
    'bootstrap 1000 resamples (BLEU)',
    await median('bs', 5, () => bootstrapScores({ rows: a, width: WIDTH }, metric, 1000, 12345)),
    '≤ 1000 ms',
  ]);
  rows.push([
    'paired bs 1000 (baseline CI + test)',
    await median('pbs', 3, () => pairedTest([{ metric, systems: [a, b] }], { test: 'bs', nSamples: 1000, seed: 12345 })),
    '',
  ]);
  rows.push([
    'paired ar 10000 trials',
    await median('par', 3, () => pairedTest([{ metric, systems: [a, b] }], { test: 'ar', nSamples: 10_000, seed: 12345 })),
    '',
  ]);
  const engine = defaultPcg64Engine();
  const idx = new Uint32Array(SEGMENTS);
  rows.push([
    'numpy choice: 10M draws (wasm)',
    await median('choice-wasm', 5, () => {
      const bits = defaultRng(12345).bits;
      for (let r = 0; r < 1000; r++) engine.bounded(bits, SEGMENTS, idx);
    }),
    '',
  ]);
  const mask = new Uint8Array(SEGMENTS);
  rows.push([
    'numpy bool: 100M draws (wasm)',
    await median('bool-wasm', 3, () => {
      const bits = defaultRng(12345).bits;
      const buffer = { word: 0, left: 0 };
      for (let r = 0; r < 10_000; r++) engine.bools(bits, buffer, mask);
    }),
    '',
  ]);
  rows.push([
    'numpy choice: 10M draws (TypeScript)',
    await median('choice', 5, () => {
      // The limb arithmetic itself (BoundedIntStream.fill hands fills this long to the kernel).
      const bits = defaultRng(12345).bits;
      for (let r = 0; r < 1000; r++) bits.fillBounded(idx, SEGMENTS, (2 ** 32 - SEGMENTS) % SEGMENTS);
    }),
    '',
  ]);
  rows.push([
    'numpy bool: 100M draws (TypeScript)',
    await median('bool', 3, () => {
      const s = defaultRng(12345).boolStream();
      for (let r = 0; r < 10_000; r++) s.fill(mask);
    }),
    '',
  ]);
  console.log(`${''.padEnd(40)} ${'median'.padStart(9)}    ${'cpu/run'.padStart(9)}`);
  for (const [name, [ms, cpu], target] of rows) {
    console.log(`${name.padEnd(40)} ${ms.toFixed(1).padStart(9)} ms ${cpu.toFixed(1).padStart(9)} ms  ${target}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMeta();
