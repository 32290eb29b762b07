/**
 * End-to-end benchmark of `palette score`: from text files on disk to the printed result, as a user runs it.
 *
 * Workload: WMT17 en-de newstest2017, the reference and all 16 system outputs (16 × 3,004 hypotheses) from
 * ../shared/data/sacrebleu-tests/wmt17-en-de; skipped with a message when ../shared is absent.
 * Cases, each one `palette score ref.de -i <16 systems> -m …` (references read and prepared once, then every system):
 *   - in-process `run()` (file reading, UTF-8 decoding, tokenization, interning, statistics, formatting), median of
 *     5 runs after a warm-up run, for BLEU, chrF and both;
 *   - one cold `node bin/palette` process (startup, WASM compilation included), when dist/ is built.
 * Printed beside the figures: the peer baseline of spec/PERFORMANCE.md (sacrebleu corpus BLEU ≈ 2–3k hyps/s per
 * core with 13a tokenization), and sacrebleu itself measured on the same files when `python3 -m sacrebleu` works.
 *
 * Run: npx tsx bench/index.ts e2e
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { run, type CliIo } from '../src/cli/main.js';
import { readLines } from '../src/node/read-lines.js';
import { Vocabulary, internLines } from '../src/text/intern.js';
import { bleuTokenize, getTokenizer } from '../src/text/tokenizers/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WMT17 = fileURLToPath(new URL('../../shared/data/sacrebleu-tests/wmt17-en-de/', import.meta.url));

/** A `CliIo` that throws the output away (the figures are about computing it). */
const silent: CliIo = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };

function describeWorkload(ref: string, systems: string[]): { hyps: number } {
  const tok = getTokenizer('13a');
  const hypLines = systems.flatMap((s) => readLines(s));
  const refLines = readLines(ref);
  const vocab = new Vocabulary();
  const hypTokens = internLines(vocab, hypLines.map((l) => bleuTokenize(l, tok, false))).tokens.length;
  const refTokens = internLines(vocab, refLines.map((l) => bleuTokenize(l, tok, false))).tokens.length;
  console.log('workload: WMT17 en-de newstest2017 (../shared/data/sacrebleu-tests/wmt17-en-de)');
  console.log(
    `  ${systems.length} systems × ${refLines.length} = ${hypLines.length} hypotheses (${hypTokens} 13a tokens), ` +
      `1 reference per segment (${refTokens} 13a tokens), vocabulary ${vocab.size}`,
  );
  return { hyps: hypLines.length };
}

function timeCommand(command: string, args: string[]): number | undefined {
  const start = performance.now();
  const r = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - start;
  if (r.status !== 0) {
    console.log(`  (${command} ${args.slice(0, 2).join(' ')} … failed: ${(r.stderr || String(r.error)).trim().split('\n').pop()})`);
    return undefined;
  }
  return ms;
}

const rate = (hyps: number, ms: number): string => `${((hyps / ms) * 1000).toFixed(0).padStart(8)} hyps/s`;

/** Runs the end-to-end benchmark and prints the workload, wall times and hypotheses per second. */
export async function benchE2e(): Promise<void> {
  if (!existsSync(`${WMT17}ref.de`)) {
    console.log('e2e: skipped — ../shared/data/sacrebleu-tests/wmt17-en-de is absent (the workload lives there)');
    return;
  }
  const ref = `${WMT17}ref.de`;
  const systems = readdirSync(`${WMT17}systems`)
    .filter((f) => f.endsWith('.de'))
    .sort()
    .map((f) => `${WMT17}systems/${f}`);
  const { hyps } = describeWorkload(ref, systems);
  const metricSets: [string, string[]][] = [
    ['BLEU', ['bleu']],
    ['chrF', ['chrf']],
    ['BLEU + chrF', ['bleu', 'chrf']],
  ];

  console.log('\nin-process run() — median of 5 after one warm-up run');
  for (const [label, metrics] of metricSets) {
    const argv = ['score', ref, '-i', ...systems, '-m', ...metrics, '-q'];
    const bench = new Bench({ iterations: 5, time: 0, warmupIterations: 1, warmupTime: 0, throws: true });
    bench.add(label, async () => {
      const code = await run(argv, silent);
      if (code !== 0) throw new Error(`palette score exited ${code}`);
    });
    await bench.run();
    const result = bench.tasks[0].result;
    const ms = result.state === 'completed' ? result.latency.p50 : NaN;
    console.log(`  ${label.padEnd(12)} ${ms.toFixed(0).padStart(7)} ms ${rate(hyps, ms)}`);
  }

  console.log('\none cold process: node bin/palette score … -m bleu chrf');
  if (existsSync(`${ROOT}dist/cli/main.js`)) {
    const ms = timeCommand(process.execPath, [`${ROOT}bin/palette`, 'score', ref, '-i', ...systems, '-m', 'bleu', 'chrf', '-q']);
    if (ms !== undefined) console.log(`  ${'BLEU + chrF'.padEnd(12)} ${ms.toFixed(0).padStart(7)} ms ${rate(hyps, ms)}`);
  } else {
    console.log('  skipped: dist/ is not built (npm run build)');
  }

  console.log('\npeers');
  console.log('  sacrebleu corpus BLEU (spec/PERFORMANCE.md, 13a, per core): ≈ 2,000–3,000 hyps/s');
  // PALETTE_PEER_PYTHON points at a Python with sacrebleu installed (e.g. a venv), else the system python3.
  const python = process.env.PALETTE_PEER_PYTHON ?? 'python3';
  const probe = spawnSync(python, ['-c', 'import sacrebleu'], { stdio: 'ignore' });
  if (probe.status === 0) {
    for (const [label, metrics] of metricSets) {
      const ms = timeCommand(python, ['-m', 'sacrebleu', ref, '-i', ...systems, '-m', ...metrics, '-q']);
      if (ms !== undefined) console.log(`  sacrebleu ${label.padEnd(12)} ${ms.toFixed(0).padStart(7)} ms ${rate(hyps, ms)} (same files, measured now)`);
    }
  } else {
    console.log(`  sacrebleu is not installed for ${python} (set PALETTE_PEER_PYTHON to a Python that has it): baseline figure only`);
  }
}
