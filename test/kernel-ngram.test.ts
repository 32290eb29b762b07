/**
 * The WebAssembly n-gram kernels against the plain reference implementation (test/reference/ngram.ts): every row,
 * bit for bit, for clipped counts, per-reference counts and NIST weights, on the release and the debug build.
 * Inputs: small vocabularies (dense repeats), lengths around 0/1, 63/64/65 and 127/128/129, orders 1..24, 0–5
 * references per segment, several hypotheses per segment, empty hypotheses and references.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csrFromArrays, type Csr } from '../src/text/csr.js';
import { instantiateKernels, wasmModule, type WasmBuild } from '../src/wasm/load.js';
import { NgramEngine, type NgramBatch } from '../src/wasm/ngram.js';
import * as oracle from './reference/ngram.js';
import { batchFromSegments } from './helpers/pair-batches.js';
import { expectSameBits } from './helpers/same-bits.js';

/** One generated test case: segments with their references and hypotheses. */
interface Case {
  readonly segments: { readonly refs: number[][]; readonly hyps: number[][] }[];
  readonly maxOrder: number;
  /** One hypothesis per segment and `hypSegment = null`. */
  readonly identity: boolean;
  /** Which references the NIST weights are built from. */
  readonly weightsFrom: 'all' | 'first-half' | 'reversed';
  readonly weightsOrder: number;
}

/** Lengths: mostly short, sometimes around the 64- and 128-token boundaries. */
const lengthArb = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 6 }), weight: 8 },
  { arbitrary: fc.integer({ min: 7, max: 30 }), weight: 3 },
  { arbitrary: fc.constantFrom(63, 64, 65, 127, 128, 129), weight: 1 },
);

/** Token alphabets: 1–4 ids (dense repeats), or extreme i32 ids (key encoding of negative and large ids). */
const alphabetArb = fc.oneof(
  fc.integer({ min: 1, max: 4 }).map((v) => Array.from({ length: v }, (_, i) => i)),
  fc.constant([-2147483648, -1, 0, 2147483647]),
);

const caseArb: fc.Arbitrary<Case> = fc
  .record({ alphabet: alphabetArb, identity: fc.boolean() })
  .chain(({ alphabet, identity }) => {
    const seq = lengthArb.chain((n) => fc.array(fc.constantFrom(...alphabet), { minLength: n, maxLength: n }));
    const segment = fc.record({
      refs: fc.array(seq, { minLength: 0, maxLength: 5 }),
      hyps: fc.array(seq, identity ? { minLength: 1, maxLength: 1 } : { minLength: 0, maxLength: 4 }),
    });
    return fc.record({
      segments: fc.array(segment, { minLength: 1, maxLength: 4 }),
      maxOrder: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 24 })),
      identity: fc.constant(identity),
      weightsFrom: fc.constantFrom('all' as const, 'first-half' as const, 'reversed' as const),
      weightsOrder: fc.integer({ min: 1, max: 24 }),
    });
  });

/** The batch of a case, in the contract's CSR form. */
function batchOf(c: Case): NgramBatch {
  return batchFromSegments(c.segments, c.identity);
}

/** The references the weights of a case are built from. */
function weightsRefsOf(c: Case, batch: NgramBatch): Csr {
  const rows: Int32Array[] = [];
  for (let r = 0; r + 1 < batch.refs.offsets.length; r++) {
    rows.push(batch.refs.tokens.subarray(batch.refs.offsets[r], batch.refs.offsets[r + 1]));
  }
  if (c.weightsFrom === 'first-half') return csrFromArrays(rows.slice(0, Math.ceil(rows.length / 2)));
  if (c.weightsFrom === 'reversed') return csrFromArrays(rows.map((r) => Int32Array.from(r).reverse()));
  return csrFromArrays(rows);
}

/** Checks all three functions of the contract on one case. */
function checkCase(engine: NgramEngine, c: Case): void {
  const batch = batchOf(c);
  const weightRefs = weightsRefsOf(c, batch);
  const weights = engine.ngramWeights(weightRefs, c.weightsOrder);
  const expectedWeights = oracle.ngramWeights(weightRefs, c.weightsOrder, engine.kernels.log2Ratio);

  expectSameBits(engine.clippedNgramCounts(batch, c.maxOrder), oracle.clippedNgramCounts(batch, c.maxOrder), 'clipped');
  expectSameBits(
    engine.clippedNgramCounts(batch, c.maxOrder, weights),
    oracle.clippedNgramCounts(batch, c.maxOrder, expectedWeights),
    'clipped with weights',
  );
  for (const w of [undefined, weights]) {
    const got = engine.perReferenceNgramCounts(batch, c.maxOrder, w);
    const want = oracle.perReferenceNgramCounts(batch, c.maxOrder, w && expectedWeights);
    expect(Array.from(got.rowOffsets)).toEqual(Array.from(want.rowOffsets));
    expectSameBits(got.rows, want.rows, w ? 'per-reference with weights' : 'per-reference');
  }

  // Weights of n-grams present and absent: every n-gram of the first positions of every sequence, orders 0..N+1.
  const got: number[] = [];
  const want: number[] = [];
  for (const csr of [batch.hyps, batch.refs]) {
    for (let r = 0; r + 1 < csr.offsets.length; r++) {
      const from = csr.offsets[r];
      const to = csr.offsets[r + 1];
      for (let i = from; i < Math.min(to, from + 6); i++) {
        for (let n = 0; n <= Math.min(to - i, c.weightsOrder + 1); n++) {
          got.push(weights.weight(csr.tokens, i, n));
          want.push(expectedWeights.weight(csr.tokens, i, n));
        }
      }
    }
  }
  expectSameBits(got, want, 'weights');
}

const builds: [WasmBuild, number][] = [
  ['release', 300],
  ['debug', 100],
];

describe.each(builds)('n-gram kernels (%s build) equal the reference implementation', (build, numRuns) => {
  const engine = new NgramEngine(instantiateKernels(wasmModule(build)));

  it('on random batches: clipped, per-reference, weights', () => {
    fc.assert(
      fc.property(caseArb, (c) => checkCase(engine, c)),
      { numRuns },
    );
  });

  it('through prepared reference sets, interleaved with other batches and weights', () => {
    fc.assert(
      fc.property(fc.array(caseArb, { minLength: 2, maxLength: 3 }), fc.array(fc.nat(), { minLength: 4, maxLength: 10 }), (cases, picks) => {
        const batches = cases.map(batchOf);
        const prepared = batches.map((b) => engine.prepareReferences(b.refs, b.segRefOffsets));
        const weights = cases.map((c, i) => engine.ngramWeights(weightsRefsOf(c, batches[i]), c.weightsOrder));
        const expectedWeights = cases.map((c, i) =>
          oracle.ngramWeights(weightsRefsOf(c, batches[i]), c.weightsOrder, engine.kernels.log2Ratio));
        for (const pick of picks) {
          const i = pick % cases.length;
          const w = (pick >> 2) % (cases.length + 1);
          const b = batches[i];
          const { maxOrder } = cases[i];
          const kernelWeights = w < cases.length ? weights[w] : undefined;
          const oracleWeights = w < cases.length ? expectedWeights[w] : undefined;
          if (pick & 2) {
            const got = prepared[i].perReferenceNgramCounts(b.hyps, b.hypSegment, maxOrder, kernelWeights);
            expectSameBits(got.rows, oracle.perReferenceNgramCounts(b, maxOrder, oracleWeights).rows, 'prepared per-reference');
          } else {
            const got = prepared[i].clippedNgramCounts(b.hyps, b.hypSegment, maxOrder, kernelWeights);
            expectSameBits(got, oracle.clippedNgramCounts(b, maxOrder, oracleWeights), 'prepared clipped');
          }
          if (pick & 1) {
            expectSameBits(engine.clippedNgramCounts(b, maxOrder), oracle.clippedNgramCounts(b, maxOrder), 'plain clipped');
          }
        }
      }),
      { numRuns: Math.ceil(numRuns / 5) },
    );
  });
});
