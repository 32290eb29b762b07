/** How PER's settings become an instance: the code ./descriptor.ts imports only when a run names it. */
import { cliMetric, type MetricFactory } from '../descriptor.js';
import type { EditSettings } from '../edit/settings.js';
import { Per } from './per.js';

/** PER with its settings. */
export const createPer: MetricFactory<EditSettings> = (_id, settings) => cliMetric(new Per({ ...settings }));
