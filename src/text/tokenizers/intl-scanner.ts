/**
 * A code-point scanner that computes exactly what sacrebleu's `intl` regexes compute, in one pass.
 *
 * The three substitutions only insert spaces, so the result is fixed by where token boundaries fall:
 * - Python whitespace ends a token; a symbol (\p{S}) is always a token of its own.
 * - In a maximal run of punctuation (\p{P}) every member but the last is a token of its own: `(\P{N})(\p{P})`
 *   splits the odd-numbered members when the run follows a non-number, the even-numbered ones when it follows a
 *   number or the start of the line (each match consumes the character after it, so a run alternates), and
 *   `(\p{P})(\P{N})` then splits every member followed by a non-number. The last member stays glued to its
 *   neighbours only when the first rule skipped it and a number or the end of the line follows it.
 * These are the rules of the 13a regex stage (see regexp-post-scanner.ts) with \p{P} for `[.,]`, \p{N} for
 * `[0-9]`, \p{S} for the always-split set and no padding. Classes come from the Unicode 15.0 tables.
 * `test/text-intl-scanner.test.ts` checks the scanner against the regex version.
 */
import { NUMBER_15, PUNCTUATION_15, SYMBOL_15 } from '../unicode/categories-15.js';
import { inRangeList, rangeListToBitmap } from '../unicode/range-list.js';
import { isPyWhitespace } from '../unicode/whitespace.js';
import { TokenBounds } from './token-bounds.js';

const P = 1;
const S = 2;
const N = 4;
const WS = 8;

/**
 * Class bits of every BMP code point, built on the first scan: building it walks 64k code points, which a process
 * that never tokenizes with `intl` should not pay for at start-up.
 */
let BMP: Uint8Array = new Uint8Array(0);

function buildBmpClasses(): Uint8Array {
  const table = new Uint8Array(0x10000);
  for (const [list, bit] of [
    [PUNCTUATION_15, P],
    [SYMBOL_15, S],
    [NUMBER_15, N],
  ] as const) {
    const map = rangeListToBitmap(list, 0x10000);
    for (let c = 0; c < 0x10000; c++) if (map[c] === 1) table[c] |= bit;
  }
  for (let c = 0; c < 0x10000; c++) if (isPyWhitespace(c)) table[c] |= WS;
  return table;
}

function classOf(cp: number): number {
  if (cp < 0x10000) return BMP[cp];
  if (inRangeList(PUNCTUATION_15, cp)) return P;
  if (inRangeList(SYMBOL_15, cp)) return S;
  return inRangeList(NUMBER_15, cp) ? N : 0;
}

/** The code point at `i` (a lone surrogate stands for itself, as Python would see it). */
function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const lo = s.charCodeAt(i + 1);
    if ((lo & 0xfc00) === 0xdc00) return ((c - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
  }
  return c;
}

/** The code point that ends just before `i`. */
function codePointBefore(s: string, i: number): number {
  const lo = s.charCodeAt(i - 1);
  if ((lo & 0xfc00) === 0xdc00 && i >= 2) {
    const hi = s.charCodeAt(i - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return ((hi - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
  }
  return lo;
}

/** Fills `tokens` with the bounds of the tokens of sacrebleu's `intl` tokenization of `s`. */
export function intlBounds(s: string, tokens: TokenBounds): void {
  if (BMP.length === 0) BMP = buildBmpClasses();
  tokens.clear();
  const n = s.length;
  let start = -1;
  let i = 0;
  while (i < n) {
    const cp = codePointAt(s, i);
    const width = cp >= 0x10000 ? 2 : 1;
    const cls = classOf(cp);
    if ((cls & (P | S | WS)) === 0) {
      if (start < 0) start = i;
      i += width;
    } else if (cls & P) {
      // The run of punctuation: [i, runEnd), its last member starting at `last`.
      let last = i;
      let runEnd = i + width;
      let length = 1;
      while (runEnd < n) {
        const next = codePointAt(s, runEnd);
        if ((classOf(next) & P) === 0) break;
        last = runEnd;
        runEnd += next >= 0x10000 ? 2 : 1;
        length++;
      }
      const afterNumberOrStart = i === 0 || (classOf(codePointBefore(s, i)) & N) !== 0;
      const beforeNumberOrEnd = runEnd === n || (classOf(codePointAt(s, runEnd)) & N) !== 0;
      const splitByFirstRule = afterNumberOrStart ? (length & 1) === 0 : (length & 1) === 1;
      const lastGlued = !splitByFirstRule && beforeNumberOrEnd;
      if (last > i || !lastGlued) {
        if (start >= 0) tokens.push(start, i);
        start = -1;
        for (let k = i; k < last; ) {
          const w = codePointAt(s, k) >= 0x10000 ? 2 : 1;
          tokens.push(k, k + w);
          k += w;
        }
      }
      if (!lastGlued) tokens.push(last, runEnd);
      else if (start < 0) start = last;
      i = runEnd;
    } else {
      if (start >= 0) tokens.push(start, i);
      start = -1;
      if ((cls & WS) === 0) tokens.push(i, i + width); // a symbol
      i += width;
    }
  }
  if (start >= 0) tokens.push(start, n);
}

/** sacrebleu's `intl` tokenization of `line`, computed by the scanner. */
export function intlScan(line: string): string {
  intlBounds(line, shared);
  return shared.join(line);
}

const shared = new TokenBounds();
