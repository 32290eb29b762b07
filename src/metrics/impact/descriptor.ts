/** IMPACT as `-m impact` names it; its settings and flags are the NP-chunk metric's (../npchunk/descriptor.ts). */
import { lazyImplementation, roundedFields, type MetricDescriptor } from '../descriptor.js';
import { NPCHUNK_FLAGS, readNpChunkSettings, type NpChunkSettings } from '../npchunk/descriptor.js';

/** IMPACT's class, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<NpChunkSettings>('impact', async () => (await import('./factory.js')).createImpact);

/**
 * IMPACT: higher is better, the corpus score the mean of the sentence scores (0..1), 4 decimals, with the mean
 * precision and recall in JSON.
 */
export const IMPACT_DESCRIPTOR: MetricDescriptor<NpChunkSettings, 'npchunk'> = {
  id: 'impact',
  aliases: [],
  family: null,
  scoreName: 'IMPACT',
  direction: 'higher',
  reduction: () => 'mean',
  wholeReference: false,
  sentenceLevelSame: true,
  jsonFields: roundedFields('precision', 'recall'),
  defaultWidth: 4,
  settingsKey: 'npchunk',
  options: [
    { setting: 'alpha', flag: 'impactAlpha', default: { value: 0.1 } },
    { setting: 'beta', flag: 'impactBeta', default: { value: 1.1 } },
    { setting: 'rounds', flag: 'impactRounds', default: { text: 'until no common word is left' } },
    { setting: 'lowercase', flag: 'impactLowercase', default: { value: false } },
  ],
  flags: NPCHUNK_FLAGS,
  readSettings: readNpChunkSettings,
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
