/**
 * Perl's srand/rand stream (src/meta/perl-rand.ts) against perl 5.36's own output (test/fixtures/rouge155/
 * perl-rand.json, written by the command in its SOURCE.md) and against a BigInt transcription of drand48.
 * Tolerance: exact (the same doubles; perl printed them with 17 significant digits, which round-trips).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PerlRand } from '../src/meta/perl-rand.js';

interface PerlRandFixture {
  draws: { seed: number; rand: number[] }[];
  indexes: { seed: number; n: number; index: number[] }[];
  scaled: { seed: number; rand0: number; 'rand2.5': number; randMinus3: number };
}

const fixture = JSON.parse(
  readFileSync(new URL('./fixtures/rouge155/perl-rand.json', import.meta.url), 'utf8'),
) as PerlRandFixture;

/** drand48 as perl's util.c has it, in BigInt: the oracle for arbitrary seeds. */
function* bigintDrand48(seed: number): Generator<number> {
  let x = (BigInt(seed % 2 ** 32) << 16n) + 0x330en;
  for (;;) {
    x = (x * 0x5deece66dn + 0xbn) & ((1n << 48n) - 1n);
    yield Number(x) / 2 ** 48;
  }
}

describe('PerlRand against perl 5.36', () => {
  it.each(fixture.draws)('srand($seed) then rand() five times', ({ seed, rand }) => {
    const rng = new PerlRand(seed);
    expect(rand.map(() => rng.rand())).toEqual(rand);
  });

  it.each(fixture.indexes)('srand($seed) then int(rand($n))', ({ seed, n, index }) => {
    const rng = new PerlRand();
    rng.srand(seed);
    expect(index.map(() => rng.index(n))).toEqual(index);
  });

  it('rand(0) is rand(1); rand(n) scales, negative n included', () => {
    const { seed, rand0, randMinus3 } = fixture.scaled;
    expect(new PerlRand(seed).rand(0)).toBe(rand0);
    expect(new PerlRand(seed).rand(2.5)).toBe(fixture.scaled['rand2.5']);
    expect(new PerlRand(seed).rand(-3)).toBe(randMinus3);
  });

  it('srand re-seeds: the same seed gives the same stream again', () => {
    const rng = new PerlRand(7);
    const first = [rng.next(), rng.next()];
    rng.srand(7);
    expect([rng.next(), rng.next()]).toEqual(first);
  });
});

describe('PerlRand against a BigInt drand48', () => {
  it('gives the same doubles for any 32-bit seed and long runs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 1, max: 300 }), (seed, draws) => {
        const rng = new PerlRand(seed);
        const oracle = bigintDrand48(seed);
        for (let i = 0; i < draws; i++) if (rng.next() !== oracle.next().value) return false;
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the low 32 bits of larger seeds, as perl does', () => {
    expect(new PerlRand(2 ** 32 + 5).next()).toBe(new PerlRand(5).next());
    expect(new PerlRand(2 ** 40 + 3).next()).toBe(new PerlRand(3).next());
  });

  it('index(n) stays in [0, n) at the ends of the range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 1, max: 1 << 20 }), (seed, n) => {
        const rng = new PerlRand(seed);
        for (let i = 0; i < 50; i++) {
          const k = rng.index(n);
          if (!(Number.isInteger(k) && k >= 0 && k < n)) return false;
        }
        return true;
      }),
    );
  });
});

describe('PerlRand arguments', () => {
  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses seed %s', (seed) => {
    expect(() => new PerlRand(seed)).toThrow(RangeError);
    expect(() => new PerlRand(0).srand(seed)).toThrow('seed must be a non-negative integer');
  });
});
