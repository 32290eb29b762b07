/** How RIBES's settings become an instance: the code ./descriptor.ts imports only when a run names it. */
import { cliMetric, type MetricFactory } from '../descriptor.js';
import { Ribes, type RibesOptions } from './ribes.js';

/** RIBES with its settings. */
export const createRibes: MetricFactory<RibesOptions> = (_id, settings) => cliMetric(new Ribes(settings));
