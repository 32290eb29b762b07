/** How CER's settings become an instance: the code ./descriptor.ts imports only when a run names it. */
import { cliMetric, type MetricFactory } from '../descriptor.js';
import { Cer, type CerOptions } from './cer.js';

/** CER with its settings. */
export const createCer: MetricFactory<CerOptions> = (_id, settings) => cliMetric(new Cer(settings));
