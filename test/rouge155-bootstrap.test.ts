/**
 * ROUGE-1.5.5's averages and confidence intervals (src/meta/rouge155-bootstrap.ts) and their printing
 * (src/cli/rouge155/print.ts), fed with ROUGE-1.5.5's own per-unit values so that this layer is tested apart from
 * the per-unit scorer:
 * - test/fixtures/rouge155/golden-units.json (extracts of ../shared/golden/rouge155/*.json): SL2003 peer 11 with
 *   `-t 0` (7 types) and `-t 1 -m` (per-unit counts), SummEval M0 with 11 references (100 units) and its `-t 2`
 *   totals;
 * - the `-a -d` expected output of peer 11 (test/fixtures/rouge155/sl2003/expected): per-unit lines and averages
 *   of 8 types, incl. ROUGE-S* and ROUGE-SU*.
 * Printed lines are compared as strings (exact); `-t 2` totals as integers. Then a literal transcription of the
 * Perl (BigInt drand48, one statistic at a time, Perl's array semantics) checks the fast path on random inputs,
 * other `-r`/`-c` values and degenerate cases: numbers must be identical doubles.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAverages, formatCounts } from '../src/cli/rouge155/print.js';
import { PerlRand } from '../src/meta/perl-rand.js';
import {
  perlStringCompare,
  rouge155Bootstrap,
  rouge155Totals,
  rouge155UnitOrder,
  type Rouge155BootstrapOptions,
  type Rouge155Estimate,
} from '../src/meta/rouge155-bootstrap.js';

interface GoldenUnits {
  source: string;
  options: string;
  peer: string;
  segment_fields: string[];
  segments: (number | number[])[][];
  printed: string[];
  counts_totals_t2: Record<string, number[]> | null;
}

const FIXTURES = new URL('./fixtures/rouge155/', import.meta.url);
const goldenUnits = JSON.parse(readFileSync(new URL('golden-units.json', FIXTURES), 'utf8')) as GoldenUnits[];

/** Rows in ROUGE's resampling order for the given per-unit triples. */
function orderedRows(ids: string[], triples: number[][][]): Float64Array {
  const width = 3 * triples[0].length;
  const rows = new Float64Array(ids.length * width);
  rouge155UnitOrder(ids).forEach((u, k) => triples[u].forEach((t, s) => rows.set(t, k * width + 3 * s)));
  return rows;
}

/** The type names and per-unit triples of a golden record's columns whose name ends with `suffix`. */
function columns(record: GoldenUnits, suffix: string): { names: string[]; ids: string[]; triples: number[][][] } {
  const picked = record.segment_fields.map((f, i) => [f, i] as const).filter(([f]) => f.endsWith(suffix));
  return {
    names: picked.map(([f]) => f.slice(0, -suffix.length)),
    ids: record.segments.map((s) => `${s[0] as number}.${record.peer}`),
    triples: record.segments.map((s) => picked.map(([, i]) => s[i] as number[])),
  };
}

/** The printed average lines of several types (dashed separators dropped, as the goldens store them). */
function printedLines(peer: string, names: string[], estimates: Rouge155Estimate[], confidence = '95'): string[] {
  return names.flatMap((name, t) =>
    formatAverages(peer, name, estimates[t], confidence)
      .split('\n')
      .filter((l) => l.length > 0 && !l.startsWith('---')),
  );
}

describe('averages from ROUGE-1.5.5 per-unit values (golden extracts)', () => {
  it.each(goldenUnits.filter((r) => / -t 0( |$)/.test(r.options)).map((r) => [r.source, r.options, r] as const))(
    '%s %s: -t 0 printed averages and intervals',
    (_source, _options, record) => {
      const { names, ids, triples } = columns(record, ' RPF');
      const estimates = rouge155Bootstrap(orderedRows(ids, triples), 3 * names.length);
      expect(printedLines(record.peer, names, estimates)).toEqual(record.printed);
    },
  );

  it('-t 1: pooled counts per resample (SL2003 peer 11, -m)', () => {
    const record = goldenUnits.find((r) => r.options.includes('-t 1'))!;
    const { names, ids, triples } = columns(record, ' counts');
    const estimates = rouge155Bootstrap(orderedRows(ids, triples), 3 * names.length, { counting: 'token' });
    expect(printedLines(record.peer, names, estimates)).toEqual(record.printed);
  });

  it.each(goldenUnits.filter((r) => r.counts_totals_t2 !== null).map((r) => [r.source, r] as const))(
    '%s: -t 2 totals of the per-unit counts',
    (_source, record) => {
      const { names, ids, triples } = columns(record, ' counts(-t 2)');
      const totals = rouge155Totals(orderedRows(ids, triples), 3 * names.length);
      names.forEach((name, t) => {
        const expected = record.counts_totals_t2![name];
        const line = formatCounts(record.peer, name, totals.subarray(3 * t, 3 * t + 3));
        expect(line).toBe(
          `---------------------------------------------\n${record.peer} ${name} M_count: ${expected[0]} ` +
            `P_count: ${expected[1]} H_count: ${expected[2]}\n`,
        );
      });
    },
  );

  it('-a -d output of peer 11: 8 types incl. ROUGE-S* and ROUGE-SU*', () => {
    const text = readFileSync(
      new URL('sl2003/expected/ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-d.peer-11.out', FIXTURES),
      'utf8',
    );
    const units = new Map<string, Map<string, number[]>>();
    const printed = new Map<string, string[]>();
    for (const line of text.split('\n')) {
      const unit = /^11 (\S+) Eval (\S+) R:(\S+) P:(\S+) F:(\S+)$/.exec(line);
      if (unit !== null) {
        if (!units.has(unit[1])) units.set(unit[1], new Map());
        units.get(unit[1])!.set(unit[2], [Number(unit[3]), Number(unit[4]), Number(unit[5])]);
      }
      const average = /^11 (\S+) Average_/.exec(line);
      if (average !== null) printed.set(average[1], [...(printed.get(average[1]) ?? []), line]);
    }
    expect([...units.keys()]).toEqual([
      'ROUGE-1',
      'ROUGE-2',
      'ROUGE-3',
      'ROUGE-4',
      'ROUGE-L',
      'ROUGE-W-1.2',
      'ROUGE-S*',
      'ROUGE-SU*',
    ]);
    const names = [...units.keys()];
    const ids = [...units.get('ROUGE-1')!.keys()];
    const triples = ids.map((id) => names.map((n) => units.get(n)!.get(id)!));
    const estimates = rouge155Bootstrap(orderedRows(ids, triples), 3 * names.length);
    expect(printedLines('11', names, estimates)).toEqual(names.flatMap((n) => printed.get(n)!));
  });
});

/** Perl `$a[$i]` read as a number. */
function perlAt(a: number[], i: number): number {
  const k = i < 0 ? i + a.length : i;
  return k >= 0 && k < a.length ? a[k] : 0;
}

/** drand48 seeded as perl's `srand(seed)`, in BigInt. */
function bigintDrand48(seed: number): { next(): number } {
  let x = (BigInt(seed) << 16n) + 0x330en;
  return {
    next(): number {
      x = (x * 0x5deece66dn + 0xbn) & ((1n << 48n) - 1n);
      return Number(x) / 2 ** 48;
    },
  };
}

/**
 * The Perl, one statistic at a time: `bootstrapResampling` (`srand($i)`, `int(rand(N))`), then `computeAverages`.
 * @param rng the generator for seed i (BigInt drand48 by default; PerlRand where BigInt would be too slow)
 */
function literalBootstrap(
  units: number[][],
  options: Required<Rouge155BootstrapOptions>,
  rng: (seed: number) => { next(): number } = bigintDrand48,
): Rouge155Estimate {
  const n = units.length;
  const resampled: number[][] = [[], [], []];
  for (let i = 0; i < options.resamples; i++) {
    const random = rng(i);
    let sample: number[] | undefined;
    for (let k = 0; k < n; k++) {
      const ridx = Math.trunc(n * random.next());
      if (sample === undefined) sample = [...units[ridx]];
      else for (let c = 0; c < 3; c++) sample[c] += units[ridx][c];
    }
    let out: number[];
    if (options.counting === 'unit') {
      out = n > 0 ? sample!.map((v) => v / n) : [0, 0, 0];
    } else {
      const [m, p, h] = sample ?? [0, 0, 0];
      const r = m > 0 ? h / m : 0;
      const pr = p > 0 ? h / p : 0;
      const d = (1 - options.alpha) * pr + options.alpha * r;
      out = [r, pr, d > 0 ? (r * pr) / d : 0];
    }
    for (let c = 0; c < 3; c++) resampled[c].push(out[c]);
  }
  const B = options.resamples;
  const delta = (B * ((100 - options.confidence) / 2.0)) / 100.0;
  const ciUa = Math.trunc(B - delta - 1);
  const ciLa = Math.trunc(delta);
  const ratio = B - delta - 1 - ciUa;
  const average: number[] = [];
  const low: number[] = [];
  const high: number[] = [];
  for (let c = 0; c < 3; c++) {
    const s = [...resampled[c]].sort((a, b) => a - b);
    let total = 0;
    for (const v of s) total += v;
    average.push(total / s.length);
    low.push(perlAt(s, ciLa) + (perlAt(s, ciLa + 1) - perlAt(s, ciLa)) * ratio);
    high.push(perlAt(s, ciUa) + (perlAt(s, ciUa + 1) - perlAt(s, ciUa)) * ratio);
  }
  return {
    average: [average[0], average[1], average[2]],
    low: [low[0], low[1], low[2]],
    high: [high[0], high[1], high[2]],
  };
}

describe('the fast path equals a literal transcription of the Perl', () => {
  const fiveDecimals = fc.integer({ min: 0, max: 100000 }).map((k) => k / 100000);
  const count = fc.integer({ min: 0, max: 60 });

  it('-t 0 and -t 1, several statistics at once, any -r and -c', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom(0, 37.5, 50, 90, 95, 99.5, 100),
        fc.constantFrom<'unit' | 'token'>('unit', 'token'),
        fc.constantFrom(0, 0.25, 0.5, 1),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (n, types, resamples, confidence, counting, alpha, salt) => {
          const rng = fc.sample(counting === 'unit' ? fiveDecimals : count, { numRuns: n * types * 3, seed: salt });
          const units = Array.from({ length: n }, (_, u) =>
            Array.from({ length: types }, (_, t) => rng.slice((u * types + t) * 3, (u * types + t) * 3 + 3)),
          );
          const rows = new Float64Array(units.flat(2));
          const options = { resamples, confidence, counting, alpha };
          const fast = rouge155Bootstrap(rows, 3 * types, options);
          for (let t = 0; t < types; t++) {
            expect(fast[t]).toEqual(
              literalBootstrap(
                units.map((u) => u[t]),
                options,
              ),
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('takes ⌈B⌉ resamples for a fractional -r, with delta from B as given', () => {
    const units = [
      [0.1, 0.2, 0.3],
      [0.5, 0.25, 0.125],
      [0.9, 0.8, 0.7],
    ];
    const options = { resamples: 10.5, confidence: 80, counting: 'unit' as const, alpha: 0.5 };
    expect(rouge155Bootstrap(new Float64Array(units.flat()), 3, options)[0]).toEqual(literalBootstrap(units, options));
  });

  it('draws the same units when the draw table is too large to keep (B·N > 2^22)', () => {
    const n = 4200;
    const units = Array.from({ length: n }, (_, u) => [
      ((u * 7919) % 1000) / 1000,
      ((u * 104729) % 997) / 997,
      (u % 13) / 13,
    ]);
    const options = { resamples: 1000, confidence: 95, counting: 'unit' as const, alpha: 0.5 };
    const fast = rouge155Bootstrap(new Float64Array(units.flat()), 3, options)[0];
    expect(fast).toEqual(literalBootstrap(units, options, (seed) => new PerlRand(seed)));
  });
});

describe('degenerate cases', () => {
  it('a peer without units averages to zeros (ROUGE sets the sample to 0 without drawing)', () => {
    for (const counting of ['unit', 'token'] as const) {
      const [e] = rouge155Bootstrap(new Float64Array(0), 3, { counting, resamples: 10 });
      expect(e).toEqual({ average: [0, 0, 0], low: [0, 0, 0], high: [0, 0, 0] });
    }
  });

  it('-r 1: interval indexes past the end read 0, as Perl arrays do', () => {
    const [e] = rouge155Bootstrap(new Float64Array([0.5, 0.25, 0.75]), 3, { resamples: 1 });
    // delta = 0.025: ciLa = 0, ciUa = int(-0.025) = 0, ratio = -0.025; s[1] is undef (0).
    expect(e.average).toEqual([0.5, 0.25, 0.75]);
    expect(e.low).toEqual([0.5 + (0 - 0.5) * -0.025, 0.25 + (0 - 0.25) * -0.025, 0.75 + (0 - 0.75) * -0.025]);
    expect(e.high).toEqual(e.low);
  });

  it('refuses widths that are not whole statistics and runs without resamples', () => {
    expect(() => rouge155Bootstrap(new Float64Array(4), 4)).toThrow('width must be a positive multiple of 3');
    expect(() => rouge155Bootstrap(new Float64Array(4), 3)).toThrow('rows must hold whole units of 3 values');
    expect(() => rouge155Bootstrap(new Float64Array(3), 3, { resamples: 0 })).toThrow('resamples must be positive');
    expect(() => rouge155Totals(new Float64Array(4), 3)).toThrow(RangeError);
  });

  it('-t 2 totals add the units in the given order', () => {
    expect([...rouge155Totals(new Float64Array([1, 2, 3, 10, 20, 30]), 3)]).toEqual([11, 22, 33]);
  });
});

describe('unit order', () => {
  it('sorts unit ids as Perl strings: 1, 10, 11, …, 2', () => {
    const ids = ['2.11', '10.11', '1.11', '11.11', '3.11'];
    expect(rouge155UnitOrder(ids).map((i) => ids[i])).toEqual(['1.11', '10.11', '11.11', '2.11', '3.11']);
  });

  it('compares by code point, also where UTF-16 order differs (U+FF61 < U+1F600)', () => {
    expect(perlStringCompare('\uff61', '\u{1f600}')).toBeLessThan(0);
    expect(perlStringCompare('\u{1f600}', '\uff61')).toBeGreaterThan(0);
    expect(perlStringCompare('a', 'ab')).toBeLessThan(0);
    expect(perlStringCompare('b', 'ab')).toBeGreaterThan(0);
    expect(perlStringCompare('x', 'x')).toBe(0);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const byCodePoint = [...a].map((c) => c.codePointAt(0)!);
        const other = [...b].map((c) => c.codePointAt(0)!);
        let expected = 0;
        for (let i = 0; i < Math.min(byCodePoint.length, other.length) && expected === 0; i++) {
          expected = Math.sign(byCodePoint[i] - other[i]);
        }
        if (expected === 0) expected = Math.sign(byCodePoint.length - other.length);
        return Math.sign(perlStringCompare(a, b)) === expected;
      }),
    );
  });
});
