/**
 * The token stage of the word-level edit metrics (WER, PER) under the word splits whose words a line's
 * space-separated chunks give one chunk at a time (../token-stage.ts): jiwer's and Python's `str.split()`, each
 * after Python's `str.lower()` for the metrics' lowercase setting. The other splits (sacrebleu tokenizers, then
 * the split) read across spaces and keep the metrics' text path.
 *
 * Lowercasing a chunk gives the text lowercasing the whole line gives there: the one context rule of `str.lower()`,
 * Final_Sigma, looks past case-ignorable characters only, and U+0020 is neither case-ignorable nor cased, so a cut
 * space ends the context on both sides; no lowercase mapping yields or removes whitespace.
 */
import { tokenHash, Vocabulary } from '../../text/intern.js';
import { pyLower } from '../../text/pystr.js';
import { TokenBounds } from '../../text/tokenizers/index.js';
import type { ChunkTokenizer, TokenStage } from '../token-stage.js';
import { scanJiwerWords, scanPythonWords, type EditTokenizer } from './words.js';

/** The word splits with a chunk tokenizer: `jiwer` or `none` (Python's `str.split()`). */
export type ChunkWordSplit = 'jiwer' | 'none';

/** A word split of the edit metrics as a chunk tokenizer (see the file comment). */
export function wordChunkTokenizer(split: ChunkWordSplit, lowercase = false): ChunkTokenizer {
  const scan = split === 'jiwer' ? scanJiwerWords : scanPythonWords;
  const bounds = new TokenBounds();
  const vocabulary = new Vocabulary();
  return {
    tokenize(chunk, out) {
      const text = lowercase ? pyLower(chunk) : chunk;
      scan(text, bounds);
      for (let k = 0; k < bounds.count; k++) {
        const start = bounds.start(k);
        const end = bounds.end(k);
        out.push(vocabulary.idOfRange(text, start, end, tokenHash(text, start, end)));
      }
    },
  };
}

/**
 * The token stage of an edit metric whose rows `writeRows` writes from its words, or undefined for a word split
 * without a chunk tokenizer.
 */
export function wordTokenStage(
  tokenize: EditTokenizer,
  lowercase: boolean,
  writeRows: TokenStage['writeRows'],
): TokenStage | undefined {
  if (tokenize !== 'jiwer' && tokenize !== 'none') return undefined;
  return {
    tokenizerKey: lowercase ? `words|${tokenize}|lc` : `words|${tokenize}`,
    createTokenizer: () => wordChunkTokenizer(tokenize, lowercase),
    writeRows,
  };
}
