/**
 * Kernel benchmark of the n-gram statistics (order 4: BLEU clipped counts and per-reference counts), release build,
 * one core.
 *
 * Workloads (seeded, Zipf-like vocabulary of 10,000 ids): every segment has a 25-token "source" sentence; its 4
 * references are the source with 25 % of the tokens replaced and 0–3 tokens dropped or added at the end (22–28
 * tokens); its hypotheses are the source with 35 % of the tokens replaced (25 tokens), so that n-grams of every
 * order match at realistic rates.
 *   - n-best: 1,000 segments × 1,000 hypotheses (1M hypotheses), each segment's table built once for its 1,000.
 *   - corpus (WMT-like): 100,000 segments × 1 hypothesis: one table built per hypothesis.
 * The per-reference kernel (chrF, ROUGE-N; 4 rows per hypothesis) runs on a 100-segment n-best list and the corpus.
 * Scopes: `kernel` = the kernel call alone with inputs already in linear memory; `api` = `clippedNgramCounts` as
 * metrics call it (checks, copy-in of tokens, copy-out of rows); `prepared` = a prepared reference set (copy-in of
 * the hypotheses only, references resident). Each line gives the wall-clock median (tinybench) and the mean CPU
 * time of the process per call, which is the steadier figure on a shared, loaded machine.
 *
 * Run: npx tsx -e "import('./bench/kernel.ts').then(m=>m.benchKernel())"
 */
import { Bench } from 'tinybench';
import { Layout } from '../src/wasm/linear-memory.js';
import { instantiateKernels, wasmModule } from '../src/wasm/load.js';
import { NgramEngine, type NgramBatch } from '../src/wasm/ngram.js';
import { generateBatch, type Workload } from './workload.js';


/** Lays a batch out in an engine's memory once and returns a call of the bare kernel on it. */
function residentKernelCall(engine: NgramEngine, batch: NgramBatch, maxOrder: number): () => void {
  const { kernels, memory } = engine;
  const nHyps = batch.hyps.offsets.length - 1;
  const nSegments = batch.segRefOffsets.length - 1;
  const layout = new Layout(kernels.heapBase());
  const arrays = [batch.hyps.tokens, batch.hyps.offsets, batch.hypSegment!, batch.refs.tokens, batch.refs.offsets, batch.segRefOffsets];
  const at = arrays.map((a) => layout.place(a.byteLength));
  const capacities = layout.place(4 * nSegments);
  memory.reserve(layout.end);
  arrays.forEach((a, i) => memory.i32.set(a, at[i] >> 2));
  const largest = kernels.planSegmentTables(at[4], at[5], nSegments, maxOrder, capacities);
  // The dense path's scratch and direct token map, as the engine lays them out (the ids are dense: 0..vocabulary).
  const denseBytes = kernels.planDenseScratch(at[2], nHyps, at[4], at[5], maxOrder);
  const tableBytes = Math.max(kernels.ngramTableBytes(largest), denseBytes);
  let firstId = 0;
  let idCount = 0;
  if (denseBytes > 0) {
    firstId = batch.refs.tokens.reduce((a, b) => Math.min(a, b));
    idCount = batch.refs.tokens.reduce((a, b) => Math.max(a, b)) - firstId + 1;
  }
  const table = layout.place(tableBytes);
  const localIds = idCount > 0 ? layout.place((idCount + 1) * 2) : 0;
  const out = layout.place(nHyps * 2 * maxOrder * 8);
  memory.reserve(layout.end);
  return () => kernels.clippedNgramCounts(
    at[0], at[1], nHyps, at[2], at[3], at[4], at[5], capacities, maxOrder, 0, 0, table, tableBytes, localIds,
    firstId, idCount, out,
  );
}

/**
 * As {@link residentKernelCall}, for the per-reference kernel (chrF, ROUGE-N): one row per (hypothesis, reference),
 * scratch laid out as `src/wasm/ngram-engine.ts` does.
 */
function residentPerReferenceCall(engine: NgramEngine, batch: NgramBatch, maxOrder: number): () => void {
  const { kernels, memory } = engine;
  const nHyps = batch.hyps.offsets.length - 1;
  const seg = batch.segRefOffsets;
  const nSegments = seg.length - 1;
  const rowOffsets = new Int32Array(nHyps + 1);
  for (let h = 0; h < nHyps; h++) rowOffsets[h + 1] = rowOffsets[h] + seg[batch.hypSegment![h] + 1] - seg[batch.hypSegment![h]];
  const layout = new Layout(kernels.heapBase());
  const arrays = [batch.hyps.tokens, batch.hyps.offsets, batch.hypSegment!, batch.refs.tokens, batch.refs.offsets, seg, rowOffsets];
  const at = arrays.map((a) => layout.place(a.byteLength));
  const capacities = layout.place(4 * nSegments);
  memory.reserve(layout.end);
  arrays.forEach((a, i) => memory.i32.set(a, at[i] >> 2));
  const largest = kernels.planSegmentTables(at[4], at[5], nSegments, maxOrder, capacities);
  let countWords = 0;
  for (let s = 0; s < nSegments; s++) {
    countWords = Math.max(countWords, memory.u32[(capacities >> 2) + s] * Math.max(seg[s + 1] - seg[s], 4));
  }
  const table = layout.place(kernels.ngramTableBytes(largest));
  const counts = layout.place(countWords * 4);
  const list = layout.place(largest * 8);
  const out = layout.place(rowOffsets[nHyps] * 3 * maxOrder * 8);
  memory.reserve(layout.end);
  return () => kernels.perReferenceNgramCounts(
    at[0], at[1], nHyps, at[2], at[3], at[4], at[5], capacities, maxOrder, 0, 0, at[6], table, counts, list, out,
  );
}

/** Describes a workload the way every Palette benchmark prints it. */
function describeWorkload(name: string, w: Workload, batch: NgramBatch): string {
  const nHyps = batch.hyps.offsets.length - 1;
  return `${name}: ${nHyps.toLocaleString('en')} hypotheses × ${w.length} tokens (${batch.hyps.tokens.length.toLocaleString('en')} tokens), `
    + `${w.segments.toLocaleString('en')} segments × ${w.refsPerSegment} references of ${w.length - 3}–${w.length + 3} tokens `
    + `(${batch.refs.tokens.length.toLocaleString('en')} tokens), vocabulary ${w.vocabulary.toLocaleString('en')} (Zipf), BLEU order 4`;
}

/** Runs the kernel benchmark and prints workloads, medians and hypotheses per second. */
export async function benchKernel(): Promise<void> {
  const maxOrder = 4;
  const engine = new NgramEngine(instantiateKernels(wasmModule('release')));
  const nbestW: Workload = { segments: 1000, hypsPerSegment: 1000, refsPerSegment: 4, length: 25, vocabulary: 10000 };
  const corpusW: Workload = { segments: 100000, hypsPerSegment: 1, refsPerSegment: 4, length: 25, vocabulary: 10000 };
  // Per-reference rows are 4 per hypothesis: a smaller n-best list (bench/rouge.ts part 3's shape).
  const nbestPerRefW: Workload = { ...nbestW, segments: 100 };
  const nbest = generateBatch(nbestW, 1);
  const corpus = generateBatch(corpusW, 2);
  const nbestPerRef = generateBatch(nbestPerRefW, 4);
  console.log(describeWorkload('n-best', nbestW, nbest));
  console.log(describeWorkload('corpus', corpusW, corpus));
  console.log(describeWorkload('n-best per-reference', nbestPerRefW, nbestPerRef).replace('BLEU order 4', 'orders 1–4, one row per (hypothesis, reference)'));

  // Warm up past the baseline tier on a small batch, as every worker should.
  engine.clippedNgramCounts(generateBatch({ ...corpusW, segments: 2000 }, 3), maxOrder);

  // Each case is set up right before it runs: the kernel-only cases lay their inputs out in a fresh instance.
  const kernelOnly = (batch: NgramBatch, resident = residentKernelCall) => () => {
    const own = new NgramEngine(instantiateKernels(wasmModule('release')));
    const call = resident(own, batch, maxOrder);
    call();
    return call;
  };
  const cases: [string, number, () => () => unknown][] = [
    ['n-best  kernel  ', 1e6, kernelOnly(nbest)],
    ['n-best  api     ', 1e6, () => () => engine.clippedNgramCounts(nbest, maxOrder)],
    ['n-best  prepared', 1e6, () => {
      const prepared = engine.prepareReferences(nbest.refs, nbest.segRefOffsets);
      return () => prepared.clippedNgramCounts(nbest.hyps, nbest.hypSegment, maxOrder);
    }],
    ['corpus  kernel  ', 1e5, kernelOnly(corpus)],
    ['corpus  api     ', 1e5, () => () => engine.clippedNgramCounts(corpus, maxOrder)],
    ['corpus  prepared', 1e5, () => {
      const prepared = engine.prepareReferences(corpus.refs, corpus.segRefOffsets);
      return () => prepared.clippedNgramCounts(corpus.hyps, corpus.hypSegment, maxOrder);
    }],
    ['n-best  per-reference kernel', 1e5, kernelOnly(nbestPerRef, residentPerReferenceCall)],
    ['n-best  per-reference api   ', 1e5, () => () => engine.perReferenceNgramCounts(nbestPerRef, maxOrder)],
    ['corpus  per-reference kernel', 1e5, kernelOnly(corpus, residentPerReferenceCall)],
    ['corpus  per-reference api   ', 1e5, () => () => engine.perReferenceNgramCounts(corpus, maxOrder)],
  ];
  for (const [name, hyps, setup] of cases) {
    const run = setup();
    let calls = 0;
    const bench = new Bench({ iterations: 8, time: 0, warmupIterations: 2, warmupTime: 0, throws: true });
    bench.add(name, () => {
      calls++;
      run();
    });
    const cpuBefore = process.cpuUsage();
    await bench.run();
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000 / calls;
    const result = bench.tasks[0].result;
    const median = result.state === 'completed' ? result.latency.p50 : NaN;
    const rate = (ms: number): string => `${(hyps / (ms / 1000) / 1e6).toFixed(2).padStart(5)} M hyps/s`;
    console.log(`${name}  wall median ${median.toFixed(1).padStart(7)} ms = ${rate(median)}   cpu mean ${cpuMs.toFixed(1).padStart(7)} ms = ${rate(cpuMs)}`);
  }
}
