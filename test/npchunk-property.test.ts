import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sentenceScore } from '../src/metrics/metric.js';
import { Impact } from '../src/metrics/impact/impact.js';
import { NpChunk } from '../src/metrics/npchunk/npchunk.js';
import { CommonPartSearch } from '../src/metrics/npchunk/common-parts.js';
import { bestRouteBruteForce, commonPartRoundsRef, npChunkSentenceRef, type RefSentence } from './reference/npchunk.js';
import { impactSentenceRef } from './reference/impact.js';

/** Small vocabularies make repeated words, ties between routes and between NP similarities common. */
const word = fc.constantFrom('a', 'b', 'c', 'the', 'of');
const piece = fc.record({ np: fc.boolean(), words: fc.array(word, { minLength: 1, maxLength: 3 }) });
const sentence = fc.array(piece, { maxLength: 5 }).map((pieces) => {
  const s: RefSentence = { words: [], nps: [] };
  const text: string[] = [];
  for (const p of pieces) {
    if (p.np) {
      s.nps.push([s.words.length, s.words.length + p.words.length]);
      text.push('[NP', ...p.words, ']');
    } else text.push(...p.words);
    s.words.push(...p.words);
  }
  return { s, text: text.join(' ') };
});
const params = fc.record({
  alpha: fc.constantFrom(0, 0.1, 0.5, 1),
  beta: fc.constantFrom(1, 1.1, 2, 3.5),
  delta: fc.constantFrom(0, 0.3, 0.7, 1),
  rounds: fc.constantFrom(undefined, 0, 1, 3),
});

describe('NP-chunk metric against the plain reference', () => {
  it('every sentence value is identical, one to three references', () => {
    fc.assert(
      fc.property(sentence, fc.array(sentence, { minLength: 1, maxLength: 3 }), params, (hyp, refs, p) => {
        const metric = new NpChunk({ ...p, chunker: 'bracketed' });
        const got = sentenceScore(metric, hyp.text, refs.map((r) => r.text));
        const want = npChunkSentenceRef(hyp.s, refs.map((r) => r.s), p);
        expect(got.score).toBe(want.score);
        expect(got.details!.wordScore).toBe(want.wordScore);
        expect(got.details!.phraseScore).toBe(want.phraseScore);
        expect(got.details!.wordRecall).toBe(want.wordRecall);
        expect(got.details!.wordPrecision).toBe(want.wordPrecision);
      }),
      { numRuns: 400 },
    );
  });

  it('IMPACT is identical to its reference', () => {
    const line = fc.array(word, { maxLength: 12 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(line, fc.array(line, { minLength: 1, maxLength: 3 }), params, (hyp, refs, p) => {
        const got = sentenceScore(new Impact(p), hyp, refs);
        const want = impactSentenceRef(hyp, refs, p);
        expect(got.score).toBe(want.score);
        expect(got.details!.recall).toBe(want.recall);
        expect(got.details!.precision).toBe(want.precision);
      }),
      { numRuns: 400 },
    );
  });
});

describe('route search', () => {
  const ids = fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 7 });
  const pairIds = (n: number) => fc.array(fc.integer({ min: -1, max: 1 }), { minLength: n, maxLength: n });

  it('finds the best (LCS, RS) of all common subsequences, with NP weights, and traces as the reference', () => {
    fc.assert(
      fc.property(
        ids.chain((a) => ids.chain((b) => fc.tuple(fc.constant(a), fc.constant(b), pairIds(a.length), pairIds(b.length)))),
        fc.constantFrom(1, 1.1, 2, 3),
        ([a, b, pa, pb], beta) => {
          const weight = (i: number, j: number) => (pa[i] >= 0 && pa[i] === pb[j] ? 2 : 1);
          const search = new CommonPartSearch({ alpha: 0.5, beta, maxRound: Infinity });
          const total = search.run(Int32Array.from(a), 0, a.length, Int32Array.from(b), 0, b.length, Int32Array.from(pa), Int32Array.from(pb));
          const best = bestRouteBruteForce(a, b, weight, beta);
          expect(search.rounds.lcs[0] ?? 0).toBe(best.lcs);
          expect(search.rounds.routeScore[0] ?? 0).toBeCloseTo(best.routeScore, 9);
          const ref = commonPartRoundsRef(a, b, weight, { alpha: 0.5, beta, delta: 0 });
          expect(total).toBe(ref.total);
          expect(search.rounds.lcs).toEqual(ref.rounds.map((r) => r.lcs));
          expect(search.rounds.routeScore).toEqual(ref.rounds.map((r) => r.routeScore));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('scratch buffers are reused safely across pairs of different sizes', () => {
    const search = new CommonPartSearch({ alpha: 0.1, beta: 1.1, maxRound: Infinity });
    const long = Int32Array.from({ length: 40 }, (_, k) => k % 5);
    const first = search.run(long, 0, 40, long, 0, 40, null, null);
    search.run(Int32Array.of(1, 2), 0, 2, Int32Array.of(2, 1), 0, 2, null, null);
    expect(search.run(long, 0, 40, long, 0, 40, null, null)).toBe(first);
    expect(first).toBeCloseTo(Math.pow(40, 1.1), 9);
  });
});
