/**
 * ROUGE benchmarks side by side (issue 3): `palette rouge155` on SummEval, Palette's `Rouge` metric against js-rouge
 * on the same summary pairs, and ROUGE-N statistics at kernel level.
 *
 * 1. `palette rouge155 -n 4 -w 1.2 -2 4 -u -c 95 -r 1000 -a` on SummEval (../shared/data/summeval: 16 systems ×
 *    100 documents, 11 references), from SPL files written to a temporary directory with the goldens' `tokpunct`
 *    sentence split and one XML configuration naming all 16 peers per unit (ROUGE's `-a`): wall time in-process
 *    (the CLI's `run`) and as one cold `node bin/palette` process of the current sources (see `coldCli`), and LCS
 *    sentence pairs per second, beside ROUGE-1.5.5.pl's ≈ 4k LCS pairs/s (spec/PERFORMANCE.md; the Perl is not
 *    runnable here). The printed averages are checked against golden/rouge155/summeval.multiref11.json, so the
 *    figure is for the right numbers.
 * 2. ROUGE-L and ROUGE-2 on the same SummEval pairs (each system summary against reference 0, and against all 11):
 *    Palette's `Rouge` metric (rouge-score and rouge155 flavors: references prepared once, then every system, from
 *    text to statistics rows) against js-rouge 3.x (`l`, `n`; one call per pair, case-insensitive), measured in the
 *    same run. js-rouge tokenizes and defines ROUGE its own way: it is a speed peer, not an exactness one.
 * 3. ROUGE-N (N ≤ 4) statistics without text (bench/kernel-rouge.ts covers ROUGE-L/S4/W, not ROUGE-N): seeded
 *    25-token hypotheses, 4 references of 22–28 tokens (bench/kernel.ts's model), through src/wasm/ngram.ts's
 *    per-reference counts (what the metric calls; the WASM call inside it timed on its own) and through the
 *    metric's statistics path (pair rows, multi-reference combination).
 * Medians of tinybench iterations, plus the process's mean CPU time per call (the steadier figure on a shared,
 * loaded machine). Parts 1 and 2 are skipped with a message when ../shared is absent.
 *
 * Run: npx tsx bench/index.ts rouge
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { l as jsRougeL, n as jsRougeN } from 'js-rouge';
import { Bench } from 'tinybench';
import { run, type CliIo } from '../src/cli/main.js';
import { readLines } from '../src/node/read-lines.js';
import { resolveRougeOptions, type RougeOptions } from '../src/metrics/rouge/options.js';
import { rougePairStats } from '../src/metrics/rouge/pair-stats.js';
import { ROUGE_STATS_WIDTH, rougeRowSettings } from '../src/metrics/rouge/segment-row.js';
import { writeRougeRows } from '../src/wasm/rouge-rows.js';
import { Rouge } from '../src/metrics/rouge/rouge.js';
import { splitSentences } from '../src/text/rouge/index.js';
import { instantiateKernels, wasmModule } from '../src/wasm/load.js';
import { NgramEngine, type NgramBatch } from '../src/wasm/ngram.js';
import { generateBatch } from './workload.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SHARED = fileURLToPath(new URL('../../shared/', import.meta.url));
const SUMMEVAL = join(SHARED, 'data/summeval');
const GOLDEN = join(SHARED, 'golden/rouge155/summeval.multiref11.json');

/** The options of part 1, as issue 3 gives them (`-f A -p 0.5 -t 0` are ROUGE's defaults). */
const ROUGE155_ARGS = ['-n', '4', '-w', '1.2', '-2', '4', '-u', '-c', '95', '-r', '1000', '-a'];

/** Peer baselines of spec/PERFORMANCE.md (per core). */
const PEERS = { rouge155Lcs: 4000, rougeScoreL: 9000, jsRouge: 6000 };

const fmt = (x: number, digits = 0): string =>
  x.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const perSecond = (units: number, ms: number): number => (units / ms) * 1000;

/** Median wall time (ms) and mean process CPU time (ms) per call of `fn`. */
interface Timing {
  readonly median: number;
  readonly cpu: number;
}

/** Times `fn` with tinybench (`warmup` untimed calls first) and the process CPU clock. */
async function measure(fn: () => unknown, iterations: number, warmup = 1): Promise<Timing> {
  let calls = 0;
  const bench = new Bench({ iterations, time: 0, warmupIterations: warmup, warmupTime: 0, throws: true });
  bench.add('case', async () => {
    calls++;
    await fn();
  });
  const before = process.cpuUsage();
  await bench.run();
  const cpu = process.cpuUsage(before);
  const result = bench.tasks[0].result;
  const median = result.state === 'completed' ? result.latency.p50 : NaN;
  return { median, cpu: (cpu.user + cpu.system) / 1000 / calls };
}

/** `label  wall median … ms = … unit/s   cpu mean … ms = … unit/s`. */
function timingLine(label: string, t: Timing, units: number, unit: string): string {
  const rate = (ms: number): string => `${fmt(perSecond(units, ms)).padStart(11)} ${unit}/s`;
  return `  ${label}  wall median ${fmt(t.median, 1).padStart(9)} ms = ${rate(t.median)}   cpu mean ${fmt(t.cpu, 1).padStart(9)} ms = ${rate(t.cpu)}`;
}

/** SummEval: system outputs (sorted by name) and the 11 reference streams, one line per document. */
interface SummEval {
  readonly systems: readonly { readonly name: string; readonly lines: readonly string[] }[];
  readonly refs: readonly (readonly string[])[];
}

function loadSummEval(): SummEval {
  const systems = readdirSync(join(SUMMEVAL, 'systems'))
    .filter((f) => f.endsWith('.txt'))
    .map((f) => ({ name: f.slice(0, -4), lines: readLines(join(SUMMEVAL, 'systems', f)) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
  const refs = Array.from({ length: 11 }, (_, j) => readLines(join(SUMMEVAL, `refs/ref.${j}.txt`)));
  return { systems, refs };
}

const silent: CliIo = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };

/**
 * Writes SummEval as ROUGE-1.5.5 SPL files (one `tokpunct` sentence per line, as the goldens made them) and one
 * XML configuration with all 16 peers and 11 models per unit; returns the LCS sentence pairs ROUGE-L computes:
 * Σ over units, peers and models of |peer sentences| × |model sentences|.
 */
function writeRouge155Config(dir: string, data: SummEval): number {
  const sentenceCounts = (name: string, lines: readonly string[]): number[] => {
    mkdirSync(join(dir, name), { recursive: true });
    return lines.map((text, i) => {
      const sentences = splitSentences(text, 'punct');
      writeFileSync(join(dir, name, `${i + 1}.spl`), sentences.join('\n') + '\n');
      return sentences.length;
    });
  };
  const peerSentences = data.systems.map((s) => sentenceCounts(`peers/${s.name}`, s.lines));
  const modelSentences = data.refs.map((lines, j) => sentenceCounts(`models/${j}`, lines));
  const xml = ['<ROUGE-EVAL version="1.55">'];
  let pairs = 0;
  for (let d = 0; d < data.refs[0].length; d++) {
    xml.push(`<EVAL ID="${d + 1}">`, '<PEER-ROOT>peers</PEER-ROOT>', '<MODEL-ROOT>models</MODEL-ROOT>');
    xml.push('<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>', '<PEERS>');
    for (const s of data.systems) xml.push(`<P ID="${s.name}">${s.name}/${d + 1}.spl</P>`);
    xml.push('</PEERS>', '<MODELS>');
    data.refs.forEach((_, j) => xml.push(`<M ID="${j}">${j}/${d + 1}.spl</M>`));
    xml.push('</MODELS>', '</EVAL>');
    let modelTotal = 0;
    for (const m of modelSentences) modelTotal += m[d];
    for (const p of peerSentences) pairs += p[d] * modelTotal;
  }
  xml.push('</ROUGE-EVAL>');
  writeFileSync(join(dir, 'config.xml'), xml.join('\n') + '\n');
  return pairs;
}

/** Compares the printed Average lines with the golden's (its peer is `X`); returns the number of differing peers. */
function goldenMismatches(stdout: string, systems: readonly string[]): number {
  const records = (
    JSON.parse(readFileSync(GOLDEN, 'utf8')) as { records: { hyp: string; corpus: { printed: string[] } }[] }
  ).records;
  const lines = stdout.split('\n');
  let bad = 0;
  for (const name of systems) {
    const record = records.find((r) => r.hyp === `summeval/systems/${name}.txt`);
    const expected = record?.corpus.printed.map((l) => l.replace(/^X /, `${name} `));
    const got = lines.filter((l) => l.startsWith(`${name} ROUGE-`));
    if (expected === undefined || JSON.stringify(got) !== JSON.stringify(expected)) bad++;
  }
  return bad;
}

/** Newest modification time (ms) of the files under `dir` whose names end with `suffix`. */
function newest(dir: string, suffix: string): number {
  let t = 0;
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (f.endsWith(suffix)) t = Math.max(t, statSync(join(dir, f)).mtimeMs);
  }
  return t;
}

/**
 * The `bin/palette` a cold run starts: the repository's when dist/ is newer than src/ and build/release.wasm;
 * otherwise the current src/ compiled (tsc, not timed) into a temporary tree beside links to build/ and
 * node_modules/, because a dist/ older than the kernels it loads computes garbage or traps.
 */
function coldCli(): { bin: string; note: string; cleanup: () => void } {
  const main = join(ROOT, 'dist/cli/main.js');
  const sources = Math.max(newest(join(ROOT, 'src'), '.ts'), statSync(join(ROOT, 'build/release.wasm')).mtimeMs);
  if (existsSync(main) && statSync(main).mtimeMs >= sources) {
    return { bin: join(ROOT, 'bin/palette'), note: 'dist/ is current', cleanup: () => {} };
  }
  const tree = mkdtempSync(join(tmpdir(), 'palette-bench-cli-'));
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  // Type errors (a file mid-edit elsewhere in the tree) still emit JavaScript; only a missing entry point stops us.
  spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(tree, 'dist')], {
    stdio: 'ignore',
  });
  mkdirSync(join(tree, 'bin'));
  copyFileSync(join(ROOT, 'bin/palette'), join(tree, 'bin/palette'));
  copyFileSync(join(ROOT, 'package.json'), join(tree, 'package.json'));
  symlinkSync(join(ROOT, 'build'), join(tree, 'build'));
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
  const why = existsSync(main) ? 'dist/ is older than src/ or build/release.wasm' : 'dist/ is not built';
  return {
    bin: join(tree, 'bin/palette'),
    note: `${why}: current src/ compiled to a temporary dist/ first, not timed`,
    cleanup: () => rmSync(tree, { recursive: true, force: true }),
  };
}

/** Part 1: `palette rouge155` on SummEval. */
async function benchRouge155(data: SummEval): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'palette-bench-rouge155-'));
  const home = process.cwd();
  try {
    const lcsPairs = writeRouge155Config(dir, data);
    const argv = ['rouge155', ...ROUGE155_ARGS, 'config.xml'];
    console.log(`\n1. palette ${argv.join(' ')}`);
    console.log(
      `  ${data.systems.length} peers × ${data.refs[0].length} units × ${data.refs.length} models (SPL files, tokpunct sentences); ` +
        `ROUGE-1..4, L, W-1.2, S4, SU4, 1,000 bootstrap resamples; ${fmt(lcsPairs)} LCS sentence pairs (ROUGE-W's WLCS as many again)`,
    );

    let stdout = '';
    const capture: CliIo = { ...silent, stdout: { write: (s: string) => (stdout += s) } };
    process.chdir(dir);
    const code = await run(argv, capture);
    if (code !== 0) throw new Error(`palette rouge155 exited ${code}`);
    const bad = goldenMismatches(
      stdout,
      data.systems.map((s) => s.name),
    );
    console.log(
      bad === 0
        ? '  printed averages = golden/rouge155/summeval.multiref11.json for all 16 systems'
        : `  WARNING: printed averages differ from golden/rouge155/summeval.multiref11.json for ${bad} systems`,
    );
    const inProcess = await measure(
      async () => {
        if ((await run(argv, silent)) !== 0) throw new Error('palette rouge155 failed');
      },
      3,
      0,
    );
    process.chdir(home);
    console.log(timingLine('in-process run()  ', inProcess, lcsPairs, 'LCS pairs'));

    const cli = coldCli();
    try {
      const start = performance.now();
      const r = spawnSync(process.execPath, [cli.bin, ...argv], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
      const ms = performance.now() - start;
      if (r.status !== 0) {
        console.log(`  cold process: failed (${(r.stderr || String(r.error)).trim().split('\n').pop()}); ${cli.note}`);
      } else {
        const same = r.stdout === stdout ? 'same output as in-process' : 'OUTPUT DIFFERS from in-process';
        console.log(
          `  cold node bin/palette  wall ${fmt(ms).padStart(7)} ms = ${fmt(perSecond(lcsPairs, ms)).padStart(11)} LCS pairs/s   (${cli.note}; ${same})`,
        );
      }
    } finally {
      cli.cleanup();
    }
    const perl = (lcsPairs / PEERS.rouge155Lcs) * 1000;
    console.log(
      `  peer: ROUGE-1.5.5.pl LCS ≈ ${fmt(PEERS.rouge155Lcs)} pairs/s (spec/PERFORMANCE.md; not runnable here): ≈ ${fmt(perl / 1000)} s for ` +
        `ROUGE-L's LCS alone → in-process ≈ ×${fmt(perl / inProcess.median, 1)} wall, ×${fmt(perl / inProcess.cpu, 1)} cpu (whole run vs the Perl's LCS part only)`,
    );
  } finally {
    process.chdir(home);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A Palette configuration of part 2. */
interface PaletteCase {
  readonly label: string;
  readonly options: RougeOptions;
}

/** Scores every system with `metric` (references prepared once); returns the mean of the systems' corpus F. */
function paletteAllSystems(metric: Rouge, data: SummEval, refStreams: readonly (readonly string[])[]): number {
  const prepared = metric.prepareReferences(refStreams);
  const totals = new Float64Array(ROUGE_STATS_WIDTH);
  let sumF = 0;
  for (const s of data.systems) {
    const rows = metric.segmentStats(s.lines, prepared);
    totals.fill(0);
    for (let i = 0; i < rows.length; i++) totals[i % ROUGE_STATS_WIDTH] += rows[i];
    sumF += metric.scoreFromStats(totals).score;
  }
  return sumF / data.systems.length;
}

/** js-rouge on every (system summary, reference) pair; the best F over the references per summary, averaged. */
function jsRougeAllSystems(
  score: (cand: string, ref: string) => number,
  data: SummEval,
  refStreams: readonly (readonly string[])[],
): number {
  let sum = 0;
  let n = 0;
  for (const s of data.systems) {
    for (let d = 0; d < s.lines.length; d++) {
      let best = 0;
      for (const refs of refStreams) best = Math.max(best, score(s.lines[d], refs[d]));
      sum += best;
      n++;
    }
  }
  return sum / n;
}

/** Part 2: Palette's `Rouge` against js-rouge on SummEval pairs. */
async function benchPeers(data: SummEval): Promise<void> {
  const hyps = data.systems.length * data.refs[0].length;
  console.log('\n2. ROUGE-L and ROUGE-2 on SummEval pairs: Palette Rouge metric vs js-rouge 3.x, same run');
  console.log(
    `  ${data.systems.length} systems × ${data.refs[0].length} documents = ${hyps} summaries; vs reference 0 (${hyps} pairs) ` +
      `and vs all ${data.refs.length} (${hyps * data.refs.length} pairs). Palette: references prepared once per iteration, then ` +
      'every system, text → statistics rows → corpus score. js-rouge: l()/n({n: 2}) per pair, caseSensitive: false.',
  );
  console.log(
    "  js-rouge's numbers are NOT ROUGE-1.5.5's or rouge-score's (its own Penn Treebank tokenizer, sentence segmenter, " +
      'no multi-reference mode: best F of per-pair calls here): a speed peer only. "mean F" is printed to show that.',
  );

  const groups: { name: string; palette: PaletteCase[]; js: (c: string, r: string) => number }[] = [
    {
      name: 'ROUGE-L',
      palette: [
        { label: 'rouge-score rougeL', options: { type: 'rougeL', flavor: 'rouge-score' } },
        { label: 'rouge-score rougeLsum punct', options: { type: 'rougeLsum', flavor: 'rouge-score', split: 'punct' } },
        // ROUGE-1.5.5's ROUGE-L is the summary-level union LCS: `rouge-lsum` in the rouge155 flavor.
        { label: 'rouge155 ROUGE-L punct', options: { type: 'rouge-lsum', flavor: 'rouge155', split: 'punct' } },
      ],
      js: (c, r) => jsRougeL(c, r, { caseSensitive: false }),
    },
    {
      name: 'ROUGE-2',
      palette: [
        { label: 'rouge-score rouge2', options: { type: 'rouge2', flavor: 'rouge-score' } },
        { label: 'rouge155 ROUGE-2', options: { type: 'rouge-2', flavor: 'rouge155' } },
      ],
      js: (c, r) => jsRougeN(c, r, { n: 2, caseSensitive: false }),
    },
  ];
  for (const refStreams of [data.refs.slice(0, 1), data.refs]) {
    const pairs = hyps * refStreams.length;
    console.log(
      `\n  vs ${refStreams.length === 1 ? 'reference 0' : `all ${refStreams.length} references`}: ${fmt(pairs)} pairs`,
    );
    for (const g of groups) {
      let meanF = 0;
      // js-rouge takes seconds per pass over 11 references: fewer iterations there.
      const js = await measure(
        () => (meanF = jsRougeAllSystems(g.js, data, refStreams)),
        refStreams.length === 1 ? 5 : 3,
      );
      console.log(
        `${timingLine(`${g.name} ${'js-rouge'.padEnd(36)}`, js, pairs, 'pairs')}   mean F ${meanF.toFixed(4)}`,
      );
      for (const c of g.palette) {
        const metric = new Rouge(c.options);
        const t = await measure(() => (meanF = paletteAllSystems(metric, data, refStreams)), 10, 3);
        console.log(
          `${timingLine(`${g.name} ${`Palette ${c.label}`.padEnd(36)}`, t, pairs, 'pairs')}   mean F ${meanF.toFixed(4)}   js-rouge ×${fmt(js.median / t.median, 1)} wall, ×${fmt(js.cpu / t.cpu, 1)} cpu`,
        );
      }
    }
  }
  console.log(
    `\n  peers (spec/PERFORMANCE.md, per core): rouge-score ROUGE-L ≈ ${fmt(PEERS.rougeScoreL)} pairs/s, js-rouge ≈ ${fmt(PEERS.jsRouge)} pairs/s ` +
      '(SummEval summaries are longer than those figures assume: compare ratios measured above, not absolute rates)',
  );
}


/** The `Rouge` metric's statistics path on token ids (no text): pair rows, then one combined row per hypothesis. */
function metricStatsPath(options: RougeOptions, batch: NgramBatch): () => Float64Array {
  const resolved = resolveRougeOptions(options);
  const settings = rougeRowSettings(resolved);
  const hyps = { tokens: batch.hyps, sentences: null, sentenceOffsets: null };
  const refs = { tokens: batch.refs, sentences: null, sentenceOffsets: null };
  const nHyps = batch.hyps.offsets.length - 1;
  return () => {
    const pairs = rougePairStats(hyps, refs, batch.segRefOffsets, resolved);
    const out = new Float64Array(nHyps * ROUGE_STATS_WIDTH);
    writeRougeRows(pairs.rows, pairs.rowOffsets, nHyps, settings, out, 0, ROUGE_STATS_WIDTH);
    return out;
  };
}

/** An engine of its own whose per-reference kernel calls are timed (the wrapper costs one closure call per batch). */
function timedEngine(): { engine: NgramEngine; kernelMs: number[] } {
  const kernelMs: number[] = [];
  const kernels = instantiateKernels(wasmModule('release'));
  const kernel = kernels.perReferenceNgramCounts;
  const timed: typeof kernel = (...args) => {
    const start = performance.now();
    const r = kernel(...args);
    kernelMs.push(performance.now() - start);
    return r;
  };
  return { engine: new NgramEngine({ ...kernels, perReferenceNgramCounts: timed }), kernelMs };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Part 3: ROUGE-N statistics on token ids. */
async function benchRougeN(): Promise<void> {
  const nbest = generateBatch({ segments: 100, hypsPerSegment: 1000, refsPerSegment: 4, length: 25, vocabulary: 10000 }, 11);
  const corpus = generateBatch({ segments: 100000, hypsPerSegment: 1, refsPerSegment: 4, length: 25, vocabulary: 10000 }, 12);
  console.log('\n3. ROUGE-N statistics without text (target ≥ 2M hyps/s for N ≤ 4)');
  for (const [name, b] of [
    ['n-best', nbest],
    ['corpus', corpus],
  ] as const) {
    const nHyps = b.hyps.offsets.length - 1;
    console.log(
      `  ${name}: ${fmt(nHyps)} hypotheses × 25 tokens, ${fmt(b.segRefOffsets.length - 1)} segments × 4 references of 22–28 tokens ` +
        `(${fmt(b.refs.tokens.length)} tokens), vocabulary 10,000 (Zipf); one row per (hypothesis, reference)`,
    );
  }
  console.log(
    '  api = perReferenceNgramCounts of src/wasm/ngram.ts (what the Rouge metric calls: checks, copy-in, kernel, copy-out);',
  );
  console.log(
    '  prepared = references resident (prepareReferences); kernel = the WASM call alone inside the api call;',
  );
  console.log(
    "  metric rows = the Rouge metric's statistics path on token ids (pair rows + multi-reference combination, no text)",
  );
  const iterations = 8;
  const warmup = 2;
  for (const [name, batch] of [
    ['n-best', nbest],
    ['corpus', corpus],
  ] as const) {
    const nHyps = batch.hyps.offsets.length - 1;
    const { engine, kernelMs } = timedEngine();
    // Past the baseline tier first, as every worker should.
    engine.perReferenceNgramCounts(generateBatch({ segments: 2000, hypsPerSegment: 1, refsPerSegment: 4, length: 25, vocabulary: 10000 }, 13), 4);
    const prepared = engine.prepareReferences(batch.refs, batch.segRefOffsets);
    const cases: [string, () => unknown][] = [
      ['api     ', () => engine.perReferenceNgramCounts(batch, 4)],
      ['prepared', () => prepared.perReferenceNgramCounts(batch.hyps, batch.hypSegment, 4)],
    ];
    for (const [label, fn] of cases) {
      kernelMs.length = 0;
      const t = await measure(fn, iterations, warmup);
      const kernel = median(kernelMs.slice(warmup));
      console.log(
        `${timingLine(`${name} N=1..4 ${label}`, t, nHyps, 'hyps')}   kernel median ${fmt(kernel, 1).padStart(7)} ms = ${fmt(perSecond(nHyps, kernel)).padStart(10)} hyps/s`,
      );
    }
  }
  const nHyps = corpus.hyps.offsets.length - 1;
  const rows: [string, RougeOptions][] = [
    ['corpus metric rows ROUGE-2 rouge155 pool', { type: 'rouge-2', flavor: 'rouge155' }],
    ['corpus metric rows ROUGE-4 rouge155 pool', { type: 'rouge-4', flavor: 'rouge155' }],
    ['corpus metric rows rouge2 rouge-score best-f', { type: 'rouge2', flavor: 'rouge-score' }],
  ];
  for (const [label, options] of rows) {
    console.log(
      timingLine(label.padEnd(46), await measure(metricStatsPath(options, corpus), iterations, warmup), nHyps, 'hyps'),
    );
  }
}

/** Runs the ROUGE benchmarks (SummEval parts skipped without ../shared) and prints workloads, medians and ratios. */
export async function benchRouge(): Promise<void> {
  console.log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (shared: absolute times are indicative)`,
  );
  if (existsSync(join(SUMMEVAL, 'systems')) && existsSync(GOLDEN)) {
    const data = loadSummEval();
    await benchRouge155(data);
    await benchPeers(data);
  } else {
    console.log('parts 1–2 skipped: ../shared/data/summeval is absent (the workload lives there)');
  }
  await benchRougeN();
}
