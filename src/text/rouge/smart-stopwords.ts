/**
 * The SMART stopword list that ROUGE-1.5.5 removes with `-s` (its smart_common_words.txt, shipped in
 * src/resources/). ROUGE compares whole lowercase tokens against the list's lines; entries holding `'` or `.`
 * (`don't`, `e.g.`) can never match a ROUGE token and are kept only for fidelity.
 */
import { SMART_STOPWORDS } from '../../resources/smart-stopwords.js';

let words: Set<string> | undefined;

/** The stopword set (built on first use). */
export function smartStopwords(): ReadonlySet<string> {
  words ??= new Set(SMART_STOPWORDS.flatMap((chunk) => chunk.split(' ')));
  return words;
}

/** Whether `token` is on ROUGE-1.5.5's SMART stopword list (exact, case-sensitive comparison, as ROUGE does). */
export function isSmartStopword(token: string): boolean {
  return smartStopwords().has(token);
}
