/**
 * Token scanners of the three ROUGE tokenizers. Each finds the token spans of a text in one pass over its UTF-16
 * code units and creates no string: a token is a maximal run of "word" characters, everything else separates.
 *
 * - `rouge155` (ROUGE-1.5.5.pl): the Perl script reads bytes, lowercases A–Z, puts spaces around `-`, turns every
 *   byte outside [A-Za-z0-9-] into a space and keeps the whitespace-separated tokens that start with [a-z0-9$].
 *   A `-` therefore always ends up as a token of its own and is dropped, and every byte of a non-ASCII character
 *   (all ≥ 0x80 in UTF-8) is a space: the tokens are exactly the maximal runs of ASCII [A-Za-z0-9].
 * - `rouge-score` (google-research rouge_score 0.1.2, tokenize.py): Python `lower()`, runs of characters outside
 *   [a-z0-9] become spaces, split. Under Unicode 14.0 only two non-ASCII code points lowercase to something holding
 *   ASCII letters or digits (test/rouge-text-tokenizers.test.ts checks every code point against `pyLower`):
 *   U+212A KELVIN SIGN → `k`, and U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE → `i` + U+0307 (a non-[a-z0-9]
 *   combining dot). So the tokens are the runs of [A-Za-z0-9] and U+212A, where a U+0130 adds an `i` and then ends
 *   the run; the lowercase form is only built for a token not seen before.
 * - `rouge-unicode` (Palette's own): the runs of letters, marks and numbers of any script (General_Category L, M,
 *   N of Unicode 15.0.0) in the Python-lowercased text (`pyLower`, Unicode 14.0.0).
 *
 * While it scans a token, a scanner also hashes its code units with the function `tokenHash` of ../intern.ts
 * (FNV-1a, then murmur3's fmix32; a property test keeps the two equal), so interning needs no second pass.
 */
import { pyLower } from '../pystr.js';
import { isWordCodePoint } from './unicode-word.js';
import { FNV_OFFSET, FNV_PRIME, hashFinish } from '../intern.js';

/** A reusable list of token spans `[start, end)` (UTF-16 indices) over one scanned string, with their hashes. */
export class SpanList {
  private data = new Int32Array(384);
  /** Number of spans. */
  count = 0;

  /** Empties the list. */
  clear(): void {
    this.count = 0;
  }

  /** Appends the span `[start, end)` whose code units hash (`tokenHash`) to `hash`. */
  push(start: number, end: number, hash: number): void {
    const at = 3 * this.count;
    if (at + 3 > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[at] = start;
    this.data[at + 1] = end;
    this.data[at + 2] = hash;
    this.count++;
  }

  /** Start of span `k`. */
  start(k: number): number {
    return this.data[3 * k];
  }

  /** End (exclusive) of span `k`. */
  end(k: number): number {
    return this.data[3 * k + 1];
  }

  /** `tokenHash` of span `k`. */
  hash(k: number): number {
    return this.data[3 * k + 2];
  }
}

/** ASCII [A-Za-z0-9]. */
export function isAsciiAlnum(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a);
}

const KELVIN = 0x212a;
const CAPITAL_I_DOT = 0x130;

/** Appends the rouge155 token spans of `text` (runs of ASCII [A-Za-z0-9]) to `spans`. */
export function scanRouge155(text: string, spans: SpanList): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (!isAsciiAlnum(c)) {
      i++;
      continue;
    }
    const start = i;
    let h = FNV_OFFSET;
    do {
      h = Math.imul(h ^ c, FNV_PRIME);
      if (++i === n) break;
      c = text.charCodeAt(i);
    } while (isAsciiAlnum(c));
    spans.push(start, i, hashFinish(h));
  }
}

/** Appends the rouge-score token spans of `text` (see the module comment for U+212A and U+0130) to `spans`. */
export function scanRougeScore(text: string, spans: SpanList): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (!isAsciiAlnum(c) && c !== KELVIN && c !== CAPITAL_I_DOT) {
      i++;
      continue;
    }
    const start = i;
    let h = FNV_OFFSET;
    for (;;) {
      h = Math.imul(h ^ c, FNV_PRIME);
      i++;
      // U+0130 lowercases to `i` + U+0307: its `i` belongs to the run, the combining dot ends it.
      if (c === CAPITAL_I_DOT || i === n) break;
      c = text.charCodeAt(i);
      if (!isAsciiAlnum(c) && c !== KELVIN && c !== CAPITAL_I_DOT) break;
    }
    spans.push(start, i, hashFinish(h));
  }
}

/**
 * Appends the rouge-unicode token spans of `text` to `spans` and returns the string they index: `text` itself when
 * it is ASCII (its tokens are the runs of [A-Za-z0-9]; lowercasing is left to the caller), else `pyLower(text)`.
 */
export function scanRougeUnicode(text: string, spans: SpanList): string {
  const n = text.length;
  let ascii = true;
  for (let i = 0; i < n; i++) {
    if (text.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    scanRouge155(text, spans);
    return text;
  }
  const s = pyLower(text);
  const m = s.length;
  let i = 0;
  while (i < m) {
    const cp = s.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (!isWordCodePoint(cp)) {
      i += width;
      continue;
    }
    const start = i;
    i += width;
    while (i < m) {
      const next = s.codePointAt(i)!;
      if (!isWordCodePoint(next)) break;
      i += next > 0xffff ? 2 : 1;
    }
    let h = FNV_OFFSET;
    for (let k = start; k < i; k++) h = Math.imul(h ^ s.charCodeAt(k), FNV_PRIME);
    spans.push(start, i, hashFinish(h));
  }
  return s;
}

/**
 * The lowercase form of the token `s[start, end)` found by one of the scanners: A–Z lowered, and (only the
 * rouge-score scanner lets them into a token) U+212A → `k`, U+0130 → `i`. Other characters are already lowercase.
 */
export function foldToken(s: string, start: number, end: number): string {
  let plain = true;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x41 && c <= 0x5a) || c === KELVIN || c === CAPITAL_I_DOT) {
      plain = false;
      break;
    }
  }
  if (plain) return s.slice(start, end);
  let out = '';
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    out += c >= 0x41 && c <= 0x5a ? String.fromCharCode(c | 0x20) : c === KELVIN ? 'k' : c === CAPITAL_I_DOT ? 'i' : s[i];
  }
  return out;
}
