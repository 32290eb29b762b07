/**
 * The msgpack statistics of `palette nbest` (src/engine/nbest/stats-format.ts), written without msgpackr, are the
 * bytes msgpackr writes for each candidate's `{ sentence, stats[, scores] }` (test/reference/msgpack-stats.ts): every
 * integer width and sign, -0, fractions, NaN, infinities, integers past 32 bits, rows of 0 to 70 numbers (fixarray,
 * array 16), sentence ids past 16 bits, blocks of thousands of rows in any order, sentence scores with repeated, numeric and non-ASCII metric ids.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteOut } from '../src/engine/nbest/byte-out.js';
import { blockEncoder } from '../src/engine/nbest/stats-format.js';
import { packStatsBlock } from './reference/msgpack-stats.js';

/** Numbers of every encoding msgpackr picks, and the values at its boundaries. */
const number = fc.oneof(
  fc.integer({ min: -40, max: 300 }),
  fc.constantFrom(
    0, -0, 127, 128, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, 2 ** 53, -31, -32, -33, -128, -129, -32768, -32769,
    -(2 ** 31), -(2 ** 31) - 1, 0.5, -0.25, 1 / 3, NaN, Infinity, -Infinity, Number.MIN_VALUE, Number.MAX_VALUE,
  ),
  fc.integer(),
  fc.double(),
  fc.double({ min: 0, max: 1, noNaN: true }),
);

const block = fc.integer({ min: 0, max: 70 }).chain((width) =>
  fc.record({
    width: fc.constant(width),
    sentence: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 2 ** 31 - 1 })),
    stats: fc.array(number, { minLength: 4 * width, maxLength: 4 * width }),
    rows: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 6 }),
  }),
);

describe('msgpack statistics = msgpackr', () => {
  it('rows of random numbers and widths', () => {
    fc.assert(
      fc.property(block, ({ width, sentence, stats, rows }) => {
        const out = new ByteOut(16);
        const f64 = Float64Array.from(stats);
        blockEncoder('msgpack', 'BLEU', width, undefined)(sentence, f64, rows, out);
        expect(Array.from(out.take())).toEqual(Array.from(packStatsBlock(sentence, f64, width, rows)));
      }),
      { numRuns: 1000 },
    );
  });

  it('large blocks: rows out of order, repeated, from the middle of the task', () => {
    // Blocks larger than the kernel's first memory (its growth), rows in Moses' swapped order and a span that does not
    // start at row 0, as a task's later segments have it.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 2 ** 20 }), fc.integer({ min: 0, max: 4000 }), (width, seed, count) => {
        let x = seed;
        const next = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
        const values = [0, 1, 127, 128, 300, 70000, -5, -200, -40000, 2 ** 31, 0.25, -0];
        const stats = Float64Array.from({ length: (count + 10) * width }, () => values[next() % values.length] * (1 + (next() % 3)));
        const rows = Int32Array.from({ length: count }, () => 10 + (next() % count));
        const out = new ByteOut(16);
        blockEncoder('msgpack', 'BLEU', width, undefined)(70000 + (seed % 3), stats, rows, out);
        expect(Buffer.from(out.take()).equals(Buffer.from(packStatsBlock(70000 + (seed % 3), stats, width, rows)))).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('with sentence scores', () => {
    const ids = fc.array(fc.constantFrom('bleu', 'rouge-l', 'wer', 'bleu', '7', '10', 'métrique', 'x'.repeat(40)), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(block, ids, fc.array(number, { minLength: 5, maxLength: 5 }), ({ width, sentence, stats, rows }, metricIds, values) => {
        const f64 = Float64Array.from(stats);
        const score = (row: number): number[] => metricIds.map((_, k) => values[(row + k) % values.length]);
        const out = new ByteOut(16);
        blockEncoder('msgpack', 'BLEU', width, { ids: metricIds, score: (_, row) => score(row) })(sentence, f64, rows, out);
        expect(Array.from(out.take())).toEqual(Array.from(packStatsBlock(sentence, f64, width, rows, { ids: metricIds, score })));
      }),
      { numRuns: 500 },
    );
  });
});
