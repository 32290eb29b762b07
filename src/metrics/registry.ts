/**
 * The metrics `palette score -m` knows, and how command-line settings become metric instances: the catalog's
 * descriptors (./catalog.ts), looked up by name.
 *
 * Settings arrive already parsed and typed (src/cli/ parses flags through the descriptors); each metric's constructor
 * validates its own options. sacrebleu's CLI quirks that are about metrics live in the descriptors: `--sentence-level`
 * switches BLEU's effective order on (sacrebleu sets `effective_order=True` for `-sl`, so the signature says
 * `eff:yes`). Where an oracle gives no number (NLTK raises, mteval dies), the metrics built here throw an
 * `InputError` saying why, which the CLI reports with the file and line.
 *
 * ROUGE is a family named by pattern (`rouge-2`, `rouge-su4`, `rouge-w-1.5`, …, see ./rouge/rouge-type.ts): `-m`
 * names are resolved to one canonical id per variant ({@link MetricRegistry.resolve}); ./rouge/descriptor.ts says
 * which implementation each variant follows without `--rouge-flavor`.
 */
import type { MetricSettings } from './catalog.js';
import { defaultRegistry } from './default-registry.js';
import { installMetricImplementations } from './implementations.js';

export type { MetricRegistry } from './default-registry.js';

export { BLEU_FLAVORS, type BleuFlavor, type BleuSettings } from './bleu/descriptor.js';
export { type ChrfSettings } from './chrf/descriptor.js';
export { cliMetric, type CliMetric, type JsonScoreField, type SegmentAlignment } from './descriptor.js';
export { type EditSettings } from './edit/settings.js';
export { type GtmSettings } from './gtm/descriptor.js';
export { type NistSettings } from './nist/descriptor.js';
export { type NpChunkSettings } from './npchunk/descriptor.js';
export { type ParaEvalSettings } from './paraeval/descriptor.js';
export { ROUGE_METRIC_FAMILIES, type RougeSettings } from './rouge/descriptor.js';
export { defaultRougeFlavor } from './rouge/options.js';
export { TER_FLAVORS, type TerFlavor, type TerSettings } from './ter/descriptor.js';
export type { MetricSettings };


installMetricImplementations();

export { defaultRegistry };
