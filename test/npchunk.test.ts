import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { corpusScore, sentenceScore, sentenceScores } from '../src/metrics/metric.js';
import { Impact } from '../src/metrics/impact/impact.js';
import { NpChunk } from '../src/metrics/npchunk/npchunk.js';
import { routeScore } from '../src/metrics/npchunk/common-parts.js';
import { NpCorrespondence } from '../src/metrics/npchunk/correspondence.js';
import { gammaF } from '../src/metrics/npchunk/f-measure.js';
import { VERSION } from '../src/version.js';

// Seed paper 003 (Echizen-ya & Araki 2010), Figures 1–3, pre-chunked as in the figures.
const MT = 'in general , [NP the amount ] of [NP the crowning fall ] is large like [NP the end ] .';
const REF = 'generally , the closer [NP it ] is to [NP the end part ] , the larger [NP the amount ] of [NP crowning drop ] is .';
const WORKED = { alpha: 0.5, beta: 2.0, delta: 0.7, chunker: 'bracketed' } as const;

/** Rounds to the paper's four decimals. */
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

describe('seed 003 worked example (Figures 1–3, α = 0.5, β = 2.0, δ = 0.7)', () => {
  it('Figure 1: NP similarities 1.0000, 0.3714, 0.7429 and the mutual-best correspondences', () => {
    // Word ids: the=0 amount=1 crowning=2 fall=3 end=4 it=5 part=6 drop=7.
    const hyp = Int32Array.from([0, 1, 0, 2, 3, 0, 4]);
    const hypSpans = Int32Array.from([0, 2, 2, 5, 5, 7]);
    const ref = Int32Array.from([5, 0, 4, 6, 0, 1, 2, 7]);
    const refSpans = Int32Array.from([0, 1, 1, 4, 4, 6, 6, 8]);
    const c = new NpCorrespondence();
    expect(c.find(hyp, 0, hypSpans, 0, 3, ref, 0, refSpans, 0, 4)).toBe(3);
    expect(r4(c.similarity(0, 2))).toBe(1);
    expect(r4(c.similarity(1, 3))).toBe(0.3714);
    expect(r4(c.similarity(2, 1))).toBe(0.7429);
    expect(Array.from(c.hypPartner.subarray(0, 3))).toEqual([2, 3, 1]);
    expect(Array.from(c.refPartner.subarray(0, 4))).toEqual([-1, 2, 0, 1]);
  });

  it('Figure 2: route score 32 for the NP-aware route, 19 for IMPACT\'s; round sums 13.0 and 2.5; R, P, score_wd', () => {
    const metric = new NpChunk(WORKED);
    const score = sentenceScore(metric, MT, [REF]);
    const rounds = metric.segmentScorer.wordSearch.rounds;
    expect(rounds.lcs).toEqual([7, 3]);
    expect(rounds.routeScore[0]).toBe(32);
    expect(rounds.sum).toEqual([13, 2.5]);
    // IMPACT's route of the figure (`, the` + `amount of` + crowning + is + .) under the same NP weights.
    const pairA = [-1, -1, -1, 2, 2, -1, 3, 3, 3, -1, -1, -1, 1, 1, -1];
    const pairB = [-1, -1, -1, -1, -1, -1, -1, 1, 1, 1, -1, -1, -1, 2, 2, -1, 3, 3, -1, -1];
    expect(routeScore([2, 3, 4, 5, 7, 9, 14], [10, 11, 14, 15, 16, 18, 19], pairA, pairB, 2)).toBe(19);
    expect(routeScore([2, 3, 4, 5, 7, 9, 14], [1, 13, 14, 15, 16, 18, 19], pairA, pairB, 2)).toBe(32);
    const d = score.details!;
    expect(r4(d.wordRecall as number)).toBe(0.1969);
    expect(r4(d.wordPrecision as number)).toBe(0.2625);
    // The paper computes score_wd from R and P already rounded to 4 decimals (0.21637 → 0.2164); from the exact
    // R and P it is 0.21632. Both the paper's chain and the exact value are checked.
    expect(r4(gammaF(r4(d.wordRecall as number), r4(d.wordPrecision as number)))).toBe(0.2164);
    expect(d.wordScore).toBeCloseTo(gammaF(Math.sqrt(15.5 / 400), Math.sqrt(15.5 / 225)), 15);
    expect(Math.abs((d.wordScore as number) - 0.2164)).toBeLessThan(1e-4);
    expect(d.wordRecall).toBeCloseTo(Math.sqrt(15.5 / 400), 15);
    expect(d.wordPrecision).toBeCloseTo(Math.sqrt(15.5 / 225), 15);
  });

  it('Figure 3 and eq. 13: score_np 0.7071, final score 0.4185', () => {
    const score = sentenceScore(new NpChunk(WORKED), MT, [REF]);
    expect(r4(score.details!.phraseScore as number)).toBe(0.7071);
    expect(score.details!.phraseScore).toBeCloseTo(Math.sqrt(4.5 / 9), 15);
    // Eq. 13 on the paper's rounded 0.2164 and 0.7071 gives 0.41845 → 0.4185; from exact values it is 0.41841.
    expect(r4((0.2164 + 0.7 * r4(score.details!.phraseScore as number)) / 1.7)).toBe(0.4185);
    const exactWd = gammaF(Math.sqrt(15.5 / 400), Math.sqrt(15.5 / 225));
    expect(score.score).toBeCloseTo((exactWd + 0.7 * Math.sqrt(0.5)) / 1.7, 15);
    expect(Math.abs(score.score - 0.4185)).toBeLessThan(1e-4);
    expect(score.name).toBe('NPCHUNK');
  });

  it('eq. 5: γ = 1.3332 gives 0.2164 from R 0.1969 and P 0.2625', () => {
    expect(r4(gammaF(0.1969, 0.2625))).toBe(0.2164);
    expect(gammaF(0, 0.5)).toBe(0);
    expect(gammaF(0.4, 0.4)).toBeCloseTo(0.4, 15);
  });

  it('IMPACT (unit weights) on the figure: unit route score 13 beats the paper-IMPACT route\'s 11; same word score', () => {
    const impact = new Impact({ alpha: 0.5, beta: 2 });
    const plain = (s: string) => s.replace(/\[NP |\] /g, '');
    const score = sentenceScore(impact, plain(MT), [plain(REF)]);
    const rounds = impact.segmentScorer.wordSearch.rounds;
    expect(rounds.routeScore[0]).toBe(13);
    expect(routeScore([2, 3, 4, 5, 7, 9, 14], [10, 11, 14, 15, 16, 18, 19], null, null, 2)).toBe(11);
    expect(rounds.sum).toEqual([13, 2.5]);
    expect(score.score).toBeCloseTo(gammaF(Math.sqrt(15.5 / 400), Math.sqrt(15.5 / 225)), 15);
    expect(score.name).toBe('IMPACT');
  });
});

describe('NP-chunk metric and IMPACT as Metrics', () => {
  it('several references: R and P are maxima over references (eqs. 6–8), score_np their mean (eq. 12)', () => {
    const metric = new NpChunk(WORKED);
    const one = sentenceScore(metric, MT, [REF]).details!;
    const other = '[NP the amount ] of [NP the crowning fall ] is large';
    const two = sentenceScore(metric, MT, [REF, other]).details!;
    const alone = sentenceScore(metric, MT, [other]).details!;
    expect(two.wordRecall).toBe(Math.max(one.wordRecall as number, alone.wordRecall as number));
    expect(two.wordPrecision).toBe(Math.max(one.wordPrecision as number, alone.wordPrecision as number));
    expect(two.phraseScore).toBeCloseTo(((one.phraseScore as number) + (alone.phraseScore as number)) / 2, 15);
  });

  it('corpus score is the mean of the sentence scores; rows carry what the mean needs', () => {
    const metric = new NpChunk({ chunker: 'bracketed' });
    const hyps = [MT, '[NP the end ] is large', ''];
    const refs = [[REF, '[NP the end part ] is large .', 'nothing here']];
    const sentences = sentenceScores(metric, hyps, refs).map((s) => s.score);
    const corpus = corpusScore(metric, hyps, refs);
    expect(corpus.score).toBeCloseTo(sentences.reduce((a, b) => a + b) / 3, 15);
    expect(corpus.details!.segments).toBe(3);
    expect(sentences[2]).toBe(0);
    const impact = new Impact();
    const plainHyps = ['a b c d', 'x y', 'a'];
    const plainRefs = [['a b c d', 'y x', 'b']];
    const s = sentenceScores(impact, plainHyps, plainRefs).map((x) => x.score);
    expect(s[0]).toBeCloseTo(1, 15);
    expect(s[2]).toBe(0);
    expect(corpusScore(impact, plainHyps, plainRefs).score).toBeCloseTo((s[0] + s[1] + s[2]) / 3, 15);
  });

  it('signatures name every setting', () => {
    expect(new NpChunk({ chunker: 'bracketed' }).signature(1)).toBe(
      `nrefs:1|chunker:bracketed|case:mixed|alpha:0.1|beta:1.1|rn:all|delta:0.3|version:${VERSION}`,
    );
    expect(new Impact({ rounds: 2, lowercase: true }).signature(4, true)).toBe(`#:4|c:lc|a:0.1|b:1.1|rn:2|v:${VERSION}`);
  });

  it('lowercase compares words case-insensitively, after chunking', () => {
    const hyp = 'The Amount of [NP the END ]';
    const ref = 'the amount of [NP The end ]';
    const mixed = sentenceScore(new NpChunk({ chunker: 'bracketed' }), hyp, [ref]).score;
    const lc = sentenceScore(new NpChunk({ chunker: 'bracketed', lowercase: true }), hyp, [ref]).score;
    expect(lc).toBeCloseTo(1, 15);
    expect(mixed).toBeLessThan(1);
    expect(sentenceScore(new Impact({ lowercase: true }), 'A b', ['a B']).score).toBeCloseTo(1, 15);
    expect(() => new Impact({ lowercase: 'yes' as unknown as boolean })).toThrow(InputError);
  });

  it('RN limits the rounds', () => {
    const one = sentenceScore(new NpChunk({ ...WORKED, rounds: 0 }), MT, [REF]).details!;
    expect(one.wordRecall).toBeCloseTo(Math.sqrt(13 / 400), 15);
  });

  it('bad options and malformed pre-chunked lines are InputErrors, the line named', () => {
    expect(() => new NpChunk({ chunker: 'nope' })).toThrow(/unknown chunker "nope"/);
    expect(() => new Impact({ alpha: 2 })).toThrow(InputError);
    expect(() => new Impact({ beta: 0.5 })).toThrow(InputError);
    expect(() => new Impact({ rounds: -1 })).toThrow(InputError);
    expect(() => new NpChunk({ delta: -1 })).toThrow(InputError);
    const metric = new NpChunk({ chunker: 'bracketed' });
    const refs = metric.prepareReferences([['a', '[NP b ]']]);
    try {
      metric.segmentStats(['a', '[NP b'], refs);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).line).toBe(2);
      expect((err as InputError).message).toMatch(/not closed/);
    }
    try {
      metric.prepareReferences([['a', 'b', '[VP c ]']]);
      expect.unreachable();
    } catch (err) {
      expect((err as InputError).line).toBe(3);
    }
  });
});
