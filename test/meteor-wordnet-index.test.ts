/**
 * METEOR's WordNet index is searched where it is stored (a binary search over front-coded blocks, then a walk through
 * one block without building its lemmas). This checks that search against the plain reading of the same file: every
 * lemma of every part of speech is found, and near misses (one character more, one less, a character changed, a
 * word past the last lemma or before the first) are found exactly when the plain reading has them. Forms with a
 * character outside the index's alphabet have no base form. The quick test of whether a word may have synonyms at all
 * (one lemma filter over every part of speech, before morphy's search) says yes for every word morphy finds a base
 * form for, and METEOR's synonyms of a word are the names of the synsets of the base forms morphy finds for it (the
 * quick tests of each part of speech skip none of them).
 */
import { describe, expect, it } from 'vitest';
import { mayHaveSynonyms, meteorSynonyms, morphy, wordnetIndexHas, type WordnetData } from '../src/metrics/meteor/wordnet.js';
import { readWordnetTable } from '../src/node/wordnet.js';

const POS = ['n', 'v', 'a', 'r'] as const;

/** The index lemmas of each part of speech, read block by block the plain way. */
function plainIndex(data: WordnetData): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const pos of POS) {
    const lemmas: string[] = [];
    for (const block of data.index[pos]) {
      let prev = '';
      for (const entry of block.split(' ')) {
        const lemma = prev.slice(0, parseInt(entry[0], 36)) + entry.slice(1, entry.indexOf(':'));
        lemmas.push(lemma);
        prev = lemma;
      }
    }
    out[pos] = lemmas;
  }
  return out;
}

/** Per part of speech, each index lemma's stored synset ids (base 36, `.`-separated), read the plain way. */
function plainIds(data: WordnetData): Record<string, Map<string, string>> {
  const out: Record<string, Map<string, string>> = {};
  for (const pos of POS) {
    const ids = new Map<string, string>();
    for (const block of data.index[pos]) {
      let prev = '';
      for (const entry of block.split(' ')) {
        const colon = entry.indexOf(':');
        const lemma = prev.slice(0, parseInt(entry[0], 36)) + entry.slice(1, colon);
        ids.set(lemma, entry.slice(colon + 1));
        prev = lemma;
      }
    }
    out[pos] = ids;
  }
  return out;
}

describe("METEOR's WordNet index", () => {
  const data = readWordnetTable();
  const index = plainIndex(data);

  it('is sorted, and finds every lemma of every part of speech', () => {
    for (const pos of POS) {
      const lemmas = index[pos];
      expect(lemmas.length).toBeGreaterThan(1000);
      for (let i = 1; i < lemmas.length; i++) if (!(lemmas[i - 1] < lemmas[i])) throw new Error(`${pos}: ${lemmas[i - 1]} ≥ ${lemmas[i]}`);
      const missing = lemmas.filter((l) => !wordnetIndexHas(l, pos));
      expect(missing).toEqual([]);
    }
  });

  it('finds a near miss exactly when the index has it', () => {
    for (const pos of POS) {
      const lemmas = index[pos];
      const has = new Set(lemmas);
      const wrong: string[] = [];
      const check = (w: string): void => {
        if (wordnetIndexHas(w, pos) !== has.has(w)) wrong.push(w);
      };
      for (const l of lemmas) {
        check(`${l}a`);
        check(`${l}z`);
        check(l.slice(0, -1));
        check(`${l.slice(0, -1)}${String.fromCharCode(l.charCodeAt(l.length - 1) + 1)}`);
      }
      check('');
      check('!');
      check('~');
      check(`${lemmas[lemmas.length - 1]}zz`);
      // The search starts from a lemma's first two characters: forms that start with each lemma's first character,
      // then one sorting before, after or far past every second character (a non-ASCII one), and one-character forms.
      for (const c of new Set(lemmas.map((l) => l[0]))) {
        for (const second of ['', ' ', '\u007f', 'é', '\uffff']) check(`${c}${second}`);
        check(`${c}${'\uffff'}a`);
        check(`é${c}`);
      }
      for (const l of lemmas.filter((x) => x.length >= 2).slice(0, 200)) check(`${l.slice(0, 2)}`);
      expect(wrong).toEqual([]);
    }
  });

  it('holds lemmas sharing more than 35 leading characters (the front coding caps at 35)', () => {
    const long = index.n.filter((l, i) => i > 0 && l.length > 36 && index.n[i - 1].slice(0, 36) === l.slice(0, 36));
    expect(long.length).toBeGreaterThan(0);
    for (const l of long) {
      expect(wordnetIndexHas(l, 'n')).toBe(true);
      expect(wordnetIndexHas(`${l.slice(0, 36)}`, 'n')).toBe(new Set(index.n).has(l.slice(0, 36)));
    }
  });

  it('gives as synonyms the names of the synsets of every base form morphy finds, read the plain way', () => {
    const ids = plainIds(data);
    const synsets = data.synsets.flatMap((block) => block.split(';'));
    const lemmas = index.n.concat(index.v, index.a, index.r);
    const words = new Set<string>(['dogs', 'geese', 'lines', 'training', 'teams', 'der', 'haus']);
    // Inflected forms reach their lemmas through one part of speech's rules, and some through several rounds.
    const suffixes = ['', 's', 'es', 'ies', 'ed', 'ing', 'er', 'est', 'men'];
    for (let i = 0; i < lemmas.length; i += 11) for (const x of suffixes) words.add(lemmas[i] + x);
    const wrong: string[] = [];
    let withSynonyms = 0;
    for (const w of words) {
      const plain = new Set<string>();
      for (const pos of POS) {
        for (const base of morphy(w, pos)) {
          const stored = ids[pos].get(base) ?? '';
          if (stored === '') continue;
          for (const id of stored.split('.')) for (const name of synsets[parseInt(id, 36)].split(',')) plain.add(name);
        }
      }
      plain.add(w);
      const got = meteorSynonyms(w);
      if (got.size !== plain.size || [...plain].some((name) => !got.has(name))) wrong.push(w);
      if (plain.size > 1) withSynonyms++;
    }
    expect(wrong).toEqual([]);
    expect(withSynonyms).toBeGreaterThan(words.size / 8);
  });

  it('a form with a character outside the lemmas\' alphabet has no base form', () => {
    expect(morphy('dogs', 'n')).toEqual(['dog']);
    expect(morphy('dögs', 'n')).toEqual([]);
    expect(morphy('straße', 'n')).toEqual([]);
  });

  it('says a word may have synonyms whenever morphy finds a base form for it in some part of speech', () => {
    const words = new Set<string>();
    for (const pos of POS) for (const l of index[pos]) words.add(l);
    for (const pos of POS) for (const chunk of data.exceptions[pos]) for (const e of chunk.split(' ')) words.add(e.slice(0, e.indexOf(':')));
    // Inflected forms, which reach a lemma through the suffix rules (several rounds for some).
    const lemmas = [...words];
    for (let i = 0; i < lemmas.length; i += 3) for (const x of ['s', 'es', 'ies', 'ed', 'ing', 'er', 'est', 'men', 'ses']) words.add(lemmas[i] + x);
    const missed: string[] = [];
    let rejected = 0;
    for (const w of words) {
      if (mayHaveSynonyms(w)) continue;
      rejected++;
      if (POS.some((pos) => morphy(w, pos).length > 0)) missed.push(w);
    }
    expect(missed).toEqual([]);
    // Most of the forms made up above are no word: the filter must turn them away, or the test checks nothing.
    expect(rejected).toBeGreaterThan(words.size / 8);
    for (const w of ['zukam', 'straße', 'dögs', 'verursachten']) {
      expect(mayHaveSynonyms(w)).toBe(false);
      expect([...meteorSynonyms(w)]).toEqual([w]);
    }
    expect(mayHaveSynonyms('dogs')).toBe(true);
    expect(mayHaveSynonyms('geese')).toBe(true);
  });
});
