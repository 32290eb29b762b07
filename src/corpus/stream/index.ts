/** Streaming readers: line batches of any file size in bounded memory, and TSV/JSONL columns on top of them. */
export { batchLine, batchLines, type LineBatch } from './line-batch.js';
export { readLineBatches, DEFAULT_CHUNK_SIZE, DEFAULT_MAX_LINES, type LineStreamOptions } from './read-line-batches.js';
export { readJsonlFieldBatches, type JsonlOptions } from './jsonl.js';
export { readTsvColumnBatches, type TsvOptions } from './tsv.js';
export type { StringBatch } from './string-batch.js';
