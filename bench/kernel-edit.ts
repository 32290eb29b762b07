/**
 * Kernel benchmark of the edit kernels (WER Levenshtein distances, with and without jiwer's alignment counts; GTM
 * greedy runs), release build, one core.
 *
 * Workloads (seeded, Zipf-like vocabulary of 10,000 ids), the model of bench/kernel.ts: every segment has a 25-token
 * "source" sentence; its 4 references are the source with 25 % of the tokens replaced and 0–3 tokens dropped or
 * added at the end (22–28 tokens); its hypotheses are the source with 35 % of the tokens replaced (25 tokens).
 *   - n-best: segments × 1,000 hypotheses, each segment's match vectors built once for its 1,000 hypotheses;
 *   - corpus (WMT-like): segments × 1 hypothesis: the match vectors built once per hypothesis.
 * Scopes: `kernel` = the kernel call alone with inputs already in linear memory (ids index the match vectors
 * directly, as the engine does for interned ids); `api` = the `EditEngine` method as metrics call it (checks,
 * copy-in of tokens, planning, copy-out of rows). Each case prints the wall-clock median (tinybench) and the median
 * CPU time of 5 more calls, the figure to read on a loaded machine.
 *
 * Run: npx tsx -e "import('./bench/kernel-edit.ts').then(m=>m.benchKernelEdit())"
 */
import { Bench } from 'tinybench';
import { EditEngine, type EditBatch, type EditKernelExports } from '../src/wasm/edit.js';
import { Layout } from '../src/wasm/linear-memory.js';
import { instantiateKernels, wasmModule } from '../src/wasm/load.js';
import { generateBatch, type Workload } from './workload.js';


/**
 * The bare distance kernel on a batch laid out once in a fresh instance (scratch sized as `EditEngine` sizes it,
 * ids indexing the match vectors directly); `alignment` adds the counts against the closest reference.
 */
function distanceKernelCall(batch: EditBatch, alignment: boolean): () => void {
  const kernels = instantiateKernels(wasmModule('release')) as EditKernelExports;
  const engine = new EditEngine(kernels);
  const layout = new Layout(kernels.heapBase());
  const arrays = [batch.hyps.tokens, batch.hyps.offsets, batch.hypSegment!, batch.refs.tokens, batch.refs.offsets, batch.segRefOffsets];
  const at = arrays.map((a) => layout.place(a.byteLength));
  const plan = layout.place(32);
  engine.memory.reserve(layout.end);
  arrays.forEach((a, i) => engine.memory.i32.set(a, at[i] >> 2));
  const nHyps = batch.hyps.offsets.length - 1;
  const nSegments = batch.segRefOffsets.length - 1;
  kernels.planMatchVectors(at[4], at[5], nSegments, 0, plan);
  const [, , strideBytes, refs] = engine.memory.f64.slice(plan >> 3, (plan >> 3) + 4);
  let largest = 0;
  let longestHyp = 0;
  for (const t of [batch.hyps.tokens, batch.refs.tokens]) for (let i = 0; i < t.length; i++) largest = Math.max(largest, t[i]);
  for (let h = 0; h < nHyps; h++) longestHyp = Math.max(longestHyp, batch.hyps.offsets[h + 1] - batch.hyps.offsets[h]);
  const directBytes = (largest + 1) * strideBytes;
  const vectors = layout.place(directBytes);
  const info = layout.place(refs * 12);
  const state = layout.place(4 * strideBytes);
  const columns = layout.place(Math.max((longestHyp + 1) * 16, 4 * longestHyp * strideBytes));
  let pairs = 0;
  for (let h = 0; h < nHyps; h++) pairs += batch.segRefOffsets[batch.hypSegment![h] + 1] - batch.segRefOffsets[batch.hypSegment![h]];
  const out = layout.place(pairs * 4);
  const ops = alignment ? layout.place(nHyps * 20) : 0;
  engine.memory.reserve(layout.end);
  return () => kernels.editDistances(
    at[0], at[1], nHyps, at[2], at[3], at[4], at[5], 0, 0, vectors, directBytes, info, state, columns, out, ops,
  );
}

/**
 * Median CPU time (user + system) of `runs` calls: on a shared, loaded machine wall time also counts the time other
 * processes held the core, CPU time does not (it still pays for their cache pressure).
 */
function medianCpuMs(call: () => unknown, runs: number): number {
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const before = process.cpuUsage();
    call();
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[runs >> 1];
}

/** Describes a workload the way every Palette benchmark prints it. */
function describeWorkload(name: string, w: Workload, batch: EditBatch): string {
  const nHyps = batch.hyps.offsets.length - 1;
  return `${name}: ${nHyps.toLocaleString('en')} hypotheses × ${w.length} tokens (${batch.hyps.tokens.length.toLocaleString('en')} tokens), `
    + `${w.segments.toLocaleString('en')} segments × ${w.refsPerSegment} references of ${w.length - 3}–${w.length + 3} tokens `
    + `(${batch.refs.tokens.length.toLocaleString('en')} tokens), vocabulary ${w.vocabulary.toLocaleString('en')} (Zipf)`;
}

/** Runs the edit kernel benchmark and prints workloads, medians and hypotheses per second. */
export async function benchKernelEdit(): Promise<void> {
  const engine = new EditEngine(instantiateKernels(wasmModule('release')) as EditKernelExports);
  const base = { refsPerSegment: 4, length: 25, vocabulary: 10000 };
  const nbestW: Workload = { ...base, segments: 1000, hypsPerSegment: 1000 };
  const corpusW: Workload = { ...base, segments: 100000, hypsPerSegment: 1 };
  const gtmW: Workload = { ...base, segments: 100, hypsPerSegment: 100 };
  const nbest = generateBatch(nbestW, 1);
  const corpus = generateBatch(corpusW, 2);
  const gtm = generateBatch(gtmW, 3);
  for (const [name, w, b] of [['n-best', nbestW, nbest], ['corpus', corpusW, corpus], ['GTM', gtmW, gtm]] as const) {
    console.log(describeWorkload(name, w, b));
  }

  // Warm up past the baseline tier on a small batch, as every worker should.
  const warm = generateBatch({ ...corpusW, segments: 2000 }, 5);
  engine.editDistances(warm, { alignment: true });
  engine.gtmRunStats(warm, 2);

  // Each case is set up right before it runs: the kernel-only cases lay their inputs out in a fresh instance.
  const kernelOnly = (batch: EditBatch, alignment: boolean) => () => {
    const call = distanceKernelCall(batch, alignment);
    call();
    return call;
  };
  const cases: [string, number, () => () => unknown][] = [
    ['WER distances       n-best  kernel', 1e6, kernelOnly(nbest, false)],
    ['WER distances+align n-best  kernel', 1e6, kernelOnly(nbest, true)],
    ['WER distances       n-best  api   ', 1e6, () => () => engine.editDistances(nbest)],
    ['WER distances+align n-best  api   ', 1e6, () => () => engine.editDistances(nbest, { alignment: true })],
    ['WER distances       corpus  kernel', 1e5, kernelOnly(corpus, false)],
    ['WER distances+align corpus  kernel', 1e5, kernelOnly(corpus, true)],
    ['WER distances+align corpus  api   ', 1e5, () => () => engine.editDistances(corpus, { alignment: true })],
    ['GTM e=2             n-best  api   ', 1e4, () => () => engine.gtmRunStats(gtm, 2)],
  ];
  for (const [name, hyps, setup] of cases) {
    const call = setup();
    const bench = new Bench({ iterations: 8, time: 0, warmupIterations: 2, warmupTime: 0, throws: true });
    bench.add(name, call);
    await bench.run();
    const result = bench.tasks[0].result;
    const median = result.state === 'completed' ? result.latency.p50 : NaN;
    const cpu = medianCpuMs(call, 5);
    console.log(
      `${name}  median ${median.toFixed(1).padStart(8)} ms  ${(hyps / (median / 1000) / 1e6).toFixed(3).padStart(7)} M hyps/s`
      + `   cpu ${cpu.toFixed(1).padStart(8)} ms  ${(hyps / (cpu / 1000) / 1e6).toFixed(3).padStart(7)} M hyps/s`,
    );
  }
}
