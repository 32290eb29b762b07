/**
 * Kernel benchmark of the ROUGE kernels (ROUGE-L LCS lengths, ROUGE-S4 skip-bigram counts, ROUGE-W-1.2 pair
 * statistics), release build, one core.
 *
 * Workloads (seeded, Zipf-like vocabulary of 10,000 ids), the model of bench/kernel.ts: every segment has a 25-token
 * "source" sentence; its 4 references are the source with 25 % of the tokens replaced and 0–3 tokens dropped or
 * added at the end (22–28 tokens); its hypotheses are the source with 35 % of the tokens replaced (25 tokens).
 *   - n-best: segments × 1,000 hypotheses, each segment's table (match vectors, skip-bigram counts) built once for
 *     its 1,000 hypotheses;
 *   - corpus (WMT-like): segments × 1 hypothesis: one table built per hypothesis.
 * Scopes: `kernel` = the kernel call alone with inputs already in linear memory; `api` = the `RougeEngine` method as
 * metrics call it (checks, copy-in of tokens, planning, copy-out of rows).
 *
 * Run: npx tsx -e "import('./bench/kernel-rouge.ts').then(m=>m.benchKernelRouge())"
 * Options (for before/after comparisons in the same minutes): `only` keeps the cases whose name contains it
 * (e.g. 'ROUGE-W'); `wasm` is a release build file to measure instead of build/release.wasm.
 */
import { Bench } from 'tinybench';
import { Layout } from '../src/wasm/linear-memory.js';
import { pathToFileURL } from 'node:url';
import { compileWasmFile } from '../src/node/wasm.js';
import { instantiateKernels, useWasmModule, wasmModule } from '../src/wasm/load.js';
import { RougeEngine, type RougeBatch, type RougeKernelExports } from '../src/wasm/rouge.js';
import { generateBatch, type Workload } from './workload.js';


/** A batch's arrays placed in a fresh instance's memory. */
interface Resident {
  readonly kernels: RougeKernelExports;
  readonly engine: RougeEngine;
  readonly layout: Layout;
  readonly at: number[];
  readonly nHyps: number;
  readonly nSegments: number;
  readonly pairs: number;
}

/** Lays a batch out once in a fresh instance (hyp tokens, offsets, segments, ref tokens, offsets, segment offsets). */
function resident(batch: RougeBatch): Resident {
  const kernels = instantiateKernels(wasmModule('release')) as RougeKernelExports;
  const engine = new RougeEngine(kernels);
  const layout = new Layout(kernels.heapBase());
  const arrays = [batch.hyps.tokens, batch.hyps.offsets, batch.hypSegment!, batch.refs.tokens, batch.refs.offsets, batch.segRefOffsets];
  const at = arrays.map((a) => layout.place(a.byteLength));
  engine.memory.reserve(layout.end);
  arrays.forEach((a, i) => engine.memory.i32.set(a, at[i] >> 2));
  const nHyps = batch.hyps.offsets.length - 1;
  const nSegments = batch.segRefOffsets.length - 1;
  let pairs = 0;
  for (let h = 0; h < nHyps; h++) {
    const s = batch.hypSegment![h];
    pairs += batch.segRefOffsets[s + 1] - batch.segRefOffsets[s];
  }
  return { kernels, engine, layout, at, nHyps, nSegments, pairs };
}

/** The bare LCS-length kernel on a resident batch. */
function lcsKernelCall(batch: RougeBatch): () => void {
  const { kernels, engine, layout, at, nHyps, nSegments, pairs } = resident(batch);
  const plan = layout.place(32);
  engine.memory.reserve(layout.end);
  kernels.planMatchVectors(at[4], at[5], nSegments, 0, plan);
  const [capacity, vectorBytes, strideBytes, refs] = engine.memory.f64.slice(plan >> 3, (plan >> 3) + 4);
  // Interned ids 0 .. V: the match vectors are indexed by token id, as `RougeEngine.lcsLengths` does for such ids.
  let largest = 0;
  for (const t of [batch.hyps.tokens, batch.refs.tokens]) for (let i = 0; i < t.length; i++) largest = Math.max(largest, t[i]);
  const directBytes = (largest + 1) * strideBytes;
  const keys = layout.place(capacity * 8);
  const vectors = layout.place(Math.max(vectorBytes, directBytes));
  const info = layout.place(refs * 12);
  const state = layout.place(strideBytes);
  const out = layout.place(pairs * 4);
  engine.memory.reserve(layout.end);
  return () => kernels.lcsLengths(at[0], at[1], nHyps, at[2], at[3], at[4], at[5], keys, capacity, vectors, directBytes, info, state, out, 0);
}

/** The bare skip-bigram kernel (gap 4, no unigrams) on a resident batch, scratch sized as `RougeEngine` sizes it. */
function skipBigramKernelCall(batch: RougeBatch): () => void {
  const { kernels, engine, layout, at, nHyps, nSegments, pairs } = resident(batch);
  const plan = layout.place(40);
  engine.memory.reserve(layout.end);
  kernels.planSkipBigramTables(at[4], at[5], nSegments, 4, 0, plan);
  const [capacity, dataBytes, tokenCapacity, refTokens, stride] = engine.memory.f64.slice(plan >> 3, (plan >> 3) + 5);
  let longest = 0;
  for (let h = 0; h < nHyps; h++) longest = Math.max(longest, batch.hyps.offsets[h + 1] - batch.hyps.offsets[h]);
  const directEntries = Math.min(65536, (refTokens + 1) * (refTokens + 2));
  // Interned ids 0 .. V: local ids indexed by token id, as `RougeEngine.skipBigramCounts` does for such ids.
  let largest = 0;
  for (const t of [batch.hyps.tokens, batch.refs.tokens]) for (let i = 0; i < t.length; i++) largest = Math.max(largest, t[i]);
  const tokenLocals = layout.place((largest + 1) * 4);
  const tokenKeys = 0;
  const localIds = 0;
  const locals = layout.place((refTokens + 2 * longest) * 4);
  const direct = layout.place(directEntries * stride);
  const keys = layout.place((capacity + 1) * 16);
  const data = layout.place(dataBytes);
  const hits = layout.place(stride);
  const out = layout.place(pairs * 24);
  engine.memory.reserve(layout.end);
  return () => kernels.skipBigramCounts(
    at[0], at[1], nHyps, at[2], at[3], at[4], at[5], 4, 0, tokenKeys, tokenCapacity, localIds, locals, tokenLocals,
    largest + 1, direct, directEntries, stride, keys, capacity, data, hits, out, 0,
  );
}

/** The bare WLCS kernel (w = 1.2) on a resident batch, scratch sized as `RougeEngine` sizes it (ids index directly). */
function wlcsKernelCall(batch: RougeBatch): () => void {
  const { kernels, engine, layout, at, nHyps, pairs } = resident(batch);
  let maxLength = 0;
  for (let r = 0; r + 1 < batch.refs.offsets.length; r++) maxLength = Math.max(maxLength, batch.refs.offsets[r + 1] - batch.refs.offsets[r]);
  let maxHyp = 0;
  for (let h = 0; h < nHyps; h++) maxHyp = Math.max(maxHyp, batch.hyps.offsets[h + 1] - batch.hyps.offsets[h]);
  let largest = 0;
  for (const t of [batch.hyps.tokens, batch.refs.tokens]) for (let i = 0; i < t.length; i++) largest = Math.max(largest, t[i]);
  const strideBytes = 16 * Math.ceil(Math.max(1, Math.ceil(maxHyp / 64)) / 2);
  const directBytes = (largest + 1) * strideBytes;
  const weights = layout.place((maxLength + 1) * 8);
  const table = layout.place((maxLength + 1) * (maxHyp + 1) * 8);
  const runs = layout.place((maxHyp + 1) * 8);
  const mask = layout.place(maxLength);
  const vectors = layout.place(directBytes);
  const info = layout.place(16);
  const out = layout.place(pairs * 24);
  engine.memory.reserve(layout.end);
  return () => kernels.wlcsPairStats(
    at[0], at[1], nHyps, at[2], at[3], at[4], at[5], 1.2, maxLength, weights, table, runs, mask, 0, 0, vectors,
    directBytes, info, out,
  );
}

/** Describes a workload the way every Palette benchmark prints it. */
function describeWorkload(name: string, w: Workload, batch: RougeBatch): string {
  const nHyps = batch.hyps.offsets.length - 1;
  return `${name}: ${nHyps.toLocaleString('en')} hypotheses × ${w.length} tokens (${batch.hyps.tokens.length.toLocaleString('en')} tokens), `
    + `${w.segments.toLocaleString('en')} segments × ${w.refsPerSegment} references of ${w.length - 3}–${w.length + 3} tokens `
    + `(${batch.refs.tokens.length.toLocaleString('en')} tokens), vocabulary ${w.vocabulary.toLocaleString('en')} (Zipf)`;
}

/** Runs the ROUGE kernel benchmark and prints workloads, medians and hypotheses per second. */
export async function benchKernelRouge(options: { only?: string; wasm?: string } = {}): Promise<void> {
  if (options.wasm !== undefined) useWasmModule(compileWasmFile(pathToFileURL(options.wasm)), 'release');
  const engine = new RougeEngine(instantiateKernels(wasmModule('release')) as RougeKernelExports);
  const base = { refsPerSegment: 4, length: 25, vocabulary: 10000 };
  const nbestW: Workload = { ...base, segments: 1000, hypsPerSegment: 1000 };
  const corpusW: Workload = { ...base, segments: 100000, hypsPerSegment: 1 };
  const nbestSmallW: Workload = { ...base, segments: 100, hypsPerSegment: 1000 };
  const corpusSmallW: Workload = { ...base, segments: 100000 / 10, hypsPerSegment: 1 };
  const nbest = generateBatch(nbestW, 1);
  const corpus = generateBatch(corpusW, 2);
  const nbestSmall = generateBatch(nbestSmallW, 3);
  const corpusSmall = generateBatch(corpusSmallW, 4);
  for (const [name, w, b] of [['n-best', nbestW, nbest], ['corpus', corpusW, corpus], ['n-best (ROUGE-W)', nbestSmallW, nbestSmall], ['corpus (ROUGE-W)', corpusSmallW, corpusSmall]] as const) {
    console.log(describeWorkload(name, w, b));
  }

  // Warm up past the baseline tier on a small batch, as every worker should.
  const warm = generateBatch({ ...corpusW, segments: 2000 }, 5);
  engine.lcsLengths(warm);
  engine.skipBigramCounts(warm, { maxGap: 4 });
  engine.wlcsPairStats(warm, 1.2);

  // Each case is set up right before it runs: the kernel-only cases lay their inputs out in a fresh instance.
  const kernelOnly = (make: (b: RougeBatch) => () => void, batch: RougeBatch) => () => {
    const call = make(batch);
    call();
    return call;
  };
  const cases: [string, number, () => () => unknown][] = [
    ['ROUGE-L  n-best  kernel', 1e6, kernelOnly(lcsKernelCall, nbest)],
    ['ROUGE-L  n-best  api   ', 1e6, () => () => engine.lcsLengths(nbest)],
    ['ROUGE-L  corpus  kernel', 1e5, kernelOnly(lcsKernelCall, corpus)],
    ['ROUGE-L  corpus  api   ', 1e5, () => () => engine.lcsLengths(corpus)],
    ['ROUGE-S4 n-best  kernel', 1e6, kernelOnly(skipBigramKernelCall, nbest)],
    ['ROUGE-S4 n-best  api   ', 1e6, () => () => engine.skipBigramCounts(nbest, { maxGap: 4 })],
    ['ROUGE-S4 corpus  kernel', 1e5, kernelOnly(skipBigramKernelCall, corpus)],
    ['ROUGE-S4 corpus  api   ', 1e5, () => () => engine.skipBigramCounts(corpus, { maxGap: 4 })],
    ['ROUGE-W  n-best  kernel', 1e5, kernelOnly(wlcsKernelCall, nbestSmall)],
    ['ROUGE-W  n-best  api   ', 1e5, () => () => engine.wlcsPairStats(nbestSmall, 1.2)],
    ['ROUGE-W  corpus  kernel', 1e4, kernelOnly(wlcsKernelCall, corpusSmall)],
    ['ROUGE-W  corpus  api   ', 1e4, () => () => engine.wlcsPairStats(corpusSmall, 1.2)],
  ];
  for (const [name, hyps, setup] of cases) {
    if (options.only !== undefined && !name.includes(options.only)) continue;
    const bench = new Bench({ iterations: 8, time: 0, warmupIterations: 2, warmupTime: 0, throws: true });
    const call = setup();
    // CPU time of the process per call, beside the wall-clock median: a loaded machine shows up as the gap.
    let cpu = 0;
    let calls = 0;
    bench.add(name, () => {
      const before = process.cpuUsage();
      call();
      const used = process.cpuUsage(before);
      cpu += (used.user + used.system) / 1000;
      calls++;
    });
    await bench.run();
    const result = bench.tasks[0].result;
    const median = result.state === 'completed' ? result.latency.p50 : NaN;
    console.log(`${name}  median ${median.toFixed(1).padStart(8)} ms  ${(hyps / (median / 1000) / 1e6).toFixed(3).padStart(7)} M hyps/s`
      + `  cpu ${(cpu / calls).toFixed(1).padStart(8)} ms/call (mean)`);
  }
}
