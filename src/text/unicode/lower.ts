/**
 * Python 3.11's `str.lower()` on Unicode 14.0.0 tables (never the runtime's ICU): SpecialCasing's
 * unconditional full mappings (U+0130 → `i̇`), simple mappings otherwise, and the Final_Sigma rule for U+03A3
 * exactly as CPython applies it (`\p{Cased}\p{Case_Ignorable}*Σ` not followed by `\p{Case_Ignorable}*\p{Cased}`).
 *
 * Speed: the runtime's `toLowerCase()` maps code point by code point, except for Σ's Final_Sigma context, so on a
 * string made only of BMP code points whose runtime mapping equals the Unicode 14 one (checked once per code
 * point, lazily) it gives exactly Python's result, natively. Any other string (Σ, astral characters, a code
 * point whose mapping changed between Unicode versions) takes the table-driven path.
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

let buffer = new Uint16Array(1024);
const CHUNK = 4096;

/** The string of the first `length` UTF-16 units of `units`, built in pieces (an argument list has a limit). */
export function stringOfUnits(units: Uint16Array, length: number): string {
  let out = '';
  for (let at = 0; at < length; at += CHUNK) {
    out += String.fromCharCode.apply(null, units.subarray(at, Math.min(length, at + CHUNK)) as unknown as number[]);
  }
  return out;
}

/**
 * For each BMP code point, whether the runtime's `toLowerCase()` of it alone equals Unicode 14's mapping: 0 not yet
 * known, 1 agrees, 2 differs. Each code point is checked the first time a string holds it (a corpus meets a few
 * hundred of the 65,536; checking them all up front cost more than lowercasing a whole test set).
 */
const nativeAgrees = new Uint8Array(0x10000);
const AGREES = 1;
const DIFFERS = 2;

/**
 * Unicode 14's lowercase of BMP code unit `c` exactly as the tables of {@link buildTables} give it: its SpecialCasing
 * string, else the simple mapping of the last run that covers it (a mapping outside the BMP leaves the unit as the
 * BMP table has it). Read from the lists when the tables are not built: a corpus meets a few dozen code points, and
 * the tables (65,536 units) are needed only for strings the runtime cannot lowercase. Exported for the test that
 * holds the two readings equal.
 */
export function tableLower(c: number): string {
  if (bmpLower !== undefined) return specialLower!.get(c) ?? String.fromCharCode(bmpLower[c]);
  let special: string | undefined;
  for (let i = 0; i < LOWER_SPECIAL_14.length; ) {
    const len = LOWER_SPECIAL_14[i + 1];
    if (LOWER_SPECIAL_14[i] === c) special = String.fromCodePoint(...LOWER_SPECIAL_14.slice(i + 2, i + 2 + len));
    i += 2 + len;
  }
  if (special !== undefined) return special;
  let l = c;
  for (let i = 0; i < LOWER_RUNS_14.length; i += 4) {
    const start = LOWER_RUNS_14[i];
    const stride = LOWER_RUNS_14[i + 3];
    if (c < start || c > LOWER_RUNS_14[i + 1] || (c - start) % stride !== 0) continue;
    const mapped = c + LOWER_RUNS_14[i + 2];
    if (mapped < 0x10000) l = mapped;
  }
  return String.fromCharCode(l);
}

/** Checks code unit `c` and records the answer in {@link nativeAgrees}. */
function checkNativeAgreement(c: number): number {
  let agrees = false;
  if (!((c >= 0xd800 && c <= 0xdfff) || c === CAPITAL_SIGMA)) {
    agrees = String.fromCharCode(c).toLowerCase() === tableLower(c);
  }
  const state = agrees ? AGREES : DIFFERS;
  nativeAgrees[c] = state;
  return state;
}

/** Python `lower()` of any string. */
export function pyLowerUnicode(s: string): string {
  const agrees = nativeAgrees;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    let state = agrees[c];
    if (state === 0) state = checkNativeAgreement(c);
    if (state === DIFFERS) return pyLowerTables(s);
  }
  return s.toLowerCase();
}

/** Python `lower()` of any string, entirely from our tables. */
export function pyLowerTables(s: string): string {
  const bmp = bmpLower ?? buildTables();
  const n = s.length;
  // Unicode 14 lowercase mappings at most double the length in code units (U+0130 → two units).
  if (buffer.length < 2 * n) buffer = new Uint16Array(2 * n + 16);
  const out = buffer;
  let len = 0;
  let changed = false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      const l = c >= 0x41 && c <= 0x5a ? c + 32 : c;
      if (l !== c) changed = true;
      out[len++] = l;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      const cp = ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00) + 0x10000;
      const l = astralLower!.get(cp);
      if (l === undefined) {
        out[len++] = c;
        out[len++] = s.charCodeAt(i + 1);
      } else {
        changed = true;
        out[len++] = 0xd800 + ((l - 0x10000) >> 10);
        out[len++] = 0xdc00 + ((l - 0x10000) & 0x3ff);
      }
      i++;
      continue;
    }
    if (c === CAPITAL_SIGMA) {
      changed = true;
      out[len++] = isFinalSigma(s, i) ? 0x3c2 : 0x3c3;
      continue;
    }
    const l = bmp[c];
    if (l === c) {
      out[len++] = c;
      continue;
    }
    changed = true;
    const special = specialLower!.get(c);
    if (special === undefined) out[len++] = l;
    else for (let k = 0; k < special.length; k++) out[len++] = special.charCodeAt(k);
  }
  return changed ? stringOfUnits(out, len) : s;
}
