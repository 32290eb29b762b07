/**
 * An English noun-phrase chunker built on compromise (MIT; a rule-and-lexicon part-of-speech tagger in pure
 * JavaScript, no model download): compromise tags the words, and a base-NP grammar over those tags — the classic
 * `(DET)* (ADJ|NUM|NOUN|GERUND)* NOUN | PRONOUN` pattern the CoNLL-2000 "NP" chunks follow — cuts the phrases.
 * compromise's own `.nouns()` is not used: it swallows punctuation and prepositions into phrases ("over the lazy
 * dog"), which is not the base-NP chunking the seed paper's chunker (Sha & Pereira 2003, CoNLL-2000 NPs) gives.
 *
 * Words are the line's whitespace-separated words (the metric's tokens). compromise tokenizes on its own (splitting
 * `cars-to`, attaching punctuation as `post` text), so each of its terms is mapped back to the word its character
 * offset falls in; a word takes the class of its last non-empty term (English compounds are head-final). A word
 * with no letter or digit is punctuation and ends any phrase.
 *
 * On the seed paper's Figure 1 sentences this gives exactly the paper's chunks (test/chunk.test.ts).
 */
import { PaletteError } from '../../errors.js';
import type { ChunkedSentence, NpChunker } from './np-chunker.js';
import { wordBounds } from './words.js';

/** compromise's entry function (its default export). */
export type Compromise = (text: string) => { compute(method: string): unknown };

let compromise: Compromise | undefined;
let compromiseLoader: (() => Compromise) | undefined;

/**
 * Hands compromise to the chunker: its default export (`import nlp from 'compromise'`, then `setCompromise(nlp)`).
 * Needed before the first line is chunked where no loader is installed (browsers); the Node entry installs one.
 */
export function setCompromise(nlp: Compromise): void {
  compromise = nlp;
}

/**
 * Installs a function that returns compromise when the first line is chunked. compromise takes about a second to
 * load, which every `palette` command would pay if it were imported with the metric registry, so the Node adapter
 * (src/node/compromise.ts) installs a loader that `require`s it on first use.
 */
export function setCompromiseLoader(load: () => Compromise): void {
  compromiseLoader = load;
}

/** compromise, loaded on first use. */
function loadCompromise(): Compromise {
  if (compromise === undefined) {
    if (compromiseLoader === undefined) {
      throw new PaletteError(
        'E_BAD_OPTION',
        'the compromise chunker needs compromise: call setCompromise() with its default export first ' +
          '(the Node entry, palette-mt, loads it itself)',
      );
    }
    compromise = compromiseLoader();
  }
  return compromise;
}

/** Word classes the grammar reads. */
const enum WordClass {
  Other = 0,
  Punct,
  Det,
  Adj,
  Num,
  Noun,
  Gerund,
  Pronoun,
}

/** The part of a compromise term this chunker reads (compromise's term objects have more). */
interface CompromiseTerm {
  readonly tags: ReadonlySet<string>;
  readonly offset?: { readonly start: number; readonly length: number };
}

/** The class of a compromise term from its tags (compromise tags a term with all its ancestors: `Noun`+`Plural`). */
function termClass(tags: ReadonlySet<string>): WordClass {
  // Possessive pronouns (`his`, `their`) open a phrase like a determiner; other pronouns are phrases of their own.
  if (tags.has('Pronoun')) return tags.has('Possessive') ? WordClass.Det : WordClass.Pronoun;
  if (tags.has('Determiner')) return WordClass.Det;
  if (tags.has('Gerund')) return WordClass.Gerund;
  if (tags.has('Value')) return WordClass.Num;
  if (tags.has('Noun')) return WordClass.Noun;
  if (tags.has('Adjective')) return WordClass.Adj;
  return WordClass.Other;
}

const HAS_WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** Base noun phrases from compromise's part-of-speech tags. */
export class CompromiseChunker implements NpChunker {
  /** `compromise`. */
  readonly name = 'compromise';

  /** Tags the line's words and cuts its base noun phrases. */
  chunk(line: string): ChunkedSentence {
    const bounds = wordBounds(line);
    const count = bounds.length >> 1;
    const classes = new Uint8Array(count);
    const words: string[] = [];
    for (let k = 0; k < count; k++) {
      const word = line.slice(bounds[2 * k], bounds[2 * k + 1]);
      words.push(word);
      if (!HAS_WORD_CHARACTER.test(word)) classes[k] = WordClass.Punct;
    }
    if (count > 0) this.tag(line, bounds, classes);
    return { text: words.join(' '), length: count, spans: npSpans(classes) };
  }

  /** Sets the class of every word that is not punctuation from the last non-empty compromise term inside it. */
  private tag(line: string, bounds: Int32Array, classes: Uint8Array): void {
    const doc = loadCompromise()(line);
    doc.compute('offset');
    const sentences = (doc as unknown as { docs: readonly (readonly CompromiseTerm[])[] }).docs;
    let k = 0;
    const count = bounds.length >> 1;
    for (const sentence of sentences) {
      for (const term of sentence) {
        // Terms a contraction adds (`did n't` → `did`, `not`) have no text of their own.
        if (term.offset === undefined || term.offset.length === 0) continue;
        const at = term.offset.start;
        while (k < count && bounds[2 * k + 1] <= at) k++;
        if (k === count) return;
        if (bounds[2 * k] > at || classes[k] === WordClass.Punct) continue;
        classes[k] = termClass(term.tags);
      }
    }
  }
}

/**
 * Base-NP spans over word classes: a pronoun alone, or a determiner, then modifiers (adjectives, numbers, nouns,
 * gerunds), ending at the last noun of that run. A run with no noun is no phrase; the scan then moves on by one
 * word, so that in `the larger the amount` the phrase is `the amount`.
 */
export function npSpans(classes: Uint8Array): Int32Array {
  const spans: number[] = [];
  const n = classes.length;
  let i = 0;
  while (i < n) {
    if (classes[i] === WordClass.Pronoun) {
      spans.push(i, i + 1);
      i++;
      continue;
    }
    // Of a run of determiners only the last opens the phrase: compromise tags the complementizer `that` as one
    // (`said that the new agreement`), and phrases such as `all the people` are rare in base-NP chunking.
    while (i + 1 < n && classes[i] === WordClass.Det && classes[i + 1] === WordClass.Det) i++;
    let j = i;
    if (j < n && classes[j] === WordClass.Det) j++;
    let end = -1;
    for (; j < n; j++) {
      const c = classes[j];
      if (c === WordClass.Noun) end = j + 1;
      else if (c !== WordClass.Adj && c !== WordClass.Num && c !== WordClass.Gerund) break;
    }
    if (end < 0) {
      i++;
      continue;
    }
    spans.push(i, end);
    i = end;
  }
  return Int32Array.from(spans);
}

/** Word classes, exported for the grammar's tests. */
export const NP_WORD_CLASSES = {
  other: WordClass.Other,
  punct: WordClass.Punct,
  det: WordClass.Det,
  adj: WordClass.Adj,
  num: WordClass.Num,
  noun: WordClass.Noun,
  gerund: WordClass.Gerund,
  pronoun: WordClass.Pronoun,
} as const;
