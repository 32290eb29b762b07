/**
 * The metrics of this build, one line each: the descriptors their folders export (./descriptor.ts says what one
 * holds). Everything that lists metrics reads this list: the registry's `-m` names and factories, the metric flags of
 * every command and their help, the settings object those flags fill, the directions the report and ORANGE show, the
 * metrics whose `-sl` instance is their plain one (correlate), and those whose rows need every reference (n-best).
 *
 * The order is the order of `palette score --help`'s metric sections; the `-m` names list the metrics of one name in
 * this order, then the families' patterns.
 */
import { BLEU_DESCRIPTOR } from './bleu/descriptor.js';
import { CER_DESCRIPTOR } from './cer/descriptor.js';
import { CHRF_DESCRIPTOR } from './chrf/descriptor.js';
import { composeFlags, type FlagValues, type MetricDescriptor } from './descriptor.js';
import { GLEU_DESCRIPTOR } from './gleu/descriptor.js';
import { GTM_DESCRIPTOR } from './gtm/descriptor.js';
import { IMPACT_DESCRIPTOR } from './impact/descriptor.js';
import { METEOR_DESCRIPTOR } from './meteor/descriptor.js';
import { NIST_DESCRIPTOR } from './nist/descriptor.js';
import { NPCHUNK_DESCRIPTOR } from './npchunk/descriptor.js';
import { PARAEVAL_DESCRIPTOR } from './paraeval/descriptor.js';
import { PER_DESCRIPTOR } from './per/descriptor.js';
import { RIBES_DESCRIPTOR } from './ribes/descriptor.js';
import { ROUGE_DESCRIPTOR } from './rouge/descriptor.js';
import { TER_DESCRIPTOR } from './ter/descriptor.js';
import { WER_DESCRIPTOR } from './wer/descriptor.js';

/** Every metric's descriptor. */
export const METRIC_CATALOG = [
  BLEU_DESCRIPTOR,
  CHRF_DESCRIPTOR,
  NIST_DESCRIPTOR,
  ROUGE_DESCRIPTOR,
  TER_DESCRIPTOR,
  WER_DESCRIPTOR,
  PER_DESCRIPTOR,
  CER_DESCRIPTOR,
  GLEU_DESCRIPTOR,
  RIBES_DESCRIPTOR,
  METEOR_DESCRIPTOR,
  GTM_DESCRIPTOR,
  PARAEVAL_DESCRIPTOR,
  IMPACT_DESCRIPTOR,
  NPCHUNK_DESCRIPTOR,
] as const;

type CatalogEntry = (typeof METRIC_CATALOG)[number];
type SettingsOf<D> = D extends MetricDescriptor<infer S, string> ? S : never;

/**
 * Everything that decides which metric instances a `palette score` run builds: `-sl`, and each metric's settings
 * under its descriptor's `settingsKey` (`bleu`, `chrf`, `nist`, `rouge`, `ter`, `wer`, `per`, `gtm`, `paraeval`,
 * `npchunk` for IMPACT and the NP-chunk metric).
 */
export type MetricSettings = {
  /** Scores per segment (`-sl`). @default false */
  readonly sentenceLevel?: boolean;
} & { readonly [D in CatalogEntry as D['settingsKey']]?: SettingsOf<D> };

/** The settings field names of {@link MetricSettings} that hold a metric's settings. */
export type MetricSettingsKey = CatalogEntry['settingsKey'];

const catalog: readonly MetricDescriptor[] = METRIC_CATALOG;

/** Descriptors by lowercased id and alias. */
const BY_NAME: ReadonlyMap<string, MetricDescriptor> = new Map(
  catalog.filter((d) => d.family === null).flatMap((d) => [d.id, ...d.aliases].map((name) => [name.toLowerCase(), d] as const)),
);

/** The `-m` names of the metrics of one name, in catalog order. */
export const METRIC_IDS: readonly string[] = catalog.filter((d) => d.family === null).map((d) => d.id);

/** The families' names as patterns (`rouge-N`, `rouge-suD`, …), in catalog order. */
export const METRIC_FAMILY_PATTERNS: readonly string[] = catalog.flatMap((d) => d.family?.patterns ?? []);

/**
 * The descriptor of a `-m` name: an id or alias in any case, or a name a family claims (well formed or not: the
 * family's `resolve` says what is wrong with it). Undefined for a name no metric of the catalog has.
 */
export function metricDescriptor(name: string): MetricDescriptor | undefined {
  return BY_NAME.get(name.toLowerCase()) ?? catalog.find((d) => d.family?.claims(name) === true);
}

/** Whether lower scores of metric `name` are the better ones (false for a name outside the catalog). */
export function lowerIsBetterMetric(name: string): boolean {
  return metricDescriptor(name)?.direction === 'lower';
}

/**
 * Loads the implementations of the metrics `names` name (`-m` names as given; a name no metric has is left to the
 * registry to refuse), so that their descriptors' `create` can build. Each metric's module is imported once.
 */
export async function loadMetrics(names: readonly string[]): Promise<void> {
  const wanted = new Set(names.map(metricDescriptor).filter((d) => d !== undefined));
  await Promise.all([...wanted].map((d) => d.implementation.load()));
}

/** The metric flags of every command, in catalog order, each once. */
export const METRIC_FLAGS = composeFlags(catalog);

/**
 * The metric settings the flags of a command line give, each metric's read by its descriptor (once for a settings
 * field two metrics share), in catalog order: of two bad flags, the first metric's is reported.
 * @throws InputError for a malformed value.
 */
export function readMetricSettings(flags: FlagValues, sentenceLevel: boolean): MetricSettings {
  const out: Record<string, unknown> = { sentenceLevel };
  for (const d of catalog) {
    if (d.settingsKey in out) continue;
    out[d.settingsKey] = d.readSettings(flags);
  }
  return out as MetricSettings;
}
