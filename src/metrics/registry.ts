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
import { unknownMetric } from '../errors.js';
import { METRIC_FAMILY_PATTERNS, METRIC_IDS, metricDescriptor, type MetricSettings } from './catalog.js';
import { describedMetric, type CliMetric, type MetricDescriptor } from './descriptor.js';

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

/** Maps `-m` names to metric factories. */
export interface MetricRegistry {
  /** The names `-m` accepts, in the order help and messages list them. */
  readonly ids: readonly string[];
  /** Families of names `-m` also accepts, as patterns for help and messages (`rouge-N`, `rouge-suD`). @default [] */
  readonly families?: readonly string[];
  /**
   * The canonical id of a name `-m` accepts (`rougeL` → `rouge-l`, `rouge-w` → `rouge-w-1.2`), so that two
   * spellings of one metric are scored once. Without it, exactly the names of {@link ids} are accepted, as they are.
   * @throws InputError `E_UNKNOWN_METRIC` (or `E_BAD_OPTION` for a malformed member of a family).
   */
  resolve?(id: string, settings: MetricSettings): string;
  /**
   * Builds the metric `id` for `settings`.
   * @throws InputError `E_UNKNOWN_METRIC`, or the metric's own `E_BAD_OPTION`/`E_UNKNOWN_TOKENIZER`.
   */
  create(id: string, settings: MetricSettings): CliMetric;
  /**
   * What the metric a name `-m` accepts says about itself (direction, reduction, whole-reference rows, …), or
   * undefined for a name the registry has no descriptor for (then consumers take the plain case: higher is better,
   * rows of a segment need only its references, `-sl` builds its own instance).
   */
  describe?(id: string): MetricDescriptor | undefined;
}

/** The catalog's metric for `-m id`, or the unknown-metric error that lists every name. */
function described(id: string): MetricDescriptor {
  const d = metricDescriptor(id);
  if (d === undefined) throw unknownMetric(id, [...METRIC_IDS, ...METRIC_FAMILY_PATTERNS]);
  return d;
}

/**
 * The metrics of this build, from the catalog: `bleu`, `chrf`, `nist`, `ter`, `wer`, `per`, `gtm`, `paraeval`,
 * `impact`, `npchunk`, and the ROUGE family (`rouge-1`, `rouge-l`, `rouge-lsum`, `rouge-w`, `rouge-s4`, `rouge-su4`,
 * `rouge-s*`, …).
 */
export const defaultRegistry: MetricRegistry = {
  ids: METRIC_IDS,
  families: METRIC_FAMILY_PATTERNS,
  resolve(id, settings) {
    // Names are case-insensitive (`-m BLEU`, `-m Chrf`), as ROUGE's always were (`ROUGE-L`).
    const d = described(id);
    if (d.family === null) return d.id;
    return d.family.resolve(id, (settings as Record<string, object | undefined>)[d.settingsKey] ?? {});
  },
  create(id, settings) {
    const d = described(id);
    const own = (settings as Record<string, object | undefined>)[d.settingsKey] ?? {};
    return describedMetric(d, id, own, { sentenceLevel: settings.sentenceLevel ?? false });
  },
  describe: metricDescriptor,
};
