/**
 * The ROUGE kernels against the plain reference implementations (test/reference/rouge.ts), value for value and bit
 * for bit, on the release and the debug build: LCS lengths, LCS union masks (both tracebacks), ROUGE-1.5.5 WLCS rows
 * and masks, skip-bigram counts; and the segment rows the engine writes from LCS and skip-bigram pair rows kept in
 * its own memory, against the reference counts reduced by the plain rules (test/reference/rouge-rows.ts). Inputs: dense small vocabularies (1–4 ids), extreme i32 ids, sparse vocabularies
 * with long sequences; lengths 0/1, around 31/32/33 (32-bit lanes), 63/64/65 and 127/128/129 (64-bit lanes, one,
 * two and three vector words) and up to 260; 0–5 or 9–12 references per segment, several hypotheses per segment, empty hypotheses and references, units sharing
 * sentences.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csrFromArrays } from '../src/text/csr.js';
import { instantiateKernels, wasmModule, type WasmBuild } from '../src/wasm/load.js';
import {
  RougeEngine, type RougeBatch, type RougeKernelExports, type SentenceUnits, type SkipBigramUnigrams,
} from '../src/wasm/rouge.js';
import type { RougeRowSettings } from '../src/wasm/rouge-rows.js';
import { pairBatchArbitrary, sequenceArbitrary } from './helpers/pair-batches.js';
import * as oracle from './reference/rouge.js';
import { rougeRowReference } from './reference/rouge-rows.js';

/** Lengths: mostly short, sometimes at the word boundaries of the bit vectors. */
const lengthArb = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 6 }), weight: 8 },
  { arbitrary: fc.integer({ min: 7, max: 30 }), weight: 3 },
  { arbitrary: fc.constantFrom(31, 32, 33, 63, 64, 65, 127, 128, 129), weight: 1 },
);

const sequenceArb = sequenceArbitrary(lengthArb);
const batchArb: fc.Arbitrary<RougeBatch> = pairBatchArbitrary(sequenceArb);

/** Summary units: sentence stores and 1–4 units over random (possibly shared or empty) row ranges. */
const unitsArb: fc.Arbitrary<SentenceUnits> = sequenceArb.chain((seq) => {
  return fc
    .record({ refs: fc.array(seq, { minLength: 0, maxLength: 6 }), hyps: fc.array(seq, { minLength: 0, maxLength: 6 }) })
    .chain(({ refs, hyps }) => {
      const range = (n: number) => fc.tuple(fc.nat(n), fc.nat(n)).map(([a, b]) => [Math.min(a, b), Math.max(a, b)]);
      const unit = fc.tuple(range(refs.length), range(hyps.length)).map(([r, h]) => [...r, ...h]);
      return fc.array(unit, { minLength: 1, maxLength: 4 }).map((units) => ({
        refs: csrFromArrays(refs),
        hyps: csrFromArrays(hyps),
        units: Int32Array.from(units.flat()),
      }));
    });
});

/** WLCS weight exponents: ROUGE's usual 1.2, and others (1: plain LCS weights; 2: the `x * x` path of `pow`). */
const weightArb = fc.constantFrom(1.2, 1.5, 1, 2, 1.05, 3.7);

/** Skip-bigram gaps: ROUGE-S*, bigrams (0), the usual 4, others, and one larger than any sequence. */
const gapArb = fc.oneof(fc.constantFrom(-1, 0, 4, 9, 1000), fc.integer({ min: -3, max: 6 }));
const unigramsArb = fc.constantFrom<SkipBigramUnigrams>('none', 'all', 'rouge155');

const runs = { numRuns: 150 };

/** Row settings: every rule and F form, ROUGE-W's f⁻¹ or not, jackknifing or not. */
const settingsArb: fc.Arbitrary<RougeRowSettings> = fc.record({
  rule: fc.constantFrom<RougeRowSettings['rule']>('rouge155-A', 'rouge155-B', 'best-f', 'max', 'pool', 'best-recall'),
  form: fc.constantFrom<RougeRowSettings['form']>('alpha', 'beta', 'f1'),
  param: fc.constantFrom(0.5, 0.2, 1, 2),
  weight: fc.constantFrom(0, 0, 1.2),
  jackknife: fc.boolean(),
});

/** Where the rows go: a column of a wider row, or the 7 columns alone. */
const placeArb = fc.oneof(fc.constant({ column: 0, stride: 7 }), fc.nat(3).map((column) => ({ column, stride: 7 + column + 2 })));

/**
 * Checks `write(out, column, stride)` against the reference: hypothesis `h`'s pair rows are `pairRow(p)` for its
 * pairs `p` (in the oracle's order), reduced by the plain rules; the columns around the row stay as they were.
 */
function expectRows(
  batch: RougeBatch, settings: RougeRowSettings, place: { column: number; stride: number },
  rowOffsets: Int32Array, pairRow: (p: number, h: number) => number[],
  write: (out: Float64Array, column: number, stride: number) => void,
): void {
  const { column, stride } = place;
  const nHyps = batch.hyps.offsets.length - 1;
  const out = new Float64Array(nHyps * stride).fill(-9);
  write(out, column, stride);
  for (let h = 0; h < nHyps; h++) {
    const pairs: number[] = [];
    for (let p = rowOffsets[h]; p < rowOffsets[h + 1]; p++) pairs.push(...pairRow(p, h));
    const at = h * stride + column;
    expect(Array.from(out.subarray(at, at + 7))).toEqual(rougeRowReference(pairs, settings));
    for (let c = 0; c < stride; c++) if (c < column || c >= column + 7) expect(out[h * stride + c]).toBe(-9);
  }
}

for (const build of ['release', 'debug'] as WasmBuild[]) {
  describe(`ROUGE kernels = oracle (${build} build)`, () => {
    const engine = new RougeEngine(instantiateKernels(wasmModule(build)) as RougeKernelExports);
    const f = (w: number) => (k: number) => engine.wlcsWeight(k, w);

    it('LCS lengths', () => {
      fc.assert(fc.property(batchArb, (batch) => {
        expect(engine.lcsLengths(batch)).toEqual(oracle.lcsLengths(batch));
      }), runs);
    });

    it('ROUGE-L rows from the LCS pair rows in the engine = the oracle lengths reduced by the plain rules', () => {
      fc.assert(fc.property(batchArb, settingsArb, placeArb, (batch, settings, place) => {
        const { rows, rowOffsets } = oracle.lcsLengths(batch);
        const length = (csr: typeof batch.hyps, i: number): number => csr.offsets[i + 1] - csr.offsets[i];
        const segmentOf = (h: number): number => (batch.hypSegment === null ? h : batch.hypSegment[h]);
        expectRows(
          batch, settings, place, rowOffsets,
          (p, h) => {
            const r = batch.segRefOffsets[segmentOf(h)] + p - rowOffsets[h];
            return [rows[p], length(batch.hyps, h), length(batch.refs, r), 0];
          },
          (out, column, stride) => engine.lcsRows(batch, settings, out, column, stride),
        );
      }), runs);
    });

    it('LCS union masks equal both tracebacks, which agree', () => {
      fc.assert(fc.property(unitsArb, (input) => {
        const rouge155 = oracle.lcsUnionMasks(input, 'rouge155');
        expect(oracle.lcsUnionMasks(input, 'rouge-score')).toEqual(rouge155);
        expect(engine.lcsUnionMasks(input)).toEqual(rouge155);
      }), runs);
    });

    it('WLCS rows: hit weight, hits and c[m][n], bit for bit', () => {
      fc.assert(fc.property(batchArb, weightArb, (batch, w) => {
        expect(engine.wlcsPairStats(batch, w)).toEqual(oracle.wlcsPairStats(batch, f(w)));
      }), runs);
    });

    it('WLCS union masks', () => {
      fc.assert(fc.property(unitsArb, weightArb, (input, w) => {
        expect(engine.wlcsUnionMasks(input, w)).toEqual(oracle.wlcsUnionMasks(input, f(w)));
      }), runs);
    });

    // Direct tables for every segment that fits (default), for none (every segment hashed), and for some.
    const skipEngines = [
      engine,
      new RougeEngine(instantiateKernels(wasmModule(build)) as RougeKernelExports, { directPairEntries: 0 }),
      new RougeEngine(instantiateKernels(wasmModule(build)) as RougeKernelExports, { directPairEntries: 30 }),
    ];

    it('skip-bigram counts for every gap and unigram mode, direct and hashed tables', () => {
      fc.assert(fc.property(batchArb, gapArb, unigramsArb, (batch, maxGap, unigrams) => {
        const expected = oracle.skipBigramCounts(batch, { maxGap, unigrams });
        for (const e of skipEngines) expect(e.skipBigramCounts(batch, { maxGap, unigrams })).toEqual(expected);
      }), runs);
    });

    it('ROUGE-S/SU rows from the skip-bigram pair rows in the engine = the oracle counts reduced by the plain rules', () => {
      fc.assert(fc.property(batchArb, gapArb, unigramsArb, settingsArb, placeArb, (batch, maxGap, unigrams, settings, place) => {
        const { rows, rowOffsets } = oracle.skipBigramCounts(batch, { maxGap, unigrams });
        for (const e of skipEngines) {
          expectRows(
            batch, settings, place, rowOffsets,
            (p) => [rows[3 * p], rows[3 * p + 1], rows[3 * p + 2], 0],
            (out, column, stride) => e.skipBigramRows(batch, { maxGap, unigrams }, settings, out, column, stride),
          );
        }
      }), runs);
    });
  });
}
