/**
 * ROUGE kernels, hand-derived behaviour: the worked examples of the ROUGE papers (Lin & Och 2004 §3–4, Lin 2004
 * §3.2), ROUGE-1.5.5's quirks (traced runs for ROUGE-W, no unigram for the last token in SU), carries across vector
 * words, the `pow` behind ROUGE-W bit for bit against Perl (test/fixtures/rouge-pow), and "all paths agree": null vs
 * explicit segments, batch of N vs N batches of 1, the default engine vs a fresh one, repeated calls.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { csrFromArrays } from '../src/text/csr.js';
import { instantiateKernels, wasmModule, type WasmBuild } from '../src/wasm/load.js';
import {
  RougeEngine, lcsLengths, lcsUnionMasks, skipBigramCounts, wlcsPairStats, wlcsUnionMasks, wlcsWeight,
  wlcsWeightInverse, type RougeBatch, type RougeKernelExports,
} from '../src/wasm/rouge.js';
import * as oracle from './reference/rouge.js';

/** One segment per hypothesis, `refs[i]` its references. */
function batchOf(hyps: number[][], refs: number[][][]): RougeBatch {
  const segRefOffsets = [0];
  for (const r of refs) segRefOffsets.push(segRefOffsets[segRefOffsets.length - 1] + r.length);
  return {
    hyps: csrFromArrays(hyps), hypSegment: null, refs: csrFromArrays(refs.flat()),
    segRefOffsets: Int32Array.from(segRefOffsets),
  };
}

// "police killed the gunman" and its three candidates (Lin & Och 2004): police 1, killed 2, the 3, gunman 4, kill 5.
const S1 = [1, 2, 3, 4];
const S2 = [1, 5, 3, 4];
const S3 = [3, 4, 5, 1];
const S4 = [3, 4, 1, 2];

/** A 200-token reference of distinct fillers with token 7 at position 63 and token 8 at 150 (3 vector words). */
const LONG_REF = Array.from({ length: 200 }, (_, i) => (i === 63 ? 7 : i === 150 ? 8 : 1000 + i));

for (const build of ['release', 'debug'] as WasmBuild[]) {
  describe(`ROUGE kernels, worked examples and quirks (${build} build)`, () => {
    const engine = new RougeEngine(instantiateKernels(wasmModule(build)) as RougeKernelExports);
    const f = (x: number): number => engine.wlcsWeight(x, 1.2);

    it('ROUGE-L of S2, S3, S4 against S1: LCS 3, 2, 2', () => {
      expect(engine.lcsLengths(batchOf([S2, S3, S4], [[S1], [S1], [S1]])).rows).toEqual(Int32Array.of(3, 2, 2));
    });

    it('ROUGE-S* of S2, S3, S4 against S1: 3, 1, 2 of 6 skip-bigrams', () => {
      const { rows } = engine.skipBigramCounts(batchOf([S2, S3, S4], [[S1], [S1], [S1]]), { maxGap: -1 });
      expect(Array.from(rows)).toEqual([3, 6, 6, 1, 6, 6, 2, 6, 6]);
    });

    it('summary-level union LCS (Lin 2004 §3.2): w1 w2 w3 w5 of w1..w5', () => {
      const r = [1, 2, 3, 4, 5];
      const c1 = [1, 2, 6, 7, 8];
      const c2 = [1, 3, 8, 9, 5];
      const { masks, maskOffsets } = engine.lcsUnionMasks({
        refs: csrFromArrays([r]), hyps: csrFromArrays([c1, c2]), units: Int32Array.of(0, 1, 0, 2),
      });
      expect(Array.from(masks)).toEqual([1, 1, 1, 0, 1]);
      expect(maskOffsets).toEqual(Int32Array.of(0, 5));
    });

    it('ROUGE-SU4: ROUGE-1.5.5 never counts the last token\'s unigram ("x y z" vs "a b z")', () => {
      const batch = batchOf([[1, 2, 3]], [[[4, 5, 3]]]);
      const su = (unigrams: 'none' | 'all' | 'rouge155') => Array.from(engine.skipBigramCounts(batch, { maxGap: 4, unigrams }).rows);
      expect(su('rouge155')).toEqual([0, 5, 5]);
      expect(su('all')).toEqual([1, 6, 6]);
      expect(su('none')).toEqual([0, 3, 3]);
    });

    it('skip distance: gap 0 is bigrams, gap d pairs tokens at most d apart', () => {
      const batch = batchOf([[1, 2, 3, 4, 5]], [[[1, 2, 3, 4, 5]]]);
      expect(Array.from(engine.skipBigramCounts(batch, { maxGap: 0 }).rows)).toEqual([4, 4, 4]);
      expect(Array.from(engine.skipBigramCounts(batch, { maxGap: 1 }).rows)).toEqual([7, 7, 7]);
      expect(Array.from(engine.skipBigramCounts(batch, { maxGap: 3 }).rows)).toEqual([10, 10, 10]);
      expect(Array.from(engine.skipBigramCounts(batch, { maxGap: 2 ** 31 - 1 }).rows)).toEqual([10, 10, 10]);
    });

    it('ROUGE-W of an identical 7-token pair: one run, hit weight f(7) = 7^1.2', () => {
      const seq = [1, 2, 3, 4, 5, 6, 7];
      const [hitWeight, hits] = engine.wlcsPairStats(batchOf([seq], [[seq]]), 1.2).rows;
      expect(hitWeight).toBe(f(7));
      expect(hits).toBe(7);
    });

    it('ROUGE-W: two runs of 3 add f(3) twice', () => {
      const [hitWeight, hits] = engine.wlcsPairStats(batchOf([[1, 2, 3, 9, 5, 6, 7]], [[[1, 2, 3, 4, 5, 6, 7]]]), 1.2).rows;
      expect(hitWeight).toBe(f(3) + f(3));
      expect(hits).toBe(6);
    });

    it('ROUGE-W: ROUGE-1.5.5 scores the traced runs, not the table value c[m][n] (the paper\'s WLCS)', () => {
      // ref "a b c", hyp "a b x c": the trace marks a, b, c, one run of 3 in the reference, f(3);
      // the table ends at c[3][4] = f(2) + f(1), since "b" and "c" are not consecutive in the hypothesis.
      const [hitWeight, hits, value] = engine.wlcsPairStats(batchOf([[1, 2, 9, 3]], [[[1, 2, 3]]]), 1.2).rows;
      expect(hitWeight).toBe(f(3));
      expect(hits).toBe(3);
      expect(value).toBe(((((0 + f(1)) - f(0)) + f(2)) - f(1) + f(1)) - f(0));
      expect(value).toBeLessThan(hitWeight);
    });

    it('carries cross a whole 64-position word without matches (3-word reference)', () => {
      // Reading 8 puts a zero at row 150; 7 then matches row 63, and the carry moves that zero down across
      // rows 64..127: the LCS stays 1. In the other order both matches count. The traceback of "8 7" starts at
      // its last token, 7, and goes up on ties until it meets 7 at row 63.
      const batch = batchOf([[8, 7], [7, 8], [7], [8]], [[LONG_REF], [LONG_REF], [LONG_REF], [LONG_REF]]);
      expect(engine.lcsLengths(batch).rows).toEqual(Int32Array.of(1, 2, 1, 1));
      const input = { refs: csrFromArrays([LONG_REF]), hyps: csrFromArrays([[8, 7], [7, 8]]), units: Int32Array.of(0, 1, 0, 1, 0, 1, 1, 2) };
      const { masks } = engine.lcsUnionMasks(input);
      expect(masks).toEqual(oracle.lcsUnionMasks(input).masks);
      const marked = (u: number) => Array.from(masks.subarray(200 * u, 200 * u + 200)).flatMap((b, i) => (b ? [i] : []));
      expect(marked(0)).toEqual([63]);
      expect(marked(1)).toEqual([63, 150]);
    });

    it('references of 64 tokens fill a lane exactly; 65 spill into a second word', () => {
      for (const m of [63, 64, 65, 127, 128, 129]) {
        const ref = Array.from({ length: m }, (_, i) => i % 5);
        const hyp = Array.from({ length: m }, (_, i) => (i * 3) % 5);
        const batch = batchOf([ref, hyp], [[ref, hyp, [], ref], [hyp]]);
        expect(engine.lcsLengths(batch), `m = ${m}`).toEqual(oracle.lcsLengths(batch));
        expect(engine.lcsLengths(batch).rows[0], `m = ${m}`).toBe(m);
      }
    });

    it('empty hypotheses and references give zero rows; segments without references give no rows', () => {
      const batch = batchOf([[], [1, 2], [1], []], [[[1, 2]], [[]], [], [[], []]]);
      expect(engine.lcsLengths(batch)).toEqual({ rows: Int32Array.of(0, 0, 0, 0), rowOffsets: Int32Array.of(0, 1, 2, 2, 4) });
      expect(Array.from(engine.wlcsPairStats(batch, 1.2).rows)).toEqual(new Array(12).fill(0));
      expect(Array.from(engine.skipBigramCounts(batch, { maxGap: 4, unigrams: 'all' }).rows)).toEqual([0, 0, 3, 0, 3, 0, 0, 0, 0, 0, 0, 0]);
    });
  });

  describe(`token id range (${build} build)`, () => {
    const engine = new RougeEngine(instantiateKernels(wasmModule(build)) as RougeKernelExports);
    it('idRange gives the smallest and largest id for every length around the 4-lane steps', () => {
      const { kernels, memory } = engine;
      const base = (kernels.heapBase() + 15) & ~15;
      memory.reserve(base + 4096);
      const extremes = [-2147483648, 2147483647, 0, -1, 7];
      for (let n = 0; n <= 13; n++) {
        const ids = Int32Array.from({ length: n }, (_, i) => extremes[(i * 3 + n) % extremes.length] + (i % 2));
        memory.i32.set(ids, base >> 2);
        kernels.idRange(base, n, base + 1024);
        const [low, high] = memory.i32.slice((base + 1024) >> 2, ((base + 1024) >> 2) + 2);
        expect([low, high], `n = ${n}`).toEqual(n ? [Math.min(...ids), Math.max(...ids)] : [2147483647, -2147483648]);
      }
    });
  });

  describe(`ROUGE-W weights: pow as Perl's ** (${build} build)`, () => {
    const engine = new RougeEngine(instantiateKernels(wasmModule(build)) as RougeKernelExports);
    const rows = JSON.parse(readFileSync(new URL('./fixtures/rouge-pow/pow.json', import.meta.url), 'utf8')) as
      { op: 'pow' | 'inverse'; x: string; w: string; y: string }[];
    const double = (hex: string): number => Buffer.from(hex, 'hex').readDoubleBE(0);

    it(`gives Perl's bits on all ${rows.length} fixture values`, () => {
      expect(rows.length).toBeGreaterThan(600);
      const wrong = rows.filter((r) => {
        const [x, w] = [double(r.x), double(r.w)];
        const y = r.op === 'pow' ? engine.wlcsWeight(x, w) : engine.wlcsWeightInverse(x, w);
        return !Object.is(y, double(r.y));
      });
      expect(wrong).toEqual([]);
    });
  });
}

describe('all paths agree', () => {
  const engine = new RougeEngine(instantiateKernels(wasmModule('release')) as RougeKernelExports);
  const random = (() => {
    let a = 12345;
    return () => ((a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32);
  })();
  const seq = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 6));
  const segments = Array.from({ length: 12 }, (_, s) => ({
    refs: Array.from({ length: s % 4 }, () => seq(Math.floor(random() * 90))),
    hyps: Array.from({ length: 1 + (s % 3) }, () => seq(Math.floor(random() * 90))),
  }));
  const hyps = segments.flatMap((s) => s.hyps);
  const hypSegment = Int32Array.from(segments.flatMap((s, i) => s.hyps.map(() => i)));
  const refs = segments.flatMap((s) => s.refs);
  const segRefOffsets = Int32Array.from([0, ...segments.map((_, i) => segments.slice(0, i + 1).reduce((a, s) => a + s.refs.length, 0))]);
  const batch: RougeBatch = { hyps: csrFromArrays(hyps), hypSegment, refs: csrFromArrays(refs), segRefOffsets };
  const kernels = [
    (b: RougeBatch) => Array.from(engine.lcsLengths(b).rows),
    (b: RougeBatch) => Array.from(engine.wlcsPairStats(b, 1.2).rows),
    (b: RougeBatch) => Array.from(engine.skipBigramCounts(b, { maxGap: 4, unigrams: 'rouge155' }).rows),
  ];

  it('a batch of N gives the rows of N batches of one hypothesis', () => {
    for (const kernel of kernels) {
      const whole = kernel(batch);
      const single = hyps.flatMap((h, i) => {
        const s = hypSegment[i];
        return kernel({
          hyps: csrFromArrays([h]), hypSegment: null, refs: csrFromArrays(segments[s].refs),
          segRefOffsets: Int32Array.of(0, segments[s].refs.length),
        });
      });
      expect(whole).toEqual(single);
    }
  });

  it('hypSegment null equals explicit identity segments', () => {
    const identity = { hyps: csrFromArrays(segments.map((s) => s.hyps[0])), refs: batch.refs, segRefOffsets };
    for (const kernel of kernels) {
      expect(kernel({ ...identity, hypSegment: null })).toEqual(kernel({ ...identity, hypSegment: Int32Array.from(segments.map((_, i) => i)) }));
    }
  });

  it('the default engine, a fresh engine and repeated calls (after larger and smaller ones) agree', () => {
    const fresh = new RougeEngine(instantiateKernels(wasmModule('release')) as RougeKernelExports);
    const units = { hyps: batch.hyps, refs: batch.refs, units: Int32Array.of(0, refs.length, 0, hyps.length, 1, 3, 2, 2) };
    const calls = [
      () => [lcsLengths(batch), fresh.lcsLengths(batch)],
      () => [wlcsPairStats(batch, 1.2), fresh.wlcsPairStats(batch, 1.2)],
      () => [skipBigramCounts(batch, { maxGap: -1 }), fresh.skipBigramCounts(batch, { maxGap: -1 })],
      () => [lcsUnionMasks(units), fresh.lcsUnionMasks(units)],
      () => [wlcsUnionMasks(units, 1.5), fresh.wlcsUnionMasks(units, 1.5)],
    ];
    const first = calls.map((c) => c());
    for (const [a, b] of first) expect(a).toEqual(b);
    const small: RougeBatch = { hyps: csrFromArrays([[1, 2]]), hypSegment: null, refs: csrFromArrays([[2, 1, 2]]), segRefOffsets: Int32Array.of(0, 1) };
    expect(lcsLengths(small).rows).toEqual(Int32Array.of(2));
    expect(calls.map((c) => c())).toEqual(first);
    expect(wlcsWeight(7, 1.2)).toBe(fresh.wlcsWeight(7, 1.2));
    expect(wlcsWeightInverse(0.5, 1.2)).toBe(fresh.wlcsWeightInverse(0.5, 1.2));
  });
});
