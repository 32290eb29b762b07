/** How chrF's settings become an instance: the code ./descriptor.ts imports only when a run names it. */
import { cliMetric, type MetricFactory } from '../descriptor.js';
import { Chrf } from './chrf.js';
import type { ChrfSettings } from './settings.js';

/** chrF with its settings. */
export const createChrf: MetricFactory<ChrfSettings> = (_id, settings) => cliMetric(new Chrf({ ...settings }));
