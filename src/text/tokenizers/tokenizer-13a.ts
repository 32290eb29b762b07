/**
 * sacrebleu's default `13a` tokenizer (mteval-v13a.pl): drop `<skipped>`, join `-\n`, turn `\n` into a space,
 * decode four HTML entities, pad, then the shared regex stage.
 */
import { regexpPost } from './regexp-post.js';

/**
 * The `13a` tokenizer as sacrebleu 2.6.0 defines it. Each `replace` is one left-to-right pass like Python's
 * `str.replace`, so `<skip<skipped>ped>` leaves `<skipped>` and `&amp;lt;` becomes `<`.
 */
export function tokenize13aRegex(line: string): string {
  line = line.replaceAll('<skipped>', '');
  line = line.replaceAll('-\n', '');
  line = line.replaceAll('\n', ' ');
  if (line.includes('&')) {
    line = line.replaceAll('&quot;', '"');
    line = line.replaceAll('&amp;', '&');
    line = line.replaceAll('&lt;', '<');
    line = line.replaceAll('&gt;', '>');
  }
  return regexpPost(` ${line} `);
}

/** The `13a` tokenizer (sacrebleu's default for BLEU). */
export function tokenize13a(line: string): string {
  return tokenize13aRegex(line);
}
