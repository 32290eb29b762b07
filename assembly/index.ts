/** Entry point of the WebAssembly kernels: re-exports only, no logic. */
export { heapBase } from './common/memory';
export { tableSlots } from './common/table';
export { ngramTableBytes, planCountTable, planSegmentTables } from './ngram-table';
export { clippedNgramCounts, mosesBleuRows, perReferenceNgramCounts } from './ngram';
export { planDenseScratch } from './ngram-dense';
export { compactNgramWeights, countReferenceNgrams, log2Ratio, ngramWeight } from './ngram-weights';
export { lcsLengths, lcsUnionMasks, planMatchVectors } from './lcs';
export { wlcsPairStats, wlcsUnionMasks, wlcsWeight, wlcsWeightInverse } from './wlcs';
export { planSkipBigramTables, skipBigramCounts } from './skip-bigram';
export { idRange } from './common/rows';
export { editDistances } from './edit';
export { gtmRunStats } from './gtm';
export { terSacrebleuEdits, terScratchBytes } from './ter-sacrebleu';
export { bootstrapSums, pcg64Bools, pcg64Bounded, randomizationSums } from './pcg64';
export {
  memoHash, memoRehash, memoRows1, memoRows2, memoRows3, memoRows4, memoScan, memoTokenCount,
} from './chunk-memo';
export { codePoints, mapIds, utf16Lines, words13a, words13aRehash, wordsSplit } from './words-13a';
export { meteorLines } from './meteor';
export { meteorWordFacts } from './meteor-words';
export { nameTableIntern } from './name-table';
export { countLineFeeds, nbestCandidates, nbestDistinct } from './nbest-lines';
export { mertDots, mertEnvelope, mertEnvelopes } from './mert';
export { msgpackRows } from './msgpack-stats';
export { rowHashes } from './row-hash';
export { perlRound5, rougeFMeasure, rougeRows } from './rouge-rows';
