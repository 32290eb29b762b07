/**
 * The PCG64 WebAssembly kernels (assembly/pcg64.ts via src/wasm/pcg64.ts) against the TypeScript numpy streams of
 * src/meta/numpy-random.ts (themselves checked against numpy in meta-random.test.ts) and the plain resampling loops
 * of test/reference/significance.ts: the same draws, the same sums (exact equality) and the same generator state
 * afterwards, on random seeds, range sizes, widths (padded inside the engine), values (integers, fractions, large
 * values where float32 sums round) and in chunks larger than one kernel call.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoolStream, BoundedIntStream, Pcg64 } from '../src/meta/numpy-random.js';
import { instantiateKernels } from '../src/wasm/load.js';
import { defaultPcg64Engine, hasPcg64Kernels, Pcg64Engine, type BoolBuffer } from '../src/wasm/pcg64.js';
import { bootstrapSumsRef, randomizationSumsRef } from './reference/significance.js';

const engine = defaultPcg64Engine();

/** An engine whose calls hand back at most 40 values, so that every stream spans many kernel calls. */
function chunkedEngine(): Pcg64Engine {
  const kernels = instantiateKernels();
  if (!hasPcg64Kernels(kernels)) throw new Error('build without PCG64 kernels');
  return new Pcg64Engine(kernels, 40);
}
const seedArb = fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }));

function sameState(x: Pcg64, y: Pcg64): void {
  expect(x.state).toEqual(y.state);
}

/** Rows of float32 values: small integers, fractions, or large integers whose float32 sums round. */
const rowsArb = (n: number, width: number) =>
  fc.oneof(
    fc.array(fc.integer({ min: 0, max: 60 }), { minLength: n * width, maxLength: n * width }),
    fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: n * width, maxLength: n * width }),
    fc.array(fc.integer({ min: 0, max: 2 ** 26 }), { minLength: n * width, maxLength: n * width }),
  );

describe('PCG64 kernels = TypeScript numpy streams', () => {
  it('bounded draws, interleaved with TypeScript draws, continue one stream', () => {
    fc.assert(
      fc.property(
        seedArb,
        fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 2 ** 32 - 1 })),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 37 })), { maxLength: 6 }),
        (seed, n, pieces) => {
          const fast = new Pcg64(seed);
          const plain = new Pcg64(seed);
          const fastStream = new BoundedIntStream(fast, n);
          const plainStream = new BoundedIntStream(plain, n);
          for (const [inKernel, count] of pieces) {
            const got = new Uint32Array(count);
            if (inKernel) engine.bounded(fast, n, got);
            else fastStream.fill(got);
            const want = Uint32Array.from({ length: count }, () => plainStream.next());
            expect(got).toEqual(want);
          }
          sameState(fast, plain);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('bool draws keep the call buffer across pieces', () => {
    fc.assert(
      fc.property(seedArb, fc.array(fc.integer({ min: 0, max: 70 }), { maxLength: 6 }), (seed, counts) => {
        const fast = new Pcg64(seed);
        const plain = new Pcg64(seed);
        const buffer: BoolBuffer = { word: 0, left: 0 };
        const stream = new BoolStream(plain);
        for (const count of counts) {
          const got = new Uint8Array(count);
          engine.bools(fast, buffer, got);
          expect(got).toEqual(Uint8Array.from({ length: count }, () => stream.next()));
        }
        sameState(fast, plain);
      }),
      { numRuns: 200 },
    );
  });
});

describe('resampling sums = reference loops', () => {
  it('bootstrap float32 sums', () => {
    const caseArb = fc
      .tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 13 }))
      .chain(([n, width]) => fc.tuple(fc.constant(width), rowsArb(n, width)));
    fc.assert(
      fc.property(seedArb, caseArb, fc.integer({ min: 1, max: 12 }), (seed, [width, values], nSamples) => {
        const rows = Float32Array.from(values);
        const fast = new Pcg64(seed);
        const plain = new Pcg64(seed);
        const got: Float64Array[] = [];
        engine.bootstrapSums(fast, rows, width, nSamples, (s, totals) => {
          expect(s).toBe(got.length);
          got.push(Float64Array.from(totals));
        });
        expect(got).toEqual(bootstrapSumsRef(plain, Float64Array.from(rows), width, nSamples));
        sameState(fast, plain);
      }),
      { numRuns: 150 },
    );
  });

  it('bootstrap over several kernel calls (chunks) and float32 rounding', () => {
    const width = 13;
    const rows = Float32Array.from({ length: 3 * width }, (_, k) => 2 ** 24 + 3 * k + 0.5);
    const fast = new Pcg64(99);
    const plain = new Pcg64(99);
    const got: Float64Array[] = [];
    chunkedEngine().bootstrapSums(fast, rows, width, 30, (_, totals) => got.push(Float64Array.from(totals)));
    expect(got).toEqual(bootstrapSumsRef(plain, Float64Array.from(rows), width, 30));
    sameState(fast, plain);
  });

  it('approximate-randomization sums, integral (swapped differences) and general paths', () => {
    // Small integers take the kernel's i32 path, large ones (sums beyond 2^31) its f64 integral path.
    const valuesArb = (count: number, integers: boolean) =>
      integers
        ? fc.oneof(
            fc.array(fc.integer({ min: 0, max: 200 }), { minLength: count, maxLength: count }),
            fc.array(fc.integer({ min: 0, max: 2 ** 25 }), { minLength: count, maxLength: count }),
          )
        : fc.array(fc.double({ min: -5, max: 50, noNaN: true }), { minLength: count, maxLength: count });
    const caseArb = fc
      .tuple(fc.integer({ min: 1, max: 90 }), fc.integer({ min: 1, max: 7 }), fc.boolean())
      .chain(([n, width, integers]) =>
        fc.tuple(
          fc.constant(width),
          fc.constant(integers),
          valuesArb(n * width, integers),
          valuesArb(n * width, integers),
        ),
      );
    fc.assert(
      fc.property(seedArb, caseArb, fc.integer({ min: 1, max: 9 }), (seed, [width, integers, x, y], nTrials) => {
        const bl = Float64Array.from(x);
        const sys = Float64Array.from(y);
        // The integral path is only taken for integer rows, where it must equal the plain row-by-row sums.
        for (const integral of integers ? [true, false] : [false]) {
          const fast = new Pcg64(seed);
          const plain = new Pcg64(seed);
          const got: [Float64Array, Float64Array][] = [];
          engine.randomizationSums(fast, bl, sys, width, nTrials, integral, (t, a, b) => {
            expect(t).toBe(got.length);
            got.push([Float64Array.from(a), Float64Array.from(b)]);
          });
          expect(got).toEqual(randomizationSumsRef(plain, bl, sys, width, nTrials));
          sameState(fast, plain);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('approximate randomization and plain draws over several kernel calls (chunks)', () => {
    const chunked = chunkedEngine();
    const bl = Float64Array.of(3, 1, 4, 1, 5);
    const sys = Float64Array.of(9, 2, 6, 5, 3);
    const big = Float64Array.of(2 ** 30, 1, 4, 1, 5);
    for (const [integral, x] of [[true, bl], [true, big], [false, bl]] as const) {
      const fast = new Pcg64(7);
      const plain = new Pcg64(7);
      const got: [Float64Array, Float64Array][] = [];
      chunked.randomizationSums(fast, x, sys, 1, 300, integral, (_, a, b) => {
        got.push([Float64Array.from(a), Float64Array.from(b)]);
      });
      expect(got).toEqual(randomizationSumsRef(plain, x, sys, 1, 300));
      sameState(fast, plain);
    }
    const fast = new Pcg64(8);
    const plain = new Pcg64(8);
    const draws = new Uint32Array(333);
    chunked.bounded(fast, 1000, draws);
    const stream = new BoundedIntStream(plain, 1000);
    expect(draws).toEqual(Uint32Array.from({ length: 333 }, () => stream.next()));
    const bits = new Uint8Array(333);
    chunked.bools(fast, { word: 0, left: 0 }, bits);
    const flips = new BoolStream(plain);
    expect(bits).toEqual(Uint8Array.from({ length: 333 }, () => flips.next()));
    sameState(fast, plain);
  });

  it('rejects a non-positive chunk size', () => {
    expect(() => new Pcg64Engine(engine.kernels, 0)).toThrow(RangeError);
  });
});
