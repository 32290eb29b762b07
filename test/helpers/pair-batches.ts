/**
 * fast-check generators of (hypothesis, references) batches for the pairwise kernels' property tests (LCS, WLCS,
 * skip-bigrams, edit distance): dense small vocabularies (1–4 ids: many matches and ties), extreme i32 ids, and
 * sparse vocabularies (5–300 ids) with long sequences (up to 260 tokens), where whole 64-position words of a long
 * reference see no match, so an addition's carry has to cross them.
 */
import fc from 'fast-check';
import { csrFromArrays } from '../../src/text/csr.js';
import type { PairBatch } from '../../src/wasm/placed-batch.js';

/** Token sequences whose lengths come from `lengthArb`, over one of three kinds of vocabulary. */
export function sequenceArbitrary(lengthArb: fc.Arbitrary<number>): fc.Arbitrary<fc.Arbitrary<number[]>> {
  return fc.oneof(
    {
      arbitrary: fc.integer({ min: 1, max: 4 }).map((v) =>
        lengthArb.chain((n) => fc.array(fc.integer({ min: 0, max: v - 1 }), { minLength: n, maxLength: n }))),
      weight: 5,
    },
    {
      arbitrary: fc.constant(lengthArb.chain((n) =>
        fc.array(fc.constantFrom(-2147483648, -1, 0, 2147483647), { minLength: n, maxLength: n }))),
      weight: 1,
    },
    {
      arbitrary: fc.integer({ min: 5, max: 300 }).map((v) =>
        fc.oneof(lengthArb, fc.integer({ min: 100, max: 260 }))
          .chain((n) => fc.array(fc.integer({ min: 0, max: v - 1 }), { minLength: n, maxLength: n }))),
      weight: 2,
    },
  );
}

/**
 * Ids as a batch gives them: as generated (small non-negative ids index the match vectors directly), or moved to
 * large ids (1e9 + 7t, same equalities), which the kernels look up in their token table instead.
 */
export const idsArb = fc.constantFrom<(t: number) => number>((t) => t, (t) => (t >= 0 && t < 1e6 ? 1e9 + 7 * t : t));

/**
 * A pair batch: segments with 0–5 references (sometimes 9–12: more than fit two `v128` of lanes) and 0–4
 * hypotheses (or one hypothesis each, `hypSegment` null).
 */
export function pairBatchArbitrary(sequenceArb: fc.Arbitrary<fc.Arbitrary<number[]>>): fc.Arbitrary<PairBatch> {
  return fc
    .record({ seq: sequenceArb, identity: fc.boolean(), ids: idsArb })
    .chain(({ seq, identity, ids }) => {
      const segment = fc.record({
        refs: fc.oneof(
          { arbitrary: fc.array(seq, { minLength: 0, maxLength: 5 }), weight: 4 },
          { arbitrary: fc.array(seq, { minLength: 9, maxLength: 12 }), weight: 1 },
        ),
        hyps: fc.array(seq, identity ? { minLength: 1, maxLength: 1 } : { minLength: 0, maxLength: 4 }),
      });
      return fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) =>
        batchFromSegments(
          segments.map((s) => ({ refs: s.refs.map((r) => r.map(ids)), hyps: s.hyps.map((h) => h.map(ids)) })),
          identity,
        ));
    });
}

/**
 * The CSR batch of segments given as token arrays (the kernels' batch contract: pair and n-gram batches alike):
 * references segment by segment, hypotheses mapped to their segment, or `hypSegment` null with `identity` (one
 * hypothesis per segment).
 */
export function batchFromSegments(
  segments: readonly { refs: number[][]; hyps: number[][] }[],
  identity = false,
): PairBatch {
  const refs: number[][] = [];
  const hyps: number[][] = [];
  const hypSegment: number[] = [];
  const segRefOffsets = [0];
  segments.forEach((s, i) => {
    refs.push(...s.refs);
    segRefOffsets.push(refs.length);
    for (const h of s.hyps) {
      hyps.push(h);
      hypSegment.push(i);
    }
  });
  return {
    hyps: csrFromArrays(hyps),
    hypSegment: identity ? null : Int32Array.from(hypSegment),
    refs: csrFromArrays(refs),
    segRefOffsets: Int32Array.from(segRefOffsets),
  };
}

/** A small consistent batch: 2 hypotheses in 2 segments, 3 references (2 + 1). */
export const GOOD_PAIR_BATCH: PairBatch = {
  hyps: csrFromArrays([[1, 2], [3]]),
  hypSegment: Int32Array.of(0, 1),
  refs: csrFromArrays([[1], [2, 3], [3]]),
  segRefOffsets: Int32Array.of(0, 2, 3),
};

const NOT_CSR = { tokens: [1, 2], offsets: [0, 2] } as unknown as PairBatch['hyps'];

/**
 * Variants of {@link GOOD_PAIR_BATCH} that every pairwise kernel must refuse, with the error type and message the
 * shared batch check gives: [case name, batch, error type, message].
 */
export const INCONSISTENT_PAIR_BATCHES: readonly [string, PairBatch, ErrorConstructor, string][] = [
  ['hyps not typed arrays', { ...GOOD_PAIR_BATCH, hyps: NOT_CSR }, TypeError, 'batch.hyps must be a Csr of Int32Array tokens and offsets'],
  ['refs offsets not from 0', { ...GOOD_PAIR_BATCH, refs: { tokens: Int32Array.of(1, 2), offsets: Int32Array.of(1, 2) } }, RangeError, 'batch.refs.offsets must start with 0'],
  ['hyps offsets decreasing', { ...GOOD_PAIR_BATCH, hyps: { tokens: Int32Array.of(1, 2), offsets: Int32Array.of(0, 2, 1) } }, RangeError, 'batch.hyps.offsets must be non-decreasing (offsets[2] = 1 < 2)'],
  ['refs offsets past the tokens', { ...GOOD_PAIR_BATCH, refs: { tokens: Int32Array.of(1), offsets: Int32Array.of(0, 3) } }, RangeError, 'batch.refs.offsets must end within the 1 tokens (got 3)'],
  ['segment offsets past the references', { ...GOOD_PAIR_BATCH, segRefOffsets: Int32Array.of(0, 2, 4) }, RangeError, 'batch.segRefOffsets must be non-decreasing offsets within [0, 3] (batch.segRefOffsets[2] = 4)'],
  ['hypothesis segment out of range', { ...GOOD_PAIR_BATCH, hypSegment: Int32Array.of(0, 2) }, RangeError, 'batch.hypSegment[1] must be a segment index in [0, 2) (got 2)'],
  ['hypothesis segments of the wrong length', { ...GOOD_PAIR_BATCH, hypSegment: Int32Array.of(0) }, TypeError, 'batch.hypSegment must be null or an Int32Array of 2 segment indices'],
  ['null segments with too few segments', { ...GOOD_PAIR_BATCH, hypSegment: null, segRefOffsets: Int32Array.of(0, 3) }, RangeError, 'batch.hypSegment may be null only with one segment per hypothesis (2 hypotheses, 1 segments)'],
];
