/**
 * The NP-chunk metric as `-m npchunk` names it, and the flags it shares with IMPACT (../impact/descriptor.ts):
 * one table of settings and flags for both, as one `--impact-*` flag sets the parameter they share.
 */
import { CHUNKER_NAMES, DEFAULT_CHUNKER } from '../../text/chunk/index.js';
import type { OptionSpec } from '../../util/option-spec.js';
import { lazyImplementation, type FlagValues, type MetricDescriptor } from '../descriptor.js';
export type { NpChunkSettings } from './settings.js';
import type { NpChunkSettings } from './settings.js';

const NPCHUNK = 'IMPACT and NP-chunk metric (Palette; -m impact npchunk, seed 003)';

/** The flags of IMPACT and the NP-chunk metric (one table: the two share their parameters). */
export const NPCHUNK_FLAGS: readonly OptionSpec[] = [
  { key: 'chunker', names: ['--chunker'], arity: 'one', metavar: 'NAME', group: NPCHUNK,
    help: `noun-phrase chunker of -m npchunk: ${CHUNKER_NAMES.join(', ')} (pre-chunked [NP ... ] input) ` +
      `(default: ${DEFAULT_CHUNKER})` },
  { key: 'impactAlpha', names: ['--impact-alpha'], arity: 'one', metavar: 'A', group: NPCHUNK,
    help: 'weight A^i of common-part round i, 0..1 (default: 0.1)' },
  { key: 'impactBeta', names: ['--impact-beta'], arity: 'one', metavar: 'B', group: NPCHUNK,
    help: 'length weighting of common parts, >= 1 (default: 1.1)' },
  { key: 'impactRounds', names: ['--impact-rounds'], arity: 'one', metavar: 'RN', group: NPCHUNK,
    help: 'last round counted, 0-based (default: until no common word is left)' },
  { key: 'impactLowercase', names: ['--impact-lowercase'], arity: 'flag', group: NPCHUNK,
    help: 'case-insensitive IMPACT and NP-chunk metric (words lowercased after chunking)' },
  { key: 'npchunkDelta', names: ['--npchunk-delta'], arity: 'one', metavar: 'D', group: NPCHUNK,
    help: 'weight of the phrase-level score, >= 0: (word + D*phrase)/(1 + D) (default: 0.3)' },
];

/** The settings of IMPACT and the NP-chunk metric from their flags. */
export function readNpChunkSettings(f: FlagValues): NpChunkSettings {
  return {
    chunker: f.choice('chunker', '--chunker', CHUNKER_NAMES),
    alpha: f.number('impactAlpha', '--impact-alpha', 'a number from 0 to 1', (x) => x >= 0 && x <= 1),
    beta: f.number('impactBeta', '--impact-beta', 'a number >= 1', (x) => x >= 1),
    rounds: f.int('impactRounds', '--impact-rounds', 0),
    delta: f.number('npchunkDelta', '--npchunk-delta', 'a number >= 0', (x) => x >= 0),
    lowercase: f.flag('impactLowercase'),
  };
}

/** the NP-chunk metric's class, imported when a run first names it. */
const IMPLEMENTATION = lazyImplementation<NpChunkSettings>('npchunk', async () => (await import('./factory.js')).createNpChunk);

/** The NP-chunk metric: higher is better, the corpus score the mean of the sentence scores (0..1), 4 decimals. */
export const NPCHUNK_DESCRIPTOR: MetricDescriptor<NpChunkSettings, 'npchunk'> = {
  id: 'npchunk',
  aliases: [],
  family: null,
  scoreName: 'NPCHUNK',
  direction: 'higher',
  reduction: () => 'mean',
  wholeReference: false,
  sentenceLevelSame: true,
  jsonFields: [],
  defaultWidth: 4,
  settingsKey: 'npchunk',
  options: [
    { setting: 'chunker', flag: 'chunker', default: { value: DEFAULT_CHUNKER } },
    { setting: 'alpha', flag: 'impactAlpha', default: { value: 0.1 } },
    { setting: 'beta', flag: 'impactBeta', default: { value: 1.1 } },
    { setting: 'rounds', flag: 'impactRounds', default: { text: 'until no common word is left' } },
    { setting: 'delta', flag: 'npchunkDelta', default: { value: 0.3 } },
    { setting: 'lowercase', flag: 'impactLowercase', default: { value: false } },
  ],
  flags: NPCHUNK_FLAGS,
  readSettings: readNpChunkSettings,
  implementation: IMPLEMENTATION,
  create: IMPLEMENTATION.create,
};
