/**
 * Reference implementation (oracle) of the n-gram statistics contract of `src/wasm/ngram.ts`: the plain
 * TypeScript bodies the WebAssembly kernels replaced, kept as the definition of their results. Property tests
 * assert that the kernels give exactly these rows. Slow on purpose: string keys, one Map per order.
 *
 * One change from the original bodies: the log of the information weights is injectable (`log2Ratio`), so tests
 * can use the kernels' own `log` and compare weights bit for bit; the default is `log(x) / log(2)`, the formula of
 * Python's `math.log(x, 2)` that NLTK uses (the original called `Math.log2`, which rounds differently).
 */
import type { Csr } from '../../src/text/csr.js';
import type { NgramBatch, NgramWeights } from '../../src/wasm/ngram.js';

const key = (t: ArrayLike<number>, start: number, n: number): string => {
  let k = '';
  for (let i = 0; i < n; i++) k += (i ? ',' : '') + t[start + i];
  return k;
};

function countNgrams(t: Int32Array, from: number, to: number, maxOrder: number): Map<string, number>[] {
  const maps: Map<string, number>[] = [];
  for (let n = 1; n <= maxOrder; n++) {
    const m = new Map<string, number>();
    for (let i = from; i + n <= to; i++) {
      const k = key(t, i, n);
      m.set(k, (m.get(k) ?? 0) + 1);
    }
    maps.push(m);
  }
  return maps;
}

function segmentOf(batch: NgramBatch, h: number): number {
  return batch.hypSegment === null ? h : batch.hypSegment[h];
}

/**
 * Clipped n-gram counts against references max-merged per n-gram (BLEU, mteval NIST).
 * Row per hypothesis, `2 * maxOrder` columns (or `3 * maxOrder` with `weights`):
 * `correct_1..N`, `total_1..N`, then `info_1..N` = Σ weight(g) · clipped count(g).
 */
export function clippedNgramCounts(batch: NgramBatch, maxOrder: number, weights?: NgramWeights): Float64Array {
  const nHyp = batch.hyps.offsets.length - 1;
  const width = (weights ? 3 : 2) * maxOrder;
  const out = new Float64Array(nHyp * width);
  let cachedSeg = -1;
  let refMax: Map<string, number>[] = [];
  for (let h = 0; h < nHyp; h++) {
    const s = segmentOf(batch, h);
    if (s !== cachedSeg) {
      cachedSeg = s;
      refMax = Array.from({ length: maxOrder }, () => new Map<string, number>());
      for (let r = batch.segRefOffsets[s]; r < batch.segRefOffsets[s + 1]; r++) {
        const counts = countNgrams(batch.refs.tokens, batch.refs.offsets[r], batch.refs.offsets[r + 1], maxOrder);
        counts.forEach((m, n) => {
          for (const [k, c] of m) refMax[n].set(k, Math.max(refMax[n].get(k) ?? 0, c));
        });
      }
    }
    const t = batch.hyps.tokens;
    const from = batch.hyps.offsets[h];
    const to = batch.hyps.offsets[h + 1];
    const row = h * width;
    for (let n = 1; n <= maxOrder; n++) {
      const used = new Map<string, number>();
      for (let i = from; i + n <= to; i++) {
        const k = key(t, i, n);
        const u = used.get(k) ?? 0;
        out[row + maxOrder + n - 1]++;
        if (u < (refMax[n - 1].get(k) ?? 0)) {
          used.set(k, u + 1);
          out[row + n - 1]++;
          if (weights) out[row + 2 * maxOrder + n - 1] += weights.weight(t, i, n);
        }
      }
    }
  }
  return out;
}

/**
 * Clipped n-gram counts against each reference separately (chrF, NLTK NIST).
 * One row per (hypothesis, reference of its segment), hypothesis-major, references in order; `3 * maxOrder`
 * columns (`4 * maxOrder` with `weights`): `match_1..N`, `hypTotal_1..N`, `refTotal_1..N`, then `info_1..N`.
 * Returns the rows and `rowOffsets` (rows of hypothesis `h` are `rowOffsets[h] .. rowOffsets[h + 1]`).
 */
export function perReferenceNgramCounts(
  batch: NgramBatch,
  maxOrder: number,
  weights?: NgramWeights,
): { rows: Float64Array; rowOffsets: Int32Array } {
  const nHyp = batch.hyps.offsets.length - 1;
  const width = (weights ? 4 : 3) * maxOrder;
  const rowOffsets = new Int32Array(nHyp + 1);
  for (let h = 0; h < nHyp; h++) {
    const s = segmentOf(batch, h);
    rowOffsets[h + 1] = rowOffsets[h] + batch.segRefOffsets[s + 1] - batch.segRefOffsets[s];
  }
  const rows = new Float64Array(rowOffsets[nHyp] * width);
  for (let h = 0; h < nHyp; h++) {
    const s = segmentOf(batch, h);
    const hyp = countNgrams(batch.hyps.tokens, batch.hyps.offsets[h], batch.hyps.offsets[h + 1], maxOrder);
    for (let r = batch.segRefOffsets[s], j = rowOffsets[h]; r < batch.segRefOffsets[s + 1]; r++, j++) {
      const ref = countNgrams(batch.refs.tokens, batch.refs.offsets[r], batch.refs.offsets[r + 1], maxOrder);
      const row = j * width;
      for (let n = 0; n < maxOrder; n++) {
        for (const [k, c] of hyp[n]) {
          rows[row + maxOrder + n] += c;
          const m = Math.min(c, ref[n].get(k) ?? 0);
          rows[row + n] += m;
          if (weights && m > 0) {
            const ids = k.split(',').map(Number);
            rows[row + 3 * maxOrder + n] += m * weights.weight(ids, 0, n + 1);
          }
        }
        for (const c of ref[n].values()) rows[row + 2 * maxOrder + n] += c;
      }
    }
  }
  return { rows, rowOffsets };
}

/** `log2(numerator / denominator)` as NLTK computes it (`math.log(x, 2)` = `log(x) / log(2)`). */
export const log2RatioJs = (numerator: number, denominator: number): number =>
  Math.log(numerator / denominator) / Math.LN2;

/**
 * Builds NIST information weights from every reference of a test set (all rows of `refs`); `log2Ratio` computes
 * `log2(count(prefix) / count(n-gram))`.
 */
export function ngramWeights(
  refs: Csr,
  maxOrder: number,
  log2Ratio: (numerator: number, denominator: number) => number = log2RatioJs,
): NgramWeights {
  const counts = new Map<string, number>();
  const nRefs = refs.offsets.length - 1;
  for (let r = 0; r < nRefs; r++) {
    const m = countNgrams(refs.tokens, refs.offsets[r], refs.offsets[r + 1], maxOrder);
    for (const level of m) for (const [k, c] of level) counts.set(k, (counts.get(k) ?? 0) + c);
  }
  const totalWords = refs.tokens.length;
  return {
    maxOrder,
    weight(tokens, start, n) {
      const c = counts.get(key(tokens, start, n));
      if (c === undefined) return 0;
      const prefix = n === 1 ? totalWords : counts.get(key(tokens, start, n - 1))!;
      return log2Ratio(prefix, c);
    },
  };
}

/**
 * Moses BLEU rows (`BleuScorer`): `m_1 t_1 … m_N t_N reflen` per hypothesis, the clipped counts above and the
 * reference length of Moses' `Reference::CalcClosest` (the shorter on a tie), `CalcShortest` or `CalcAverage`
 * (`static_cast<int>(static_cast<float>(total) / size)`). Over no references these formulas give NaN (closest,
 * average) and +Infinity (shortest).
 */
export function mosesBleuRows(
  batch: NgramBatch,
  maxOrder: number,
  strategy: 'closest' | 'shortest' | 'average',
): Float64Array {
  const counts = clippedNgramCounts(batch, maxOrder);
  const n = batch.hyps.offsets.length - 1;
  const width = 2 * maxOrder + 1;
  const out = new Float64Array(n * width);
  const ro = batch.refs.offsets;
  for (let h = 0; h < n; h++) {
    for (let i = 0; i < maxOrder; i++) {
      out[h * width + 2 * i] = counts[h * 2 * maxOrder + i];
      out[h * width + 2 * i + 1] = counts[h * 2 * maxOrder + maxOrder + i];
    }
    const s = segmentOf(batch, h);
    const lengths: number[] = [];
    for (let r = batch.segRefOffsets[s]; r < batch.segRefOffsets[s + 1]; r++) lengths.push(ro[r + 1] - ro[r]);
    const hypLength = batch.hyps.offsets[h + 1] - batch.hyps.offsets[h];
    let reflen: number;
    if (lengths.length === 0) {
      reflen = strategy === 'shortest' ? Infinity : NaN;
    } else if (strategy === 'shortest') {
      reflen = Math.min(...lengths);
    } else if (strategy === 'average') {
      const total = lengths.reduce((a, b) => a + b, 0);
      reflen = Math.trunc(Math.fround(Math.fround(total) / lengths.length));
    } else {
      let closest = 0;
      for (let i = 1; i < lengths.length; i++) {
        const d = Math.abs(lengths[i] - hypLength);
        const best = Math.abs(lengths[closest] - hypLength);
        if (d < best || (d === best && lengths[i] < lengths[closest])) closest = i;
      }
      reflen = lengths[closest];
    }
    out[h * width + 2 * maxOrder] = reflen;
  }
  return out;
}
