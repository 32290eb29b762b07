/**
 * Seeded synthetic workloads shared by the kernel benchmarks: a Zipf vocabulary, segments with a hidden source
 * sentence, references that keep 75 % of its tokens (length ± 3) and hypotheses that keep 65 % of them.
 */
import type { Csr } from '../src/text/csr.js';

/** mulberry32: a small seeded PRNG with uniform output in [0, 1). */
export function prng(seed: number): () => number {
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
export function zipf(size: number, random: () => number): () => number {
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
export interface Workload {
  readonly segments: number;
  readonly hypsPerSegment: number;
  readonly refsPerSegment: number;
  /** Hypothesis length and mean reference length, in tokens. */
  readonly length: number;
  readonly vocabulary: number;
}

/** A generated batch: hypotheses grouped by segment, the references of each segment. */
export interface SyntheticBatch {
  readonly hyps: Csr;
  readonly hypSegment: Int32Array;
  readonly refs: Csr;
  readonly segRefOffsets: Int32Array;
}

/** Generates a batch (see the file comment for the model); the same seed gives the same batch. */
export function generateBatch(w: Workload, seed: number): SyntheticBatch {
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
