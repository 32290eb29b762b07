import { expect } from 'vitest';

/**
 * Fails at the first index where `actual` and `expected` differ as float64 bit patterns (so -0 ≠ 0 and NaNs are
 * compared by their bits), naming it in the message: the kernel tests' check that a kernel gives its reference's
 * numbers exactly.
 */
export function expectSameBits(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string): void {
  expect(actual.length, `${what}: length`).toBe(expected.length);
  const a = Float64Array.from(actual);
  const e = Float64Array.from(expected);
  const ab = new BigUint64Array(a.buffer);
  const eb = new BigUint64Array(e.buffer);
  for (let i = 0; i < ab.length; i++) {
    if (ab[i] !== eb[i]) expect.fail(`${what}: index ${i}: kernel ${a[i]} vs reference ${e[i]}`);
  }
}
