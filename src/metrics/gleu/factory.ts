/** How GLEU's settings become an instance: the code ./descriptor.ts imports only when a run names it. */
import { cliMetric, type MetricFactory } from '../descriptor.js';
import { Gleu, type GleuOptions } from './gleu.js';

/** GLEU with its settings. */
export const createGleu: MetricFactory<GleuOptions> = (_id, settings) => cliMetric(new Gleu(settings));
