/**
 * The edit kernels against the plain reference implementations (test/reference/edit.ts), value for value, on the
 * release and the debug build: Levenshtein distances of every (hypothesis, reference) pair, jiwer's alignment counts
 * against the closest reference, GTM's greedy run statistics (exponents 1, 2, 3 and 1.5). Inputs: dense small
 * vocabularies (1–4 ids: many ties between alignments), extreme i32 ids, sparse vocabularies with long sequences;
 * lengths 0/1, around 31/32/33 (32-bit lanes), 63/64/65 and 127/128/129 (64-bit lanes, one, two and three vector
 * words) and up to 260; 0–5 or 9–12 references per segment, several hypotheses per segment, empty hypotheses and
 * references; ids small enough to index the match vectors directly and large ones that go through the token table.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csrFromArrays } from '../src/text/csr.js';
import { EditEngine, type EditBatch, type EditKernelExports } from '../src/wasm/edit.js';
import { instantiateKernels, wasmModule, type WasmBuild } from '../src/wasm/load.js';
import { batchFromSegments, idsArb, pairBatchArbitrary, sequenceArbitrary } from './helpers/pair-batches.js';
import * as oracle from './reference/edit.js';

/** Lengths: mostly short, sometimes at the lane and word boundaries of the bit vectors. */
const lengthArb = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 6 }), weight: 8 },
  { arbitrary: fc.integer({ min: 7, max: 30 }), weight: 3 },
  { arbitrary: fc.constantFrom(0, 1, 31, 32, 33, 63, 64, 65, 127, 128, 129), weight: 2 },
);

const sequenceArb = sequenceArbitrary(lengthArb);
const batchArb: fc.Arbitrary<EditBatch> = pairBatchArbitrary(sequenceArb);

/**
 * A hypothesis made from its reference by a few random edits (so that alignments are long and mostly matches,
 * with the common prefix and suffix RapidFuzz cuts), over a small vocabulary.
 */
const nearBatchArb: fc.Arbitrary<EditBatch> = fc
  .record({
    vocabulary: fc.integer({ min: 1, max: 4 }),
    length: lengthArb,
    edits: fc.array(fc.record({ at: fc.nat(), kind: fc.integer({ min: 0, max: 2 }), token: fc.nat(3) }), { maxLength: 8 }),
  })
  .chain(({ vocabulary, length, edits }) =>
    fc.array(fc.integer({ min: 0, max: vocabulary - 1 }), { minLength: length, maxLength: length }).map((ref) => {
      const hyp = [...ref];
      for (const { at, kind, token } of edits) {
        const i = hyp.length === 0 ? 0 : at % (hyp.length + (kind === 1 ? 1 : 0));
        if (kind === 0 && i < hyp.length) hyp[i] = token % vocabulary;
        else if (kind === 1) hyp.splice(i, 0, token % vocabulary);
        else if (i < hyp.length) hyp.splice(i, 1);
      }
      return {
        hyps: csrFromArrays([hyp]), hypSegment: null, refs: csrFromArrays([ref]), segRefOffsets: Int32Array.from([0, 1]),
      };
    }));

/**
 * n-best lists: segments of 1–8 references of up to 64 tokens (the lane layouts, whose hypotheses the kernel runs
 * two at a time, the longer one finished alone) with 1–9 hypotheses each, made from a reference by a few edits
 * (long matched stretches, deletion runs, insertions at both ends) or drawn freely, so that hypotheses of one pair
 * differ in length and in which reference is closest; ids small enough to index the match vectors, or not.
 */
const nbestBatchArb: fc.Arbitrary<EditBatch> = fc
  .record({ vocabulary: fc.integer({ min: 1, max: 6 }), ids: idsArb })
  .chain(({ vocabulary, ids }) => {
    const token = fc.integer({ min: 0, max: vocabulary - 1 });
    const refLength = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom(31, 32, 33, 62, 63, 64));
    const ref = refLength.chain((n) => fc.array(token, { minLength: n, maxLength: n }));
    const edit = fc.record({ at: fc.nat(), kind: fc.integer({ min: 0, max: 3 }), token, length: fc.integer({ min: 1, max: 5 }) });
    const segment = fc.array(ref, { minLength: 1, maxLength: 8 }).chain((refs) => {
      const derived = fc.record({ from: fc.nat(refs.length - 1), edits: fc.array(edit, { maxLength: 6 }) }).map(({ from, edits }) => {
        const hyp = [...refs[from]];
        for (const { at, kind, token: t, length } of edits) {
          const i = at % (hyp.length + 1);
          if (kind === 0 && i < hyp.length) hyp[i] = t;
          else if (kind === 1) hyp.splice(i, 0, ...Array<number>(length).fill(t));
          else hyp.splice(i, length);
        }
        return hyp.slice(0, 70);
      });
      const free = fc.integer({ min: 0, max: 45 }).chain((n) => fc.array(token, { minLength: n, maxLength: n }));
      return fc.array(fc.oneof({ arbitrary: derived, weight: 3 }, { arbitrary: free, weight: 1 }), { minLength: 1, maxLength: 9 })
        .map((hyps) => ({ refs: refs.map((r) => r.map(ids)), hyps: hyps.map((h) => h.map(ids)) }));
    });
    return fc.array(segment, { minLength: 1, maxLength: 3 }).map((segments) => batchFromSegments(segments));
  });

const BUILDS: WasmBuild[] = ['release', 'debug'];

describe.each(BUILDS)('edit kernels (%s build) equal the reference implementations', (build) => {
  const engine = new EditEngine(instantiateKernels(wasmModule(build)) as EditKernelExports);

  it('distances of every pair, and alignment counts against the closest reference', () => {
    fc.assert(
      fc.property(batchArb, fc.boolean(), (batch, alignment) => {
        const got = engine.editDistances(batch, { alignment });
        const want = oracle.editDistances(batch, alignment);
        expect(got.rowOffsets).toEqual(want.rowOffsets);
        expect(got.distances).toEqual(want.distances);
        expect(got.ops).toEqual(want.ops);
      }),
      { numRuns: 250 },
    );
  });

  it('alignment counts of near-identical pairs (long common affixes, many tied alignments)', () => {
    fc.assert(
      fc.property(nearBatchArb, (batch) => {
        expect(engine.editDistances(batch, { alignment: true })).toEqual(oracle.editDistances(batch, true));
      }),
      { numRuns: 300 },
    );
  });

  it('distances and alignment counts of n-best lists (hypotheses of a segment two at a time)', () => {
    fc.assert(
      fc.property(nbestBatchArb, fc.boolean(), (batch, alignment) => {
        expect(engine.editDistances(batch, { alignment })).toEqual(oracle.editDistances(batch, alignment));
      }),
      { numRuns: 300 },
    );
  });

  it('alignment counts are consistent: S+D+I = distance, H+S+D = reference length, H+S+I = hypothesis length', () => {
    fc.assert(
      fc.property(batchArb, (batch) => {
        const { distances, rowOffsets, ops } = engine.editDistances(batch, { alignment: true });
        const nHyps = rowOffsets.length - 1;
        for (let h = 0; h < nHyps; h++) {
          const [best, hits, subs, dels, ins] = ops!.subarray(5 * h, 5 * h + 5);
          if (best < 0) {
            expect(rowOffsets[h + 1]).toBe(rowOffsets[h]);
            continue;
          }
          const s = batch.hypSegment === null ? h : batch.hypSegment[h];
          const r = batch.segRefOffsets[s] + best;
          const m = batch.refs.offsets[r + 1] - batch.refs.offsets[r];
          const n = batch.hyps.offsets[h + 1] - batch.hyps.offsets[h];
          const row = distances.subarray(rowOffsets[h], rowOffsets[h + 1]);
          expect(distances[rowOffsets[h] + best]).toBe(Math.min(...row));
          expect(subs + dels + ins).toBe(distances[rowOffsets[h] + best]);
          expect(hits + subs + dels).toBe(m);
          expect(hits + subs + ins).toBe(n);
          expect(Math.min(hits, subs, dels, ins)).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it.each([1, 2, 3, 1.5])('GTM run statistics with exponent %s', (exponent) => {
    fc.assert(
      fc.property(batchArb, (batch) => {
        expect(engine.gtmRunStats(batch, exponent)).toEqual(oracle.gtmRunStats(batch, exponent));
      }),
      { numRuns: exponent === 2 ? 60 : 25 },
    );
  });

  it('GTM with references longer than 64 tokens (the grid-scan path) and hypotheses longer than 64', () => {
    const tokens = (min: number, max: number) => fc.array(fc.integer({ min: 0, max: 3 }), { minLength: min, maxLength: max });
    fc.assert(
      fc.property(fc.array(tokens(0, 90), { minLength: 1, maxLength: 3 }), fc.array(tokens(60, 140), { minLength: 1, maxLength: 3 }), (hyps, refs) => {
        const batch: EditBatch = {
          hyps: csrFromArrays(hyps), hypSegment: new Int32Array(hyps.length), refs: csrFromArrays(refs), segRefOffsets: Int32Array.of(0, refs.length),
        };
        expect(engine.gtmRunStats(batch, 2)).toEqual(oracle.gtmRunStats(batch, 2));
      }),
      { numRuns: 15 },
    );
  });

  it('GTM with exponent 1 is the multiset intersection (the exact maximum matching)', () => {
    fc.assert(
      fc.property(batchArb, (batch) => {
        const { rows, rowOffsets } = engine.gtmRunStats(batch, 1);
        const nHyps = rowOffsets.length - 1;
        for (let h = 0; h < nHyps; h++) {
          const s = batch.hypSegment === null ? h : batch.hypSegment[h];
          const hyp = oracle.rowOf(batch.hyps, h);
          for (let r = batch.segRefOffsets[s]; r < batch.segRefOffsets[s + 1]; r++) {
            const pair = rowOffsets[h] + r - batch.segRefOffsets[s];
            const common = oracle.multisetIntersection(hyp, oracle.rowOf(batch.refs, r));
            expect(rows[2 * pair]).toBe(common);
            expect(rows[2 * pair + 1]).toBe(common);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
