/**
 * Every metric's factory, imported at once and given to its descriptor: what ./registry.ts's default registry
 * builds with, so that a library caller can create any metric without awaiting its module first. The CLI's score
 * path does not import this file; it loads the factories of the metrics a run names (./catalog.ts `loadMetrics`).
 */
import { createBleuMetric } from './bleu/factory.js';
import { createCer } from './cer/factory.js';
import { createChrf } from './chrf/factory.js';
import { METRIC_CATALOG } from './catalog.js';
import type { MetricFactory } from './descriptor.js';
import { createGleu } from './gleu/factory.js';
import { createGtm } from './gtm/factory.js';
import { createImpact } from './impact/factory.js';
import { createMeteor } from './meteor/factory.js';
import { createNist } from './nist/factory.js';
import { createNpChunk } from './npchunk/factory.js';
import { createParaEvalMetric } from './paraeval/factory.js';
import { createPer } from './per/factory.js';
import { createRibes } from './ribes/factory.js';
import { createRougeMetric } from './rouge/factory.js';
import { createTerMetric } from './ter/factory.js';
import { createWerMetric } from './wer/factory.js';

/** Each catalog id's factory. */
const FACTORIES: Readonly<Record<(typeof METRIC_CATALOG)[number]['id'], MetricFactory<never>>> = {
  bleu: createBleuMetric,
  cer: createCer,
  chrf: createChrf,
  gleu: createGleu,
  gtm: createGtm,
  impact: createImpact,
  meteor: createMeteor,
  nist: createNist,
  npchunk: createNpChunk,
  paraeval: createParaEvalMetric,
  per: createPer,
  ribes: createRibes,
  rouge: createRougeMetric,
  ter: createTerMetric,
  wer: createWerMetric,
};

/** Gives every descriptor of the catalog its factory (again: a no-op). */
export function installMetricImplementations(): void {
  for (const d of METRIC_CATALOG) d.implementation.install(FACTORIES[d.id] as MetricFactory<object>);
}
