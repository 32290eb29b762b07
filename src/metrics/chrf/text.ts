/**
 * Text preparation of chrF / chrF++ exactly as sacrebleu 2.6.0 does it: character n-grams run over Python code
 * points of the line with every Python-whitespace character removed (`''.join(line.split())`), and word n-grams
 * over sacrebleu's crude "punctuation separation" of the whitespace tokens.
 */
import type { CsrBuilder } from '../../text/csr.js';
import { tokenHash, type Vocabulary } from '../../text/intern.js';
import { isPyWhitespace, pySplit } from '../../text/pystr.js';

/**
 * Appends the code points of `line` as one CSR row (token id = code point). Unless `keepWhitespace`, Python
 * whitespace is dropped first, as sacrebleu's `''.join(line.split())`; every Python whitespace character is a BMP
 * code unit, so dropping units is the same as dropping code points. Code points, not UTF-16 units, because
 * sacrebleu slices Python strings: an emoji is one character there, two units here.
 */
export function appendCodePoints(line: string, keepWhitespace: boolean, out: CsrBuilder): void {
  const n = line.length;
  for (let i = 0; i < n; i++) {
    const c = line.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = line.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out.push(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000);
        i++;
        continue;
      }
    }
    if (keepWhitespace || !isPyWhitespace(c)) out.push(c);
  }
  out.endRow();
}

/** ASCII punctuation, Python's `string.punctuation`: the only characters sacrebleu separates from words. */
function isAsciiPunct(c: number): boolean {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

/**
 * The words sacrebleu's chrF++ counts (`CHRF._remove_punctuation`): split on Python whitespace; a word of one
 * character stays whole; otherwise a trailing ASCII punctuation mark is split off, or else a leading one (never
 * both, so `(hi)` gives `(hi` and `)`, sacrebleu issue #124).
 *
 * Python tests `len(w) == 1` on code points; here a one-code-point word can be two UTF-16 units, but then its
 * units are surrogates, never ASCII punctuation, so it also stays whole and no length test on code points is needed.
 */
export function chrfWords(line: string): string[] {
  const out: string[] = [];
  for (const w of pySplit(line)) {
    const n = w.length;
    if (n === 1) out.push(w);
    else if (isAsciiPunct(w.charCodeAt(n - 1))) out.push(w.slice(0, n - 1), w.slice(n - 1));
    else if (isAsciiPunct(w.charCodeAt(0))) out.push(w.slice(0, 1), w.slice(1));
    else out.push(w);
  }
  return out;
}

/**
 * Appends the chrF++ words of `line` (see {@link chrfWords}) as one CSR row of ids, scanning char codes: no
 * string per word. References grow `vocab` (`missingId` undefined); hypotheses only look words up, a word no
 * reference has getting `missingId`, so prepared references never change: such words can never match, and how many
 * n-grams a hypothesis has does not depend on which unknown words they hold.
 */
export function appendWords(vocab: Vocabulary, line: string, out: CsrBuilder, missingId?: number): void {
  const emit = (start: number, end: number): void => {
    const hash = tokenHash(line, start, end);
    if (missingId === undefined) {
      out.push(vocab.idOfRange(line, start, end, hash));
    } else {
      const id = vocab.findRange(line, start, end, hash);
      out.push(id < 0 ? missingId : id);
    }
  };
  const n = line.length;
  let i = 0;
  while (i < n) {
    while (i < n && isPyWhitespace(line.charCodeAt(i))) i++;
    if (i === n) break;
    const start = i;
    while (i < n && !isPyWhitespace(line.charCodeAt(i))) i++;
    // The same three cases as chrfWords, on [start, i).
    if (i - start === 1) {
      emit(start, i);
    } else if (isAsciiPunct(line.charCodeAt(i - 1))) {
      emit(start, i - 1);
      emit(i - 1, i);
    } else if (isAsciiPunct(line.charCodeAt(start))) {
      emit(start, start + 1);
      emit(start + 1, i);
    } else {
      emit(start, i);
    }
  }
  out.endRow();
}
