/** Non-ASCII part of Python's `str.lower()` (temporary: runtime tables; replaced by generated Unicode 14 tables). */

/** Python `lower()` of a string that contains non-ASCII code units. */
export function pyLowerNonAscii(s: string): string {
  return s.toLowerCase();
}
