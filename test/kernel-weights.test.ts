/**
 * NIST information weights of the kernels: the log they use against CPython's `math.log(p / c, 2)` (NLTK's
 * formula), and the weights of a small worked example.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { csrFromArrays } from '../src/text/csr.js';
import { instantiateKernels, wasmModule } from '../src/wasm/load.js';
import { NgramEngine } from '../src/wasm/ngram.js';

const kernels = instantiateKernels(wasmModule('release'));

/** The float64 bits of `x` as a BigInt. */
function bitsOf(x: number): bigint {
  return new BigUint64Array(Float64Array.of(x).buffer)[0];
}

/**
 * Ratios where glibc's FMA variant of `log` (the one CPython calls on x86-64 with FMA) rounds differently from the
 * portable algorithm of the kernels (same table-driven method, no fused multiply-add in WebAssembly): one ulp.
 */
const FMA_ROUNDING: readonly string[] = ['154 139', '245 46', '296 279', '302 285', '308 278', '355 326'];

describe('log2Ratio (the weights\' log) against CPython math.log(p / c, 2)', () => {
  // Source: test/fixtures/nist-log2/SOURCE.md (CPython 3.11.7, glibc 2.36).
  const lines = readFileSync(new URL('./fixtures/nist-log2/log2-ratio.txt', import.meta.url), 'utf8').trim().split('\n');

  it('is bit-identical on every ratio except the listed FMA rounding cases', () => {
    const mismatches: string[] = [];
    for (const line of lines) {
      const [p, c, hex] = line.split(' ');
      if (FMA_ROUNDING.includes(`${p} ${c}`)) continue;
      if (bitsOf(kernels.log2Ratio(Number(p), Number(c))) !== BigInt(`0x${hex}`)) mismatches.push(line);
    }
    expect(lines.length).toBe(3586);
    expect(mismatches).toEqual([]);
  });

  it('differs by exactly one ulp on the FMA rounding cases', () => {
    for (const pair of FMA_ROUNDING) {
      const line = lines.find((l) => l.startsWith(`${pair} `));
      expect(line, pair).toBeDefined();
      const [p, c, hex] = line!.split(' ');
      const diff = bitsOf(kernels.log2Ratio(Number(p), Number(c))) - BigInt(`0x${hex}`);
      expect(diff === 1n || diff === -1n, `${pair}: ${diff} ulp`).toBe(true);
    }
  });
});

describe('ngramWeights', () => {
  const engine = new NgramEngine(kernels);
  // References "a b a" and "a b c" (a=0, b=1, c=2): 6 tokens; a×3, b×2, c×1; "a b"×2, "b a"×1, "b c"×1.
  const refs = csrFromArrays([[0, 1, 0], [0, 1, 2]]);
  const weights = engine.ngramWeights(refs, 3);

  it('weights unigrams by the total number of reference tokens', () => {
    expect(weights.weight([0], 0, 1)).toBe(kernels.log2Ratio(6, 3));
    expect(weights.weight([2], 0, 1)).toBe(kernels.log2Ratio(6, 1));
    expect(weights.weight([2], 0, 1)).toBeCloseTo(Math.log2(6), 14);
  });

  it('weights longer n-grams by the count of their prefix', () => {
    expect(weights.weight([0, 1], 0, 2)).toBe(kernels.log2Ratio(3, 2));
    expect(weights.weight([1, 2], 0, 2)).toBe(kernels.log2Ratio(2, 1));
    expect(weights.weight([9, 0, 1, 0], 1, 3)).toBe(kernels.log2Ratio(2, 1));
  });

  it('gives 0 to n-grams absent from the references, to n = 0, past the tokens, and beyond maxOrder', () => {
    expect(weights.weight([2, 0], 0, 2)).toBe(0);
    expect(weights.weight([7], 0, 1)).toBe(0);
    expect(weights.weight([0], 0, 0)).toBe(0);
    expect(weights.weight([0, 1], 1, 2)).toBe(0);
    expect(weights.weight([0, 1], -1, 1)).toBe(0);
    expect(engine.ngramWeights(refs, 1).weight([0, 1], 0, 2)).toBe(0);
  });

  it('caches the weights in the segment tables: info_n of clipped counts sums them', () => {
    const batch = { hyps: csrFromArrays([[0, 1, 2, 2]]), hypSegment: null, refs, segRefOffsets: Int32Array.of(0, 2) };
    const row = engine.clippedNgramCounts(batch, 2, weights);
    // correct: a, b, c (the second c is clipped); "a b", "b c".
    expect(Array.from(row.subarray(0, 4))).toEqual([3, 2, 4, 3]);
    expect(row[4]).toBe(kernels.log2Ratio(6, 3) + kernels.log2Ratio(6, 2) + kernels.log2Ratio(6, 1));
    expect(row[5]).toBe(kernels.log2Ratio(3, 2) + kernels.log2Ratio(2, 1));
  });

  it('works with an empty reference set (every weight 0)', () => {
    const empty = engine.ngramWeights(csrFromArrays([]), 4);
    expect(empty.weight([0], 0, 1)).toBe(0);
  });
});
