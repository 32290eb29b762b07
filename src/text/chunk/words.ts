/**
 * Word boundaries of a line as the NP-chunk metric reads it: maximal runs of non-whitespace (Python `str.split()`,
 * the same split the metric's interning uses), so a chunker's word indices and the metric's tokens agree.
 */
import { isPyWhitespace } from '../pystr.js';

/**
 * The `[start, end)` code-unit bounds of every word of `line`, flat (`[s0, e0, s1, e1, …]`).
 */
export function wordBounds(line: string): Int32Array {
  const bounds: number[] = [];
  const n = line.length;
  let i = 0;
  while (i < n) {
    while (i < n && isPyWhitespace(line.charCodeAt(i))) i++;
    if (i === n) break;
    const start = i;
    while (i < n && !isPyWhitespace(line.charCodeAt(i))) i++;
    bounds.push(start, i);
  }
  return Int32Array.from(bounds);
}
