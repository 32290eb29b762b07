/** How GTM's settings become an instance: the code ./descriptor.ts imports only when a run names it. */
import { cliMetric, type MetricFactory } from '../descriptor.js';
import type { GtmSettings } from './settings.js';
import { Gtm } from './gtm.js';

/** GTM with its settings. */
export const createGtm: MetricFactory<GtmSettings> = (_id, settings) => cliMetric(new Gtm({ ...settings }));
