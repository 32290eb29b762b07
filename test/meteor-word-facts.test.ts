/**
 * The METEOR word facts of the 13a kernel (assembly/meteor-words.ts through Words13aGrowing): for each new token it
 * takes, the word (Python's lower()), the word's Porter stem and whether the stem may have synonyms must be the plain
 * oracle's (./reference/meteor-words.ts); a token it does not take is left whole to the caller.
 */
import { describe, expect, it } from 'vitest';
import { Meteor } from '../src/metrics/meteor/meteor.js';
import { tokenize13a } from '../src/text/tokenizers/index.js';
import { synonymFilter } from '../src/metrics/meteor/wordnet.js';
import { readWordnetTable } from '../src/node/wordnet.js';
import { WORD_MAY_HAVE_SYNONYMS, WORD_TAKEN, Words13aGrowing } from '../src/wasm/words-13a.js';
import { mulberry32 } from './helpers/mulberry32.js';
import { oracleWordFacts } from './reference/meteor-words.js';

const SUFFIXES = [
  'ational', 'tional', 'enci', 'anci', 'izer', 'bli', 'alli', 'entli', 'eli', 'ousli', 'ization', 'ation', 'ator',
  'alism', 'iveness', 'fulness', 'ousness', 'aliti', 'iviti', 'biliti', 'fulli', 'logi', 'icate', 'ative', 'alize',
  'iciti', 'ical', 'ful', 'ness', 'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent',
  'sion', 'tion', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize', 'e', 'll', 'ed', 'ing', 'ied', 'ies', 'eed',
  'sses', 'ss', 's', 'y', 'yy', 'at', 'bl', 'iz', 'en', 'ung',
];
const LETTERS = ['a', 'e', 'i', 'o', 'u', 'y', 'b', 'c', 'd', 'l', 'm', 'n', 'r', 's', 't', 'g', 'z', 'Y', 'S', 'T', 'ä', 'Ö', 'ß', 'É', 'ÿ', '×'];
const ODD = ['3', "'", '-', '.', '\u201e', '\u2013', 'Σ', 'Ж', '中', '\u{1f600}', '\u212a', 'İ', 'µ', '\ud800'];

/** Tokens 13a keeps whole: letters, digits inside words, suffixes, and characters of every kind the kernel meets. */
function words(n: number, seed: number): string[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const out: string[] = [
    'sky', 'skies', 'dying', 'lying', 'tying', 'news', 'innings', 'inning', 'outings', 'outing', 'cannings', 'canning',
    'howe', 'proceed', 'exceed', 'succeed', 'Dying', 'SKIES', 'Häuser', 'STRASSE', 'Straße', 'Über', 'ÄPFEL', 'naïve',
    'Ελλάδα', 'Москва', '\u212aelvin', 'İstanbul', 'x'.repeat(300) + 'ing', 'Ä'.repeat(239) + 'en', 'a', 'ab', 'by',
  ];
  for (let i = 0; i < n; i++) {
    let w = '';
    const letters = 1 + Math.floor(rnd() * 8);
    for (let k = 0; k < letters; k++) w += pick(LETTERS);
    if (rnd() < 0.7) w += pick(SUFFIXES);
    if (rnd() < 0.25) w += pick(SUFFIXES);
    if (rnd() < 0.1) w = pick(ODD) + w;
    if (rnd() < 0.1) w += pick(ODD);
    if (rnd() < 0.2) w = w.toUpperCase();
    out.push(w);
  }
  return out;
}

describe('METEOR word facts of the 13a kernel', () => {
  it('lowercases and stems each token it takes as the oracle does, batch after batch', () => {
    const vocab = new Words13aGrowing(true);
    let taken = 0;
    let left = 0;
    let differs = 0;
    for (const seed of [1, 2, 3]) {
      const lines: string[] = [];
      const all = words(4000, seed);
      for (let i = 0; i < all.length; i += 7) lines.push(all.slice(i, i + 7).join(' '));
      const known = vocab.count;
      vocab.build(lines);
      const tokens = vocab.tokens(known);
      const facts = vocab.wordFacts()!;
      expect(facts.first).toBe(known);
      expect(facts.flags.length).toBe(tokens.length);
      for (let k = 0; k < tokens.length; k++) {
        const f = facts.flags[k];
        if (f === 0) {
          left++;
          expect(facts.starts[2 * k + 2]).toBe(facts.starts[2 * k]);
          continue;
        }
        taken++;
        expect(f & WORD_TAKEN).toBe(WORD_TAKEN);
        const text = (from: number, to: number): string => String.fromCharCode(...facts.units.subarray(from, to));
        const word = text(facts.starts[2 * k], facts.starts[2 * k + 1]);
        let stem = word;
        // A stem is given only when it is not the word.
        if (facts.starts[2 * k + 2] > facts.starts[2 * k + 1]) {
          differs++;
          stem = text(facts.starts[2 * k + 1], facts.starts[2 * k + 2]);
          expect(stem).not.toBe(word);
        }
        const oracle = oracleWordFacts(tokens[k]);
        expect([tokens[k], word, stem]).toEqual([tokens[k], oracle.word, oracle.stem]);
      }
    }
    // Most tokens are taken, many stems differ from their word, and the odd characters send some back.
    expect(taken).toBeGreaterThan(5 * left);
    expect(differs).toBeGreaterThan(taken / 4);
    expect(left).toBeGreaterThan(100);
  });

  it('says a stem may have synonyms exactly when mayHaveSynonyms does', () => {
    // WordNet's lemmas and exception forms, inflected (most reach a lemma through morphy's rules), and made-up words.
    const table = readWordnetTable();
    const lemmas: string[] = [];
    for (const pos of ['n', 'v', 'a', 'r']) {
      for (const block of table.index[pos]) {
        let previous = '';
        for (const entry of block.split(' ')) {
          const digit = entry.charCodeAt(0);
          const keep = digit <= 57 ? digit - 48 : digit - 87;
          previous = previous.slice(0, keep) + entry.slice(1, entry.indexOf(':'));
          lemmas.push(previous);
        }
      }
      for (const chunk of table.exceptions[pos]) for (const e of chunk.split(' ')) lemmas.push(e.slice(0, e.indexOf(':')));
    }
    const rnd = mulberry32(5);
    const tokens: string[] = [];
    for (let i = 0; i < 40000; i++) {
      const lemma = lemmas[Math.floor(rnd() * lemmas.length)].replaceAll('_', '-');
      const inflected = rnd() < 0.5 ? lemma : lemma + ['s', 'es', 'ies', 'ed', 'ing', 'er', 'est', 'men', 'ses', 'ly', 'ness'][Math.floor(rnd() * 11)];
      tokens.push(rnd() < 0.2 ? inflected[0].toUpperCase() + inflected.slice(1) : inflected);
    }
    tokens.push(...words(3000, 11));
    const lines: string[] = [];
    for (let i = 0; i < tokens.length; i += 9) lines.push(tokens.slice(i, i + 9).join(' '));
    const vocab = new Words13aGrowing(true, synonymFilter());
    vocab.build(lines);
    const names = vocab.tokens(0);
    const facts = vocab.wordFacts()!;
    let may = 0;
    let not = 0;
    for (let k = 0; k < names.length; k++) {
      const f = facts.flags[k];
      if (f === 0) continue;
      const oracle = oracleWordFacts(names[k]);
      const kernelSays = (f & WORD_MAY_HAVE_SYNONYMS) !== 0;
      if (kernelSays) may++;
      else not++;
      expect([oracle.stem, kernelSays]).toEqual([oracle.stem, oracle.mayHaveSynonyms]);
    }
    // Both answers are common: the filter turns many stems away and lets many through.
    expect(may).toBeGreaterThan(1000);
    expect(not).toBeGreaterThan(1000);
  });

  it('learns nothing unless asked, and the rows are those of a vocabulary that does not learn', () => {
    const lines = words(2000, 9).reduce<string[]>((acc, w, i) => (i % 5 === 0 ? acc.push(w) : (acc[acc.length - 1] += ` ${w}`), acc), []);
    const plain = new Words13aGrowing();
    const learning = new Words13aGrowing(true);
    const a = plain.build(lines);
    expect(plain.wordFacts()).toBeUndefined();
    const rowsA = { tokens: [...a.tokens], offsets: [...a.offsets] };
    const b = learning.build(lines);
    expect({ tokens: [...b.tokens], offsets: [...b.offsets] }).toEqual(rowsA);
  });

  it('keeps the words an object learnt the TypeScript way when its kernel and name table arrive later', () => {
    const rnd = mulberry32(21);
    const vocabulary = [
      'Die', 'die', 'Katze', 'katzen', 'running', 'runs', 'ran', 'cars', 'car', 'Auto', 'big', 'large', 'dogs', 'Ελλάδα',
      'ελλάδα', 'Москва', 'häuser', 'Häuser', 'quickly', 'rapidly', 'x'.repeat(250) + 'ing', 'X'.repeat(250) + 'ING',
    ];
    const words = (n: number): string => Array.from({ length: n }, () => vocabulary[Math.floor(rnd() * vocabulary.length)]).join(' ');
    for (let round = 0; round < 5; round++) {
      // The references are short, so a new object prepares them the TypeScript way; the hypotheses are long enough
      // to make its kernel (and the kernel's name table, which takes over the words known so far).
      const refs = [words(12), words(15)];
      const hyps = [words(1500), words(1600)];
      const late = new Meteor();
      const rows = late.segmentStats(hyps, late.prepareReferences([refs]));
      // NLTK's value on the same tokens, from an object that never uses the kernel.
      const plain = new Meteor({ tokenize: 'none' });
      const expected = plain.segmentStats(hyps.map((h) => tokenize13a(h)), plain.prepareReferences([refs.map((r) => tokenize13a(r))]));
      expect([...rows]).toEqual([...expected]);
      expect(rows[0]).toBeGreaterThan(0);
    }
  });
});

