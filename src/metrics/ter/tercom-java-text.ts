/**
 * The `java.lang.String` operations whose edge cases decide tercom 0.10.0's token counts: `trim()` (applied by
 * tercom's Trans-format reader to every segment), `toLowerCase()` (its case folding) and `split("\\s+")` (its
 * final tokenization step).
 *
 * Java's regex `\s` is ASCII-only (`[ \t\n\x0B\f\r]`), so U+00A0 NO-BREAK SPACE and the other Unicode spaces stay
 * inside tokens: the tercom flavor's main difference from sacreBLEU's TER, whose Python `str.split()` splits on
 * them. `split` keeps a leading empty token when the string starts with whitespace and drops trailing empty
 * tokens, and a string without any whitespace (the empty string included) is one token: tercom counts those
 * empty tokens as words, so the quirks are reproduced rather than cleaned up.
 */
import type { TokenBounds } from '../../text/tokenizers/token-bounds.js';

/** Whether a UTF-16 code unit is in Java's regex class `\s` (without `UNICODE_CHARACTER_CLASS`). */
export function isJavaRegexSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/**
 * The code points that the JavaScript runtime lowercases (its Unicode is 15 or later: Node 20 ships 15.1, the
 * machine the table was made on 17.0) and Java 17 — tercom's oracle, OpenJDK 17.0.15, Unicode 13 — leaves alone:
 * case pairs added in Unicode 14 (Glagolitic, Latin, Vithkuqi), 16 (Cyrillic, Latin, Garay) and 17 (Beria
 * Erfe). Found by lowercasing every code point with both (OpenJDK 17.0.15 `toLowerCase(Locale.ROOT)` vs Node's
 * ICU 78.2); case pairs are never removed, so no code point goes the other way.
 */
const NOT_LOWERCASED_BY_JAVA_17 =
  /([\u1c89\u2c2f\ua7c0\ua7cb\ua7cc\ua7ce\ua7d0\ua7d2\ua7d4\ua7d6\ua7d8\ua7da\ua7dc\u{10570}-\u{1057a}\u{1057c}-\u{1058a}\u{1058c}-\u{10592}\u{10594}\u{10595}\u{10d50}-\u{10d65}\u{16ea0}-\u{16eb8}])/u;

/**
 * Java 17's `String.toLowerCase()` in a non-Turkic locale: the runtime's full Unicode lowercasing (special
 * casings, context-sensitive final sigma), except for {@link NOT_LOWERCASED_BY_JAVA_17}, which stay as they are
 * (the text between them is lowercased piece by piece: for Java they are unassigned, neither cased nor
 * case-ignorable).
 *
 * Known difference: whether a capital sigma becomes final `ς` or `σ`. The runtime applies Unicode's Final_Sigma
 * condition (a cased letter before, none after, skipping case-ignorable characters); OpenJDK looks for cased
 * letters within the word around the sigma as its word `BreakIterator` delimits it, so the two disagree when the
 * sigma touches punctuation, digits or symbols inside such a word (`A-Σ`: Java `a-ς`, here `a-σ`; `Σ1Σ`: Java
 * `σ1ς`, here `σ1σ`). A sigma between letters, or ending a word before a space, period or comma, agrees. Not
 * reproduced.
 */
export function javaLowerCase(s: string): string {
  if (!NOT_LOWERCASED_BY_JAVA_17.test(s)) return s.toLowerCase();
  return s
    .split(NOT_LOWERCASED_BY_JAVA_17)
    .map((piece, k) => (k % 2 === 1 ? piece : piece.toLowerCase()))
    .join('');
}

/** `String.trim()`: drops leading and trailing code units up to U+0020 (every C0 control, not only spaces). */
export function javaTrim(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) <= 0x20) end--;
  let start = 0;
  while (start < end && s.charCodeAt(start) <= 0x20) start++;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/**
 * Fills `out` with the bounds of `s.split("\\s+")`'s pieces: `[s]` when `s` has no `\s` at all (so `""` gives
 * one empty token), otherwise the maximal runs of non-`\s`, preceded by an empty token at 0 when `s` starts with
 * `\s` and has some other character (a string of `\s` only gives no token: every piece is a dropped trailing one).
 */
export function javaSplitWhitespace(s: string, out: TokenBounds): void {
  out.clear();
  const n = s.length;
  let i = 0;
  while (i < n && !isJavaRegexSpace(s.charCodeAt(i))) i++;
  if (i === n) {
    out.push(0, n);
    return;
  }
  let leadingEmpty = i === 0;
  if (i > 0) out.push(0, i);
  while (i < n) {
    while (i < n && isJavaRegexSpace(s.charCodeAt(i))) i++;
    if (i === n) break;
    const start = i;
    while (i < n && !isJavaRegexSpace(s.charCodeAt(i))) i++;
    if (leadingEmpty) {
      out.push(0, 0);
      leadingEmpty = false;
    }
    out.push(start, i);
  }
}
