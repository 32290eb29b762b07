/**
 * The ROUGE tokenizers' names, apart from their code (./rouge-tokenizer.ts), so that the flags that name them and
 * the checks of their values load no stemmer, stopword list or scanner.
 */

/** Names of the ROUGE tokenizers. */
export const ROUGE_TOKENIZER_NAMES = ['rouge155', 'rouge-score', 'rouge-unicode'] as const;

/** One of {@link ROUGE_TOKENIZER_NAMES}. */
export type RougeTokenizerName = (typeof ROUGE_TOKENIZER_NAMES)[number];

/** Whether `name` is one of {@link ROUGE_TOKENIZER_NAMES}. */
export function isRougeTokenizerName(name: string): name is RougeTokenizerName {
  return (ROUGE_TOKENIZER_NAMES as readonly string[]).includes(name);
}
