/**
 * Edge cases of the per-reference kernel's two paths (assembly/ngram.ts): segments of 1–4 references without
 * weights take the packed path (one i32x4 of counts per entry), others the general one. Each case is checked bit for
 * bit against the reference implementation (test/reference/ngram.ts) on the release and the debug build: batches
 * mixing segments of 0–6 references, counts far above any small integer width, orders far above the longest
 * reference, hypotheses longer than every reference, negative and extreme token ids, with and without weights (the
 * oracle takes the kernels' own `log2Ratio`, as in kernel-ngram.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { instantiateKernels, wasmModule, type WasmBuild } from '../src/wasm/load.js';
import { NgramEngine, type NgramBatch } from '../src/wasm/ngram.js';
import * as oracle from './reference/ngram.js';
import { batchFromSegments } from './helpers/pair-batches.js';
import { expectSameBits } from './helpers/same-bits.js';

/** `length` tokens drawn from `alphabet` by a fixed linear congruential sequence (deterministic cases). */
function sequence(length: number, alphabet: readonly number[], seed: number): number[] {
  let x = seed >>> 0;
  const out: number[] = [];
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out.push(alphabet[x % alphabet.length]);
  }
  return out;
}

const repeated = (token: number, n: number): number[] => Array.from({ length: n }, () => token);
const extreme = [-2147483648, -1, 0, 2147483647];

/** Segments of 0..6 references, so one batch alternates between the packed and the general path. */
const mixed = batchFromSegments(
  Array.from({ length: 7 }, (_, k) => ({
    refs: Array.from({ length: k }, (_, r) => sequence(10 + 7 * r, [0, 1, 2], 31 * k + r)),
    hyps: [sequence(12, [0, 1, 2], k), sequence(40, [0, 1, 2], 100 + k), [], sequence(3, [0, 1, 2, 3], 7 + k)],
  })),
);

/** One token repeated hundreds of times: counts above 255 in one lane, 0 in the others. */
const heavy = batchFromSegments([
  {
    refs: [repeated(5, 300), [5, 6], repeated(6, 70000 >> 8), repeated(5, 1)],
    hyps: [repeated(5, 400), repeated(6, 1), [6, 5, 5, 6], repeated(5, 299)],
  },
  { refs: [repeated(-1, 2), repeated(2147483647, 3)], hyps: [repeated(-1, 5), [2147483647, -1, 2147483647]] },
]);

/** Extreme ids, empty references and a hypothesis longer than every reference. */
const extremes = batchFromSegments([
  { refs: [[], sequence(6, extreme, 1), [], sequence(3, extreme, 2)], hyps: [sequence(50, extreme, 3), []] },
  { refs: [[]], hyps: [sequence(4, extreme, 4)] },
  { refs: [], hyps: [sequence(4, extreme, 5)] },
  { refs: [sequence(2, extreme, 6)], hyps: [sequence(2, extreme, 6), sequence(9, extreme, 7)] },
]);

const cases: [string, NgramBatch][] = [
  ['mixed reference counts', mixed],
  ['heavy repeats', heavy],
  ['extreme ids and empty rows', extremes],
];

const builds: WasmBuild[] = ['release', 'debug'];

describe.each(builds)('per-reference kernel paths (%s build)', (build) => {
  const engine = new NgramEngine(instantiateKernels(wasmModule(build)));

  it.each(cases)('%s: rows equal the reference implementation at every order', (_, batch) => {
    for (const maxOrder of [1, 2, 4, 6, 9, 1000]) {
      const got = engine.perReferenceNgramCounts(batch, maxOrder);
      const want = oracle.perReferenceNgramCounts(batch, maxOrder);
      expect(Array.from(got.rowOffsets)).toEqual(Array.from(want.rowOffsets));
      expectSameBits(got.rows, want.rows, `order ${maxOrder}`);
    }
  });

  it.each(cases)('%s: with NIST weights (general path) as well', (_, batch) => {
    for (const maxOrder of [1, 4, 7]) {
      const weights = engine.ngramWeights(batch.refs, maxOrder);
      const expectedWeights = oracle.ngramWeights(batch.refs, maxOrder, engine.kernels.log2Ratio);
      const got = engine.perReferenceNgramCounts(batch, maxOrder, weights);
      const want = oracle.perReferenceNgramCounts(batch, maxOrder, expectedWeights);
      expectSameBits(got.rows, want.rows, `order ${maxOrder} with weights`);
    }
  });

  it('prepared references give the same rows as a plain batch, across calls of both paths', () => {
    const prepared = engine.prepareReferences(mixed.refs, mixed.segRefOffsets);
    for (const maxOrder of [4, 2, 4]) {
      const got = prepared.perReferenceNgramCounts(mixed.hyps, mixed.hypSegment, maxOrder);
      expectSameBits(got.rows, oracle.perReferenceNgramCounts(mixed, maxOrder).rows, `prepared order ${maxOrder}`);
      const plain = engine.perReferenceNgramCounts(heavy, maxOrder);
      expectSameBits(plain.rows, oracle.perReferenceNgramCounts(heavy, maxOrder).rows, `interleaved order ${maxOrder}`);
    }
  });
});
