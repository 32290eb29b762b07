/**
 * METEOR's alignment against a line-by-line reading of NLTK 3.8's `meteor_score` (./reference/meteor.ts), on
 * random lines over a small vocabulary dense in exact, stem and WordNet synonym ties (`took` ~ `take`, `make`, `hold`, `get`; `car` ~ `auto` ~ `motorcar`; `cat` ~ `sick` ~ `ill`…), with repeated words, upper
 * case, empty lines and several references. Every value must be the reading's, bit for bit: the order in which
 * each stage pairs words decides which words the next stages see, and the chunks.
 */
import { describe, expect, it } from 'vitest';
import { Meteor } from '../src/metrics/meteor/meteor.js';
import { sentenceScore } from '../src/metrics/metric.js';
import { nltkPorterStem } from '../src/text/rouge/porter-nltk.js';
import { nltkSingle, synonyms } from './reference/meteor.js';
import { mulberry32 } from './helpers/mulberry32.js';

const VOCAB = [
  'car', 'cars', 'auto', 'Autos', 'motorcar', 'dog', 'dogs', 'cat', 'Cats', 'sick', 'ill', 'big', 'bigger', 'great',
  'large', 'run', 'runs', 'running', 'ran', 'fast', 'quick', 'quickly', 'take', 'took', 'make', 'made', 'hold', 'held',
  'get', 'the', 'THE', 'a', 'of', 'house', 'home', 'men', 'man', 'Haus', 'über',
];

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
    const next = mulberry32(20261127);
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
    const next = mulberry32(7);
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
