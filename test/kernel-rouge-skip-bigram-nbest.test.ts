/**
 * The skip-bigram kernel on n-best shaped batches against the plain reference (test/reference/rouge.ts), on the
 * release and the debug build: many hypotheses per segment, built from their references' tokens (repeated ones
 * included) and from tokens no reference holds, empty hypotheses and references, segments whose tables grow and
 * shrink along a call, gaps from 0 to unlimited, every unigram mode. Each batch runs on engines that reach every
 * path: local ids by token id (small ids) or by hashed token (ids moved past 1e9), direct pair tables for every
 * segment, for none, and for the small ones — each engine having first run a larger call, so that its memory holds
 * stale counts and stamps where the next call's tables go.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantiateKernels, wasmModule, type WasmBuild } from '../src/wasm/load.js';
import { RougeEngine, type RougeBatch, type RougeKernelExports, type SkipBigramUnigrams } from '../src/wasm/rouge.js';
import { batchFromSegments } from './helpers/pair-batches.js';
import * as oracle from './reference/rouge.js';

/** One segment: 0–4 references over a vocabulary of `v` ids, hypotheses mixing their tokens with unseen ones. */
const segmentArb = fc.integer({ min: 1, max: 40 }).chain((v) => {
  const token = fc.integer({ min: 0, max: v - 1 });
  // Tokens past the references' vocabulary (v .. v + 9) are in no reference of the segment.
  const unseen = fc.integer({ min: v, max: v + 9 });
  const reference = fc.oneof(
    { arbitrary: fc.array(token, { minLength: 0, maxLength: 12 }), weight: 4 },
    { arbitrary: fc.array(token, { minLength: 30, maxLength: 70 }), weight: 1 },
  );
  const hypothesis = fc.array(fc.oneof({ arbitrary: token, weight: 3 }, { arbitrary: unseen, weight: 1 }), {
    minLength: 0,
    maxLength: 30,
  });
  return fc.record({
    refs: fc.array(reference, { minLength: 0, maxLength: 4 }),
    hyps: fc.array(hypothesis, { minLength: 1, maxLength: 12 }),
  });
});

/** Ids as given (small: indexed directly), or moved past 1e9 with the same equalities (hashed). */
const idsArb = fc.constantFrom<(t: number) => number>((t) => t, (t) => 1e9 + 7 * t);

const batchArb: fc.Arbitrary<RougeBatch> = fc
  .record({ segments: fc.array(segmentArb, { minLength: 1, maxLength: 5 }), ids: idsArb })
  .map(({ segments, ids }) =>
    batchFromSegments(segments.map((s) => ({ refs: s.refs.map((r) => r.map(ids)), hyps: s.hyps.map((h) => h.map(ids)) }))));

const gapArb = fc.constantFrom(-1, 0, 1, 3, 4, 8, 2 ** 31 - 1);
const unigramsArb = fc.constantFrom<SkipBigramUnigrams>('none', 'all', 'rouge155');

/** A call larger than any the property makes, whose leftovers the next call must not read. */
const LARGE: RougeBatch = batchFromSegments([
  {
    refs: [Array.from({ length: 200 }, (_, i) => i % 97), Array.from({ length: 150 }, (_, i) => (i * 7) % 89)],
    hyps: Array.from({ length: 20 }, (_, h) => Array.from({ length: 60 }, (_, i) => (i * (h + 3)) % 101)),
  },
]);

for (const build of ['release', 'debug'] as WasmBuild[]) {
  describe(`skip-bigram counts on n-best batches = the reference (${build} build)`, () => {
    const engine = (directPairEntries?: number): RougeEngine =>
      new RougeEngine(instantiateKernels(wasmModule(build)) as RougeKernelExports, { directPairEntries });
    const engines = [engine(), engine(0), engine(30), engine(200)];

    it('every gap and unigram mode, ids direct and hashed, pair tables direct, hashed and mixed', () => {
      fc.assert(
        fc.property(batchArb, gapArb, unigramsArb, (batch, maxGap, unigrams) => {
          const expected = oracle.skipBigramCounts(batch, { maxGap, unigrams });
          for (const e of engines) {
            e.skipBigramCounts(LARGE, { maxGap: -1, unigrams: 'all' });
            expect(e.skipBigramCounts(batch, { maxGap, unigrams })).toEqual(expected);
          }
        }),
        { numRuns: 120 },
      );
    });
  });
}
