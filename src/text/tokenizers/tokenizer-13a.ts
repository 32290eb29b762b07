/**
 * sacrebleu's default `13a` tokenizer (mteval-v13a.pl): drop `<skipped>`, join `-\n`, turn `\n` into a space,
 * decode four HTML entities, pad with a space each side, then the shared regex stage.
 */
import { regexpPost } from './regexp-post.js';
import { regexpPostBounds, regexpPostScan } from './regexp-post-scanner.js';
import type { TokenBounds } from './token-bounds.js';

/**
 * The language-independent part of 13a. Each `replaceAll` is one left-to-right pass like Python's
 * `str.replace`, so `<skip<skipped>ped>` leaves `<skipped>` and `&amp;lt;` becomes `<`. Lines without `<`,
 * `\n` or `&` (almost all) are returned untouched without a single replacement pass.
 */
export function normalize13a(line: string): string {
  const hasLt = line.includes('<');
  const hasNl = line.includes('\n');
  const hasAmp = line.includes('&');
  if (!hasLt && !hasNl && !hasAmp) return line;
  if (hasLt) line = line.replaceAll('<skipped>', '');
  if (hasNl) line = line.replaceAll('-\n', '').replaceAll('\n', ' ');
  if (hasAmp) {
    line = line.replaceAll('&quot;', '"');
    line = line.replaceAll('&amp;', '&');
    line = line.replaceAll('&lt;', '<');
    line = line.replaceAll('&gt;', '>');
  }
  return line;
}

/** The `13a` tokenizer through the plain regex pipeline: the reference the fast path is tested against. */
export function tokenize13aRegex(line: string): string {
  line = line.replaceAll('<skipped>', '');
  line = line.replaceAll('-\n', '');
  line = line.replaceAll('\n', ' ');
  line = line.replaceAll('&quot;', '"');
  line = line.replaceAll('&amp;', '&');
  line = line.replaceAll('&lt;', '<');
  line = line.replaceAll('&gt;', '>');
  return regexpPost(` ${line} `);
}

/** The `13a` tokenizer (sacrebleu's default for BLEU), exactly as sacrebleu 2.6.0 computes it. */
export function tokenize13a(line: string): string {
  return regexpPostScan(normalize13a(line), true);
}

/** The `13a` tokenizer in scanner form (see `TokenScanner`): bounds into the normalized line. */
export function scan13a(line: string, out: TokenBounds): string {
  const source = normalize13a(line);
  regexpPostBounds(source, true, out);
  return source;
}
