/**
 * ROUGE kernel bindings, invalid input: every argument is checked before a kernel reads memory, with TypeError or
 * RangeError and a uniform message; nothing is computed from inconsistent offsets.
 */
import { describe, expect, it } from 'vitest';
import { GOOD_PAIR_BATCH, INCONSISTENT_PAIR_BATCHES } from './helpers/pair-batches.js';
import { csrFromArrays, type Csr } from '../src/text/csr.js';
import { instantiateKernels, wasmModule } from '../src/wasm/load.js';
import {
  RougeEngine, type RougeBatch, type RougeKernelExports, type SentenceUnits, type SkipBigramOptions,
} from '../src/wasm/rouge.js';

const engine = new RougeEngine(instantiateKernels(wasmModule('release')) as RougeKernelExports);

const good: RougeBatch = GOOD_PAIR_BATCH;
const goodUnits: SentenceUnits = { hyps: good.hyps, refs: good.refs, units: Int32Array.of(0, 3, 0, 2) };

/** Runs every pair kernel on a batch. */
const pairKernels: [string, (b: RougeBatch) => unknown][] = [
  ['lcsLengths', (b) => engine.lcsLengths(b)],
  ['wlcsPairStats', (b) => engine.wlcsPairStats(b, 1.2)],
  ['skipBigramCounts', (b) => engine.skipBigramCounts(b, { maxGap: 4 })],
];
/** Runs every mask kernel on units. */
const maskKernels: [string, (u: SentenceUnits) => unknown][] = [
  ['lcsUnionMasks', (u) => engine.lcsUnionMasks(u)],
  ['wlcsUnionMasks', (u) => engine.wlcsUnionMasks(u, 1.2)],
];

const notCsr = { tokens: [1, 2], offsets: [0, 2] } as unknown as Csr;

describe('pair kernels refuse inconsistent batches', () => {
  const cases = INCONSISTENT_PAIR_BATCHES;
  for (const [name, batch, type, message] of cases) {
    for (const [kernel, run] of pairKernels) {
      it(`${kernel}: ${name}`, () => {
        expect(() => run(batch)).toThrow(type);
        expect(() => run(batch)).toThrow(message);
      });
    }
  }
});

describe('mask kernels refuse inconsistent units', () => {
  const cases: [string, SentenceUnits, ErrorConstructor, string][] = [
    ['hyps not typed arrays', { ...goodUnits, hyps: notCsr }, TypeError, 'input.hyps must be a Csr of Int32Array tokens and offsets'],
    ['units not a multiple of 4', { ...goodUnits, units: Int32Array.of(0, 1, 0) }, TypeError, 'input.units must be an Int32Array of 4 integers per unit'],
    ['units not an Int32Array', { ...goodUnits, units: [0, 1, 0, 1] as unknown as Int32Array }, TypeError, 'input.units must be an Int32Array of 4 integers per unit'],
    ['reference rows past the end', { ...goodUnits, units: Int32Array.of(0, 4, 0, 1) }, RangeError, 'input.units[0] must have reference rows 0 <= from <= to <= 3 (got 0..4)'],
    ['reference rows reversed', { ...goodUnits, units: Int32Array.of(0, 1, 0, 1, 2, 1, 0, 1) }, RangeError, 'input.units[1] must have reference rows 0 <= from <= to <= 3 (got 2..1)'],
    ['hypothesis rows negative', { ...goodUnits, units: Int32Array.of(0, 1, -1, 1) }, RangeError, 'input.units[0] must have hypothesis rows 0 <= from <= to <= 2 (got -1..1)'],
  ];
  for (const [name, units, type, message] of cases) {
    for (const [kernel, run] of maskKernels) {
      it(`${kernel}: ${name}`, () => {
        expect(() => run(units)).toThrow(type);
        expect(() => run(units)).toThrow(message);
      });
    }
  }
});

describe('option checks', () => {
  for (const weight of [0, -1.2, Number.NaN, Number.POSITIVE_INFINITY, '1.2' as unknown as number]) {
    it(`WLCS weight ${String(weight)} is refused`, () => {
      const message = `weight must be a positive finite number (got ${String(weight)})`;
      expect(() => engine.wlcsPairStats(good, weight)).toThrow(new RangeError(message));
      expect(() => engine.wlcsUnionMasks(goodUnits, weight)).toThrow(new RangeError(message));
    });
  }

  const options: [SkipBigramOptions, string][] = [
    [{ maxGap: 1.5 }, 'options.maxGap must be an integer (negative: any gap) (got 1.5)'],
    [{ maxGap: Number.NaN }, 'options.maxGap must be an integer (negative: any gap) (got NaN)'],
    [{ maxGap: 2 ** 31 }, 'options.maxGap must be an integer (negative: any gap) (got 2147483648)'],
    [{} as SkipBigramOptions, 'options.maxGap must be an integer (negative: any gap) (got undefined)'],
    [{ maxGap: 4, unigrams: 'last' as 'all' }, 'options.unigrams must be one of none, all, rouge155 (got "last")'],
    [{ maxGap: 4, unigrams: 'toString' as 'all' }, 'options.unigrams must be one of none, all, rouge155 (got "toString")'],
  ];
  for (const [o, message] of options) {
    it(`skip-bigram options ${JSON.stringify(o)} are refused`, () => {
      expect(() => engine.skipBigramCounts(good, o)).toThrow(new RangeError(message));
    });
  }

  it('refuses a skip-bigram table that cannot fit in WebAssembly memory', () => {
    // 70,000 tokens with any gap: 2.4e9 pairs in one segment.
    const long = csrFromArrays([new Int32Array(70000)]);
    const batch: RougeBatch = { hyps: long, hypSegment: null, refs: long, segRefOffsets: Int32Array.of(0, 1) };
    expect(() => engine.skipBigramCounts(batch, { maxGap: -1 })).toThrow(RangeError);
    expect(() => engine.skipBigramCounts(batch, { maxGap: -1 })).toThrow(/^a skip-bigram table of \d+ bytes does not fit in WebAssembly memory: split the batch$/);
  });

  for (const directPairEntries of [-1, 1.5, 2 ** 24 + 1]) {
    it(`engine option directPairEntries ${directPairEntries} is refused`, () => {
      expect(() => new RougeEngine(engine.kernels, { directPairEntries })).toThrow(
        new RangeError(`options.directPairEntries must be an integer in [0, 16777216] (got ${directPairEntries})`),
      );
    });
  }

  it('the valid batch and units still give results after refusals', () => {
    expect(engine.lcsLengths(good).rows).toEqual(Int32Array.of(1, 1, 1));
    expect(engine.lcsUnionMasks(goodUnits).masks).toEqual(Uint8Array.of(1, 1, 1, 1));
  });
});
