/**
 * The n-gram bindings at their edges: invalid arguments (error class and message), degenerate batches, memory
 * growth between calls, and the module-level functions of src/wasm/ngram.ts.
 */
import { describe, expect, it } from 'vitest';
import { csrFromArrays, type Csr } from '../src/text/csr.js';
import { instantiateKernels, wasmModule } from '../src/wasm/load.js';
import {
  NgramEngine, clippedNgramCounts, defaultNgramEngine, ngramWeights, perReferenceNgramCounts, prepareNgramReferences,
  type NgramBatch,
} from '../src/wasm/ngram.js';
import * as oracle from './reference/ngram.js';

const engine = new NgramEngine(instantiateKernels(wasmModule('release')));

const refs = csrFromArrays([[1, 2, 3], [1, 2]]);
const hyps = csrFromArrays([[1, 2], [3]]);
const good: NgramBatch = { hyps, hypSegment: Int32Array.of(0, 0), refs, segRefOffsets: Int32Array.of(0, 2) };

describe('invalid arguments', () => {
  const cases: [string, () => unknown, ErrorConstructor, string][] = [
    ['maxOrder not an integer', () => engine.clippedNgramCounts(good, 2.5), RangeError,
      'maxOrder must be a non-negative integer (got 2.5)'],
    ['negative maxOrder', () => engine.perReferenceNgramCounts(good, -1), RangeError,
      'maxOrder must be a non-negative integer (got -1)'],
    ['hypSegment out of range', () => engine.clippedNgramCounts({ ...good, hypSegment: Int32Array.of(0, 1) }, 2),
      RangeError, 'hypSegment[1] must be a segment index in [0, 1) (got 1)'],
    ['hypSegment of the wrong length', () => engine.clippedNgramCounts({ ...good, hypSegment: Int32Array.of(0) }, 2),
      TypeError, 'hypSegment must be null or an Int32Array of 2 segment indices'],
    ['null hypSegment with more hypotheses than segments', () => engine.clippedNgramCounts({ ...good, hypSegment: null }, 2),
      RangeError, 'hypSegment may be null only with one segment per hypothesis (2 hypotheses, 1 segments)'],
    ['decreasing hypothesis offsets',
      () => engine.clippedNgramCounts({ ...good, hyps: { tokens: hyps.tokens, offsets: Int32Array.of(0, 2, 1) } }, 2),
      RangeError, 'hyps.offsets must be non-decreasing (offsets[2] = 1 < 2)'],
    ['offsets beyond the tokens',
      () => engine.clippedNgramCounts({ ...good, hyps: { tokens: hyps.tokens, offsets: Int32Array.of(0, 2, 9) } }, 2),
      RangeError, 'hyps.offsets must end within the 3 tokens (got 9)'],
    ['offsets not starting at 0',
      () => engine.clippedNgramCounts({ ...good, refs: { tokens: refs.tokens, offsets: Int32Array.of(1, 3, 5) } }, 2),
      RangeError, 'batch.refs.offsets must start with 0'],
    ['segment offsets beyond the references',
      () => engine.clippedNgramCounts({ ...good, segRefOffsets: Int32Array.of(0, 3) }, 2),
      RangeError, 'batch.segRefOffsets must be non-decreasing offsets within [0, 2] (batch.segRefOffsets[1] = 3)'],
    ['tokens not an Int32Array',
      () => engine.clippedNgramCounts({ ...good, hyps: { tokens: [1, 2, 3], offsets: hyps.offsets } as unknown as Csr }, 2),
      TypeError, 'hyps must be a Csr of Int32Array tokens and offsets'],
    ['weights from another implementation',
      () => engine.clippedNgramCounts(good, 2, oracle.ngramWeights(refs, 2)), TypeError,
      'weights must come from ngramWeights() of src/wasm (a KernelNgramWeights)'],
    ['prepared references with bad segment offsets', () => engine.prepareReferences(refs, Int32Array.of(1, 0)),
      RangeError, 'segRefOffsets must be non-decreasing offsets within [0, 2] (segRefOffsets[1] = 0)'],
  ];
  it.each(cases)('%s', (_, call, errorClass, message) => {
    expect(call).toThrow(errorClass);
    expect(call).toThrow(message);
  });
});

describe('degenerate batches', () => {
  it('no hypotheses: no rows', () => {
    const none = { ...good, hyps: csrFromArrays([]), hypSegment: new Int32Array(0) };
    expect(engine.clippedNgramCounts(none, 4).length).toBe(0);
    const per = engine.perReferenceNgramCounts(none, 4);
    expect(per.rows.length).toBe(0);
    expect(Array.from(per.rowOffsets)).toEqual([0]);
  });

  it('maxOrder 0: rows of width 0', () => {
    expect(engine.clippedNgramCounts(good, 0).length).toBe(0);
    expect(engine.perReferenceNgramCounts(good, 0).rows.length).toBe(0);
  });

  it('a segment without references: totals only, and no per-reference rows', () => {
    const batch = { hyps: csrFromArrays([[1, 1]]), hypSegment: null, refs: csrFromArrays([]), segRefOffsets: Int32Array.of(0, 0) };
    expect(Array.from(engine.clippedNgramCounts(batch, 2))).toEqual([0, 0, 2, 1]);
    expect(engine.perReferenceNgramCounts(batch, 2).rows.length).toBe(0);
  });

  it('a hypothesis far longer than its references, at order 24', () => {
    const batch = {
      hyps: csrFromArrays([new Array(300).fill(7)]),
      hypSegment: null,
      refs: csrFromArrays([new Array(30).fill(7), new Array(25).fill(7)]),
      segRefOffsets: Int32Array.of(0, 2),
    };
    expect(engine.clippedNgramCounts(batch, 24)).toEqual(oracle.clippedNgramCounts(batch, 24));
    expect(engine.perReferenceNgramCounts(batch, 24)).toEqual(oracle.perReferenceNgramCounts(batch, 24));
  });
});

describe('memory', () => {
  it('grows for a large batch and stays correct for the calls after it', () => {
    const fresh = new NgramEngine(instantiateKernels(wasmModule('release')));
    const small = { hyps: csrFromArrays([[1, 2, 3]]), hypSegment: null, refs, segRefOffsets: Int32Array.of(0, 2) };
    const before = fresh.clippedNgramCounts(small, 4);
    const weights = fresh.ngramWeights(refs, 4);
    const prepared = fresh.prepareReferences(refs, Int32Array.of(0, 2));
    const preparedBefore = prepared.clippedNgramCounts(small.hyps, null, 4, weights);
    const initialBytes = fresh.memory.memory.buffer.byteLength;
    // 2000 segments × (2 references + 1 hypothesis) × 40 tokens: more than the initial 1 MiB.
    let seed = 12345;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % 50;
    const rows = (n: number): number[][] => Array.from({ length: n }, () => Array.from({ length: 40 }, next));
    const big: NgramBatch = {
      hyps: csrFromArrays(rows(2000)),
      hypSegment: null,
      refs: csrFromArrays(rows(4000)),
      segRefOffsets: Int32Array.from({ length: 2001 }, (_, s) => 2 * s),
    };
    expect(fresh.clippedNgramCounts(big, 4)).toEqual(oracle.clippedNgramCounts(big, 4));
    expect(fresh.memory.memory.buffer.byteLength).toBeGreaterThan(initialBytes);
    expect(fresh.clippedNgramCounts(small, 4)).toEqual(before);
    expect(prepared.clippedNgramCounts(small.hyps, null, 4, weights)).toEqual(preparedBefore);
    expect(weights.weight([1, 2], 0, 2)).toBe(fresh.kernels.log2Ratio(2, 2));
  });
});

describe('module-level functions', () => {
  it('run on the default engine, created once', () => {
    expect(defaultNgramEngine()).toBe(defaultNgramEngine());
    const w = ngramWeights(refs, 2);
    expect(clippedNgramCounts(good, 2, w)).toEqual(engine.clippedNgramCounts(good, 2, engine.ngramWeights(refs, 2)));
    expect(perReferenceNgramCounts(good, 2)).toEqual(engine.perReferenceNgramCounts(good, 2));
    const prepared = prepareNgramReferences(refs, good.segRefOffsets);
    expect(prepared.segments).toBe(1);
    expect(prepared.clippedNgramCounts(hyps, good.hypSegment, 2)).toEqual(engine.clippedNgramCounts(good, 2));
  });

  it('prepared references are a copy: later changes to the caller\'s arrays do not affect them', () => {
    const own = csrFromArrays([[1, 2, 3]]);
    const prepared = prepareNgramReferences(own, Int32Array.of(0, 1));
    const before = prepared.clippedNgramCounts(hyps, Int32Array.of(0, 0), 2);
    own.tokens.fill(9);
    expect(prepared.clippedNgramCounts(hyps, Int32Array.of(0, 0), 2)).toEqual(before);
  });
});
