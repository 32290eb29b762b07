/** How NIST's settings become an instance: the code ./descriptor.ts imports only when a run names it. */
import { cliMetric, type MetricFactory } from '../descriptor.js';
import type { NistSettings } from './settings.js';
import { Nist } from './nist.js';

/** NIST with its settings. */
export const createNist: MetricFactory<NistSettings> = (_id, settings) => cliMetric(new Nist({ ...settings, onOracleFailure: 'throw' }));
