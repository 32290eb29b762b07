/**
 * Moses BLEU's token stage: Moses cuts a line at U+0020 and drops empty pieces, so its tokens are exactly the
 * chunks of a line (../token-stage.ts), and a chunk's number serves as the token id for the candidates and the
 * references alike. Only Moses' own split of the line as given takes it: lowercasing and a `tokenize` name change
 * the text before the split.
 */
import { Vocabulary } from '../../text/intern.js';
import type { ChunkTokenizer, TokenStage } from '../token-stage.js';
import { writeMosesBleuRows, type MosesRefLength } from './moses-rows.js';

/**
 * Moses' split: a chunk is one token, and its id is the chunk's own (`chunkIds`: a memo numbering chunks writes
 * chunk ids; `tokenize` gives the same ids when the tokenizer is used on its own, as a memo asks each new chunk
 * once and in order, and a fresh vocabulary numbers them as the chunk table does).
 */
export function spaceChunkTokenizer(): ChunkTokenizer {
  const vocabulary = new Vocabulary();
  return {
    chunkIds: true,
    tokenize(chunk, out) {
      if (chunk.length > 0) out.push(vocabulary.id(chunk));
    },
  };
}

/** The token stage of Moses BLEU of n-gram order `order` with reference-length strategy `refLength`. */
export function mosesTokenStage(order: number, refLength: MosesRefLength): TokenStage {
  return {
    tokenizerKey: 'space',
    createTokenizer: spaceChunkTokenizer,
    writeRows: (batch, out, column, stride) => writeMosesBleuRows(batch, order, refLength, out, column, stride),
  };
}
