/**
 * The `moses` flavor: per-candidate BLEU statistics exactly as Moses MERT's `extractor` writes them
 * (moses-smt/moses-regression-tests mert.extractor-*, via test/fixtures/bleu; integers compared exactly, as text),
 * and Moses' single-precision BLEU / smoothed sentence BLEU.
 */
import { describe, expect, it } from 'vitest';
import {
  mosesBleu,
  mosesBleuStats,
  mosesSmoothedSentenceBleu,
  prepareMosesReferences,
} from '../src/metrics/bleu/moses.js';
import {
  fixture,
  formatMosesScores,
  mosesExtractorMerge,
  parseNbest,
  readLines,
  type MosesCandidate,
} from './fixtures/bleu/golden.js';

function candidates(nbest: string[], refLines: string[]): { ids: number[]; cands: MosesCandidate[] } {
  const { ids, texts, features } = parseNbest(nbest);
  const refs = prepareMosesReferences([refLines]);
  const stats = mosesBleuStats(texts, ids, refs);
  return {
    ids,
    cands: features.map((f, i) => ({ features: f, stats: Array.from(stats.subarray(i * 9, (i + 1) * 9)) })),
  };
}

describe('Moses extractor statistics (moses-regression-tests)', () => {
  it('mert.extractor-txt run 1, sentences 0–1: every candidate line of SCORES_TXT', () => {
    const { ids, cands } = candidates(readLines(fixture('moses-nbest.1.head')), readLines(fixture('moses-reference')));
    const merged = mosesExtractorMerge(new Map(), ids, cands);
    expect(formatMosesScores(merged)).toEqual(readLines(fixture('moses-scores.1.head')));
  });

  it('mert.extractor-dups: duplicates (same features and statistics) removed by default, kept when allowed', () => {
    const { ids, cands } = candidates(
      readLines(fixture('moses-dups.nbest')),
      readLines(fixture('moses-dups.reference')),
    );
    const results = readLines(fixture('moses-dups.results'));
    const blocks = results.filter(
      (l) => !/^(FEATURES_TXT|[-0-9])/.test(l) || /^\d+ \d+ \d+ \d+ \d+ \d+ \d+ \d+ \d+ $/.test(l),
    );
    const expected = [
      ...formatMosesScores(mosesExtractorMerge(new Map(), ids, cands)),
      ...formatMosesScores(mosesExtractorMerge(new Map(), ids, cands, true)),
    ];
    expect(expected).toEqual(blocks);
  });

  it('the SOURCE.md example: sentence 0 "mr president , we shall be in biarritz , …" → 6 14 1 13 0 12 0 11 18', () => {
    const refs = prepareMosesReferences([readLines(fixture('moses-reference'))]);
    const s = mosesBleuStats(['mr president , we shall be in biarritz , look a little further .  '], [0], refs);
    expect(Array.from(s)).toEqual([6, 14, 1, 13, 0, 12, 0, 11, 18]);
  });
});

describe('Moses reference lengths and tokenization', () => {
  const refs = prepareMosesReferences([['a b c d e f g'], ['a b c'], ['a b c d e']]);
  it('closest (ties to the shorter), shortest, average (single precision, truncated)', () => {
    const len = (refLength: 'closest' | 'shortest' | 'average', hyp: string): number =>
      mosesBleuStats([hyp], [0], refs, { refLength })[8];
    expect(len('closest', 'a b c d')).toBe(3);
    expect(len('closest', 'a b c d e f')).toBe(5);
    expect(len('shortest', 'a b c d e f')).toBe(3);
    expect(len('average', 'a')).toBe(5);
  });
  it('splits on spaces only (a tab stays inside a token); unknown words never match', () => {
    const r = prepareMosesReferences([['x\ty z']]);
    // Reference tokens: "x\ty", "z". Hypothesis 1 has tokens x, y, z; hypothesis 2 "x\ty", z, q.
    expect(Array.from(mosesBleuStats(['x y z', 'x\ty z q'], [0, 0], r))).toEqual([
      1, 3, 0, 2, 0, 1, 0, 0, 2, 2, 3, 1, 2, 0, 1, 0, 0, 2,
    ]);
  });
  it('lowercase applies ASCII tolower (Moses case:false)', () => {
    const r = prepareMosesReferences([['The Cat']], { lowercase: true });
    expect(Array.from(mosesBleuStats(['the CAT'], [0], r, { lowercase: true })).slice(0, 4)).toEqual([2, 2, 1, 1]);
  });
  it('rejects a sentence id without references', () => {
    expect(() => mosesBleuStats(['a'], [3], refs)).toThrow(/Sentence id \(3\) not found/);
  });
});

describe('Moses BLEU scores (single precision)', () => {
  it('calculateScore: 0 when an order has no match, otherwise BLEU with the brevity penalty', () => {
    expect(mosesBleu([6, 14, 1, 13, 0, 12, 0, 11, 18])).toBe(0);
    const v = mosesBleu([10, 10, 9, 9, 8, 8, 7, 7, 10]);
    expect(v).toBe(Math.fround(v));
    expect(v).toBe(1);
    // Every operation in float: differs from the double computation in the last bits only.
    const s = [9, 12, 5, 11, 3, 10, 1, 9, 14];
    const d = Math.exp((Math.log(9 / 12) + Math.log(5 / 11) + Math.log(3 / 10) + Math.log(1 / 9)) / 4 + (1 - 14 / 12));
    expect(Math.abs(mosesBleu(s) - d) / d).toBeLessThan(1e-6);
  });
  it('smoothedSentenceBleu adds the smoothing to every order (BLEU+1), optionally to the reference length', () => {
    const s = [6, 14, 1, 13, 0, 12, 0, 11, 18];
    const plus1 = Math.exp(
      (Math.log(7 / 15) + Math.log(2 / 14) + Math.log(1 / 13) + Math.log(1 / 12)) / 4 + (1 - 18 / 14),
    );
    expect(Math.abs(mosesSmoothedSentenceBleu(s) - plus1) / plus1).toBeLessThan(1e-6);
    const bp = Math.exp(
      (Math.log(7 / 15) + Math.log(2 / 14) + Math.log(1 / 13) + Math.log(1 / 12)) / 4 + (1 - 19 / 14),
    );
    expect(Math.abs(mosesSmoothedSentenceBleu(s, 1, true) - bp) / bp).toBeLessThan(1e-6);
    expect(mosesSmoothedSentenceBleu(s)).toBe(Math.fround(mosesSmoothedSentenceBleu(s)));
  });
});
