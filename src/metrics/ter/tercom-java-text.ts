/**
 * The two `java.lang.String` operations whose edge cases decide tercom 0.10.0's token counts: `trim()` (applied
 * by tercom's Trans-format reader to every segment) and `split("\\s+")` (its final tokenization step).
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
