/**
 * Python's `str.isspace()` set (Unicode 14.0.0): bidirectional class WS, B or S, or general category Zs.
 * Every one of these is a BMP code point, so UTF-16 code units can be tested directly.
 */

/** True when the UTF-16 code unit `c` is whitespace for Python's `str.split()`/`strip()`. */
export function isPyWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}
