/**
 * Edit kernel bindings: invalid input is refused before a kernel reads memory (TypeError or RangeError with a uniform
 * message), degenerate batches give defined values, and "all paths agree": the default engine and a fresh one, the
 * release and debug builds, a batch and its hypotheses one at a time, segments given by index or one per hypothesis,
 * ids indexing the match vectors directly or through the token table.
 */
import { describe, expect, it } from 'vitest';
import { GOOD_PAIR_BATCH, INCONSISTENT_PAIR_BATCHES } from './helpers/pair-batches.js';
import { csrFromArrays, type Csr } from '../src/text/csr.js';
import { EditEngine, editDistances, gtmRunStats, type EditBatch, type EditKernelExports } from '../src/wasm/edit.js';
import { instantiateKernels, wasmModule } from '../src/wasm/load.js';

const engine = new EditEngine(instantiateKernels(wasmModule('release')) as EditKernelExports);

const good: EditBatch = GOOD_PAIR_BATCH;

const kernels: [string, (b: EditBatch) => unknown][] = [
  ['editDistances', (b) => engine.editDistances(b, { alignment: true })],
  ['gtmRunStats', (b) => engine.gtmRunStats(b, 2)],
];

describe('edit kernels refuse inconsistent batches', () => {
  const cases = INCONSISTENT_PAIR_BATCHES;
  for (const [name, batch, type, message] of cases) {
    for (const [kernel, run] of kernels) {
      it(`${kernel}: ${name}`, () => {
        expect(() => run(batch)).toThrow(type);
        expect(() => run(batch)).toThrow(message);
      });
    }
  }

  it('option checks', () => {
    for (const exponent of [0, -2, Number.NaN, Number.POSITIVE_INFINITY, '2' as unknown as number]) {
      expect(() => engine.gtmRunStats(good, exponent)).toThrow(
        new RangeError(`exponent must be a positive finite number (got ${String(exponent)})`),
      );
    }
    expect(() => engine.editDistances(good, { alignment: 1 as unknown as boolean })).toThrow(
      new TypeError('options.alignment must be a boolean (got 1)'),
    );
  });
});

describe('degenerate batches', () => {
  it('no hypotheses: empty results', () => {
    const batch: EditBatch = { ...good, hyps: csrFromArrays([]), hypSegment: Int32Array.of() };
    expect(engine.editDistances(batch, { alignment: true })).toEqual({
      distances: new Int32Array(0), rowOffsets: Int32Array.of(0), ops: new Int32Array(0),
    });
    expect(engine.gtmRunStats(batch, 1)).toEqual({ rows: new Float64Array(0), rowOffsets: Int32Array.of(0) });
  });

  it('a segment without references: no distances, best -1 and zero counts', () => {
    const batch: EditBatch = {
      hyps: csrFromArrays([[1, 2], [1]]), hypSegment: Int32Array.of(0, 1), refs: csrFromArrays([[1]]), segRefOffsets: Int32Array.of(0, 0, 1),
    };
    const out = engine.editDistances(batch, { alignment: true });
    expect(Array.from(out.rowOffsets)).toEqual([0, 0, 1]);
    expect(Array.from(out.distances)).toEqual([0]);
    expect(Array.from(out.ops!)).toEqual([-1, 0, 0, 0, 0, 0, 1, 0, 0, 0]);
  });

  it('empty hypotheses and references: distance = the other length; counts are all deletions or insertions', () => {
    const batch: EditBatch = {
      hyps: csrFromArrays([[], [4, 5, 6], []]), hypSegment: null, refs: csrFromArrays([[1, 2], [], []]),
      segRefOffsets: Int32Array.of(0, 1, 2, 3),
    };
    const out = engine.editDistances(batch, { alignment: true });
    expect(Array.from(out.distances)).toEqual([2, 3, 0]);
    expect(Array.from(out.ops!)).toEqual([0, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0]);
    expect(Array.from(engine.gtmRunStats(batch, 2).rows)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe('all paths agree', () => {
  /** A batch over 3 segments with long and short references (lanes and words), several hypotheses each. */
  const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => ((i * 7 + seed * 13) % 11) + (i % 3 === 0 ? 0 : 20));
  const batch: EditBatch = {
    hyps: csrFromArrays([words(20, 1), words(30, 2), words(70, 3), words(0, 4), words(140, 5), words(65, 6)]),
    hypSegment: Int32Array.of(0, 0, 1, 1, 2, 2),
    refs: csrFromArrays([words(25, 1), words(31, 7), words(33, 2), words(64, 3), words(130, 5), words(3, 6), words(66, 9)]),
    segRefOffsets: Int32Array.of(0, 2, 4, 7),
  };
  const whole = engine.editDistances(batch, { alignment: true });
  const gtm = engine.gtmRunStats(batch, 2);

  it('the default engine and the debug build give the same values', () => {
    expect(editDistances(batch, { alignment: true })).toEqual(whole);
    expect(gtmRunStats(batch, 2)).toEqual(gtm);
    const debug = new EditEngine(instantiateKernels(wasmModule('debug')) as EditKernelExports);
    expect(debug.editDistances(batch, { alignment: true })).toEqual(whole);
    expect(debug.gtmRunStats(batch, 2)).toEqual(gtm);
  });

  it('without alignment the distances are the same', () => {
    const plain = engine.editDistances(batch);
    expect(plain.ops).toBeNull();
    expect(plain.distances).toEqual(whole.distances);
  });

  it('hypotheses one at a time give the rows of the batch', () => {
    const nHyps = batch.hyps.offsets.length - 1;
    for (let h = 0; h < nHyps; h++) {
      const s = batch.hypSegment![h];
      const [r0, r1] = [batch.segRefOffsets[s], batch.segRefOffsets[s + 1]];
      const one: EditBatch = {
        hyps: csrFromArrays([Array.from(batch.hyps.tokens.subarray(batch.hyps.offsets[h], batch.hyps.offsets[h + 1]))]),
        hypSegment: null,
        refs: csrFromArrays(Array.from({ length: r1 - r0 }, (_, k) =>
          Array.from(batch.refs.tokens.subarray(batch.refs.offsets[r0 + k], batch.refs.offsets[r0 + k + 1])))),
        segRefOffsets: Int32Array.of(0, r1 - r0),
      };
      const out = engine.editDistances(one, { alignment: true });
      expect(out.distances).toEqual(whole.distances.subarray(whole.rowOffsets[h], whole.rowOffsets[h + 1]));
      expect(out.ops).toEqual(whole.ops!.subarray(5 * h, 5 * h + 5));
      expect(engine.gtmRunStats(one, 2).rows).toEqual(gtm.rows.subarray(2 * gtm.rowOffsets[h], 2 * gtm.rowOffsets[h + 1]));
    }
  });

  it('large ids (token table) give the values of small ids (direct addressing)', () => {
    const far = (csr: Csr): Csr => ({ tokens: csr.tokens.map((t) => 1_000_000_007 + 3 * t), offsets: csr.offsets });
    const moved: EditBatch = { ...batch, hyps: far(batch.hyps), refs: far(batch.refs) };
    expect(engine.editDistances(moved, { alignment: true })).toEqual(whole);
    expect(engine.gtmRunStats(moved, 2)).toEqual(gtm);
  });
});
