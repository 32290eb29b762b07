/**
 * The search limits of TER's greedy shift search. sacreBLEU takes its shift limits from tercom (block size 10,
 * distance 50) and adds its own candidate budget and its own (position-based) beam. The shape of the limits is the
 * kernel's (src/wasm/ter.ts), which the TypeScript search takes too.
 */
import type { TerSearchLimits } from '../../wasm/ter.js';

export type { TerSearchLimits } from '../../wasm/ter.js';

/** sacreBLEU 2.6.0's limits (`_MAX_SHIFT_SIZE`, `_MAX_SHIFT_DIST`, `_MAX_SHIFT_CANDIDATES`, `_BEAM_WIDTH`). */
export const SACREBLEU_TER_LIMITS: TerSearchLimits = Object.freeze({
  maxShiftSize: 10,
  maxShiftDist: 50,
  maxCandidates: 1000,
  beamWidth: 25,
});
