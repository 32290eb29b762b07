/**
 * The fast sacreBLEU TER search (`sacrebleuTer`: banded matrices, forward/backward reuse per candidate) equals the
 * plain literal port of sacreBLEU's lib_ter (`plainTranslationEditRate`) on random inputs: edits, counts, shifts,
 * the order of the shifted words and the operations. Small vocabularies make many matches and shifts; lengths
 * cover 0, the band edges, 63/64/65, very unequal lengths (beam widening) and repetitive lines that exhaust the
 * 1000-candidate budget. Also with tighter limits (narrow beam, small budget, short shifts) to reach the rarer
 * branches often.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TerOp, countOps, type TerResult } from '../src/metrics/ter/alignment.js';
import { plainBeamEditDistance, plainTranslationEditRate } from './reference/ter.js';
import { BeamEditDistance } from '../src/metrics/ter/beam-edit-distance.js';
import { SACREBLEU_TER_LIMITS, type TerSearchLimits } from '../src/metrics/ter/limits.js';
import { sacrebleuTer } from '../src/metrics/ter/shift-search.js';
import { performShift, shiftSpan } from '../src/metrics/ter/shift.js';

function words(vocab: number, minLength: number, maxLength: number): fc.Arbitrary<Int32Array> {
  return fc
    .array(fc.integer({ min: 0, max: vocab - 1 }), { minLength, maxLength })
    .map((a) => Int32Array.from(a));
}

/** Lengths that matter: empty, tiny, around 64, and long. */
const interestingLength = fc.constantFrom(0, 1, 2, 3, 5, 8, 13, 24, 25, 26, 49, 50, 51, 63, 64, 65, 100);

function sized(vocab: number): fc.Arbitrary<Int32Array> {
  return interestingLength.chain((n) => words(vocab, n, n));
}

function plainResult(r: TerResult): unknown {
  return {
    edits: r.edits,
    refLength: r.refLength,
    ins: r.ins,
    del: r.del,
    sub: r.sub,
    shifts: r.shifts,
    shiftList: r.alignment?.shifts.map((s) => [s.start, s.length, s.target]),
    hypOrder: Array.from(r.alignment?.hypOrder ?? []),
    ops: Array.from(r.alignment?.ops ?? []),
  };
}

function agree(hyp: Int32Array, ref: Int32Array, limits: TerSearchLimits): void {
  const fast = sacrebleuTer(hyp, ref, limits, true);
  const plain = plainTranslationEditRate(hyp, ref, limits);
  expect(plainResult(fast)).toEqual(plainResult(plain));
  // The counts without the alignment are the same.
  const bare = sacrebleuTer(hyp, ref, limits, false);
  expect([bare.edits, bare.ins, bare.del, bare.sub, bare.shifts, bare.alignment]).toEqual([
    fast.edits,
    fast.ins,
    fast.del,
    fast.sub,
    fast.shifts,
    null,
  ]);
}

const TIGHT: TerSearchLimits = { maxShiftSize: 3, maxShiftDist: 4, maxCandidates: 40, beamWidth: 2 };

describe('fast TER search equals the plain port', () => {
  it('small vocabulary, any lengths up to 40 (sacreBLEU limits)', () => {
    fc.assert(
      fc.property(words(4, 0, 40), words(4, 0, 40), (h, r) => agree(h, r, SACREBLEU_TER_LIMITS)),
      { numRuns: 300 },
    );
  });
  it('interesting lengths (0, band edges, 63/64/65, 100), vocabulary 3 and 12', () => {
    fc.assert(
      fc.property(fc.constantFrom(3, 12), fc.nat(), (vocab, seed) =>
        fc.assert(fc.property(sized(vocab), sized(vocab), (h, r) => agree(h, r, SACREBLEU_TER_LIMITS)), {
          numRuns: 2,
          seed,
        }),
      ),
      { numRuns: 40 },
    );
  });
  it('very unequal lengths (the widened beam)', () => {
    fc.assert(
      fc.property(words(3, 0, 3), words(3, 60, 180), fc.boolean(), (short, long, swap) =>
        swap ? agree(long, short, SACREBLEU_TER_LIMITS) : agree(short, long, SACREBLEU_TER_LIMITS),
      ),
      { numRuns: 60 },
    );
  });
  it('tight limits: narrow beam, small candidate budget, short shifts', () => {
    fc.assert(
      fc.property(words(3, 0, 30), words(3, 0, 30), (h, r) => agree(h, r, TIGHT)),
      { numRuns: 400 },
    );
  });
  it('repetitive lines exhaust the candidate budget', () => {
    const hyp = Int32Array.from({ length: 60 }, (_, k) => (k * 7) % 3);
    const ref = Int32Array.from({ length: 60 }, (_, k) => (k * 5) % 3);
    agree(hyp, ref, SACREBLEU_TER_LIMITS);
    // The budget runs out in the first round, so its best shift is dropped; without a budget 20 shifts follow.
    expect(sacrebleuTer(hyp, ref).shifts).toBe(0);
    expect(sacrebleuTer(hyp, ref, { ...SACREBLEU_TER_LIMITS, maxCandidates: 1e9 }).shifts).toBe(20);
    const later = Int32Array.from({ length: 30 }, (_, k) => (k * 2) % 3);
    const laterRef = Int32Array.from({ length: 30 }, (_, k) => k % 3);
    agree(later, laterRef, SACREBLEU_TER_LIMITS);
    expect(sacrebleuTer(later, laterRef).shifts).toBe(3);
  });
});

describe('BeamEditDistance.variantDistance equals a full computation', () => {
  it('for every shift of random hypotheses', () => {
    fc.assert(
      fc.property(words(4, 1, 30), words(4, 0, 30), fc.nat(), fc.nat(), fc.nat(), (h, r, a, b, c) => {
        const n = h.length;
        const start = a % n;
        const length = 1 + (b % (n - start));
        const target = c % (n + 1);
        const ed = new BeamEditDistance(3);
        ed.reset(r, n);
        ed.setHypothesis(h);
        const shifted = new Int32Array(n);
        performShift(h, start, length, target, shifted);
        const span = shiftSpan(n, start, length, target);
        for (let k = 0; k < n; k++) if (k < span.from || k >= span.to) expect(shifted[k]).toBe(h[k]);
        expect(ed.variantDistance(shifted, span.from, span.to)).toBe(plainBeamEditDistance(shifted, r, 3).distance);
      }),
      { numRuns: 500 },
    );
  });
  it('distance and trace equal the plain matrix', () => {
    fc.assert(
      fc.property(words(4, 0, 40), words(4, 0, 40), fc.constantFrom(1, 2, 25), (h, r, beam) => {
        const ed = new BeamEditDistance(beam);
        ed.reset(r, h.length);
        const plain = plainBeamEditDistance(h, r, beam);
        expect(ed.setHypothesis(h)).toBe(plain.distance);
        expect(Array.from(ed.trace())).toEqual(Array.from(plain.ops));
      }),
      { numRuns: 300 },
    );
  });
});

describe('alignment invariants', () => {
  it('counts, operations and shifted order are consistent', () => {
    fc.assert(
      fc.property(words(5, 0, 40), words(5, 0, 40), (h, r) => {
        const res = sacrebleuTer(h, r, SACREBLEU_TER_LIMITS, true);
        const a = res.alignment!;
        const counts = countOps(a.ops);
        expect([counts.ins, counts.del, counts.sub]).toEqual([res.ins, res.del, res.sub]);
        expect(res.edits).toBe(res.ins + res.del + res.sub + res.shifts);
        expect(a.shifts.length).toBe(res.shifts);
        expect(h.length - res.ins + res.del).toBe(r.length);
        // Replaying the shifts on the positions gives the recorded order; matches pair equal words.
        let order = Int32Array.from({ length: h.length }, (_, k) => k);
        for (const s of a.shifts) {
          const next = new Int32Array(h.length);
          performShift(order, s.start, s.length, s.target, next);
          order = next;
        }
        expect(Array.from(order)).toEqual(Array.from(a.hypOrder));
        let hi = 0;
        let ri = 0;
        for (const op of a.ops) {
          if (op === TerOp.Match) expect(h[a.hypOrder[hi]]).toBe(r[ri]);
          if (op === TerOp.Sub) expect(h[a.hypOrder[hi]]).not.toBe(r[ri]);
          if (op !== TerOp.Del) hi++;
          if (op !== TerOp.Ins) ri++;
        }
        expect([hi, ri]).toEqual([h.length, r.length]);
      }),
      { numRuns: 300 },
    );
  });
});
