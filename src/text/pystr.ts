/**
 * Python 3.11 `str` functions that tokenizers and metrics depend on: `split()`, `strip()`, `rstrip()`,
 * `' '.join(s.split())` and `lower()`. JavaScript's own `trim()`/`split(/\s+/)`/`toLowerCase()` use other
 * whitespace sets and the runtime's Unicode version, so each oracle-visible difference is reproduced here.
 * Python's `str` data is Unicode 14.0.0; the tables live in `./unicode/`.
 */
import { isPyWhitespace } from './unicode/whitespace.js';
import { pyLowerUnicode } from './unicode/lower.js';

/** Python's `str.isspace()` on one UTF-16 code unit (re-exported for scanners that split on Python whitespace). */
export { isPyWhitespace } from './unicode/whitespace.js';

/**
 * Python `s.split()` (no argument): the maximal runs of non-whitespace, whitespace being Python's
 * `str.isspace()` set (Unicode 14.0: includes U+001C–U+001F, U+0085, U+00A0; excludes U+200B, U+FEFF, U+180E).
 */
export function pySplit(s: string): string[] {
  const out: string[] = [];
  const n = s.length;
  let i = 0;
  while (i < n) {
    while (i < n && isPyWhitespace(s.charCodeAt(i))) i++;
    if (i === n) break;
    const start = i;
    while (i < n && !isPyWhitespace(s.charCodeAt(i))) i++;
    out.push(s.slice(start, i));
  }
  return out;
}

/** Python `s.strip()` (no argument): removes leading and trailing Python whitespace. */
export function pyStrip(s: string): string {
  let end = s.length;
  while (end > 0 && isPyWhitespace(s.charCodeAt(end - 1))) end--;
  let start = 0;
  while (start < end && isPyWhitespace(s.charCodeAt(start))) start++;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Python `s.rstrip()` (no argument): removes trailing Python whitespace. */
export function pyRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && isPyWhitespace(s.charCodeAt(end - 1))) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** Python `s.lstrip()` (no argument): removes leading Python whitespace. */
export function pyLstrip(s: string): string {
  let start = 0;
  const n = s.length;
  while (start < n && isPyWhitespace(s.charCodeAt(start))) start++;
  return start === 0 ? s : s.slice(start);
}

/**
 * Python `' '.join(s.split())`: Python-whitespace runs collapsed to one ASCII space, ends trimmed.
 * Returns `s` itself (no copy) when it is already in that form, the common case for tokenizer output.
 */
export function pyJoinSplit(s: string): string {
  const n = s.length;
  // Fast check: already normalised (no leading/trailing separator, single ASCII spaces only).
  let clean = n === 0 || (s.charCodeAt(0) !== 32 && s.charCodeAt(n - 1) !== 32);
  if (clean) {
    let prevSpace = false;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === 32) {
        if (prevSpace) {
          clean = false;
          break;
        }
        prevSpace = true;
      } else {
        if (isPyWhitespace(c)) {
          clean = false;
          break;
        }
        prevSpace = false;
      }
    }
  }
  return clean ? s : pySplit(s).join(' ');
}

/**
 * Python `s.lower()` (Unicode 14.0.0): full lowercase mappings (so `İ` → `i̇`, two code points) and the
 * context-sensitive final sigma (`Σ` → `ς` at the end of a cased word, else `σ`), not the runtime's tables.
 */
export function pyLower(s: string): string {
  const n = s.length;
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) >= 0x80) return pyLowerUnicode(s);
  return s.toLowerCase(); // ASCII: identical to Python (only A–Z change)
}
