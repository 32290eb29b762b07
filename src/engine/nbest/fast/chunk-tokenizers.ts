/**
 * The chunk tokenizer the memo (./chunk-memo.ts) runs: declared with the token stage of the metrics
 * (../../../metrics/token-stage.ts), which also says why tokenizing a line chunk by chunk gives its tokens.
 */
export type { ChunkTokenizer } from '../../../metrics/token-stage.js';
