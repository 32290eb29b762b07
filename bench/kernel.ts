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
import { type Csr } from '../src/corpus/csr.js';
import { Layout } from '../src/wasm/linear-memory.js';
import { instantiateKernels, wasmModule } from '../src/wasm/load.js';
import { NgramEngine, type NgramBatch } from '../src/wasm/ngram.js';

/** mulberry32: a small seeded PRNG with uniform output in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sampler of ids `0 .. size` with probability ∝ 1 / (rank + 1) (Zipf, s = 1). */
function zipf(size: number, random: () => number): () => number {
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let r = 0; r < size; r++) cumulative[r] = total += 1 / (r + 1);
  return () => {
    const u = random() * total;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Parameters of a generated workload. */
interface Workload {
  readonly segments: number;
  readonly hypsPerSegment: number;
  readonly refsPerSegment: number;
  readonly length: number;
  readonly vocabulary: number;
}

/** Generates a batch (see the file comment for the model). */
function generate(w: Workload, seed: number): NgramBatch {
  const random = prng(seed);
  const word = zipf(w.vocabulary, random);
  const nHyps = w.segments * w.hypsPerSegment;
  const nRefs = w.segments * w.refsPerSegment;
  const hypTokens = new Int32Array(nHyps * w.length);
  const hypOffsets = new Int32Array(nHyps + 1);
  const hypSegment = new Int32Array(nHyps);
  const refTokens = new Int32Array(nRefs * (w.length + 3));
  const refOffsets = new Int32Array(nRefs + 1);
  const segRefOffsets = new Int32Array(w.segments + 1);
  const source = new Int32Array(w.length);
  let h = 0;
  let r = 0;
  for (let s = 0; s < w.segments; s++) {
    for (let i = 0; i < w.length; i++) source[i] = word();
    for (let j = 0; j < w.refsPerSegment; j++, r++) {
      let at = refOffsets[r];
      const length = w.length + Math.floor(random() * 7) - 3;
      for (let i = 0; i < length; i++) refTokens[at++] = i < w.length && random() >= 0.25 ? source[i] : word();
      refOffsets[r + 1] = at;
    }
    segRefOffsets[s + 1] = r;
    for (let j = 0; j < w.hypsPerSegment; j++, h++) {
      let at = hypOffsets[h];
      for (let i = 0; i < w.length; i++) hypTokens[at++] = random() >= 0.35 ? source[i] : word();
      hypOffsets[h + 1] = at;
      hypSegment[h] = s;
    }
  }
  const hyps: Csr = { tokens: hypTokens, offsets: hypOffsets };
  const refs: Csr = { tokens: refTokens.slice(0, refOffsets[nRefs]), offsets: refOffsets };
  return { hyps, hypSegment, refs, segRefOffsets };
}

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
  const table = layout.place(kernels.ngramTableBytes(largest));
  const out = layout.place(nHyps * 2 * maxOrder * 8);
  memory.reserve(layout.end);
  return () => kernels.clippedNgramCounts(
    at[0], at[1], nHyps, at[2], at[3], at[4], at[5], capacities, maxOrder, 0, 0, table, out,
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
  const nbest = generate(nbestW, 1);
  const corpus = generate(corpusW, 2);
  const nbestPerRef = generate(nbestPerRefW, 4);
  console.log(describeWorkload('n-best', nbestW, nbest));
  console.log(describeWorkload('corpus', corpusW, corpus));
  console.log(describeWorkload('n-best per-reference', nbestPerRefW, nbestPerRef).replace('BLEU order 4', 'orders 1–4, one row per (hypothesis, reference)'));

  // Warm up past the baseline tier on a small batch, as every worker should.
  engine.clippedNgramCounts(generate({ ...corpusW, segments: 2000 }, 3), maxOrder);

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
