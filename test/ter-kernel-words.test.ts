/**
 * sacreBLEU TER's words through the split kernel (src/metrics/ter/ter.ts: the written words interned in
 * WebAssembly, each distinct one lowercased alone) against the oracle that lowercases whole lines
 * (test/reference/ter-words.ts): the references' rows read back through their vocabulary, and every statistics
 * row against the plain port of lib_ter on the oracle's words. The random lines mix cases, Final_Sigma contexts
 * (Σ after a cased letter, before or after case-ignorable marks and apostrophes, at a word's end before each kind
 * of Python whitespace), İ (two code points lowercased), astral letters with lowercase forms and lone surrogates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ter } from '../src/metrics/ter/ter.js';
import { isPyWhitespace, pyLower } from '../src/text/pystr.js';
import { csrRow } from '../src/text/csr.js';
import { plainTranslationEditRate } from './reference/ter.js';
import { oracleTerHypWords, oracleTerRefWords } from './reference/ter-words.js';

const PIECES = [
  'a', 'A', 'b', 'B', 'Wort', 'WORT', 'wort', 'ß', 'ẞ', 'Ä', 'ä',
  'Σ', 'σ', 'ς', 'ΑΣ', 'ΟΔΟΣ', 'Α', '\u0345', '\u0301', "'", '.', 'İ', 'i\u0307', 'I',
  '\u{10400}', '\u{10428}', '😀', '\ud800', '\udc00', '\ufeff', '\ufeffA',
  ' ', ' ', ' ', '  ', '\t', '\n', '\r', '\u00a0', '\u2003', '\u3000', '\u0085', '\x1c', '\u1680', '\u202f', '\u200b',
];
const line = fc.array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 16 }).map((a) => a.join(''));

/** Oracle rows `[num_edits, ref_length]` of hypotheses against one reference stream or more. */
function oracleRows(hyps: readonly string[], refStreams: readonly (readonly string[])[], caseSensitive: boolean): number[][] {
  return hyps.map((h, s) => {
    const ids = new Map<string, number>();
    const refs = refStreams.map((stream) =>
      Int32Array.from(oracleTerRefWords(stream[s], caseSensitive), (w) => {
        if (!ids.has(w)) ids.set(w, ids.size);
        return ids.get(w)!;
      }));
    const hyp = Int32Array.from(oracleTerHypWords(h, caseSensitive), (w) => ids.get(w) ?? -1);
    let best = Infinity;
    let lengths = 0;
    for (const r of refs) {
      best = Math.min(best, plainTranslationEditRate(hyp, r).edits);
      lengths += r.length;
    }
    return [best, lengths / refs.length];
  });
}

describe('TER words through the split kernel', () => {
  for (const caseSensitive of [false, true]) {
    it(`equal sacreBLEU's preprocessing of whole lines (${caseSensitive ? 'case-sensitive' : 'lowercased'})`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 2 }), fc.nat(), (segments, nRefs, seed) => {
          const gen = fc.array(line, { minLength: segments, maxLength: segments });
          const sample = fc.sample(fc.tuple(gen, fc.array(gen, { minLength: nRefs, maxLength: nRefs })), { numRuns: 1, seed })[0];
          const [hyps, refStreams] = sample;
          const ter = new Ter({ caseSensitive });
          const refs = ter.prepareReferences(refStreams);
          expect(refs.kernelWords).toBeDefined();
          for (let s = 0; s < segments; s++) {
            for (let j = 0; j < nRefs; j++) {
              const row = Array.from(csrRow(refs.words, s * nRefs + j), (id) => refs.vocab.token(id));
              expect(row).toEqual(oracleTerRefWords(refStreams[j][s], caseSensitive));
            }
          }
          const rows = ter.segmentStats(hyps, refs);
          expect(Array.from({ length: segments }, (_, s) => [rows[2 * s], rows[2 * s + 1]])).toEqual(
            oracleRows(hyps, refStreams, caseSensitive),
          );
        }),
        { numRuns: 400 },
      );
    });
  }

  it('relies on no lowercase mapping giving nothing or whitespace', () => {
    const bad: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if ((cp >= 0xd800 && cp <= 0xdfff) || (cp < 0x10000 && isPyWhitespace(cp))) continue;
      const lower = pyLower(String.fromCodePoint(cp));
      let ok = lower.length > 0;
      for (let k = 0; k < lower.length; k++) if (isPyWhitespace(lower.charCodeAt(k))) ok = false;
      if (!ok) bad.push(cp);
    }
    expect(bad).toEqual([]);
  });

  it('leaves references prepared with normalisation or punctuation removal to the string tokenizer', () => {
    expect(new Ter({ normalized: true }).prepareReferences([['A b.']]).kernelWords).toBeUndefined();
    expect(new Ter({ noPunct: true }).prepareReferences([['A b.']]).kernelWords).toBeUndefined();
  });
});
