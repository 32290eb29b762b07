/**
 * End-to-end benchmark of `palette nbest`: an n-best list on disk to its statistics file, as MERT runs it.
 *
 * Workload: bench/nbest-gen.ts with its defaults (1000 segments × 1000 hypotheses, ~25 Zipf tokens, 4 references,
 * seed 2024; ~200 MB), generated in os.tmpdir() and removed afterwards.
 * Cases, each `palette nbest --nbest F -r R1 R2 R3 R4 -m bleu --stats OUT` run once (a 1M-line run is long enough
 * that one run is representative; the two cases double as a warm/cold comparison):
 *   - a cold `node` process: startup, module loading and WASM compilation included. It runs a copy of the CLI
 *     compiled from src/ into a temporary directory (tsc -p tsconfig.build.json --outDir TMP/dist, with build/ and
 *     node_modules/ linked beside it), so that neither a stale nor a missing dist/ matters and dist/ is not touched;
 *     peak RSS from `/usr/bin/time -v` when present;
 *   - in-process `run()`: peak RSS is `process.resourceUsage().maxRSS` of this process (the generator's share is
 *     small: it streams).
 * The two outputs are compared byte for byte. Printed beside the target: 1M hypotheses in ≤ 4 s for
 * BLEU + ROUGE-L + ROUGE-S4 + WER; `palette nbest` supports only BLEU today, so the figure here is BLEU alone.
 *
 * Run: npx tsx bench/index.ts nbest
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, type CliIo } from '../src/cli/main.js';
import { DEFAULT_NBEST_WORKLOAD, generateNbestFiles } from './nbest-gen.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A `CliIo` that throws the output away (stats go to --stats; stderr is not a TTY, so no progress line). */
const silent: CliIo = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };

const mb = (kb: number): string => `${(kb / 1024).toFixed(0)} MiB`;
const rate = (n: number, ms: number): string => `${((n / ms) * 1000).toFixed(0)} hyps/s`;

/** Compiles src/ into `dir/dist` and returns a launcher script that runs its CLI, or undefined (message printed). */
function buildCli(dir: string): string | undefined {
  const start = performance.now();
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(dir, 'dist'), '--declaration', 'false', '--sourceMap', 'false'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (tsc.status !== 0) {
    console.log(`  cold run skipped: tsc failed: ${(tsc.stdout + tsc.stderr).trim().split('\n').slice(0, 3).join(' / ')}`);
    return undefined;
  }
  // The compiled code finds its WASM at ../../build/ from dist/wasm/ and its packages in node_modules/.
  symlinkSync(join(ROOT, 'build'), join(dir, 'build'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  const launcher = join(dir, 'palette.mjs');
  writeFileSync(launcher, "import { main } from './dist/cli/main.js';\nawait main();\n");
  console.log(`  (CLI compiled to a temporary dist/ in ${((performance.now() - start) / 1000).toFixed(1)} s)`);
  return launcher;
}

/** Runs the CLI in a fresh process; wall time in ms and peak RSS in KiB (when /usr/bin/time -v works). */
function coldRun(launcher: string, args: string[]): { ms: number; rssKb?: number } | undefined {
  const timeV = existsSync('/usr/bin/time');
  const command = timeV ? '/usr/bin/time' : process.execPath;
  const argv = timeV ? ['-v', process.execPath, launcher, ...args] : [launcher, ...args];
  const start = performance.now();
  const r = spawnSync(command, argv, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 24 });
  const ms = performance.now() - start;
  if (r.status !== 0) {
    console.log(`  cold run failed (status ${r.status}): ${r.stderr.trim().split('\n').slice(0, 3).join(' / ')}`);
    return undefined;
  }
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  return { ms, rssKb: m === null ? undefined : Number(m[1]) };
}

/** Generates the workload, times a cold process and an in-process run, prints the figures, removes the files. */
export async function benchNbest(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'palette-bench-nbest-'));
  try {
    const w = DEFAULT_NBEST_WORKLOAD;
    const genStart = performance.now();
    const files = generateNbestFiles(join(dir, 'data'), w);
    const genS = (performance.now() - genStart) / 1000;
    console.log(
      `workload: bench/nbest-gen.ts, ${w.segments} segments × ${w.hypsPerSegment} = ${files.hypotheses} hypotheses ` +
        `(${files.hypTokens} tokens, ${(files.nbestBytes / 1e6).toFixed(0)} MB), ${w.refs} references, ` +
        `Zipf vocabulary ${w.vocabulary}, seed ${w.seed} (generated in ${genS.toFixed(1)} s)`,
    );
    console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg()[0].toFixed(2)}, node ${process.version}`);
    console.log('target (issue 5): 1M hypotheses ≤ 4 s for BLEU + ROUGE-L + ROUGE-S4 + WER; today `nbest` supports BLEU only');
    const args = (out: string): string[] => ['nbest', '--nbest', files.nbest, '-r', ...files.refs, '-m', 'bleu', '--stats', out];

    console.log('\ncold `node` process (startup and WASM compilation included), one run');
    const cliDir = join(dir, 'cli');
    mkdirSync(cliDir);
    const launcher = buildCli(cliDir);
    const coldOut = join(dir, 'cold.stats');
    if (launcher !== undefined) {
      const cold = coldRun(launcher, args(coldOut));
      if (cold !== undefined) {
        const rss = cold.rssKb === undefined ? 'peak RSS n/a (no /usr/bin/time -v)' : `peak RSS ${mb(cold.rssKb)}`;
        console.log(`  BLEU  ${(cold.ms / 1000).toFixed(2)} s  ${rate(files.hypotheses, cold.ms)}  ${rss}`);
      }
    }

    console.log('\nin-process run(), one run');
    const warmOut = join(dir, 'warm.stats');
    const start = performance.now();
    const status = await run(args(warmOut), silent);
    const ms = performance.now() - start;
    if (status !== 0) throw new Error(`palette nbest exited with status ${status}`);
    const rssKb = process.resourceUsage().maxRSS;
    console.log(`  BLEU  ${(ms / 1000).toFixed(2)} s  ${rate(files.hypotheses, ms)}  peak RSS ${mb(rssKb)} (whole bench process)`);
    console.log(`  statistics file: ${(statSync(warmOut).size / 1e6).toFixed(0)} MB`);
    if (existsSync(coldOut)) {
      const same = readFileSync(coldOut).equals(readFileSync(warmOut));
      console.log(`  cold and in-process outputs ${same ? 'are byte-identical' : 'DIFFER'}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
