/**
 * Benchmark of ORANGE (`palette orange`): 10 metric variants of every family in one pass over a generated n-best list.
 *
 * Workload: bench/nbest-gen.ts with its defaults (1000 segments × 1000 hypotheses, ~25 Zipf tokens, 4 references,
 * seed 2024; ~200 MB), generated in os.tmpdir() and removed afterwards; `ORANGE_BENCH_SEGMENTS=N` shrinks it to N
 * segments for a quick look. Variants: BLEUS1, BLEUS4, BLEUS9, NIST, ROUGE-L, ROUGE-W-1.2, ROUGE-S4, ROUGE-S*, WER,
 * PER — one n-gram pass per leave-one-out set for the four n-gram variants, one pair pass per ROUGE variant, one for
 * WER and one for PER.
 * Cases, each run once (a 1M-hypothesis run is long enough that one run is representative):
 *   - in-process `palette orange … --bootstrap 1000 -j 1` (streamed reading, scoring, ranking, 1000 bootstrap resamples per variant);
 *   - the same scoring on `os.availableParallelism()` pool workers (`-j N`, when there is more than one core);
 *   - each family alone (the same pass restricted to its variants), to show where the time goes.
 * Figures: wall time, hypotheses per second (candidates of the n-best list; every candidate is scored against 4
 * leave-one-out sets), peak RSS of the bench process.
 *
 * Run: npx tsx bench/index.ts orange
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type CliIo } from '../src/cli/main.js';
import { evaluateOrange } from '../src/node/orange/evaluate.js';
import { parseOrangeMetrics } from '../src/meta/orange/variants.js';
import { DEFAULT_NBEST_WORKLOAD, generateNbestFiles } from './nbest-gen.js';

const VARIANTS = ['bleus1', 'bleus4', 'bleus9', 'nist', 'rouge-l', 'rouge-w-1.2', 'rouge-s4', 'rouge-s*', 'wer', 'per'];
const FAMILIES: [string, string[]][] = [
  ['n-gram (BLEUS1/4/9, NIST)', ['bleus1', 'bleus4', 'bleus9', 'nist']],
  ['ROUGE-L', ['rouge-l']],
  ['ROUGE-W-1.2', ['rouge-w-1.2']],
  ['ROUGE-S4 + S*', ['rouge-s4', 'rouge-s*']],
  ['WER', ['wer']],
  ['PER', ['per']],
];

const rate = (n: number, ms: number): string => `${((n / ms) * 1000).toFixed(0)} hyps/s`;

/** Generates the workload, times the 10-variant run and each family alone, removes the files. */
export async function benchOrange(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'palette-bench-orange-'));
  try {
    const segments = Number(process.env.ORANGE_BENCH_SEGMENTS ?? DEFAULT_NBEST_WORKLOAD.segments);
    const w = { ...DEFAULT_NBEST_WORKLOAD, segments };
    const genStart = performance.now();
    const files = generateNbestFiles(join(dir, 'data'), w);
    console.log(
      `workload: bench/nbest-gen.ts, ${w.segments} segments × ${w.hypsPerSegment} = ${files.hypotheses} hypotheses ` +
        `(${files.hypTokens} tokens, ${(files.nbestBytes / 1e6).toFixed(0)} MB), ${w.refs} references, seed ${w.seed} ` +
        `(generated in ${((performance.now() - genStart) / 1000).toFixed(1)} s)`,
    );
    console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg()[0].toFixed(2)}, node ${process.version}`);
    console.log(`variants: ${parseOrangeMetrics(VARIANTS).map((v) => v.name).join(', ')}`);

    let out = '';
    const io: CliIo = { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, env: {} };
    const start = performance.now();
    const status = await run(['orange', '--nbest', files.nbest, '-r', ...files.refs, '-m', ...VARIANTS, '--bootstrap', '1000', '-j', '1'], io);
    const ms = performance.now() - start;
    if (status !== 0) throw new Error(`palette orange exited with status ${status}`);
    console.log(`\npalette orange, 10 variants in one pass + 1000 bootstrap resamples each, in-process, one run`);
    console.log(`  ${(ms / 1000).toFixed(2)} s  ${rate(files.hypotheses, ms)}  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
    console.log(out.trimEnd().replace(/^/gm, '  | '));

    const workers = availableParallelism();
    if (workers > 1) {
      const t = performance.now();
      const terms = await evaluateOrange({ nbest: files.nbest, refs: files.refs, variants: parseOrangeMetrics(VARIANTS), workers });
      const pms = performance.now() - t;
      console.log(`\n10 variants on ${workers} pool workers (scoring and ranking, no bootstrap), one run`);
      console.log(`  ${(pms / 1000).toFixed(2)} s  ${rate(terms.candidates, pms)}`);
    }

    console.log('\neach family alone (scoring and ranking, no bootstrap), one run each');
    for (const [label, names] of FAMILIES) {
      const t = performance.now();
      await evaluateOrange({ nbest: files.nbest, refs: files.refs, variants: parseOrangeMetrics(names) });
      const fms = performance.now() - t;
      console.log(`  ${label.padEnd(26)} ${(fms / 1000).toFixed(2).padStart(7)} s  ${rate(files.hypotheses, fms)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
