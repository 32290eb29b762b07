/**
 * The objective a scorer name stands for (`palette mert --sctype`): Moses' BLEU (`BLEU`, the default), or any
 * metric of a registry, read from the statistics rows `palette nbest -m NAME` writes for it (its own layout),
 * negated where lower scores are better.
 */
import type { MetricRegistry } from '../../metrics/registry.js';
import { metricObjective, mosesBleuObjective, type MertObjective } from './problem.js';

/**
 * The objective named `name`.
 * @throws InputError `E_UNKNOWN_METRIC` for a name the registry does not know.
 */
export function mertObjective(name: string, registry: MetricRegistry): MertObjective {
  if (name.toUpperCase() === 'BLEU') return mosesBleuObjective();
  const id = registry.resolve?.(name, {}) ?? name;
  const metric = registry.create(id, {}).metric;
  return metricObjective(metric, registry.describe?.(id)?.direction ?? 'higher');
}
