/** How METEOR's settings become an instance: the code ./descriptor.ts imports only when a run names it. */
import { cliMetric, type MetricFactory } from '../descriptor.js';
import { Meteor, type MeteorOptions } from './meteor.js';

/** METEOR with its settings. */
export const createMeteor: MetricFactory<MeteorOptions> = (_id, settings) => cliMetric(new Meteor(settings));
