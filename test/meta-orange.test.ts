/**
 * ORANGE (src/meta/orange/orange.ts, src/meta/orange/scorer.ts): a hand-worked toy example, the ranking against the
 * sort-based oracle (test/reference/orange.ts), the one-pass leave-one-out scores of every variant against the
 * oracle's one-set-at-a-time scores, and the bootstrap interval's percentile arithmetic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  bootstrapMeanInterval,
  numpyResampler,
  orange,
  orangeOfTerms,
  orangeSentenceTerms,
  type OrangeSentenceScores,
} from '../src/meta/orange/orange.js';
import { lowerIsBetter, parseOrangeMetrics } from '../src/meta/orange/variants.js';
import { orangeBlockScores, orangeCaseArbitrary } from './helpers/orange-cases.js';
import { referenceLooScores, referenceOrangeTerms, referenceSentenceTerm, type OrangeCase } from './reference/orange.js';

describe('ORANGE toy example (hand-worked)', () => {
  // Sentence 0: references r1 = "a b", r2 = "a c"; candidates c1 = "a b", c2 = "d d".
  // Sentence 1: references r1 = "x y z", r2 = "x y w"; candidates "x y z", "x y w", "q".
  const c: OrangeCase = {
    refStreams: [
      ['a b', 'x y z'],
      ['a c', 'x y w'],
    ],
    sentences: [
      { id: 0, candidates: ['a b', 'd d'] },
      { id: 1, candidates: ['x y z', 'x y w', 'q'] },
    ],
  };

  it('BLEUS1: leave-one-out scores, ranks and ORANGE', () => {
    const { cand, refs } = orangeBlockScores(c, ['bleus1']);
    // BLEUS1 is 100 · unigram precision · BP (add-one smoothing only touches orders > 1).
    // Sentence 0: r1 against {r2}: 1 of 2 words match, same length → 50; r2 against {r1} → 50.
    //   c1 against {r2} → 50, against {r1} → 100 (every word matches); mean 75. c2: no match → 0 and 0 → 0.
    // (sacrebleu's exp(log p) arithmetic returns 49.99999999999999 for 50: equal for both references, so they tie.)
    expect(refs[0][0][0]).toBeCloseTo(50, 12);
    expect(refs[0][0][1]).toBe(refs[0][0][0]);
    expect(cand[0][0][0]).toBeCloseTo(75, 12);
    expect(cand[0][0][1]).toBe(0);
    //   Ranked: c1 (75) 1st; r1, r2 (50) share ranks 2 and 3 → 2.5 each; c2 (0) 4th.
    //   Term: mean reference rank 2.5 / (N + 1 = 3) = 0.8333…
    // Sentence 1: each reference against the other: 2 of 3 words → 66.67 each. "x y z": 66.67 against {r2}, 100
    //   against {r1} → 83.33; "x y w" the same; "q" 0. Ranked: the two candidates tie at ranks 1, 2 → 1.5; the
    //   references tie at ranks 3, 4 → 3.5; "q" 5th. Term: 3.5 / (3 + 1) = 0.875.
    // ORANGE = (0.8333… + 0.875) / 2 = 0.8541666…
    const u = 2;
    const scores: OrangeSentenceScores = {
      candidates: Float64Array.from([...cand[0][0], ...cand[0][1]]),
      candidateOffsets: Int32Array.from([0, 2, 5]),
      references: Float64Array.from([...refs[0][0], ...refs[0][1]]),
      referenceOffsets: Int32Array.from([0, u, 2 * u]),
    };
    expect(Array.from(orangeSentenceTerms(scores))).toEqual([2.5 / 3, 3.5 / 4]);
    expect(orange(scores)).toBeCloseTo((2.5 / 3 + 0.875) / 2, 15);
  });

  it('WER: lower is better, the same ranks', () => {
    const { cand, refs } = orangeBlockScores(c, ['wer']);
    // Sentence 0: r1 vs r2: 1 substitution / 2 words = 0.5 (both ways). c1: 0.5 against {r2}, 0 against {r1} → 0.25;
    // c2: 2 substitutions / 2 → 1 against both → 1. Ranked ascending: c1, then r1 = r2 (2.5), then c2 → 2.5 / 3.
    expect(refs[0][0]).toEqual([0.5, 0.5]);
    expect(cand[0][0]).toEqual([0.25, 1]);
    // Sentence 1: references 1/3 each; "x y z" (0 + 1/3) / 2, "x y w" the same, "q" 1 → 3.5 / 4 as for BLEUS1.
    const terms = referenceOrangeTerms(parseOrangeMetrics(['wer'])[0], c);
    expect(terms).toEqual([2.5 / 3, 3.5 / 4]);
  });
});

describe('orangeSentenceTerms against the sort-based oracle', () => {
  it('equals the oracle on random scores with many ties, both directions', () => {
    const sentence = fc.record({
      cands: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 0, maxLength: 12 }),
      refs: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 2, maxLength: 5 }),
    });
    fc.assert(
      fc.property(fc.array(sentence, { minLength: 1, maxLength: 6 }), fc.boolean(), (sentences, lower) => {
        const candidateOffsets = [0];
        const referenceOffsets = [0];
        for (const s of sentences) {
          candidateOffsets.push(candidateOffsets[candidateOffsets.length - 1] + s.cands.length);
          referenceOffsets.push(referenceOffsets[referenceOffsets.length - 1] + s.refs.length);
        }
        const terms = orangeSentenceTerms(
          {
            candidates: Float64Array.from(sentences.flatMap((s) => s.cands.map((x) => x / 4))),
            candidateOffsets: Int32Array.from(candidateOffsets),
            references: Float64Array.from(sentences.flatMap((s) => s.refs.map((x) => x / 4))),
            referenceOffsets: Int32Array.from(referenceOffsets),
          },
          lower ? 'lower' : 'higher',
        );
        const expected = sentences.map((s) =>
          referenceSentenceTerm(s.cands.map((x) => x / 4), s.refs.map((x) => x / 4), lower),
        );
        expect(Array.from(terms)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects a sentence with fewer than 2 references and NaN scores', () => {
    const one = {
      candidates: Float64Array.from([1]),
      candidateOffsets: Int32Array.from([0, 1]),
      references: Float64Array.from([1]),
      referenceOffsets: Int32Array.from([0, 1]),
    };
    expect(() => orangeSentenceTerms(one)).toThrow('sentence 0 has 1 reference(s); ORANGE needs at least 2');
    expect(() =>
      orangeSentenceTerms({ ...one, references: Float64Array.from([1, Number.NaN]), referenceOffsets: Int32Array.from([0, 2]) }),
    ).toThrow('reference score 1 is NaN');
  });
});

/** Words of a small vocabulary (no `0`: see the NIST note in scorer.ts), punctuation for the tokenizers. */
const word = fc.constantFrom('a', 'b', 'c', 'the', 'of', 'Cat', 'cat', 'x', ',', '.', "it's");
const text = (min: number) => fc.array(word, { minLength: min, maxLength: 9 }).map((w) => w.join(' '));

const orangeCase = orangeCaseArbitrary(text);

const ALL = ['bleus1-9', 'bleus12', 'nist', 'rouge-1-4', 'gtm', 'gtm-2', 'gtm-3', 'rouge-l', 'rouge-w-1.2', 'rouge-w-2.0', 'rouge-s0', 'rouge-s2', 'rouge-s*', 'rouge-su4', 'wer', 'per'];

describe('one-pass leave-one-out scores against the oracle', () => {
  it('every variant gives exactly the oracle scores and terms (blocks of 1 and of all sentences)', () => {
    fc.assert(
      fc.property(orangeCase, fc.integer({ min: 1, max: 3 }), (c, blockSentences) => {
        const fast = orangeBlockScores(c, ALL, {}, blockSentences);
        fast.variants.forEach((v, i) => {
          const expected = referenceLooScores(v, c);
          expect({ v: v.name, cand: fast.cand[i], refs: fast.refs[i] }).toEqual({
            v: v.name,
            cand: expected.map((s) => s.candidates),
            refs: expected.map((s) => s.references),
          });
          const terms = fast.cand[i].map((cands, s) =>
            orangeSentenceTerms(
              {
                candidates: Float64Array.from(cands),
                candidateOffsets: Int32Array.from([0, cands.length]),
                references: Float64Array.from(fast.refs[i][s]),
                referenceOffsets: Int32Array.from([0, fast.refs[i][s].length]),
              },
              lowerIsBetter(v) ? 'lower' : 'higher',
            )[0],
          );
          expect(terms).toEqual(referenceOrangeTerms(v, c));
        });
      }),
      { numRuns: 40 },
    );
  });

  it('one variant alone scores as it does among all the others', () => {
    const c: OrangeCase = {
      refStreams: [['the cat sat on the mat'], ['a cat sat on a mat'], ['there is a cat on the mat']],
      sentences: [{ id: 0, candidates: ['the cat is on the mat', 'cat mat', '', 'the the the'] }],
    };
    const all = orangeBlockScores(c, ALL);
    for (const name of ['bleus4', 'nist', 'rouge-w-1.2', 'per']) {
      const alone = orangeBlockScores(c, [name]);
      const i = all.variants.findIndex((v) => v.name === alone.variants[0].name);
      expect(alone.cand[0]).toEqual(all.cand[i]);
      expect(alone.refs[0]).toEqual(all.refs[i]);
    }
  });
});

describe('bootstrap interval', () => {
  it("equals numpy's percentile of resampled means (test/fixtures/orange/bootstrap-numpy.json, numpy 2.4.6)", () => {
    const golden = JSON.parse(readFileSync(new URL('./fixtures/orange/bootstrap-numpy.json', import.meta.url), 'utf8')) as {
      terms: number[];
      cases: { seed: number; resamples: number; lower: number; upper: number; mean: number }[];
    };
    const terms = Float64Array.from(golden.terms);
    for (const c of golden.cases) {
      // Bit for bit: the same PCG64 stream, numpy's pairwise means and linear percentiles.
      expect(orangeOfTerms(terms)).toBe(c.mean);
      expect(bootstrapMeanInterval(terms, c.resamples, numpyResampler(c.seed))).toEqual({ lower: c.lower, upper: c.upper });
    }
  });

  it('resamples the drawn indices and checks them', () => {
    const terms = Float64Array.from([0.1, 0.2, 0.3, 0.4]);
    // Every draw the identity: each resampled mean is the mean itself.
    const ci = bootstrapMeanInterval(terms, 10, (n) => Array.from({ length: n }, (_, i) => i));
    expect(ci.lower).toBeCloseTo(0.25, 15);
    expect(ci.upper).toBeCloseTo(0.25, 15);
    // Alternating all-first / all-last draws: means 0.1 and 0.4; numpy's percentiles lie between them linearly.
    let b = 0;
    const ci2 = bootstrapMeanInterval(terms, 2, (n) => new Array<number>(n).fill(b++ % 2 === 0 ? 0 : n - 1));
    expect(ci2.lower).toBeCloseTo(0.1 + 0.3 * 0.025, 12);
    expect(ci2.upper).toBeCloseTo(0.1 + 0.3 * 0.975, 12);
    expect(() => bootstrapMeanInterval(terms, 1, () => [0, 1, 2, 9])).toThrow('resampled index 9 is outside [0, 4)');
    const draw = numpyResampler(1);
    draw(4);
    expect(() => draw(5)).toThrow('one resampler draws rows of one length (4, not 5)');
  });
});

describe('public API', () => {
  it('evaluateOrange, parseOrangeMetrics and orangeOfTerms come from the package entry point', async () => {
    const palette = await import('../src/index.js');
    const fixture = (name: string): string => new URL(`./fixtures/orange/${name}`, import.meta.url).pathname;
    const result = await palette.evaluateOrange({
      nbest: fixture('joshua.nbest'),
      refs: [0, 1, 2, 3].map((j) => fixture(`joshua.ref.${j}`)),
      variants: palette.parseOrangeMetrics(['bleus4', 'rouge-s4']),
    });
    expect(result.sentences.length).toBe(5);
    for (const terms of result.terms) {
      const value = palette.orangeOfTerms(terms);
      expect(value).toBeGreaterThan(0);
      expect(value).toBeLessThan(1);
    }
  });
});
