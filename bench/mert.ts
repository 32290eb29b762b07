/**
 * MERT benchmark: Moses' line search and a whole `mert -n 20` optimisation on a 1000 × 1000 n-best list.
 *
 * Workload: the n-best list and 4 references of `../../shared/bench/gen_nbest.py DIR 1000 1000 4 7` (the shared
 * folder beside the repository; generated into $PALETTE_MERT_BENCH_DIR, default /tmp/palette-bench-mert, when not
 * there yet); statistics are the engine's Moses BLEU rows (`mosesBleuStats`, `palette nbest -m bleu`'s rows);
 * features are 14 per candidate: the list's own `f0=` value, then 13 seeded uniform values in [−1, 1] rounded to 4
 * decimals (mulberry32, seed 14).
 *   1. One line search (`mertLineSearch`, intercepts included) along a coordinate and along a random direction, and
 *      the intercepts (model scores of 1M candidates) alone: median ms over tinybench iterations, one thread. The
 *      first call on a problem copies its features by column into the WebAssembly kernel (once per problem and
 *      thread): timed apart, before the medians.
 *   2. A whole optimisation, `mert -d 14 -n 20 -r 1000` with INIT 0…/−1…/1…: wall time on 1 thread (in-thread,
 *      Moses' shared stream) and on 2 pool workers (`--threads 2`), once each, with the CPU time of the process
 *      (its worker threads included).
 *
 * Run: npx tsx bench/index.ts mert (or npx tsx bench/mert.ts). Set PALETTE_MERT_BENCH_FULL=0 to skip part 2.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { mosesBleuStats, prepareMosesReferences } from '../src/metrics/bleu/moses.js';
import { runMertOnPool } from '../src/pool/mert-pool.js';
import { mertLineSearch } from '../src/tuning/mert/api.js';
import { fullSpace, modelScores } from '../src/tuning/mert/line-search.js';
import { mertOptimize, type MertOptions } from '../src/tuning/mert/optimizer.js';
import { mertProblem, mosesBleuObjective, type MertProblem } from '../src/tuning/mert/problem.js';
import { prng } from './workload.js';

const DIMENSIONS = 14;

/** The generated list, its BLEU rows and seeded features, as a MERT problem. */
function loadProblem(): MertProblem {
  const dir = process.env.PALETTE_MERT_BENCH_DIR ?? '/tmp/palette-bench-mert';
  const gen = fileURLToPath(new URL('../../shared/bench/gen_nbest.py', import.meta.url));
  if (!existsSync(join(dir, 'ref.4'))) {
    mkdirSync(dir, { recursive: true });
    console.log(`generating ${dir} (gen_nbest.py 1000 1000 4 7)…`);
    execFileSync('python3', [gen, dir, '1000', '1000', '4', '7'], { stdio: 'inherit' });
  }
  const t0 = performance.now();
  const lines = readFileSync(join(dir, 'nbest.txt'), 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const hyps: string[] = new Array(lines.length);
  const ids = new Int32Array(lines.length);
  const f0 = new Float64Array(lines.length);
  lines.forEach((line, i) => {
    const fields = line.split(' ||| ');
    ids[i] = Number(fields[0]);
    hyps[i] = fields[1].trim();
    f0[i] = Number(fields[2].trim().split(' ')[1]);
  });
  const refs = [1, 2, 3, 4].map((r) => {
    const l = readFileSync(join(dir, `ref.${r}`), 'utf8').split('\n');
    if (l[l.length - 1] === '') l.pop();
    return l;
  });
  const stats = mosesBleuStats(hyps, ids, prepareMosesReferences(refs));
  const t1 = performance.now();
  const random = prng(14);
  const features = new Float32Array(hyps.length * DIMENSIONS);
  for (let c = 0; c < hyps.length; c++) {
    features[c * DIMENSIONS] = f0[c];
    for (let k = 1; k < DIMENSIONS; k++) features[c * DIMENSIONS + k] = Math.round((random() * 2 - 1) * 1e4) / 1e4;
  }
  const offsets = new Int32Array(1001);
  for (let c = 0; c < ids.length; c++) offsets[ids[c] + 1]++;
  for (let s = 0; s < 1000; s++) offsets[s + 1] += offsets[s];
  console.log(`workload: ${hyps.length} candidates, ${offsets.length - 1} sentences, ${DIMENSIONS} features; BLEU rows in ${((t1 - t0) / 1000).toFixed(1)} s (read + mosesBleuStats)`);
  return mertProblem({ features, dimensions: DIMENSIONS, stats, candidateOffsets: offsets, objective: mosesBleuObjective() });
}

/** Median wall time (tinybench) and median CPU time of this process (user + system) over 15 calls, ms. */
async function medianMs(name: string, fn: () => void): Promise<number> {
  const bench = new Bench({ iterations: 15, time: 0, warmupIterations: 3, warmupTime: 0, throws: true });
  const cpu: number[] = [];
  bench.add(name, () => {
    const before = process.cpuUsage();
    fn();
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  });
  await bench.run();
  const result = bench.tasks[0].result;
  const ms = result.state === 'completed' ? result.latency.p50 : NaN;
  const measured = cpu.slice(-15).sort((a, b) => a - b);
  const cpuMs = measured[measured.length >> 1];
  console.log(`${name.padEnd(56)} ${ms.toFixed(1).padStart(8)} ms wall, ${cpuMs.toFixed(1).padStart(6)} ms CPU  (medians of 15)`);
  return ms;
}

export async function benchMert(): Promise<void> {
  const problem = loadProblem();
  const random = prng(5);
  const origin = Float64Array.from({ length: DIMENSIONS }, () => random() * 2 - 1);
  const unit = (k: number): Float64Array => Float64Array.from({ length: DIMENSIONS }, (_, i) => (i === k ? 1 : 0));
  const direction = Float64Array.from({ length: DIMENSIONS }, () => random() * 2 - 1);
  let k = 0;
  const t0 = performance.now();
  modelScores(problem, fullSpace(DIMENSIONS), Float32Array.from(origin));
  console.log(`first model scores (features copied by column into the kernel, once): ${(performance.now() - t0).toFixed(0)} ms wall`);
  await medianMs('intercepts: model scores of every candidate', () => {
    modelScores(problem, fullSpace(DIMENSIONS), Float32Array.from(origin));
  });
  let intervals = 0;
  await medianMs('line search along a coordinate (intercepts included)', () => {
    intervals = mertLineSearch(problem, origin, unit(k++ % DIMENSIONS)).intervals;
  });
  console.log(`  (${intervals} intervals on the last one)`);
  await medianMs('line search along a random direction', () => {
    intervals = mertLineSearch(problem, origin, direction).intervals;
  });
  console.log(`  (${intervals} intervals)`);

  if (process.env.PALETTE_MERT_BENCH_FULL === '0') return;
  const options: MertOptions = {
    start: new Float64Array(DIMENSIONS),
    min: new Float64Array(DIMENSIONS).fill(-1),
    max: new Float64Array(DIMENSIONS).fill(1),
    restarts: 20,
    seed: 1000,
  };
  const load = (): string => `load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`;
  const cpuS = (since: NodeJS.CpuUsage): string => {
    const used = process.cpuUsage(since);
    return `${((used.user + used.system) / 1e6).toFixed(1)} s CPU`;
  };
  let t = performance.now();
  let cpu = process.cpuUsage();
  const one = mertOptimize(problem, options);
  const oneMs = performance.now() - t;
  console.log(`mert -n 20, 1 thread (in-thread):      ${(oneMs / 1000).toFixed(1)} s wall, ${cpuS(cpu)}, best ${one.score.toPrecision(6)}  (${load()})`);
  t = performance.now();
  cpu = process.cpuUsage();
  const runs = await runMertOnPool(problem, 'BLEU', options, 2);
  const twoMs = performance.now() - t;
  const best = Math.max(...runs.map((r) => r.score));
  console.log(`mert -n 20, 2 threads (pool workers):  ${(twoMs / 1000).toFixed(1)} s wall, ${cpuS(cpu)}, best ${best.toPrecision(6)}  (${(oneMs / twoMs).toFixed(2)}×; ${load()})`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await import('../src/node/install.js');
  await benchMert();
}
