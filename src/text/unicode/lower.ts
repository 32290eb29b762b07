/**
 * Python 3.11's `str.lower()` for non-ASCII text, on Unicode 14.0.0 tables (never the runtime's ICU):
 * SpecialCasing's unconditional full mappings (U+0130 → `i̇`), simple mappings otherwise, and the
 * Final_Sigma rule for U+03A3 exactly as CPython applies it (`\p{Cased}\p{Case_Ignorable}*Σ` not followed by
 * `\p{Case_Ignorable}*\p{Cased}`).
 */
import { CASED_14, CASE_IGNORABLE_14, LOWER_RUNS_14, LOWER_SPECIAL_14 } from './lowercase-14.js';
import { inRangeList } from './range-list.js';

const CAPITAL_SIGMA = 0x3a3;

let bmpLower: Uint16Array | undefined;
let astralLower: Map<number, number> | undefined;
let specialLower: Map<number, string> | undefined;

// Built on first use so that programs which never lowercase pay nothing.
function buildTables(): Uint16Array {
  const bmp = new Uint16Array(0x10000);
  for (let c = 0; c < 0x10000; c++) bmp[c] = c;
  const astral = new Map<number, number>();
  for (let i = 0; i < LOWER_RUNS_14.length; i += 4) {
    const [start, end, delta, stride] = LOWER_RUNS_14.slice(i, i + 4);
    for (let c = start; c <= end; c += stride) {
      const l = c + delta;
      if (c < 0x10000 && l < 0x10000) bmp[c] = l;
      else astral.set(c, l);
    }
  }
  const special = new Map<number, string>();
  for (let i = 0; i < LOWER_SPECIAL_14.length; ) {
    const cp = LOWER_SPECIAL_14[i];
    const len = LOWER_SPECIAL_14[i + 1];
    special.set(cp, String.fromCodePoint(...LOWER_SPECIAL_14.slice(i + 2, i + 2 + len)));
    // A sentinel different from `cp` routes the hot loop to the special map; the generator only emits BMP
    // entries (true of every unconditional SpecialCasing lowercase entry).
    if (cp < 0x10000 && bmp[cp] === cp) bmp[cp] = cp === 0 ? 1 : 0;
    i += 2 + len;
  }
  bmpLower = bmp;
  astralLower = astral;
  specialLower = special;
  return bmp;
}

function codePointBefore(s: string, end: number): number {
  const lo = s.charCodeAt(end - 1);
  if ((lo & 0xfc00) === 0xdc00 && end >= 2) {
    const hi = s.charCodeAt(end - 2);
    if ((hi & 0xfc00) === 0xd800) return ((hi - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
  }
  return lo;
}

/** CPython's `handle_capital_sigma`: whether the Σ at code unit `i` is word-final. */
function isFinalSigma(s: string, i: number): boolean {
  let j = i;
  let cp = -1;
  while (j > 0) {
    cp = codePointBefore(s, j);
    j -= cp >= 0x10000 ? 2 : 1;
    if (!inRangeList(CASE_IGNORABLE_14, cp)) break;
    cp = -1;
  }
  if (cp < 0 || !inRangeList(CASED_14, cp)) return false;
  for (let k = i + 1; k < s.length; ) {
    const next = s.codePointAt(k)!;
    k += next >= 0x10000 ? 2 : 1;
    if (!inRangeList(CASE_IGNORABLE_14, next)) return !inRangeList(CASED_14, next);
  }
  return true;
}

/** Python `lower()` of any string (the caller keeps the pure-ASCII fast path). */
export function pyLowerNonAscii(s: string): string {
  const bmp = bmpLower ?? buildTables();
  const n = s.length;
  let out = '';
  let runStart = 0; // start of the pending run of code units copied unchanged
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    let repl: string | undefined;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      const cp = ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00) + 0x10000;
      const l = astralLower!.get(cp);
      if (l !== undefined) repl = String.fromCodePoint(l);
      if (repl !== undefined) {
        out += s.slice(runStart, i) + repl;
        runStart = i + 2;
      }
      i++;
      continue;
    }
    if (c === CAPITAL_SIGMA) repl = isFinalSigma(s, i) ? '\u03c2' : '\u03c3';
    else if (bmp[c] !== c) repl = specialLower!.get(c) ?? String.fromCharCode(bmp[c]);
    if (repl !== undefined) {
      out += s.slice(runStart, i) + repl;
      runStart = i + 1;
    }
  }
  return runStart === 0 ? s : out + s.slice(runStart);
}
