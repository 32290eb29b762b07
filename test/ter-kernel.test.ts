/**
 * The WebAssembly TER kernel (`assembly/ter-sacrebleu.ts` via `TerEngine`) equals the plain port of sacreBLEU's
 * lib_ter (`plainTranslationEditRate`) edit for edit, on the release and the debug build: random batches (small
 * vocabularies, lengths 0 … 100 incl. 63/64/65, very unequal lengths, several references per hypothesis, tight
 * limits, sentence-like pairs with moved blocks), and the metric gives the same rows with either engine on the WMT17 subset fixture.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csrFromArrays } from '../src/text/csr.js';
import { Ter } from '../src/metrics/ter/ter.js';
import { SACREBLEU_TER_LIMITS, type TerSearchLimits } from '../src/metrics/ter/limits.js';
import { plainTranslationEditRate } from './reference/ter.js';
import { instantiateKernels, wasmModule, type WasmBuild } from '../src/wasm/load.js';
import { TerEngine, hasTerKernels } from '../src/wasm/ter.js';

function words(vocab: number, minLength: number, maxLength: number): fc.Arbitrary<number[]> {
  return fc.array(fc.integer({ min: 0, max: vocab - 1 }), { minLength, maxLength });
}
const sized = fc
  .constantFrom(0, 1, 2, 5, 24, 25, 26, 50, 63, 64, 65, 100)
  .chain((n) => words(4, n, n));

/** A batch: hypotheses with `nRefs` references each. */
function batch(
  hyp: fc.Arbitrary<number[]>,
  ref: fc.Arbitrary<number[]>,
  maxRefs = 3,
  maxHyps = 6,
): fc.Arbitrary<{ hyps: number[][]; refs: number[][]; nRefs: number }> {
  return fc.integer({ min: 1, max: maxRefs }).chain((nRefs) =>
    fc.array(fc.tuple(hyp, fc.array(ref, { minLength: nRefs, maxLength: nRefs })), { minLength: 1, maxLength: maxHyps }).map((rows) => ({
      hyps: rows.map(([h]) => h),
      refs: rows.flatMap(([, rs]) => rs),
      nRefs,
    })),
  );
}

function check(engine: TerEngine, b: { hyps: number[][]; refs: number[][]; nRefs: number }, limits: TerSearchLimits): void {
  const got = engine.sacrebleuEdits(csrFromArrays(b.hyps), csrFromArrays(b.refs), b.nRefs, limits);
  const want = b.refs.map(
    (r, row) => plainTranslationEditRate(Int32Array.from(b.hyps[Math.floor(row / b.nRefs)]), Int32Array.from(r), limits).edits,
  );
  expect(Array.from(got)).toEqual(want);
}

const TIGHT: TerSearchLimits = { maxShiftSize: 3, maxShiftDist: 4, maxCandidates: 40, beamWidth: 2 };

/**
 * Sentence-like pairs: a reference of 15–60 words of a larger vocabulary, and a hypothesis made from it by moving
 * blocks and replacing words (some by words the reference lacks). Their distances are found across wide bands
 * whose cheapest cell may lie in any column, and their best shifts have positive gains.
 */
const edited = words(40, 15, 60)
  .chain((ref) =>
    fc.tuple(
      fc.constant(ref),
      fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 6 }), fc.nat(), fc.integer({ min: 0, max: 49 })), {
        minLength: 1,
        maxLength: 4,
      }),
    ),
  )
  .map(([ref, edits]) => {
    const hyp = ref.slice();
    for (const [from, to, length, at, word] of edits) {
      const start = from % hyp.length;
      const block = hyp.splice(start, Math.min(length, hyp.length - start));
      hyp.splice(to % (hyp.length + 1), 0, ...block);
      hyp[at % hyp.length] = word;
    }
    return { hyps: [hyp], refs: [ref], nRefs: 1 };
  });

for (const build of ['release', 'debug'] as WasmBuild[]) {
  describe(`TER kernel (${build} build) equals the plain port`, () => {
    const kernels = instantiateKernels(wasmModule(build));
    it('has the TER kernel', () => expect(hasTerKernels(kernels)).toBe(true));
    const engine = new TerEngine(kernels as never);
    it('random batches, lengths up to 40', () => {
      fc.assert(fc.property(batch(words(4, 0, 40), words(4, 0, 40)), (b) => check(engine, b, SACREBLEU_TER_LIMITS)), {
        numRuns: 120,
      });
    });
    it('interesting lengths (0, band edges, 63/64/65, 100)', () => {
      // Small batches: the plain port recomputes a full matrix per candidate, slow on 100-word pairs.
      fc.assert(fc.property(batch(sized, sized, 2, 2), (b) => check(engine, b, SACREBLEU_TER_LIMITS)), { numRuns: 12 });
    });
    it('sentence-like pairs: blocks moved, words replaced', () => {
      fc.assert(fc.property(edited, (b) => check(engine, b, SACREBLEU_TER_LIMITS)), { numRuns: 60 });
    });
    it('very unequal lengths (the widened beam)', () => {
      fc.assert(
        fc.property(fc.boolean(), words(3, 0, 3), words(3, 60, 160), (swap, a, b) =>
          check(engine, swap ? { hyps: [b], refs: [a], nRefs: 1 } : { hyps: [a], refs: [b], nRefs: 1 }, SACREBLEU_TER_LIMITS),
        ),
        { numRuns: 40 },
      );
    });
    it('tight limits and the candidate budget', () => {
      fc.assert(fc.property(batch(words(3, 0, 30), words(3, 0, 30)), (b) => check(engine, b, TIGHT)), { numRuns: 150 });
      const hyp = Array.from({ length: 60 }, (_, k) => (k * 7) % 3);
      const ref = Array.from({ length: 60 }, (_, k) => (k * 5) % 3);
      check(engine, { hyps: [hyp], refs: [ref], nRefs: 1 }, SACREBLEU_TER_LIMITS);
    });
    it('empty batch, and ids of words no reference has', () => {
      expect(Array.from(engine.sacrebleuEdits(csrFromArrays([]), csrFromArrays([]), 2, SACREBLEU_TER_LIMITS))).toEqual([]);
      check(engine, { hyps: [[-1, 0, -1, 1]], refs: [[0, 1, 2]], nRefs: 1 }, SACREBLEU_TER_LIMITS);
    });
    it('rejects inconsistent arguments', () => {
      expect(() => engine.sacrebleuEdits(csrFromArrays([[1]]), csrFromArrays([[1]]), 2, SACREBLEU_TER_LIMITS)).toThrow(RangeError);
      expect(() => engine.sacrebleuEdits(csrFromArrays([[1]]), csrFromArrays([[1]]), 0, SACREBLEU_TER_LIMITS)).toThrow(RangeError);
      expect(() =>
        engine.sacrebleuEdits(csrFromArrays([[1]]), csrFromArrays([[1]]), 1, { ...SACREBLEU_TER_LIMITS, beamWidth: 1.5 }),
      ).toThrow(RangeError);
    });
  });
}

describe('the metric gives the same rows with either engine', () => {
  const subset = JSON.parse(gunzipSync(readFileSync(new URL('./fixtures/ter/wmt-subset.json.gz', import.meta.url))).toString('utf8')) as {
    records: { hyp: string; refs: string[]; config: Record<string, boolean> }[];
    files: Record<string, string[]>;
  };
  it.each(subset.records.slice(0, 3).concat(subset.records.slice(-2)).map((r, k) => [k, r] as const))('record %i', (_k, r) => {
    const options = {
      normalized: r.config.normalized,
      noPunct: r.config.no_punct,
      asianSupport: r.config.asian_support,
      caseSensitive: r.config.case_sensitive,
    };
    const rows = (engine: 'wasm' | 'typescript') => {
      const metric = new Ter({ ...options, engine });
      return Array.from(metric.segmentStats(subset.files[r.hyp], metric.prepareReferences(r.refs.map((p) => subset.files[p]))));
    };
    expect(rows('wasm')).toEqual(rows('typescript'));
  });
  it('rejects an unknown engine name', () => {
    expect(() => new Ter({ engine: 'gpu' as never })).toThrow(/engine must be/);
  });
});
