/**
 * The tokenizers of the n-best fast path, each applied to one space-separated chunk of a line at a time (see
 * ./chunk-memo.ts). Each one is a metric's own tokenizer, not a re-implementation: the ROUGE tokenizers through
 * their interner, jiwer's word split and Python's `str.split()` through the edit metrics' scanners (after Python's
 * `str.lower()` for the metrics' lowercase setting). Cutting a line
 * at U+0020 and tokenizing the pieces gives the tokens of the whole line for each of them (test/nbest-fast-
 * tokenizers.test.ts checks it on random lines): the ROUGE scanners keep only runs of ASCII letters and digits
 * (U+212A, U+0130 included), so a space always ends a token; Python's split breaks at any whitespace; jiwer breaks
 * at a space, at any run of two or more whitespace characters and at the ends, so whitespace next to a cut space
 * separates in the whole line exactly as stripping does in the piece.
 */
import { CsrBuilder } from '../../../text/csr.js';
import { scanJiwerWords, scanPythonWords } from '../../../metrics/edit/words.js';
import { tokenHash, Vocabulary } from '../../../text/intern.js';
import { pyLower } from '../../../text/pystr.js';
import { RougeInterner, type RougeTokenizerName } from '../../../text/rouge/index.js';
import { TokenBounds } from '../../../text/tokenizers/index.js';
import type { IntList } from './int-list.js';

/** A tokenizer of chunks: appends the token ids of a chunk (ids of its own vocabulary) to `out`. */
export interface ChunkTokenizer {
  /** Equal keys = the same tokens (metrics with equal keys share one memo). */
  readonly key: string;
  /** Whether a chunk is exactly one token whose id is the chunk's own (the memo then writes chunk ids directly). */
  readonly chunkIds?: boolean;
  /** Appends the ids of the tokens of `chunk`. */
  tokenize(chunk: string, out: IntList): void;
}

/** A ROUGE tokenizer (`rouge155`, `rouge-score`) with its stopword and stemming settings. */
export function rougeChunkTokenizer(tokenizer: RougeTokenizerName, stem: boolean, removeStopwords: boolean): ChunkTokenizer {
  const interner = new RougeInterner({ tokenizer, stem, removeStopwords }, new Vocabulary());
  return {
    key: `rouge|${tokenizer}|${stem}|${removeStopwords}`,
    tokenize(chunk, out) {
      // Once per distinct chunk of a task: a small builder is cheap there.
      const row = new CsrBuilder(16, 1);
      const n = interner.appendIds(chunk, row);
      if (n > 0) {
        row.endRow();
        const { tokens } = row.finish();
        for (let k = 0; k < n; k++) out.push(tokens[k]);
      }
    },
  };
}

/**
 * Moses' split (U+0020 only, empty pieces dropped): a chunk is one token, and its id is the chunk's own
 * (`chunkIds`: the memo writes chunk ids; `tokenize` gives the same ids when the tokenizer is used on its own, as
 * the memo asks each new chunk once and in order, and a fresh vocabulary numbers them as the chunk table does).
 */
export function spaceChunkTokenizer(): ChunkTokenizer {
  const vocabulary = new Vocabulary();
  return {
    key: 'space',
    chunkIds: true,
    tokenize(chunk, out) {
      if (chunk.length > 0) out.push(vocabulary.id(chunk));
    },
  };
}

/**
 * A word split of the edit metrics: `jiwer` (jiwer's default transform) or `none` (Python's `str.split()`), after
 * Python's `str.lower()` when `lowercase` (the metrics lowercase the whole line before splitting it, see
 * `bleuScan`; lowering a chunk gives the same text because the one context rule of `str.lower()`, Final_Sigma,
 * looks past case-ignorable characters only, and U+0020 is neither case-ignorable nor cased, so a cut space ends
 * the context on both sides; no lowercase mapping yields or removes whitespace).
 */
export function wordChunkTokenizer(split: 'jiwer' | 'none', lowercase = false): ChunkTokenizer {
  const scan = split === 'jiwer' ? scanJiwerWords : scanPythonWords;
  const bounds = new TokenBounds();
  const vocabulary = new Vocabulary();
  return {
    key: wordChunkKey(split, lowercase),
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

/** The memo key of {@link wordChunkTokenizer}: tokenizers with equal keys give equal tokens. */
export function wordChunkKey(split: 'jiwer' | 'none', lowercase: boolean): string {
  return lowercase ? `words|${split}|lc` : `words|${split}`;
}
