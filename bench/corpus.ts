/**
 * Corpus scoring through the engine (src/engine/corpus/), the path of `palette score` for several systems.
 *
 * Workload: the 20 WMT21 en-de systems against reference A (../shared/data/wmt21-news-en-de/en-de, 20 × 1,002
 * hypotheses); skipped with a message when ../shared is absent. Cases:
 *   - in-process, references prepared once, median of 5 after a warm-up run, for BLEU, chrF, TER and the three:
 *     `scoreSystemRows` in this thread (each distinct segment hypothesis once, candidates grouped by segment) beside
 *     each system scored by `segmentStats` (the path before the engine), and the engine on 2 threads (this one and a
 *     pool worker, started for each run: the cost a command pays);
 *   - cold processes, when dist/ is built, each the median of 7 runs taken in turn with `node -e 0` (start-up targets
 *     are stated against it): `palette score` of one system with `-m bleu`, and of the 20 with `-m bleu chrf ter`
 *     at -j 1 and -j 2.
 *
 * Run: npx tsx bench/index.ts corpus
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { distinctHypotheses, scoreSystemRows } from '../src/engine/corpus/index.js';
import { defaultRegistry } from '../src/metrics/registry.js';
import { readLines } from '../src/node/read-lines.js';
import { corpusWorkerPool } from '../src/pool/corpus-pool.js';
import { pyRstrip } from '../src/text/pystr.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WMT21 = fileURLToPath(new URL('../../shared/data/wmt21-news-en-de/en-de/', import.meta.url));

/** Median milliseconds of `f` over 5 runs after one warm-up run. */
async function median(f: () => unknown): Promise<number> {
  const bench = new Bench({ iterations: 5, time: 0, warmupIterations: 1, warmupTime: 0, throws: true });
  bench.add('case', f);
  await bench.run();
  const result = bench.tasks[0].result;
  return result.state === 'completed' ? result.latency.p50 : NaN;
}

function timeCommand(args: string[]): number | undefined {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - start;
  if (r.status !== 0) {
    console.log(`  (failed: ${(r.stderr || String(r.error)).trim().split('\n').pop()})`);
    return undefined;
  }
  return ms;
}

/**
 * Median wall milliseconds of each command over `runs` rounds, the commands run in turn within a round (so that a
 * drift in the machine's speed reaches all of them alike); undefined for a command that failed.
 */
function medianCommands(commands: readonly string[][], runs: number): (number | undefined)[] {
  const times: number[][] = commands.map(() => []);
  const failed = commands.map(() => false);
  for (let round = 0; round < runs; round++) {
    commands.forEach((args, c) => {
      if (failed[c]) return;
      const ms = timeCommand(args);
      if (ms === undefined) failed[c] = true;
      else times[c].push(ms);
    });
  }
  return times.map((t, c) => {
    if (failed[c]) return undefined;
    const sorted = [...t].sort((a, b) => a - b);
    return sorted[sorted.length >> 1];
  });
}

/** Runs the corpus benchmark and prints the workload and the figures. */
export async function benchCorpus(): Promise<void> {
  if (!existsSync(`${WMT21}ref.A.de`)) {
    console.log('corpus: skipped — ../shared/data/wmt21-news-en-de is absent (the workload lives there)');
    return;
  }
  const refFile = `${WMT21}ref.A.de`;
  const files = readdirSync(`${WMT21}systems`).filter((f) => f.endsWith('.de')).sort().map((f) => `${WMT21}systems/${f}`);
  const references = [readLines(refFile).map(pyRstrip)];
  const systems = files.map((f) => readLines(f).map(pyRstrip));
  const segments = references[0].length;
  const distinct = distinctHypotheses(systems, segments).hyps.length;
  const pairs = systems.length * segments;
  console.log('workload: WMT21 en-de, reference A (../shared/data/wmt21-news-en-de/en-de)');
  console.log(`  ${systems.length} systems × ${segments} segments = ${pairs} hypotheses, ${distinct} distinct (segment, hypothesis) pairs`);

  const rate = (ms: number): string => `${((pairs / ms) * 1000).toFixed(0).padStart(8)} hyps/s`;
  console.log('\nin-process, references prepared once — median of 5 after one warm-up run');
  console.log(`  ${'metrics'.padEnd(16)} ${'per system'.padStart(12)} ${'engine'.padStart(12)} ${'engine, 2 threads'.padStart(20)}`);
  for (const ids of [['bleu'], ['chrf'], ['ter'], ['bleu', 'chrf', 'ter']]) {
    const metrics = ids.map((id) => defaultRegistry.create(id, {}).metric);
    const prepared = metrics.map((m) => m.prepareReferences(references));
    const built = { metrics, prepared };
    const perSystem = await median(() => metrics.forEach((m, k) => systems.forEach((s) => m.segmentStats(s, prepared[k]))));
    const engine = await median(() => scoreSystemRows(systems, { metrics: ids, references, built }));
    const pooled = await median(() =>
      scoreSystemRows(systems, { metrics: ids, references, built, workers: 2, pool: corpusWorkerPool, minPoolWork: 0 }));
    console.log(
      `  ${ids.join(' ').padEnd(16)} ${perSystem.toFixed(0).padStart(9)} ms ${engine.toFixed(0).padStart(9)} ms ` +
        `${pooled.toFixed(0).padStart(17)} ms   (engine ${rate(engine)})`,
    );
  }

  console.log('\ncold processes — median wall of 7, in turn with node -e 0');
  if (!existsSync(`${ROOT}dist/bundle/main.js`)) {
    console.log('  skipped: dist/ is not built (npm run build)');
    return;
  }
  const palette = [`${ROOT}bin/palette`, 'score', refFile, '-q', '-i'];
  const cases: { label: string; args: string[]; hyps: number }[] = [
    { label: 'node -e 0', args: ['-e', '0'], hyps: 0 },
    { label: 'one system, -m bleu', args: [...palette, files[0], '-m', 'bleu'], hyps: segments },
    { label: '20 systems, -m bleu chrf ter -j 1', args: [...palette, ...files, '-m', 'bleu', 'chrf', 'ter', '-j', '1'], hyps: pairs },
    { label: '20 systems, -m bleu chrf ter -j 2', args: [...palette, ...files, '-m', 'bleu', 'chrf', 'ter', '-j', '2'], hyps: pairs },
  ];
  const medians = medianCommands(cases.map((c) => c.args), 7);
  const node = medians[0];
  cases.forEach((c, k) => {
    const ms = medians[k];
    if (ms === undefined) return;
    const over = k > 0 && node !== undefined ? `  (${(ms - node).toFixed(0)} ms over node -e 0)` : '';
    console.log(`  ${c.label.padEnd(36)} ${ms.toFixed(0).padStart(7)} ms${over}`);
  });
}
