/**
 * Edit kernel bindings: invalid input is refused before a kernel reads memory (TypeError or RangeError with a uniform
 * message), degenerate batches give defined values, and "all paths agree": the default engine and a fresh one, the
 * release and debug builds, a batch and its hypotheses one at a time, segments given by index or one per hypothesis,
 * ids indexing the match vectors directly or through the token table.
 */
import { describe, expect, it } from 'vitest';
import { csrFromArrays, type Csr } from '../src/corpus/csr.js';
import { EditEngine, editDistances, gtmRunStats, type EditBatch, type EditKernelExports } from '../src/wasm/edit.js';
import { instantiateKernels, wasmModule } from '../src/wasm/load.js';

const engine = new EditEngine(instantiateKernels(wasmModule('release')) as EditKernelExports);

const good: EditBatch = {
  hyps: csrFromArrays([[1, 2], [3]]),
  hypSegment: Int32Array.of(0, 1),
  refs: csrFromArrays([[1], [2, 3], [3]]),
  segRefOffsets: Int32Array.of(0, 2, 3),
};

const kernels: [string, (b: EditBatch) => unknown][] = [
  ['editDistances', (b) => engine.editDistances(b, { alignment: true })],
  ['gtmRunStats', (b) => engine.gtmRunStats(b, 2)],
];

const notCsr = { tokens: [1, 2], offsets: [0, 2] } as unknown as Csr;

describe('edit kernels refuse inconsistent batches', () => {
  const cases: [string, EditBatch, ErrorConstructor, string][] = [
    ['hyps not typed arrays', { ...good, hyps: notCsr }, TypeError, 'batch.hyps must be a Csr of Int32Array tokens and offsets'],
    ['refs offsets not from 0', { ...good, refs: { tokens: Int32Array.of(1, 2), offsets: Int32Array.of(1, 2) } }, RangeError, 'batch.refs.offsets must start with 0'],
    ['hyps offsets decreasing', { ...good, hyps: { tokens: Int32Array.of(1, 2), offsets: Int32Array.of(0, 2, 1) } }, RangeError, 'batch.hyps.offsets must be non-decreasing (offsets[2] = 1 < 2)'],
    ['refs offsets past the tokens', { ...good, refs: { tokens: Int32Array.of(1), offsets: Int32Array.of(0, 3) } }, RangeError, 'batch.refs.offsets must end within the 1 tokens (got 3)'],
    ['segment offsets past the references', { ...good, segRefOffsets: Int32Array.of(0, 2, 4) }, RangeError, 'batch.segRefOffsets must be non-decreasing offsets within [0, 3] (batch.segRefOffsets[2] = 4)'],
    ['hypothesis segment out of range', { ...good, hypSegment: Int32Array.of(0, 2) }, RangeError, 'batch.hypSegment[1] must be a segment index in [0, 2) (got 2)'],
    ['hypothesis segments of the wrong length', { ...good, hypSegment: Int32Array.of(0) }, TypeError, 'batch.hypSegment must be null or an Int32Array of 2 segment indices'],
    ['null segments with too few segments', { ...good, hypSegment: null, segRefOffsets: Int32Array.of(0, 3) }, RangeError, 'batch.hypSegment may be null only with one segment per hypothesis (2 hypotheses, 1 segments)'],
  ];
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
