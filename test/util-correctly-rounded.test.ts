/**
 * Correctly rounded exp/log (src/util/correctly-rounded.ts). Expected values are Python 3.11's `math.exp`/`math.log`
 * (glibc 2.36, the oracles' library) printed with `repr`; the fast table-driven paths are checked against the
 * independent slower reductions on random arguments (both aim at the correctly rounded double), and the fast paths
 * of `expCR`/`logCR` against the double-double routines they fall back to, bit for bit, on millions of arguments.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildExp2Table,
  buildLogTable,
  EXP2_TABLE,
  expCR,
  expDoubleDoubleCR,
  expReferenceCR,
  logCR,
  logDoubleDoubleCR,
  logReferenceCR,
  LOG_TABLE,
} from '../src/util/correctly-rounded.js';

describe('expCR / logCR', () => {
  it('use tables that are, bit for bit, the slower reductions\' values', () => {
    const bits = (t: Float64Array) => [...new BigUint64Array(t.buffer, t.byteOffset, t.length)];
    expect(EXP2_TABLE.length).toBe(128);
    expect(LOG_TABLE.length).toBe(130);
    expect(bits(EXP2_TABLE)).toEqual(bits(buildExp2Table()));
    expect(bits(LOG_TABLE)).toEqual(bits(buildLogTable()));
  });

  it('equal glibc on sample arguments (Python 3.11 repr)', () => {
    const exps: [number, number][] = [
      [-3.1710111111062718, 0.041961149062965476], // V8's Math.exp gives 0.04196114906296548
      [1.0, 2.718281828459045],
      [-1.0, 0.36787944117144233],
      [0.5, 1.6487212707001282],
      [1e-10, 1.0000000001],
      [-700.0, 9.85967654375977e-305],
      [700.0, 1.0142320547350045e304],
      [4.605170185988092, 100.00000000000004],
    ];
    for (const [x, y] of exps) expect(expCR(x), `exp(${x})`).toBe(y);
    const logs: [number, number][] = [
      [100.0, 4.605170185988092],
      [2.0, 0.6931471805599453],
      [0.1, -2.3025850929940455],
      [1e-300, -690.7755278982137],
      [1e300, 690.7755278982137],
      [1.0000000001, 1.000000082690371e-10],
      [0.9999999999, -1.000000082790371e-10],
      [58.89016897081413, 4.075674166213938],
      [3.3333333333333335, 1.2039728043259361],
    ];
    for (const [x, y] of logs) expect(logCR(x), `log(${x})`).toBe(y);
  });

  it('handle special values', () => {
    expect(expCR(0)).toBe(1);
    expect(expCR(-9999999999 / 4)).toBe(0);
    expect(expCR(710)).toBe(Infinity);
    expect(expCR(NaN)).toBeNaN();
    expect(logCR(1)).toBe(0);
    expect(logCR(0)).toBe(-Infinity);
    expect(logCR(-1)).toBeNaN();
    expect(logCR(Infinity)).toBe(Infinity);
    expect(logCR(2.2250738585072014e-308 / 4)).toBe(logReferenceCR(2.2250738585072014e-308 / 4));
  });

  it('fast paths agree with the slower reductions on random arguments', () => {
    fc.assert(
      fc.property(fc.double({ min: -700, max: 700, noNaN: true }), (x) => {
        expect(expCR(x)).toBe(expReferenceCR(x));
      }),
      { numRuns: 5000, seed: 1 },
    );
    fc.assert(
      fc.property(fc.double({ min: 1e-300, max: 1e300, noNaN: true }), (x) => {
        expect(logCR(x)).toBe(logReferenceCR(x));
      }),
      { numRuns: 5000, seed: 2 },
    );
  });

  it('fast paths return exactly the double-double results (2 × 1.2M random arguments)', () => {
    let state = 20260522;
    const random = (): number => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) / 2 ** 32;
    };
    let mismatches = 0;
    const check = (name: string, got: number, want: number, x: number): void => {
      if (!Object.is(got, want)) {
        mismatches++;
        expect(got, `${name}(${x})`).toBe(want);
      }
    };
    for (let k = 0; k < 400_000; k++) {
      // exp: the whole fast range, BLEU's range (log-mean of precisions, brevity penalty), tiny arguments.
      const a = (random() - 0.5) * 1400;
      const b = (random() - 0.8) * 30;
      const c = (random() - 0.5) * 2 ** -(random() * 60);
      check('exp', expCR(a), expDoubleDoubleCR(a), a);
      check('exp', expCR(b), expDoubleDoubleCR(b), b);
      check('exp', expCR(c), expDoubleDoubleCR(c), c);
      // log: all magnitudes, precisions 100·c/t of integer counts, arguments near 1.
      const d = Math.exp((random() - 0.5) * 1400);
      const e = (100 * Math.floor(random() * 1e6 + 1)) / Math.floor(random() * 1e6 + 1);
      const f = 1 + (random() - 0.5) * 2 ** -(random() * 50);
      check('log', logCR(d), logDoubleDoubleCR(d), d);
      check('log', logCR(e), logDoubleDoubleCR(e), e);
      check('log', logCR(f), logDoubleDoubleCR(f), f);
    }
    expect(mismatches).toBe(0);
  });

  it('fast paths hand arguments close to a rounding boundary to the double-double routines', () => {
    // Arguments whose fast-path value lies within the error margin of a rounding boundary (found by instrumenting
    // the fallback branch): these exercise the fallback.
    const exps = [19.5398947969079, -21.12110381014645, 10.849264129064977, 5.246034152805805, -3.0454551614820957];
    const logs = [105.398306902498, 47.19024267978966, 130.48675758764148, 50.024616392329335, 173.92040961422026];
    for (const x of exps) {
      expect(expCR(x)).toBe(expDoubleDoubleCR(x));
      expect(expCR(x)).toBe(expReferenceCR(x));
    }
    for (const x of logs) {
      expect(logCR(x)).toBe(logDoubleDoubleCR(x));
      expect(logCR(x)).toBe(logReferenceCR(x));
    }
  });
});
