/**
 * ROUGE's row kernel (assembly/rouge-rows.ts through src/wasm/rouge-rows.ts), which every ROUGE row comes from (the
 * metric, the n-best fast path, `palette rouge155`'s per-unit scores), against its plain reference
 * (test/reference/rouge-rows.ts: closures and the `%7.5f` string): equal rows bit for bit for random pair
 * statistics under every rule, F form, ROUGE-W's f⁻¹ and jackknifing; and the kernel's string-free `%7.5f`
 * rounding against `Number(perlFixed5(x))`, on ratios of small counts (where exact halves occur), on and next to
 * exact ties, at the edges of its fast path, and on random doubles of any size and sign.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveRougeOptions } from '../src/metrics/rouge/options.js';
import { rougeRowSettings } from '../src/metrics/rouge/segment-row.js';
import { roundedRecall } from '../src/metrics/rouge155/score.js';
import { perlRound5, rougeFMeasure, writeRougeRows, type RougeRowSettings } from '../src/wasm/rouge-rows.js';
import { fMeasureReference, perlRound5Reference, rougeRowReference } from './reference/rouge-rows.js';

/** The doubles up to 3 ulps either side of `x` (non-negative ones only). */
function neighbours(x: number): number[] {
  const b = new Float64Array([x]);
  const bits = new BigInt64Array(b.buffer);
  const start = bits[0];
  const out: number[] = [];
  for (let d = -3n; d <= 3n; d++) {
    bits[0] = start + d;
    if (b[0] >= 0) out.push(b[0]);
  }
  return out;
}

describe('perlRound5 (kernel) = Number(perlFixed5(x))', () => {
  const same = (x: number): void => {
    expect(Object.is(perlRound5(x), perlRound5Reference(x)), `x = ${x}`).toBe(true);
  };

  it('ratios of counts, exact halves included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400000 }), fc.integer({ min: 1, max: 400000 }), (a, b) => same(Math.min(a, b) / b)),
      { numRuns: 5000 },
    );
    for (let k = 0; k < 200000; k += 1) same(k / 200000);
  });

  it('exact ties (odd multiples of 1/64) and the doubles next to them and to other near-ties', () => {
    for (let q = 0; q < 128 * 64; q++) for (const x of neighbours(q / 64)) same(x);
    // Doubles nearest to (2k + 1)/200000 that are not binary fractions: near a tie, not on one.
    for (let k = 0; k < 200000; k += 7) for (const x of neighbours((2 * k + 1) / 200000)) same(x);
    // Near ties far from 0, where the product x·10⁵ has few fraction bits left.
    for (let e = 20; e <= 37; e++) {
      for (let j = 0; j < 64; j++) {
        const x = 2 ** e + (2 * j + 1) / 200000;
        for (const y of neighbours(x)) same(y);
        for (const y of neighbours(2 ** e + j / 64)) same(y);
      }
    }
  });

  it('the edges of the fast path: ties, products within an ulp of a half, around 2³⁶ and where p reaches 2⁵²', () => {
    // The fast path takes 0 < x < 2³⁶ unless fl(x·10⁵) lands on a half; p = 2⁵² (x ≈ 45035996273.7) is where the
    // half stops being a double. Around those bounds, and ties (and the doubles next to them) beside them.
    const b = new Float64Array(1);
    const bits = new BigInt64Array(b.buffer);
    for (const c of [2 ** 36, 2 ** 52 / 1e5, 2 ** 31 / 1e5, 1]) {
      b[0] = c;
      const start = bits[0];
      for (let d = -64n; d <= 64n; d++) {
        bits[0] = start + d;
        same(b[0]);
      }
    }
    for (const base of [45035996273, 45035996274, 2 ** 36 - 1, 21474]) {
      for (let j = 0; j < 64; j++) for (const x of neighbours(base + (2 * j + 1) / 200000)) same(x);
      for (let j = 0; j < 64; j++) for (const x of neighbours(base + j / 64)) same(x);
    }
    // Products a little either side of a half, from small to large.
    for (let k = 1; k < 4e15; k = Math.floor(k * 1.7) + 1) {
      for (const d of [-1e-6, -1e-9, 1e-9, 1e-6]) for (const x of neighbours((k + 0.5 + d) / 1e5)) same(x);
    }
  });

  it('random doubles of any size and sign, and the special values', () => {
    fc.assert(fc.property(fc.double({ min: 0, max: 3, noNaN: true }), same), { numRuns: 5000 });
    fc.assert(fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), same), { numRuns: 5000 });
    fc.assert(fc.property(fc.double(), same), { numRuns: 5000 });
    for (const x of [NaN, Infinity, -Infinity, 0, -0, 1e-300, -1e-300, 5e-6, -5e-6, 2 ** 36, 2 ** 36 - 2 ** -16, 1e21, 1.7e308]) same(x);
  });
});

describe('rougeFMeasure (kernel) = the F forms', () => {
  it.each([['alpha', 0.5], ['alpha', 0], ['alpha', 0.8], ['beta', 1], ['beta', 2.5], ['f1', 0]] as const)('%s %d', (form, param) => {
    const fm = fMeasureReference(form, param);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (p, r) => {
        expect(Object.is(rougeFMeasure(form, param, p, r), fm(p, r))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

/** Pair rows: small counts (W: weighted, non-integer ones), select as each flavor computes it. */
function pairArb(settings: RougeRowSettings): fc.Arbitrary<number[]> {
  return fc
    .record({ hyp: fc.integer({ min: 0, max: 40 }), ref: fc.integer({ min: 0, max: 40 }), hit: fc.nat(40) })
    .map(({ hyp, ref, hit }) => {
      let h = Math.min(hit, hyp, ref);
      let n = hyp;
      let m = ref;
      if (settings.weight > 0) {
        h = h ** settings.weight;
        n = n ** settings.weight;
        m = m ** settings.weight;
      }
      const select = settings.rule.startsWith('rouge155') ? roundedRecall(h, m) : m > 0 ? h / m : 0;
      return [h, n, m, select];
    });
}

const SETTINGS: RougeRowSettings[] = [];
for (const rule of ['rouge155-A', 'rouge155-B', 'best-f', 'max', 'pool', 'best-recall'] as const) {
  for (const [form, param] of [['alpha', 0.5], ['alpha', 0.2], ['beta', 1], ['beta', 2], ['f1', 0]] as const) {
    for (const weight of [0, 1.2]) {
      for (const jackknife of [false, true]) SETTINGS.push({ rule, form, param, weight, jackknife });
    }
  }
}

describe('writeRougeRows (kernel) = the plain rules', () => {
  it.each(SETTINGS.map((s) => [`${s.rule} ${s.form} ${s.param} w=${s.weight} jk=${s.jackknife}`, s] as const))('%s', (_, settings) => {
    fc.assert(
      fc.property(
        fc.array(fc.array(pairArb(settings), { minLength: 0, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
        fc.nat(3),
        fc.nat(2),
        (hyps, lead, column) => {
          // `lead` pairs before the first hypothesis' (a batch need not start at pair 0); rows written at a stride.
          const flat = [...new Array(4 * lead).fill(7), ...hyps.flat(2)];
          const offsets = [lead];
          for (const h of hyps) offsets.push(offsets[offsets.length - 1] + h.length);
          const stride = 7 + column + 1;
          const out = new Float64Array(hyps.length * stride).fill(-9);
          writeRougeRows(Float64Array.from(flat), Int32Array.from(offsets), hyps.length, settings, out, column, stride);
          hyps.forEach((pairs, h) => {
            const expected = rougeRowReference(pairs.flat(), settings);
            expect(Array.from(out.subarray(h * stride + column, h * stride + column + 7))).toEqual(expected);
            expect(out[h * stride + column + 7]).toBe(-9);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("maps the metric's options to the kernel's rules", () => {
    const of = (o: Parameters<typeof resolveRougeOptions>[0]): RougeRowSettings => rougeRowSettings(resolveRougeOptions(o));
    expect(of({ type: 'rouge-s4', flavor: 'rouge155' })).toEqual({ rule: 'rouge155-A', form: 'alpha', param: 0.5, weight: 0, jackknife: false });
    expect(of({ type: 'rouge-2', flavor: 'rouge155', multiReference: 'best-recall', alpha: 0.2 }).rule).toBe('rouge155-B');
    expect(of({ type: 'rouge-l', flavor: 'rouge-score' })).toEqual({ rule: 'best-f', form: 'f1', param: 0, weight: 0, jackknife: false });
    expect(of({ type: 'rouge-w-1.2', flavor: 'paper', beta: 2, jackknife: true })).toMatchObject({ form: 'beta', param: 2, weight: 1.2, jackknife: true });
  });
});
