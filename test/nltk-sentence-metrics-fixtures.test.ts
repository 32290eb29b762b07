/**
 * GLEU, RIBES and METEOR against a slice of NLTK 3.8's values that ships with the repository
 * (test/fixtures/nltk-sentence/, 300 lines of the golden's 12 records): each line's value at golden tolerance, with
 * the record's tokenization and references; then the rules NLTK follows at the edges.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Gleu } from '../src/metrics/gleu/gleu.js';
import { Meteor } from '../src/metrics/meteor/meteor.js';
import { meteorSynonyms, morphy } from '../src/metrics/meteor/wordnet.js';
import { sentenceScore, type Metric } from '../src/metrics/metric.js';
import { nltkKendallTau, Ribes, wordRankAlignment } from '../src/metrics/ribes/ribes.js';
import type { TokenizerName } from '../src/text/tokenizers/index.js';
import { goldenClose } from './helpers/shared-data.js';

interface Line {
  hyp_file: string;
  n_refs: number;
  tokenize: TokenizerName;
  line: number;
  hyp: string;
  refs: string[];
  gleu?: number;
  ribes?: number;
  meteor?: number;
}

export const NLTK_LINES: Line[] = readFileSync(new URL('fixtures/nltk-sentence/nltk-lines.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as Line);

/** Checks `field` of every fixture line that has it with the metric `make` builds for the line's tokenizer. */
export function checkLines(field: 'gleu' | 'ribes' | 'meteor', make: (tokenize: TokenizerName) => Metric): number {
  let n = 0;
  for (const l of NLTK_LINES) {
    const want = l[field];
    if (want === undefined) continue;
    const got = sentenceScore(make(l.tokenize), l.hyp, l.refs).score;
    expect(goldenClose(got, want), `${field} ${l.hyp_file}:${l.line} (${l.n_refs} refs, ${l.tokenize}): ${got} vs ${want}`).toBe(true);
    n++;
  }
  return n;
}

describe('NLTK 3.8 sentence values (fixture slice)', () => {
  it('GLEU', () => expect(checkLines('gleu', (tokenize) => new Gleu({ tokenize }))).toBe(200));
  it('RIBES', () => expect(checkLines('ribes', (tokenize) => new Ribes({ tokenize }))).toBe(200));
  it('METEOR', () => expect(checkLines('meteor', (tokenize) => new Meteor({ tokenize }))).toBe(175));
});

describe('GLEU rules', () => {
  const g = new Gleu({ tokenize: 'none' });
  it('min_len/max_len choose the orders pooled', () => {
    // 'a b c' vs 'a b d': orders 2..2 share 'a b' of 2 bigrams each.
    expect(sentenceScore(new Gleu({ tokenize: 'none', minLen: 2, maxLen: 2 }), 'a b c', ['a b d']).score).toBe(0.5);
  });
  it('n_all is the larger side; a line with no n-grams on any side scores 0', () => {
    expect(sentenceScore(g, 'a', ['a b c d']).score).toBe(1 / 10);
    expect(sentenceScore(g, '', ['']).score).toBe(0);
  });
  it('several references: the best tp / n_all', () => {
    expect(sentenceScore(g, 'a b', ['x y', 'a b', 'a']).score).toBe(1);
  });
  it('corpus GLEU pools the counts, not the line values', () => {
    const rows = g.segmentStats(['a b', 'x'], g.prepareReferences([['a b', 'y z w']]));
    expect(Array.from(rows)).toEqual([3, 3, 0, 6]);
    expect(g.scoreFromStats(Float64Array.from([3, 9])).score).toBe(3 / 9);
  });
  it('refuses max_len < min_len', () => {
    expect(() => new Gleu({ minLen: 3, maxLen: 2 })).toThrow(/max_len/);
  });
});

describe("RIBES rules (NLTK's, not RIBES.py's)", () => {
  it('kendall tau counts only pairs inside runs of +1 steps', () => {
    // [0, 2, 1, 3]: no run of +1 steps, so tau = -1, NKT 0, although 5 of 6 pairs are in order.
    expect(nltkKendallTau([0, 2, 1, 3])).toBe(0);
    expect(nltkKendallTau([0, 1, 2])).toBe(1);
    expect(nltkKendallTau([5])).toBe(0);
  });
  it('repeated words are placed by the shortest unique context, right before left', () => {
    const ids = (s: string) => Int32Array.from(s.split(' '), (w) => w.charCodeAt(0));
    // hyp 'a b a c' vs ref 'a c x a b': the first 'a' by 'a b' (ref 3), 'b' once (4), the second 'a' by 'a c' (0).
    expect(wordRankAlignment(ids('a c x a b'), ids('a b a c'))).toEqual([3, 4, 0, 1]);
  });
  it("a hypothesis without tokens: its row is marked, and a score from it is NLTK's error", () => {
    const r = new Ribes({ tokenize: 'none' });
    const rows = r.segmentStats(['a b', ' '], r.prepareReferences([['a b', 'b']]));
    expect(Array.from(rows)).toEqual([1, 1, 0, 0, 1, 1]);
    expect(() => r.sentenceScoreFromStats(rows.subarray(3, 6))).toThrow(/no tokens.*ZeroDivisionError/);
    expect(() => r.scoreFromStats(Float64Array.from([1, 2, 1]))).toThrow(/1 hypothesis line\(s\) without tokens/);
    expect(r.scoreFromStats(rows.subarray(0, 3)).score).toBe(1);
  });
});

describe('METEOR rules', () => {
  const m = new Meteor({ tokenize: 'none' });
  it('exact, stem and synonym stages, lowercased', () => {
    // 'The' = 'the' exactly, 'Cats' ~ 'cat' by stem, 'CAR' ~ 'auto' by WordNet: 3 of 3 words in one chunk.
    expect(sentenceScore(m, 'The Cats CAR', ['the cat auto']).score).toBe(1 - 0.5 * (1 / 3) ** 3);
  });
  it('the synonym stage compares the stems the stem stage left', () => {
    // 'big' and 'large' are WordNet synonyms, but the reference word has become the stem 'larg' by then: 2 matches
    // of 3 ('the', 'cat'), one chunk.
    expect(meteorSynonyms('big').has('large')).toBe(true);
    const f = 2 / 3;
    expect(sentenceScore(m, 'the cats big', ['the cat large']).score).toBe((1 - 0.5 * (1 / 2) ** 3) * ((f * f) / (0.9 * f + (1 - 0.9) * f)));
    // 'quickly' and 'rapidly' likewise: their stems 'quickli' and 'rapidli' are in no synset.
    expect(meteorSynonyms('quickly').has('rapidly')).toBe(true);
    expect(sentenceScore(m, 'quickly', ['rapidly']).score).toBe(0);
  });
  it('morphy: exception lists first, then rules until a form is in the index', () => {
    expect(morphy('geese', 'n')).toEqual(['goose']);
    expect(morphy('dogs', 'n')).toEqual(['dog']);
    expect(morphy('xyzzyq', 'n')).toEqual([]);
  });
  it('no match or an empty side gives 0; several references the best', () => {
    expect(sentenceScore(m, 'a', ['b']).score).toBe(0);
    expect(sentenceScore(m, '', ['b']).score).toBe(0);
    expect(sentenceScore(m, 'x y', ['q', 'x y']).score).toBe((1 - 0.5 * (1 / 2) ** 3) * 1);
  });
  it('a line repeated (as hypothesis and as reference, in one call and the next) scores as it does alone', () => {
    // One object keeps each line's word ids; a line seen before must give what a new object gives it.
    const hyps = ['The cats sat', 'the cats sat', 'a b c', 'The cats sat', 'cars and autos'];
    const refs = ['the cat sat', 'The cats sat', 'c b a', 'cats sat the', 'The cats sat'];
    const alone = hyps.map((h, i) => sentenceScore(new Meteor({ tokenize: 'none' }), h, [refs[i]]).score);
    const shared = new Meteor({ tokenize: 'none' });
    const prepared = shared.prepareReferences([refs]);
    for (let pass = 0; pass < 2; pass++) {
      const rows = shared.segmentStats(hyps, prepared);
      expect(hyps.map((_, i) => rows[2 * i])).toEqual(alone);
    }
    expect(new Set(alone).size).toBeGreaterThan(2);
  });
  it('alpha, beta, gamma change the value as NLTK\'s formula says', () => {
    // 'a b' vs 'a c b': m 2, P 1, R 2/3, chunks 2.
    const p = 1;
    const r = 2 / 3;
    const mk = (alpha: number, beta: number, gamma: number) => ((1 - gamma * (2 / 2) ** beta) * (p * r)) / (alpha * p + (1 - alpha) * r);
    expect(sentenceScore(m, 'a b', ['a c b']).score).toBe(mk(0.9, 3, 0.5));
    expect(sentenceScore(new Meteor({ tokenize: 'none', alpha: 0.5, beta: 2, gamma: 0.25 }), 'a b', ['a c b']).score).toBe(mk(0.5, 2, 0.25));
  });
});
