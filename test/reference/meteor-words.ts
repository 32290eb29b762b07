/**
 * Plain oracles of METEOR's word kernels: what assembly/meteor-words.ts learns of a token (through
 * src/wasm/words-13a.ts `WordFacts`), and the name ids of assembly/name-table.ts (src/wasm/name-table.ts), written
 * with the TypeScript functions METEOR otherwise runs and a Map.
 */
import { mayHaveSynonyms } from '../../src/metrics/meteor/wordnet.js';
import { pyLower } from '../../src/text/pystr.js';
import { nltkPorterStem } from '../../src/text/rouge/porter-nltk.js';

/** A token's word (Python's `lower()`), the word's Porter stem (NLTK_EXTENSIONS), and whether it may have synonyms. */
export function oracleWordFacts(token: string): { word: string; stem: string; mayHaveSynonyms: boolean } {
  const word = pyLower(token);
  const stem = nltkPorterStem(word, 'NLTK_EXTENSIONS', true);
  return { word, stem, mayHaveSynonyms: mayHaveSynonyms(stem) };
}

/** Ids of `names` in order of first appearance in `table` (grown), -1 for an empty name. */
export function oracleNameIds(names: readonly string[], table: Map<string, number>): number[] {
  return names.map((name) => {
    if (name === '') return -1;
    let id = table.get(name);
    if (id === undefined) table.set(name, (id = table.size));
    return id;
  });
}
