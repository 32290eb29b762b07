/**
 * The Node adapter: reading files and standard input (lines, streamed batches, n-best lists, score tables,
 * paraphrase tables), ORANGE over n-best files on worker threads, and the WebAssembly kernels read from `build/`.
 * Importing it installs the adapter into the core (./install.ts).
 */
import './install.js';

export { readLines, readStreamLines } from './read-lines.js';
export { readLineBatches } from './read-line-batches.js';
export { readTsvColumnBatches, type TsvOptions } from './tsv.js';
export { readJsonlFieldBatches, type JsonlOptions } from './jsonl.js';
export { readNbestBatches } from './nbest.js';
/** Raw chunks of whole segments of an n-best list (what the `palette nbest` workers parse). */
export { readSegmentChunks } from './segment-chunks.js';
export { readScoreTable } from './score-table.js';
export { loadParaphraseTable } from '../text/paraphrase/load-table.js';
export { evaluateOrange, readOrangeReferences, type OrangeRun, type OrangeTerms } from './orange/evaluate.js';
