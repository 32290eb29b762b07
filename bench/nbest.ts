/**
 * End-to-end benchmark of `palette nbest`: an n-best list on disk to its statistics file, as MERT runs it.
 *
 * Workload: the project's standard one, `../../shared/bench/gen_nbest.py OUT 1000 1000 4 7` (1000 segments × 1000
 * hypotheses, 4 references of 15–40 tokens, Zipf vocabulary of 20k words; 155 MB); without ../shared or python3,
 * bench/nbest-gen.ts with its defaults (the same shape, seed 2024, ~200 MB), and the output says which.
 * `PALETTE_BENCH_NBEST_SEGMENTS` for fewer segments, a quick look. Generated in os.tmpdir() and removed afterwards.
 * Metrics: BLEU + ROUGE-L + ROUGE-S4 + WER (the issue's target set), and BLEU alone for comparison.
 * Cases (a 1M-line run is long enough that one run is representative; runs are repeated `PALETTE_BENCH_RUNS`
 * times, default 1, and the median printed):
 *   - cold `node` processes, startup, module loading and WASM compilation included, with `--workers 1` and
 *     `--workers 2` side by side (efficiency = t(1) ÷ t(2)), and the machine's own ceiling for it: the two halves of
 *     the list in two independent `--workers 1` processes at once. They run the CLI as installed (bin/palette and
 *     its bundle, dist/bundle/) when the build is newer than every source file, else a copy compiled from src/ into
 *     a temporary directory (tsc -p tsconfig.build.json --outDir TMP/dist, with build/ and node_modules/ linked
 *     beside it), so that a stale or missing dist/ is never timed; the output says which. Peak RSS from
 *     `/usr/bin/time -v` when present;
 *   - in-process, the engine as `palette nbest` runs it (src/engine/nbest/run.ts: the file's chunks, 2 scoring
 *     threads with the worker pool, SCORES_TXT to a file): the time outside tasks, 1 − (time inside tasks ÷ (2 × wall));
 *   - stages: µs per hypothesis of decoding, parsing, the chunk memo, the rows and duplicate removal + encoding, one
 *     thread, warm, on a 100-segment list from the same generator, for the fast path (src/engine/nbest/fast/) and the
 *     generic per-metric path side by side;
 *   - kernel-only: the four metrics' WASM kernels (BLEU-4 clipped counts, LCS lengths, skip-bigram counts with gap
 *     4, edit distances with alignment counts) on the same sizes, pre-interned (bench/workload.ts), one thread,
 *     after a warm-up call.
 * The machine is shared: CPU time of this process (user + system, all threads) is printed beside wall times.
 * The outputs of all runs are compared byte for byte.
 * Real lists: Moses' MERT test lists (../shared) repeated to 1M lines, cold `-j 1`/`-j 2` (their strings repeat).
 * Opt-in (long): `PALETTE_BENCH_NBEST_10M=1` generates a 10M-hypothesis list (10000 × 1000, ~2 GB, streamed to
 * disk) and reports the peak RSS of a cold 2-worker run (`/usr/bin/time -v`), then deletes it.
 *
 * Run: npx tsx bench/index.ts nbest
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clippedNgramCounts } from '../src/wasm/ngram.js';
import { lcsLengths, skipBigramCounts } from '../src/wasm/rouge.js';
import { editDistances } from '../src/wasm/edit.js';
import { readLines } from '../src/node/read-lines.js';
import { readSegmentChunks } from '../src/node/segment-chunks.js';
import { chunkJobContext, decodeChunk, streamReferenceSource } from '../src/engine/nbest/chunk-job.js';
import { ChunkMemo } from '../src/engine/nbest/fast/chunk-memo.js';
import { nbestRegistry, resolveNbestMetricIds } from '../src/engine/nbest/nbest-metrics.js';
import { encodeTask, scoreTask } from '../src/engine/nbest/nbest-task.js';
import { DEFAULT_TASK_SIZE, NbestRun, type NbestRunInfo } from '../src/engine/nbest/run.js';
import { nbestWorkerPool } from '../src/pool/nbest-pool.js';
import { generateBatch } from './workload.js';
import { DEFAULT_NBEST_WORKLOAD, generateNbestFiles, type NbestGenResult } from './nbest-gen.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const mb = (kb: number): string => `${(kb / 1024).toFixed(0)} MiB`;
const rate = (n: number, ms: number): string => `${((n / ms) * 1000).toFixed(0)} hyps/s`;

/** The project's standard n-best generator (../../shared/bench/gen_nbest.py). */
const GEN_NBEST = join(ROOT, '..', 'shared', 'bench', 'gen_nbest.py');

/**
 * The standard workload, `gen_nbest.py OUT SEGMENTS 1000 4 7`, in `dir`; undefined when the generator or python3 is
 * missing (the caller then uses bench/nbest-gen.ts). `count`: count the hypothesis tokens (not for a 2 GB list).
 */
function standardWorkload(dir: string, segments: number, count = true): NbestGenResult | undefined {
  if (!existsSync(GEN_NBEST)) return undefined;
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('python3', [GEN_NBEST, dir, String(segments), '1000', '4', '7'], { stdio: 'ignore' });
  if (r.status !== 0) return undefined;
  const nbest = join(dir, 'nbest.txt');
  const refs = [1, 2, 3, 4].map((k) => join(dir, `ref.${k}`));
  if (!count) return { nbest, refs, hypotheses: 1000 * segments, hypTokens: 0, nbestBytes: statSync(nbest).size };
  const bytes = readFileSync(nbest);
  // Lines and the hypothesis field's tokens (`id ||| hyp ||| features ||| score`).
  let hypotheses = 0;
  let hypTokens = 0;
  for (let at = 0; at < bytes.length; ) {
    const end = bytes.indexOf(0x0a, at);
    const line = bytes.toString('latin1', at, end < 0 ? bytes.length : end);
    const hyp = line.split(' ||| ')[1]?.trim() ?? '';
    hypotheses++;
    if (hyp !== '') hypTokens += hyp.split(/\s+/).length;
    at = end < 0 ? bytes.length : end + 1;
  }
  return { nbest, refs, hypotheses, hypTokens, nbestBytes: bytes.length };
}

/** The first `segments` segments of `files`' list (ids count from 0), with the same references. */
function firstSegments(files: NbestGenResult, dir: string, segments: number): NbestGenResult {
  mkdirSync(dir, { recursive: true });
  const bytes = readFileSync(files.nbest);
  let end = 0;
  let lines = 0;
  for (;;) {
    const next = bytes.indexOf(0x0a, end);
    if (next < 0 || Number(bytes.toString('latin1', end, bytes.indexOf(0x20, end))) >= segments) break;
    end = next + 1;
    lines++;
  }
  const nbest = join(dir, 'nbest.txt');
  writeFileSync(nbest, bytes.subarray(0, end));
  return { nbest, refs: files.refs, hypotheses: lines, hypTokens: 0, nbestBytes: end };
}

/** Whether dist/bundle/ (what bin/palette runs) is newer than every file of src/ and assembly/. */
function bundleIsCurrent(): boolean {
  const bundle = join(ROOT, 'dist', 'bundle', 'nbest-entry.cjs');
  if (!existsSync(bundle) || !existsSync(join(ROOT, 'build', 'release.wasm'))) return false;
  const built = Math.min(statSync(bundle).mtimeMs, statSync(join(ROOT, 'build', 'release.wasm')).mtimeMs);
  const newest = (folder: string): number => {
    let t = 0;
    for (const e of readdirSync(folder, { withFileTypes: true })) {
      const p = join(folder, e.name);
      t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
    }
    return t;
  };
  return newest(join(ROOT, 'src')) <= built && newest(join(ROOT, 'assembly')) <= built;
}

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

/**
 * Wall time (ms, median of `runs`) of two cold in-thread processes started together, one on each half of the list
 * (cut at a segment boundary; ids stay absolute, so both read all references): the speed-up two cores give this
 * workload with no shared work at all, the bound for any 2-thread run.
 */
function machineCeiling(
  launcher: string,
  dir: string,
  files: { nbest: string; refs: string[] },
  runs: number,
): number | undefined {
  const bytes = readFileSync(files.nbest);
  let cut = bytes.indexOf(0x0a, bytes.length >> 1) + 1;
  const id = (at: number): string => bytes.toString('latin1', at, bytes.indexOf(0x20, at));
  const first = id(cut);
  while (cut < bytes.length && id(cut) === first) cut = bytes.indexOf(0x0a, cut) + 1;
  const halves = [bytes.subarray(0, cut), bytes.subarray(cut)].map((b, k) => {
    const path = join(dir, `half-${k}.nbest`);
    writeFileSync(path, b);
    return path;
  });
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const script =
      halves
        .map((h, k) => `"${process.execPath}" "${launcher}" nbest --nbest "${h}" -r ${files.refs.map((f) => `"${f}"`).join(' ')} -m ${METRICS.join(' ')} --stats "${join(dir, `half-${k}.stats`)}" --workers 1 &`)
        .join('\n') + '\nwait';
    const start = performance.now();
    const sh = spawnSync('sh', ['-c', script], { cwd: ROOT, stdio: 'ignore' });
    if (sh.status !== 0) return undefined;
    times.push(performance.now() - start);
  }
  for (const h of halves) rmSync(h);
  return median(times);
}

/** Moses' MERT test lists (../shared/data/moses-mert, 5 × 1000 lines, 10 sentences each, one reference). */
const MOSES_MERT = join(ROOT, '..', 'shared', 'data', 'moses-mert', 'mert.extractor-txt', 'data');

/**
 * A real list's shape at the workload's scale: the five Moses MERT test lists (decoder output, where one string
 * comes back once per derivation: 60–937 distinct in 1000 lines) repeated with fresh sentence ids up to 1M lines,
 * the reference repeated alike; cold `-j 1` and `-j 2` runs, 4 metrics. Skipped without ../shared.
 */
function realMosesLists(launcher: string, dir: string, runs: number): void {
  if (!existsSync(join(MOSES_MERT, 'reference'))) {
    console.log('\nreal lists: ../shared/data/moses-mert not found, skipped');
    return;
  }
  const refs = readFileSync(join(MOSES_MERT, 'reference'), 'utf8').split('\n').filter((l) => l.length > 0);
  const lists = [1, 2, 3, 4, 5].map((k) => readFileSync(join(MOSES_MERT, `nbest.${k}`), 'utf8').split('\n').filter((l) => l.length > 0));
  const nbest: string[] = [];
  const refLines: string[] = [];
  let distinct = 0;
  for (let base = 0; nbest.length < 1_000_000; ) {
    for (const list of lists) {
      const seen = new Set<string>();
      for (const line of list) {
        const bar = line.indexOf('|||');
        nbest.push(`${base + Number(line.slice(0, bar))}${line.slice(bar)}`);
        seen.add(line.slice(0, line.indexOf('|||', bar + 3)));
      }
      distinct += seen.size;
      refLines.push(...refs);
      base += refs.length;
    }
  }
  const nbestPath = join(dir, 'moses-real.nbest');
  const refPath = join(dir, 'moses-real.ref');
  writeFileSync(nbestPath, `${nbest.join('\n')}\n`);
  writeFileSync(refPath, `${refLines.join('\n')}\n`);
  console.log(
    `\nreal lists: Moses' MERT test lists repeated to ${nbest.length} lines (${refLines.length} sentences, 1 reference; ` +
      `${((100 * distinct) / nbest.length).toFixed(0)} % distinct (sentence, text) pairs), 4 metrics, cold, median of ${runs}`,
  );
  const outs: string[] = [];
  for (const workers of [1, 2]) {
    const out = join(dir, `moses-real-${workers}.stats`);
    const c = coldRuns(launcher, ['nbest', '--nbest', nbestPath, '-r', refPath, '-m', ...METRICS, '--stats', out, '--workers', String(workers)], runs);
    if (c === undefined) return;
    outs.push(out);
    const { ms } = c;
    console.log(`  -j ${workers}  ${(ms / 1000).toFixed(2).padStart(6)} s  ${rate(nbest.length, ms).padStart(14)}`);
  }
  console.log(`  outputs ${readFileSync(outs[0]).equals(readFileSync(outs[1])) ? 'byte-identical' : 'DIFFER'}`);
}

/**
 * `runs` cold runs of the same command: the median wall time and the largest peak RSS of the runs made before the
 * first failure (undefined when the first fails).
 */
function coldRuns(launcher: string, args: string[], runs: number): { ms: number; rssKb?: number } | undefined {
  const times: number[] = [];
  let rss: number | undefined;
  for (let r = 0; r < runs; r++) {
    const c = coldRun(launcher, args);
    if (c === undefined) break;
    times.push(c.ms);
    rss = Math.max(rss ?? 0, c.rssKb ?? 0) || undefined;
  }
  return times.length === 0 ? undefined : { ms: median(times), rssKb: rss };
}

/** Median of numbers. */
function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

const METRICS = ['bleu', 'rouge-l', 'rouge-s4', 'wer'];

/** Kernel-only time (ms) of the four metrics' kernels on a pre-interned batch of the workload's sizes. */
function kernelOnly(w: typeof DEFAULT_NBEST_WORKLOAD): number {
  const batch = generateBatch(
    { segments: w.segments, hypsPerSegment: w.hypsPerSegment, refsPerSegment: w.refs, length: w.length, vocabulary: w.vocabulary },
    7,
  );
  const kernels = (b: typeof batch): void => {
    clippedNgramCounts(b, 4);
    lcsLengths(b);
    skipBigramCounts(b, { maxGap: 4, unigrams: 'none' });
    editDistances(b, { alignment: true });
  };
  // Warm-up on a small batch first (the first long call of an instance runs on the baseline tier).
  kernels(generateBatch({ segments: 10, hypsPerSegment: 1000, refsPerSegment: w.refs, length: w.length, vocabulary: w.vocabulary }, 8));
  const start = performance.now();
  kernels(batch);
  return performance.now() - start;
}

/** Stage times of one pass over `chunks`, µs per hypothesis. */
interface StageTimes {
  decode: number;
  parse: number;
  memo: number;
  rows: number;
  encode: number;
  total: number;
}

/**
 * µs per hypothesis of each stage of a task, one thread, after a warm-up pass: UTF-8 decoding; parsing (scoreTask
 * with rows that cost nothing); the chunk memo's scan, interning and tokenization (fast path only); the rows
 * (kernels and row arithmetic; the whole per-metric layering on the generic path); duplicate removal + encoding.
 */
async function stageTimes(files: { nbest: string; refs: string[] }, generic: boolean): Promise<StageTimes> {
  const refStreams = files.refs.map((f) => readLines(f));
  const settings = { path: files.nbest, format: 'moses' as const, allowDuplicates: false, sentenceScores: false };
  const refs = streamReferenceSource(refStreams);
  const { defaultRegistry } = await import('../src/metrics/registry.js');
  const ctx = chunkJobContext(settings, { ids: METRICS, settings: {} }, refs, defaultRegistry, generic);
  const width = ctx.metrics.reduce((w, m) => w + m.width, 0);
  const free = (task: { hyps: readonly string[] }): Float64Array => new Float64Array(task.hyps.length * width);
  const chunks: { bytes: Uint8Array; firstLine: number; byteOffset: number }[] = [];
  for await (const c of readSegmentChunks(files.nbest, 256 * 1024)) chunks.push({ ...c, bytes: c.bytes.slice() });
  let memoMs = 0;
  const rows = ChunkMemo.prototype.rows;
  ChunkMemo.prototype.rows = function timedRows(this: ChunkMemo, ...a: Parameters<typeof rows>): ReturnType<typeof rows> {
    const t = performance.now();
    const r = rows.apply(this, a);
    memoMs += performance.now() - t;
    return r;
  };
  try {
    let times: StageTimes | undefined;
    for (let pass = 0; pass < 2; pass++) {
      let decode = 0;
      let parse = 0;
      let scored = 0;
      let encode = 0;
      let n = 0;
      memoMs = 0;
      for (const c of chunks) {
        let t = performance.now();
        const text = decodeChunk(c.bytes, c.byteOffset, c.firstLine, settings.path);
        decode += performance.now() - t;
        t = performance.now();
        scoreTask(text, c.firstLine, settings, ctx.metrics, refs, free);
        parse += performance.now() - t;
        t = performance.now();
        const task = scoreTask(text, c.firstLine, settings, ctx.metrics, refs, ctx.fused);
        scored += performance.now() - t;
        t = performance.now();
        encodeTask(task, settings, ctx.encode, ctx.out);
        ctx.out.take();
        encode += performance.now() - t;
        n += task.hyps.length;
      }
      const us = (ms: number): number => (ms * 1000) / n;
      const rowsMs = scored - parse - memoMs;
      times = {
        decode: us(decode), parse: us(parse), memo: us(memoMs), rows: us(rowsMs), encode: us(encode),
        total: us(decode + scored + encode),
      };
    }
    return times!;
  } finally {
    ChunkMemo.prototype.rows = rows;
  }
}

/**
 * One in-process run of the engine as `palette nbest` runs it: the list's chunks from its file, `workers` scoring
 * threads (this one and a pool), SCORES_TXT written to `out`.
 */
async function engineRun(files: { nbest: string; refs: string[] }, metrics: readonly string[], workers: number, out: string): Promise<NbestRunInfo> {
  const registry = await nbestRegistry(metrics);
  const ids = resolveNbestMetricIds(metrics, {}, registry);
  const references = files.refs.map((f) => readLines(f));
  const task = { path: files.nbest, format: 'moses' as const, allowDuplicates: false, sentenceScores: false };
  const run = new NbestRun({ ids, settings: {}, registry, references, task });
  const fd = openSync(out, 'w');
  try {
    return await run.score({
      chunks: (shared) => readSegmentChunks(files.nbest, DEFAULT_TASK_SIZE, shared),
      workers,
      runner: nbestWorkerPool,
      inputBytes: statSync(files.nbest).size,
      taskSize: DEFAULT_TASK_SIZE,
      output: (bytes) => writeSync(fd, bytes),
    });
  } finally {
    closeSync(fd);
  }
}

/** Generates the workload, times cold processes and an in-process run, prints the figures, removes the files. */
export async function benchNbest(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'palette-bench-nbest-'));
  const runs = Number(process.env.PALETTE_BENCH_RUNS ?? 1);
  try {
    const w = { ...DEFAULT_NBEST_WORKLOAD, segments: Number(process.env.PALETTE_BENCH_NBEST_SEGMENTS ?? DEFAULT_NBEST_WORKLOAD.segments) };
    const genStart = performance.now();
    const standard = standardWorkload(join(dir, 'data'), w.segments);
    const files = standard ?? generateNbestFiles(join(dir, 'data'), w);
    const genS = (performance.now() - genStart) / 1000;
    const size = `(${files.hypTokens} tokens, ${(files.nbestBytes / 1e6).toFixed(0)} MB)`;
    console.log(
      standard !== undefined
        ? `workload: ../shared/bench/gen_nbest.py OUT ${w.segments} 1000 4 7, ${files.hypotheses} hypotheses ${size}, 4 references, ` +
            `Zipf vocabulary of 20k words (generated in ${genS.toFixed(1)} s)`
        : `workload: bench/nbest-gen.ts (../shared/bench/gen_nbest.py or python3 not found), ${w.segments} segments × ` +
            `${w.hypsPerSegment} = ${files.hypotheses} hypotheses ${size}, ${w.refs} references, Zipf vocabulary ${w.vocabulary}, ` +
            `seed ${w.seed} (generated in ${genS.toFixed(1)} s)`,
    );
    console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg()[0].toFixed(2)}, node ${process.version}`);
    console.log('target (issue 5): 1M hypotheses ≤ 4 s wall for BLEU + ROUGE-L + ROUGE-S4 + WER, 2 workers ≥ 1.8× one');
    const args = (out: string, metrics: string[], workers: number): string[] => [
      'nbest', '--nbest', files.nbest, '-r', ...files.refs, '-m', ...metrics, '--stats', out, '--workers', String(workers),
    ];

    console.log(`\ncold \`node\` processes (startup and WASM compilation included), median of ${runs}`);
    const cliDir = join(dir, 'cli');
    mkdirSync(cliDir);
    const installed = bundleIsCurrent();
    const launcher = installed ? join(ROOT, 'bin', 'palette') : buildCli(cliDir);
    console.log(installed ? '  (the CLI as installed: bin/palette and dist/bundle/)' : '  (dist/bundle/ missing or older than src/: a copy compiled from src/)');
    const outputs: string[] = [];
    const cold: Record<string, number> = {};
    if (launcher !== undefined) {
      for (const [label, metrics, workers] of [
        ['BLEU, -j 1', ['bleu'], 1],
        ['4 metrics, -j 1', METRICS, 1],
        ['4 metrics, -j 2', METRICS, 2],
      ] as const) {
        const out = join(dir, `cold-${workers}-${metrics.length}.stats`);
        const c = coldRuns(launcher, args(out, [...metrics], workers), runs);
        if (c === undefined) continue;
        const { ms, rssKb: rss } = c;
        cold[label] = ms;
        if (metrics.length > 1) outputs.push(out);
        const rssText = rss === undefined ? 'peak RSS n/a (no /usr/bin/time -v)' : `peak RSS ${mb(rss)}`;
        console.log(`  ${label.padEnd(22)} ${(ms / 1000).toFixed(2).padStart(6)} s  ${rate(files.hypotheses, ms).padStart(14)}  ${rssText}`);
      }
      const one = cold['4 metrics, -j 1'];
      const two = cold['4 metrics, -j 2'];
      if (one !== undefined && two !== undefined) {
        console.log(`  efficiency: -j 2 (the main thread + 1 pool worker) = ${(one / two).toFixed(2)}× -j 1 (in-thread)`);
        const ceiling = machineCeiling(launcher, dir, files, runs);
        if (ceiling !== undefined) {
          console.log(
            `  machine ceiling: the two halves of the list in two independent -j 1 processes at once: ` +
              `${(ceiling / 1000).toFixed(2)} s = ${(one / ceiling).toFixed(2)}× -j 1 (no sharing, no pool: what 2 cores give here)`,
          );
        }
      }
    }

    console.log('\nin-process engine (src/engine/nbest/run.ts), 4 metrics, 2 scoring threads (this one + 1 pool worker)');
    const warmOut = join(dir, 'warm.stats');
    const cpu0 = process.cpuUsage();
    const info = await engineRun(files, METRICS, 2, warmOut);
    outputs.push(warmOut);
    const overhead = 1 - info.busyMs / (info.workers * info.wallMs);
    console.log(
      `  ${(info.wallMs / 1000).toFixed(2)} s  ${rate(info.hyps, info.wallMs)}  ${info.tasks} tasks; time inside tasks ` +
        `${(info.busyMs / 1000).toFixed(2)} s (${info.poolTasks ?? 0} tasks in the worker) of ${info.workers} × ${(info.wallMs / 1000).toFixed(2)} s: outside tasks ` +
        `${(overhead * 100).toFixed(1)} % of the scoring threads' time (the main thread's reading and writing, start-up, idle tails)`,
    );
    const cpu = process.cpuUsage(cpu0);
    console.log(`  CPU time (all threads): ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s = ${((cpu.user + cpu.system) / info.hyps).toFixed(1)} µs per hypothesis`);
    console.log(`  statistics file: ${(statSync(warmOut).size / 1e6).toFixed(0)} MB`);
    const slice =
      standard !== undefined
        ? firstSegments(standard, join(dir, 'slice'), Math.min(100, w.segments))
        : generateNbestFiles(join(dir, 'slice'), { ...w, segments: Math.min(100, w.segments) });
    console.log(`\nstages, µs per hypothesis, one thread, warm (the first ${Math.min(100, w.segments)} segments of the same workload):`);
    console.log('  path      decode   parse    memo    rows  dedup+encode   total');
    for (const generic of [false, true]) {
      const t = await stageTimes(slice, generic);
      const f = (x: number, width = 7): string => x.toFixed(2).padStart(width);
      console.log(`  ${(generic ? 'generic' : 'fast').padEnd(8)}${f(t.decode)} ${f(t.parse)} ${f(t.memo)} ${f(t.rows)} ${f(t.encode, 13)} ${f(t.total)}`);
    }
    if (launcher !== undefined) realMosesLists(launcher, dir, runs);
    const kernelMs = kernelOnly(w);
    console.log(`\nkernel-only (4 metrics' WASM kernels, pre-interned, 1 thread): ${(kernelMs / 1000).toFixed(2)} s  ${rate(files.hypotheses, kernelMs)}`);
    const same = outputs.every((o) => readFileSync(o).equals(readFileSync(outputs[0])));
    console.log(`outputs of the 4-metric runs (1 worker, 2 workers, in-process) ${same ? 'are byte-identical' : 'DIFFER'}`);
    if (process.env.PALETTE_BENCH_NBEST_10M === '1' && launcher !== undefined) {
      rmSync(join(dir, 'data'), { recursive: true, force: true });
      const big = { ...w, segments: 10 * w.segments };
      const bigFiles = standardWorkload(join(dir, 'big'), big.segments, false) ?? generateNbestFiles(join(dir, 'big'), big);
      const bigOut = join(dir, 'big.stats');
      const c = coldRun(launcher, ['nbest', '--nbest', bigFiles.nbest, '-r', ...bigFiles.refs, '-m', ...METRICS, '--stats', bigOut, '--workers', '2']);
      if (c !== undefined) {
        console.log(
          `\n10M hypotheses (${(bigFiles.nbestBytes / 1e9).toFixed(1)} GB), 4 metrics, 2 workers, cold: ${(c.ms / 1000).toFixed(1)} s  ` +
            `${rate(bigFiles.hypotheses, c.ms)}  peak RSS ${c.rssKb === undefined ? 'n/a' : mb(c.rssKb)} (target ≤ 600 MB)`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
