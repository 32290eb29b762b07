/**
 * METEOR's alignment kernel (assembly/meteor.ts through src/wasm/meteor-align.ts: the default 13a path once a batch
 * has created the metric's kernel instances) against the line-by-line reading of NLTK 3.8 (./reference/meteor.ts),
 * bit for bit: random lines over a vocabulary dense in exact, stem and WordNet synonym ties, empty lines, long lines
 * of more than 64 matches (whose penalties the kernel leaves to TypeScript), one and three references, words first
 * seen in a later batch (the kernel asks for their stems and synonyms and aligns those lines again), batches of one
 * line, two prepared reference sets taken in turn, and options other than NLTK's defaults.
 */
import { describe, expect, it } from 'vitest';
import { Meteor, type MeteorOptions } from '../src/metrics/meteor/meteor.js';
import { nltkSingle } from './reference/meteor.js';
import { mulberry32 } from './helpers/mulberry32.js';

const VOCAB = [
  'car', 'cars', 'auto', 'Autos', 'motorcar', 'dog', 'dogs', 'cat', 'Cats', 'sick', 'ill', 'big', 'bigger', 'great',
  'large', 'run', 'runs', 'running', 'ran', 'fast', 'quick', 'quickly', 'take', 'took', 'make', 'made', 'hold', 'held',
  'get', 'the', 'THE', 'a', 'of', 'house', 'home', 'men', 'man', 'Haus', 'über',
];
/** Words only the later batches use: new to the metric's tables when they come. */
const LATER = ['automobile', 'machine', 'houses', 'domicile', 'illness', 'unwell', 'sprint', 'sprinted', 'grab', 'seize', 'brought', 'bring'];

/** A line of up to 12 words from a window of `vocab` (words repeat), or one of 64 to 140 words (a long line). */
function randomLine(next: () => number, vocab: readonly string[]): string {
  const long = next() < 0.06;
  const n = long ? 64 + Math.floor(next() * 77) : Math.floor(next() * 13);
  const width = long ? 6 : 12;
  const from = Math.floor(next() * (vocab.length - width));
  const words: string[] = [];
  for (let k = 0; k < n; k++) words.push(vocab[from + Math.floor(next() * width)]);
  return words.join(' ');
}

/** Segments of a hypothesis and `nRefs` references; a long hypothesis gets long references (many matches). */
function segments(next: () => number, count: number, nRefs: number, vocab: readonly string[]): { hyps: string[]; refs: string[][] } {
  const hyps: string[] = [];
  const refs: string[][] = Array.from({ length: nRefs }, () => []);
  for (let i = 0; i < count; i++) {
    const hyp = randomLine(next, vocab);
    hyps.push(hyp);
    for (const r of refs) {
      const words = hyp.split(' ');
      // A long line's reference: its words shuffled a little and partly replaced, so that most still match.
      r.push(words.length > 60 ? words.map((w, k) => (next() < 0.2 ? words[(k + 3) % words.length] : next() < 0.1 ? vocab[Math.floor(next() * vocab.length)] : w)).join(' ') : randomLine(next, vocab));
    }
  }
  return { hyps, refs };
}

/** Every row of `rows` is the reading's value of its segment, and a count of 1. */
function expectReading(hyps: readonly string[], refs: readonly string[][], options: MeteorOptions, rows: Float64Array): void {
  const { alpha = 0.9, beta = 3, gamma = 0.5 } = options;
  for (let i = 0; i < hyps.length; i++) {
    const want = Math.max(...refs.map((r) => nltkSingle(hyps[i], r[i], alpha, beta, gamma)));
    expect(rows[2 * i], `line ${i + 1}: ${JSON.stringify(hyps[i])} vs ${JSON.stringify(refs.map((r) => r[i]))}`).toBe(want);
    expect(rows[2 * i + 1]).toBe(1);
  }
}

describe('METEOR alignment kernel = NLTK 3.8 read line by line', () => {
  for (const [name, options, nRefs] of [
    ['defaults, one reference', {}, 1],
    ['defaults, three references', {}, 3],
    ['alpha 0.6, beta 2.5, gamma 0.8, two references', { alpha: 0.6, beta: 2.5, gamma: 0.8 }, 2],
  ] as const) {
    it(name, () => {
      const next = mulberry32(31 + nRefs);
      const metric = new Meteor(options);
      // A first batch large enough to create the kernel instances.
      const first = segments(next, 1500, nRefs, VOCAB);
      const prepared = metric.prepareReferences(first.refs);
      expectReading(first.hyps, first.refs, options, metric.segmentStats(first.hyps, prepared));
      // Later batches bring new words; a second reference set is taken in turn with the first.
      const vocab = [...VOCAB, ...LATER];
      const second = segments(next, 400, nRefs, vocab);
      const prepared2 = metric.prepareReferences(second.refs);
      expectReading(second.hyps, second.refs, options, metric.segmentStats(second.hyps, prepared2));
      const again = segments(next, 1500, nRefs, vocab).hyps;
      expectReading(again, first.refs, options, metric.segmentStats(again, prepared));
      // One line at a time, through the instances the batches created.
      for (let i = 0; i < 40; i++) {
        const hyp = randomLine(next, vocab);
        const one = { segments: 1, lines: [prepared2.lines[i]] };
        expectReading([hyp], second.refs.map((r) => [r[i]]), options, metric.segmentStats([hyp], one));
      }
    });
  }

  it('values lines of more than 64 matches and empty lines', () => {
    const metric = new Meteor();
    const next = mulberry32(5);
    const { hyps, refs } = segments(next, 1500, 1, VOCAB);
    hyps[3] = '';
    refs[0][4] = '';
    const longLines = hyps.filter((h) => h.split(' ').length > 64).length;
    expect(longLines).toBeGreaterThan(50);
    expectReading(hyps, refs, {}, metric.segmentStats(hyps, metric.prepareReferences(refs)));
  });
});
