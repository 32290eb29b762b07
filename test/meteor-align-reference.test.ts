/**
 * METEOR's alignment against a line-by-line reading of NLTK 3.8's `meteor_score` (`_match_enums`,
 * `_enum_stem_match`, `_enum_wordnetsyn_match`, `_count_chunks` and the formula, on lists of remaining words popped as
 * NLTK pops them), on random lines over a small vocabulary dense in exact, stem and WordNet synonym ties (`took` ~
 * `take`, `make`, `hold`, `get`; `car` ~ `auto` ~ `motorcar`; `cat` ~ `sick` ~ `ill`…), with repeated words, upper
 * case, empty lines and several references. Every value must be the reading's, bit for bit: the order in which
 * each stage pairs words decides which words the next stages see, and the chunks.
 */
import { describe, expect, it } from 'vitest';
import { Meteor } from '../src/metrics/meteor/meteor.js';
import { meteorSynonyms } from '../src/metrics/meteor/wordnet.js';
import { sentenceScore } from '../src/metrics/metric.js';
import { nltkPorterStem } from '../src/text/rouge/porter-nltk.js';

type Enum = [number, string][];

const synonymCache = new Map<string, Set<string>>();
/** `meteorSynonyms`, kept per word (the reading asks for the same few words again and again). */
function synonyms(word: string): Set<string> {
  let out = synonymCache.get(word);
  if (out === undefined) synonymCache.set(word, (out = meteorSynonyms(word)));
  return out;
}

/** NLTK's `_match_enums`: returns the matches; pops matched entries from both lists. */
function matchEnums(hyp: Enum, ref: Enum): [number, number][] {
  const out: [number, number][] = [];
  for (let i = hyp.length - 1; i >= 0; i--) {
    for (let j = ref.length - 1; j >= 0; j--) {
      if (hyp[i][1] === ref[j][1]) {
        out.push([hyp[i][0], ref[j][0]]);
        hyp.splice(i, 1);
        ref.splice(j, 1);
        break;
      }
    }
  }
  return out;
}

/** NLTK's `_enum_wordnetsyn_match` on the stemmed lists the stem stage returns. */
function synonymMatch(hyp: Enum, ref: Enum): [number, number][] {
  const out: [number, number][] = [];
  for (let i = hyp.length - 1; i >= 0; i--) {
    const syns = synonyms(hyp[i][1]);
    for (let j = ref.length - 1; j >= 0; j--) {
      if (syns.has(ref[j][1])) {
        out.push([hyp[i][0], ref[j][0]]);
        hyp.splice(i, 1);
        ref.splice(j, 1);
        break;
      }
    }
  }
  return out;
}

/** NLTK's `single_meteor_score` with its defaults, on whitespace-split words. */
function nltkSingle(hypothesis: string, reference: string): number {
  const hw = hypothesis.split(' ').filter((w) => w !== '').map((w) => w.toLowerCase());
  const rw = reference.split(' ').filter((w) => w !== '').map((w) => w.toLowerCase());
  let hyp: Enum = hw.map((w, i) => [i, w]);
  let ref: Enum = rw.map((w, i) => [i, w]);
  const exact = matchEnums(hyp, ref);
  hyp = hyp.map(([i, w]) => [i, nltkPorterStem(w)]);
  ref = ref.map(([i, w]) => [i, nltkPorterStem(w)]);
  const stem = matchEnums(hyp, ref);
  const syn = synonymMatch(hyp, ref);
  const matches = [...exact, ...stem, ...syn].sort((a, b) => a[0] - b[0]);
  const m = matches.length;
  if (hw.length === 0 || rw.length === 0 || m === 0) return 0;
  const precision = m / hw.length;
  const recall = m / rw.length;
  const fmean = (precision * recall) / (0.9 * precision + (1 - 0.9) * recall);
  let chunks = 0;
  for (let k = 0; k < m; k++) {
    if (k === 0 || !(matches[k][0] === matches[k - 1][0] + 1 && matches[k][1] === matches[k - 1][1] + 1)) chunks++;
  }
  return (1 - 0.5 * (chunks / m) ** 3) * fmean;
}

const VOCAB = [
  'car', 'cars', 'auto', 'Autos', 'motorcar', 'dog', 'dogs', 'cat', 'Cats', 'sick', 'ill', 'big', 'bigger', 'great',
  'large', 'run', 'runs', 'running', 'ran', 'fast', 'quick', 'quickly', 'take', 'took', 'make', 'made', 'hold', 'held',
  'get', 'the', 'THE', 'a', 'of', 'house', 'home', 'men', 'man', 'Haus', 'über',
];

/** Deterministic generator (mulberry32), so that a failure names a reproducible case. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomLine(next: () => number): string {
  const n = Math.floor(next() * 13);
  const words: string[] = [];
  // A few words per line, drawn from a part of the vocabulary, so that words repeat within and across lines.
  const from = Math.floor(next() * (VOCAB.length - 12));
  for (let k = 0; k < n; k++) words.push(VOCAB[from + Math.floor(next() * 12)]);
  return words.join(' ');
}

describe('METEOR alignment = NLTK 3.8 read line by line', () => {
  it('on 2,500 random segments with 1 to 3 references, one object for all and a new one per line', () => {
    const next = rng(20261127);
    const shared = new Meteor({ tokenize: 'none' });
    let synonymMatches = 0;
    for (let t = 0; t < 2500; t++) {
      const hyp = randomLine(next);
      const refs = Array.from({ length: 1 + Math.floor(next() * 3) }, () => randomLine(next));
      const want = Math.max(...refs.map((r) => nltkSingle(hyp, r)));
      const seg = `${JSON.stringify(hyp)} vs ${JSON.stringify(refs)}`;
      expect(sentenceScore(shared, hyp, refs).score, seg).toBe(want);
      if (t % 8 === 0) expect(sentenceScore(new Meteor({ tokenize: 'none' }), hyp, refs).score, seg).toBe(want);
      // The case needs the synonym stage to be exercised: count lines where it decides the value.
      const h = hyp.toLowerCase().split(' ').filter(Boolean).map((w) => nltkPorterStem(w));
      const r = refs[0].toLowerCase().split(' ').filter(Boolean).map((w) => nltkPorterStem(w));
      if (h.some((w) => !r.includes(w) && r.some((x) => synonyms(w).has(x)))) synonymMatches++;
    }
    expect(synonymMatches).toBeGreaterThan(150);
  });

  it('segmentStats over many segments equals the reading line by line (the per-object caches change nothing)', () => {
    const next = rng(7);
    const hyps = Array.from({ length: 500 }, () => randomLine(next));
    const refs = [Array.from({ length: 500 }, () => randomLine(next)), Array.from({ length: 500 }, () => randomLine(next))];
    const metric = new Meteor({ tokenize: 'none' });
    const prepared = metric.prepareReferences(refs);
    for (let pass = 0; pass < 2; pass++) {
      const rows = metric.segmentStats(hyps, prepared);
      hyps.forEach((h, i) => expect(rows[2 * i], `line ${i + 1}`).toBe(Math.max(nltkSingle(h, refs[0][i]), nltkSingle(h, refs[1][i]))));
    }
  });
});
