/** How the NP-chunk metric's settings become an instance: the code ./descriptor.ts imports only when a run names it. */
import { cliMetric, type MetricFactory } from '../descriptor.js';
import type { NpChunkSettings } from './settings.js';
import { NpChunk } from './npchunk.js';

/** the NP-chunk metric with its settings. */
export const createNpChunk: MetricFactory<NpChunkSettings> = (_id, settings) => cliMetric(new NpChunk({ ...settings }));
