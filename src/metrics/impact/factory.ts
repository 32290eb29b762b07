/** How IMPACT's settings become an instance: the code ./descriptor.ts imports only when a run names IMPACT. */
import { cliMetric, type MetricFactory } from '../descriptor.js';
import type { NpChunkSettings } from '../npchunk/settings.js';
import { Impact } from './impact.js';

/** IMPACT with its settings (the NP-chunk metric's field holds them; IMPACT reads its own four). */
export const createImpact: MetricFactory<NpChunkSettings> = (_id, settings) => {
  const { alpha, beta, rounds, lowercase } = settings;
  return cliMetric(new Impact({ alpha, beta, rounds, lowercase }));
};
