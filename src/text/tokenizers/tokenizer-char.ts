/** sacrebleu's `char` tokenizer: every code point becomes a token. */

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
