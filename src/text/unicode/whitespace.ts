/**
 * Python's `str.isspace()` test (Unicode 14.0.0), from the generated table. Every Python whitespace code
 * point is in the BMP, so UTF-16 code units can be tested directly, surrogates never match.
 */
import { rangeListToBitmap } from './range-list.js';
import { WHITESPACE_14 } from './whitespace-14.js';

const LIMIT = WHITESPACE_14[WHITESPACE_14.length - 1] + 1;
const TABLE = rangeListToBitmap(WHITESPACE_14, LIMIT);

/** True when the UTF-16 code unit `c` is whitespace for Python's `str.split()`/`strip()`. */
export function isPyWhitespace(c: number): boolean {
  return c < LIMIT && TABLE[c] === 1;
}
