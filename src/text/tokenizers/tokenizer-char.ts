/** sacrebleu's `char` tokenizer: every code point becomes a token. */
import { isPyWhitespace } from '../unicode/whitespace.js';
import type { TokenBounds } from './token-bounds.js';

/**
 * `' '.join(line)` over Python code points (surrogate pairs stay together; combining marks, ZWJ and the
 * spaces of the line are tokens of their own, so existing spaces become runs that `split()` later drops).
 */
export function tokenizeChar(line: string): string {
  const n = line.length;
  if (n <= 1) return line;
  let out = '';
  let i = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    const width = c >= 0xd800 && c <= 0xdbff && i + 1 < n && (line.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    if (i > 0) out += ' ';
    out += width === 1 ? line[i] : line.slice(i, i + 2);
    i += width;
  }
  return out;
}

/** The `char` tokenizer in scanner form (see `TokenScanner`): every non-whitespace code point of the line. */
export function scanChar(line: string, out: TokenBounds): string {
  out.clear();
  const n = line.length;
  for (let i = 0; i < n; ) {
    const c = line.charCodeAt(i);
    const width = c >= 0xd800 && c <= 0xdbff && i + 1 < n && (line.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    if (!isPyWhitespace(c)) out.push(i, i + width);
    i += width;
  }
  return line;
}
