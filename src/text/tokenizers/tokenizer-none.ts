/** sacrebleu's `none` tokenizer. */

/** Returns the line unchanged (BLEU then splits it on Python whitespace). */
export function tokenizeNone(line: string): string {
  return line;
}
