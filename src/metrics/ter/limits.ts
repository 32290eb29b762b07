/**
 * The search limits of TER's greedy shift search. sacreBLEU takes its shift limits from tercom (block size 10,
 * distance 50) and adds its own candidate budget and its own (position-based) beam.
 */

/** Limits of the shift search and of the beam edit distance. */
export interface TerSearchLimits {
  /** Longest block a shift may move, in words. */
  readonly maxShiftSize: number;
  /** Largest `|refStart - hypStart|` of a matching block that may be shifted. */
  readonly maxShiftDist: number;
  /**
   * Shift candidates whose edit distance is computed, over all rounds of one (hypothesis, reference) pair; when
   * the budget runs out the search stops and the best shift of that round is not applied.
   */
  readonly maxCandidates: number;
  /** Half-width of the band of the edit-distance matrix around its (length-ratio) diagonal. */
  readonly beamWidth: number;
}

/** sacreBLEU 2.6.0's limits (`_MAX_SHIFT_SIZE`, `_MAX_SHIFT_DIST`, `_MAX_SHIFT_CANDIDATES`, `_BEAM_WIDTH`). */
export const SACREBLEU_TER_LIMITS: TerSearchLimits = Object.freeze({
  maxShiftSize: 10,
  maxShiftDist: 50,
  maxCandidates: 1000,
  beamWidth: 25,
});
