/**
 * The catalog's registry (./registry.ts says what a registry is) without any metric's code: `create` builds a metric
 * whose implementation is loaded, by `load` (what the CLI's `score` does with its `-m` names) or by importing
 * ./registry.ts, which installs them all. Importing this file costs the descriptors only.
 */
import { unknownMetric } from '../errors.js';
import { loadMetrics, METRIC_FAMILY_PATTERNS, METRIC_IDS, metricDescriptor } from './catalog.js';
import { describedMetric, type CliMetric, type MetricDescriptor } from './descriptor.js';
import type { MetricSettings } from './catalog.js';

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
  /**
   * Loads the code of the metrics `names` name (`-m` names as given), which {@link create} needs when the registry
   * imports a metric's module only when a run names it. @default nothing to load
   */
  load?(names: readonly string[]): Promise<void>;
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
  load: loadMetrics,
};
