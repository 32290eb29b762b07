/** sacrebleu's `none` tokenizer. */
import { isPyWhitespace } from '../unicode/whitespace.js';
import type { TokenBounds } from './token-bounds.js';

/** Returns the line unchanged (BLEU then splits it on Python whitespace). */
export function tokenizeNone(line: string): string {
  return line;
}

/** The `none` tokenizer in scanner form (see `TokenScanner`): the Python-`split()` tokens of the line. */
export function scanNone(line: string, out: TokenBounds): string {
  out.clear();
  const n = line.length;
  let i = 0;
  while (i < n) {
    while (i < n && isPyWhitespace(line.charCodeAt(i))) i++;
    if (i === n) break;
    const start = i;
    while (i < n && !isPyWhitespace(line.charCodeAt(i))) i++;
    out.push(start, i);
  }
  return line;
}
