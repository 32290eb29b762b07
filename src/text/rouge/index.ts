/**
 * The ROUGE text layer: tokenizers (`rouge155`, `rouge-score`, `rouge-unicode`), the stemmers they use (NLTK 3.8's
 * Porter in its three modes; ROUGE-1.5.5's Porter and WordNet 2.0 exception table), the SMART stopword list,
 * ROUGE-1.5.5's `-l`/`-b` length limits and sentence splitting.
 *
 * A summary is prepared as: {@link splitSentences} → (ROUGE-1.5.5 flavor with a limit) {@link truncateRouge155} →
 * one {@link RougeInterner.internLine} row per sentence ({@link internRougeSummary} does all three). ROUGE-N and
 * ROUGE-S read the sentences' tokens back to back (n-grams cross sentence boundaries in ROUGE-1.5.5); ROUGE-L/W read
 * them sentence by sentence. With a `-b` limit, ROUGE-1.5.5 reads the sentences of ROUGE-L/W differently from the
 * rest (`purpose: 'lcs'`), and clips their hits with the `'ngram'` reading's unigram counts.
 *
 * Tokenizers, in one line each (details in ./rouge-scanners.ts):
 * - `rouge155`: ROUGE-1.5.5.pl — maximal runs of ASCII [A-Za-z0-9], lowercased; every non-ASCII character separates.
 * - `rouge-score`: rouge_score 0.1.2 — Python `lower()`, then maximal runs of [a-z0-9].
 * - `rouge-unicode`: Palette's — maximal runs of letters, marks and numbers of any script (Unicode 15.0 L/M/N) of the
 *   Python-lowercased text, so `Straße`, `日本語`, `Σοφία` survive as tokens; stemming touches [a-z0-9] tokens only.
 */
export { nltkPorterStem, NLTK_PORTER_MODES, type NltkPorterMode } from './porter-nltk.js';
export { rouge155PorterStem } from './porter-rouge155.js';
export { rouge155MorphStem, wordnetException, wordnetExceptionCount } from './wordnet-exceptions.js';
export { isSmartStopword, smartStopwords } from './smart-stopwords.js';
export { isWordCodePoint } from './unicode-word.js';
export {
  finishRougeToken,
  isRougeTokenizerName,
  resolveRougeTokenizerOptions,
  ROUGE_TOKENIZER_NAMES,
  RougeInterner,
  rougeTokens,
  type ResolvedRougeTokenizerOptions,
  type RougeTokenizerName,
  type RougeTokenizerOptions,
} from './rouge-tokenizer.js';
export {
  truncateRouge155,
  truncateRouge155Line,
  utf8Length,
  type Rouge155Limit,
  type Rouge155ReadPurpose,
} from './rouge155-truncate.js';
export {
  isMarkupSplit,
  parseSentenceSplit,
  SENTENCE_SPLIT_NAMES,
  sentenceSplitName,
  splitSentences,
  type SentenceSplit,
} from './sentence-split.js';
export {
  internRougeSummary,
  rougeSummarySentences,
  rougeSummaryTokens,
  type RougeSummaryOptions,
} from './summary.js';
