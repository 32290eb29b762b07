/**
 * Tokenizer registry. A tokenizer maps one line to a string of tokens joined by single ASCII spaces, exactly as
 * sacrebleu's tokenizer of the same name returns it (BLEU additionally right-strips the line first).
 */

/** A line tokenizer. */
export type Tokenizer = (line: string) => string;

/** Names accepted by `-tok`. */
export const TOKENIZER_NAMES = ['13a', 'intl', 'zh', 'zh-fixed', 'char', 'none'] as const;
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];
