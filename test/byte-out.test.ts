/**
 * The n-best output buffer writes numbers as `String(v)` does (JavaScript's shortest round-trip form), through its
 * integer, rounded-to-10⁻⁵ and memoised paths, and text as UTF-8.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ByteOut } from '../src/engine/nbest/byte-out.js';

const text = (b: Uint8Array): string => Buffer.from(b).toString('utf8');

/** What `out.number` wrote for each of `values`, one per line. */
function written(values: readonly number[]): string[] {
  const out = new ByteOut(4);
  for (const v of values) {
    out.number(v);
    out.byte(0x0a);
  }
  return text(out.take()).split('\n').slice(0, -1);
}

describe('ByteOut', () => {
  it('writes String(v) for the edge values of each path', () => {
    const values = [
      0, -0, 1, -1, 9, 10, 99, 100, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) + 1, -(2 ** 31), 2 ** 53, 1e21, 1e-7, -1e-7,
      0.5, 0.25217, 0.1, 0.12, 0.00001, 0.000015, 0.00002, 1.5, 21473.99999, 21474.00001, 21474.5, 0.3, 0.1 + 0.2,
      2 / 3, 13 / 24, 0.5416666666666666, 0.5599999999999999, 1 / 3, 123.45678, -0.25217, NaN, Infinity, -Infinity,
      Number.MIN_VALUE, Number.MAX_VALUE, 5e-324, 1e-5, 9.99999e-6,
    ];
    expect(written(values)).toEqual(values.map(String));
  });

  it('writes String(v) for random doubles, five-decimal values and integers', () => {
    const five = fc.integer({ min: -2147483647, max: 2147483647 }).map((k) => k / 100000);
    const ratio = fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 200 })).map(([a, b]) => a / b);
    const value = fc.oneof(fc.double(), fc.integer(), five, ratio, fc.double({ min: -30000, max: 30000 }));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 50 }), (values) => {
        expect(written(values)).toEqual(values.map(String));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes text as UTF-8 and bytes as they are, and take() starts afresh', () => {
    const out = new ByteOut(2);
    out.text('SCORES é ');
    out.bytes(new Uint8Array([0x41, 0x42]));
    out.number(0.5);
    expect(text(out.take())).toBe('SCORES é AB0.5');
    expect(out.length).toBe(0);
    out.number(7);
    expect(text(out.take())).toBe('7');
  });

  it('take(spare) copies into the first spare array long enough (taken off the list), else into a new one', () => {
    const out = new ByteOut(2);
    const short = new Uint8Array(3);
    const long = new Uint8Array(64).fill(0x7a);
    const spare = [short, long];
    out.text('hello world');
    const first = out.take(spare);
    expect(text(first)).toBe('hello world');
    expect(first.buffer).toBe(long.buffer);
    expect(spare).toEqual([short]);
    out.text('again, longer than any spare');
    const second = out.take(spare);
    expect(text(second)).toBe('again, longer than any spare');
    expect(second.buffer).not.toBe(short.buffer);
    expect(spare).toEqual([short]);
    // The first copy is untouched by the second.
    expect(text(first)).toBe('hello world');
  });
});
