/**
 * The dense path of the clipped n-gram kernel (assembly/ngram-dense.ts): segments of at least 16 hypotheses, orders
 * 1..4, no weights, reference ids within a direct map's span. Every row is checked bit for bit against the
 * reference implementation (test/reference/ngram.ts) on the release and the debug build, on batches that mix
 * dense segments with segments of too few hypotheses or too many reference tokens (the hash-table trie), with
 * repeated n-grams (clipping), empty hypotheses and references, hypothesis ids outside the references' span (just
 * below and above it, and at the ends of the i32 range) and spans placed anywhere in the i32 range, up to its top.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantiateKernels, wasmModule, type WasmBuild } from '../src/wasm/load.js';
import { NgramEngine, type NgramBatch } from '../src/wasm/ngram.js';
import * as oracle from './reference/ngram.js';
import { batchFromSegments } from './helpers/pair-batches.js';
import { expectSameBits } from './helpers/same-bits.js';

const I32_MIN = -2147483648;
const I32_MAX = 2147483647;

/**
 * A case: token ids are `base + k` for k in the alphabet, plus (in hypotheses only) ids no reference has: just
 * outside the span of the references' ids, or at the ends of the i32 range.
 */
const caseArb = fc
  .record({
    alphabet: fc.integer({ min: 1, max: 40 }),
    base: fc.oneof(
      fc.constant(0),
      fc.constant(1e9),
      fc.constant(I32_MIN),
      fc.constant(I32_MIN + 1),
      // The span ends at (or just below) the top of the i32 range.
      fc.integer({ min: 0, max: 2 }).map((d) => I32_MAX - 40 - d),
      fc.integer({ min: I32_MIN, max: I32_MAX - 41 }),
    ),
    maxOrder: fc.integer({ min: 0, max: 5 }),
  })
  .chain(({ alphabet, base, maxOrder }) => {
    const inner = fc.integer({ min: 0, max: alphabet - 1 }).map((k) => base + k);
    const outside = fc.constantFrom(base - 1, base + alphabet, base + 41, I32_MIN, I32_MAX, 0)
      .filter((t) => t >= I32_MIN && t <= I32_MAX);
    const hypToken = fc.oneof({ arbitrary: inner, weight: 6 }, { arbitrary: outside, weight: 1 });
    const length = fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 3 }), weight: 2 },
      { arbitrary: fc.integer({ min: 4, max: 30 }), weight: 4 },
      { arbitrary: fc.integer({ min: 31, max: 120 }), weight: 1 },
    );
    const ref = length.chain((n) => fc.array(inner, { minLength: n, maxLength: n }));
    const hyp = length.chain((n) => fc.array(hypToken, { minLength: n, maxLength: n }));
    const segment = fc.record({
      refs: fc.array(ref, { minLength: 0, maxLength: 5 }),
      hyps: fc.oneof(
        { arbitrary: fc.array(hyp, { minLength: 16, maxLength: 40 }), weight: 3 },
        { arbitrary: fc.array(hyp, { minLength: 0, maxLength: 15 }), weight: 1 },
      ),
    });
    return fc.record({ segments: fc.array(segment, { minLength: 1, maxLength: 4 }), maxOrder: fc.constant(maxOrder) });
  });

const builds: [WasmBuild, number][] = [
  ['release', 200],
  ['debug', 60],
];

describe.each(builds)('dense clipped n-gram path (%s build) equals the reference implementation', (build, numRuns) => {
  const engine = new NgramEngine(instantiateKernels(wasmModule(build)));

  it('on random n-best batches, plain and through a prepared reference set', () => {
    fc.assert(
      fc.property(caseArb, ({ segments, maxOrder }) => {
        const batch = batchFromSegments(segments);
        const want = oracle.clippedNgramCounts(batch, maxOrder);
        expectSameBits(engine.clippedNgramCounts(batch, maxOrder), want, 'clipped');
        const prepared = engine.prepareReferences(batch.refs, batch.segRefOffsets);
        expectSameBits(prepared.clippedNgramCounts(batch.hyps, batch.hypSegment, maxOrder), want, 'prepared');
      }),
      { numRuns },
    );
  });

  it('on a segment whose references hold more tokens than the dense path takes, beside one it takes', () => {
    const tokens = (n: number, seed: number): number[] => Array.from({ length: n }, (_, i) => ((i * 7 + seed) % 13) * 3);
    const hyps = Array.from({ length: 20 }, (_, h) => tokens(10 + h, h));
    const batch: NgramBatch = batchFromSegments([
      { refs: [tokens(600, 1), tokens(600, 2)], hyps },
      { refs: [tokens(30, 3), tokens(25, 4)], hyps },
    ]);
    for (const maxOrder of [1, 2, 3, 4]) {
      expectSameBits(engine.clippedNgramCounts(batch, maxOrder), oracle.clippedNgramCounts(batch, maxOrder), `order ${maxOrder}`);
    }
  });

  it('at the most reference tokens the dense path takes, all distinct (the largest keys), and at one more', () => {
    // 1023 distinct tokens number n-grams of every order up to 1023, whose keys (64 × number) must still fit a u16.
    for (const tokens of [1023, 1024]) {
      const ref = Array.from({ length: tokens }, (_, i) => 5 + i);
      const hyps = Array.from({ length: 20 }, (_, h) => {
        const tail = ref.slice(ref.length - 8 - h);
        return [...tail, ...tail.slice(0, 5), ref[h], ...ref.slice(h * 7, h * 7 + 6)];
      });
      const batch = batchFromSegments([{ refs: [ref], hyps }]);
      for (const maxOrder of [1, 2, 3, 4]) {
        expectSameBits(
          engine.clippedNgramCounts(batch, maxOrder), oracle.clippedNgramCounts(batch, maxOrder), `${tokens}, order ${maxOrder}`,
        );
      }
    }
  });

  it('plans dense scratch only for segments of at least 16 hypotheses and orders 1..4', () => {
    const { kernels, memory } = engine;
    const plan = (hypsPerSegment: number, maxOrder: number): number => {
      const batch = batchFromSegments([{ refs: [[1, 2, 3], [2, 3]], hyps: Array.from({ length: hypsPerSegment }, () => [1, 2]) }]);
      const at = (kernels.heapBase() + 15) & ~15;
      memory.reserve(at + 4096);
      memory.i32.set(batch.hypSegment!, at >> 2);
      memory.i32.set(batch.refs.offsets, (at + 1024) >> 2);
      memory.i32.set(batch.segRefOffsets, (at + 2048) >> 2);
      return kernels.planDenseScratch(at, hypsPerSegment, at + 1024, at + 2048, maxOrder);
    };
    expect(plan(16, 4)).toBeGreaterThan(0);
    expect(plan(16, 1)).toBeGreaterThan(0);
    expect(plan(15, 4)).toBe(0);
    expect(plan(16, 5)).toBe(0);
    expect(plan(16, 0)).toBe(0);
  });
});
