/**
 * One summary through the whole ROUGE text layer: sentence split → (ROUGE-1.5.5 length limit) → tokens of each
 * sentence. The two entry points give token strings or vocabulary ids (one CSR row per sentence).
 */
import type { CsrBuilder } from '../csr.js';
import { truncateRouge155, type Rouge155Limit, type Rouge155ReadPurpose } from './rouge155-truncate.js';
import { rougeTokens, type RougeInterner, type RougeTokenizerOptions } from './rouge-tokenizer.js';
import { splitSentences, type SentenceSplit } from './sentence-split.js';

/** How a summary text becomes sentences. */
export interface RougeSummaryOptions {
  /** Sentence splitting rule (or its name, e.g. `'punct'`, `'marker:<q>'`). @default 'none' */
  readonly split?: SentenceSplit | string;
  /** ROUGE-1.5.5's `-l`/`-b` limit, applied to the sentences before tokenizing. @default no limit */
  readonly limit?: Rouge155Limit;
  /** Which ROUGE-1.5.5 reader the limit imitates (they differ under `-b`). @default 'ngram' */
  readonly purpose?: Rouge155ReadPurpose;
}

/** The sentences of `text` after splitting and the length limit. */
export function rougeSummarySentences(text: string, options: RougeSummaryOptions = {}): string[] {
  const sentences = splitSentences(text, options.split ?? 'none');
  return options.limit === undefined ? sentences : truncateRouge155(sentences, options.limit, options.purpose ?? 'ngram');
}

/** The token strings of each sentence of `text` (a sentence may have none). */
export function rougeSummaryTokens(
  text: string,
  summary: RougeSummaryOptions = {},
  tokenizer: RougeTokenizerOptions = {},
): string[][] {
  return rougeSummarySentences(text, summary).map((s) => rougeTokens(s, tokenizer));
}

/** Appends one CSR row of ids per sentence of `text` to `out`; returns the number of rows (sentences). */
export function internRougeSummary(
  interner: RougeInterner,
  text: string,
  out: CsrBuilder,
  summary: RougeSummaryOptions = {},
): number {
  return interner.internSentences(rougeSummarySentences(text, summary), out);
}
