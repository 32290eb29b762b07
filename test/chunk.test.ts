import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import {
  BracketedChunker,
  CHUNKER_NAMES,
  CompromiseChunker,
  createChunker,
  npSpans,
  type ChunkedSentence,
} from '../src/text/chunk/index.js';
import { NP_WORD_CLASSES as C } from '../src/text/chunk/compromise-chunker.js';

/** The phrases of a chunked sentence as strings. */
function phrases(s: ChunkedSentence): string[] {
  const words = s.text === '' ? [] : s.text.split(' ');
  const out: string[] = [];
  for (let k = 0; k < s.spans.length; k += 2) out.push(words.slice(s.spans[k], s.spans[k + 1]).join(' '));
  return out;
}

// Seed paper 003, Figure 1.
const MT = 'in general , the amount of the crowning fall is large like the end .';
const REF = 'generally , the closer it is to the end part , the larger the amount of crowning drop is .';

describe('bracketed chunker', () => {
  const chunker = new BracketedChunker();

  it('reads [NP … ] and the paper\'s [ NP … ] markers; the words are those outside the markers', () => {
    const s = chunker.chunk('in general , [NP the amount ] of [ NP the crowning fall ] is large .');
    expect(s.text).toBe('in general , the amount of the crowning fall is large .');
    expect(s.length).toBe(12);
    expect(Array.from(s.spans)).toEqual([3, 5, 6, 9]);
    expect(phrases(s)).toEqual(['the amount', 'the crowning fall']);
  });

  it('gives no phrases and the words as they are for unmarked text; empty lines are empty', () => {
    expect(phrases(chunker.chunk('a  b\tc'))).toEqual([]);
    expect(chunker.chunk('a  b\tc').text).toBe('a b c');
    expect(chunker.chunk('').length).toBe(0);
  });

  it.each([
    ['[NP the amount', /not closed/],
    ['the amount ]', /without an opening/],
    ['[NP the [NP amount ] ]', /nested/],
    ['[VP is large ]', /unknown phrase label "VP"/],
    ['[ the amount ]', /unknown phrase label "the"/],
    ['a [', /no label/],
    ['[NP ]', /empty/],
  ])('refuses %j', (line, message) => {
    expect(() => chunker.chunk(line)).toThrow(InputError);
    expect(() => chunker.chunk(line)).toThrow(message);
  });
});

describe('compromise chunker', () => {
  const chunker = new CompromiseChunker();

  it("finds the seed paper's Figure 1 noun phrases", () => {
    expect(phrases(chunker.chunk(MT))).toEqual(['the amount', 'the crowning fall', 'the end']);
    expect(phrases(chunker.chunk(REF))).toEqual(['it', 'the end part', 'the amount', 'crowning drop']);
  });

  it('keeps the words of untokenized text and maps compromise terms back to them', () => {
    const s = chunker.chunk('The quick brown fox jumped over the lazy dog.');
    expect(s.text).toBe('The quick brown fox jumped over the lazy dog.');
    expect(phrases(s)).toEqual(['The quick brown fox', 'the lazy dog.']);
    expect(phrases(chunker.chunk('He said that the new trade agreement would lower prices .'))).toEqual([
      'He',
      'the new trade agreement',
      'prices',
    ]);
  });

  it('spans are ordered, disjoint and inside the sentence', () => {
    for (const line of [MT, REF, '', ' , . ! ', 'their 3 old cars-to-be , his dog']) {
      const s = chunker.chunk(line);
      let last = 0;
      for (let k = 0; k < s.spans.length; k += 2) {
        expect(s.spans[k]).toBeGreaterThanOrEqual(last);
        expect(s.spans[k + 1]).toBeGreaterThan(s.spans[k]);
        last = s.spans[k + 1];
      }
      expect(last).toBeLessThanOrEqual(s.length);
    }
  });
});

describe('base-NP grammar', () => {
  const spans = (...classes: number[]) => Array.from(npSpans(Uint8Array.from(classes)));
  it('determiners and modifiers up to the last noun; pronouns alone; runs without a noun are skipped', () => {
    expect(spans(C.det, C.adj, C.noun, C.noun, C.adj)).toEqual([0, 4]);
    expect(spans(C.det, C.adj, C.det, C.noun)).toEqual([2, 4]);
    expect(spans(C.pronoun, C.other, C.num, C.gerund, C.noun, C.punct, C.noun)).toEqual([0, 1, 2, 5, 6, 7]);
    expect(spans(C.det, C.det, C.noun)).toEqual([1, 3]);
    expect(spans(C.det, C.adj, C.punct)).toEqual([]);
  });
});

describe('chunker registry', () => {
  it('knows compromise and bracketed, and says which names exist for an unknown one', () => {
    expect(CHUNKER_NAMES).toEqual(['compromise', 'bracketed']);
    expect(createChunker('bracketed')).toBeInstanceOf(BracketedChunker);
    expect(() => createChunker('spacy')).toThrow(/unknown chunker "spacy" \(expected one of: compromise, bracketed\)/);
    const own = { name: 'mine', chunk: (t: string) => new BracketedChunker().chunk(t) };
    expect(createChunker(own)).toBe(own);
  });
});
