/**
 * The Moses BLEU rows kernel (`mosesBleuRows` of assembly/ngram.ts, through `NgramEngine.mosesBleuRows`): clipped
 * counts interleaved with totals and the reference length of each strategy, written into the caller's rows at a
 * column. Every row is checked bit for bit against the reference implementation (test/reference/ngram.ts) on the
 * release and the debug build, on batches that mix segments of the dense path (16 or more hypotheses) with those of
 * the hash-table trie, segments without references (NaN or +Infinity lengths), hypotheses with one per segment
 * (`hypSegment` null), reference lengths that tie around a hypothesis' length, and orders 1..6; the columns of the
 * target outside the rows must stay as they were.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantiateKernels, wasmModule, type WasmBuild } from '../src/wasm/load.js';
import { NgramEngine } from '../src/wasm/ngram.js';
import * as oracle from './reference/ngram.js';
import { batchFromSegments } from './helpers/pair-batches.js';
import { expectSameBits } from './helpers/same-bits.js';

const STRATEGIES = ['closest', 'shortest', 'average'] as const;
const CODES = { closest: 0, shortest: 1, average: 2 } as const;

/** Segments over a small alphabet (repeats, so clipping matters), lengths clustered so that ties are common. */
const caseArb = fc
  .record({ alphabet: fc.integer({ min: 1, max: 12 }), base: fc.constantFrom(0, 1e9, -2147483648) })
  .chain(({ alphabet, base }) => {
    const token = fc.integer({ min: 0, max: alphabet - 1 }).map((k) => base + k);
    const length = fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 3 }), weight: 1 },
      { arbitrary: fc.integer({ min: 6, max: 12 }), weight: 4 },
      { arbitrary: fc.integer({ min: 13, max: 60 }), weight: 1 },
    );
    const sequence = length.chain((n) => fc.array(token, { minLength: n, maxLength: n }));
    const segment = fc.record({
      refs: fc.array(sequence, { minLength: 0, maxLength: 5 }),
      hyps: fc.oneof(
        { arbitrary: fc.array(sequence, { minLength: 16, maxLength: 30 }), weight: 2 },
        { arbitrary: fc.array(sequence, { minLength: 0, maxLength: 15 }), weight: 1 },
      ),
    });
    return fc.record({
      segments: fc.array(segment, { minLength: 1, maxLength: 4 }),
      maxOrder: fc.integer({ min: 1, max: 6 }),
      strategy: fc.constantFrom(...STRATEGIES),
      identity: fc.boolean(),
      column: fc.integer({ min: 0, max: 3 }),
      extra: fc.integer({ min: 0, max: 3 }),
    });
  });

const builds: [WasmBuild, number][] = [
  ['release', 200],
  ['debug', 60],
];

describe.each(builds)('Moses BLEU rows kernel (%s build) equals the reference implementation', (build, numRuns) => {
  const engine = new NgramEngine(instantiateKernels(wasmModule(build)));

  it('on random batches, every strategy, written at a column of wider rows', () => {
    fc.assert(
      fc.property(caseArb, ({ segments, maxOrder, strategy, identity, column, extra }) => {
        // With one hypothesis per segment, each segment keeps only its first hypothesis (and needs one).
        const shaped = identity
          ? segments.map((s) => ({ refs: s.refs, hyps: [s.hyps[0] ?? []] }))
          : segments;
        const batch = batchFromSegments(shaped, identity);
        const width = 2 * maxOrder + 1;
        const stride = column + width + extra;
        const n = batch.hyps.offsets.length - 1;
        const target = new Float64Array(n * stride).fill(-7.5);
        engine.mosesBleuRows(batch, maxOrder, CODES[strategy], target, column, stride);
        const want = oracle.mosesBleuRows(batch, maxOrder, strategy);
        const rows = new Float64Array(n * width);
        for (let h = 0; h < n; h++) {
          rows.set(target.subarray(h * stride + column, h * stride + column + width), h * width);
          for (let c = 0; c < stride; c++) {
            if (c < column || c >= column + width) expect(target[h * stride + c], `row ${h} column ${c}`).toBe(-7.5);
          }
        }
        expectSameBits(rows, want, `${strategy}, order ${maxOrder}`);
      }),
      { numRuns },
    );
  });

  it('reference lengths of each strategy on a worked segment, and over no references', () => {
    // References of 3, 5, 7 and 5 tokens; hypotheses of 4 (3 and 5 tie: the shorter), 6 (5 and 7: 5), 9 tokens.
    const ref = (n: number): number[] => Array.from({ length: n }, (_, i) => i % 3);
    const hyps = [ref(4), ref(6), ref(9)];
    const batch = batchFromSegments([
      { refs: [ref(3), ref(5), ref(7), ref(5)], hyps },
      { refs: [], hyps: [ref(2)] },
    ]);
    const reflen = (strategy: (typeof STRATEGIES)[number]): number[] => {
      const target = new Float64Array(4 * 9);
      engine.mosesBleuRows(batch, 4, CODES[strategy], target, 0, 9);
      return [0, 1, 2, 3].map((h) => target[h * 9 + 8]);
    };
    expect(reflen('closest')).toEqual([3, 5, 7, NaN]);
    expect(reflen('shortest')).toEqual([3, 3, 3, Infinity]);
    // (3 + 5 + 7 + 5) / 4 = 5.
    expect(reflen('average')).toEqual([5, 5, 5, NaN]);
  });
});
