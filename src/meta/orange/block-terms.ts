/**
 * One block of sentences from candidate texts to per-sentence ORANGE terms: the leave-one-out scores of every
 * variant (./scorer.ts) ranked at once (./orange.ts). The unit of work of the in-thread run and of a pool task
 * alike, so both give the same terms.
 */
import { orangeSentenceTerms } from './orange.js';
import type { OrangeScorer } from './scorer.js';
import { lowerIsBetter } from './variants.js';

/** A block of whole sentences. */
export interface OrangeBlock {
  /** Sentence ids, ascending. */
  readonly sentences: Int32Array;
  /** Candidate texts, sentence after sentence. */
  readonly candidates: readonly string[];
  /** `sentences.length + 1` offsets into `candidates`. */
  readonly candidateOffsets: Int32Array;
  /** The n-best line of each candidate (for messages), when known. */
  readonly candidateLines?: Int32Array;
}

/** Per variant (the scorer's order), the terms avgRank(references) / (N + 1) of the block's sentences. */
export function blockTerms(scorer: OrangeScorer, block: OrangeBlock): Float64Array[] {
  const { sentences, candidates, candidateOffsets } = block;
  const u = scorer.u;
  const scores = scorer.scoreBlock(sentences, candidates, candidateOffsets, block.candidateLines);
  const referenceOffsets = new Int32Array(sentences.length + 1);
  for (let i = 0; i <= sentences.length; i++) referenceOffsets[i] = i * u;
  return scorer.variants.map((v, i) =>
    orangeSentenceTerms(
      { candidates: scores.candidates[i], candidateOffsets, references: scores.references[i], referenceOffsets },
      lowerIsBetter(v) ? 'lower' : 'higher',
    ),
  );
}
