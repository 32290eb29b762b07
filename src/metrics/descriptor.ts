/**
 * What a metric says about itself, so that no consumer keeps its own list: its `-m` names, the direction of its
 * scores, how its corpus score reduces the statistics rows, which rows need every reference, what `-sl` changes, its
 * JSON fields and default print width, its options with their defaults, its command-line flags, and how settings
 * become an instance. Each metric folder exports one {@link MetricDescriptor} beside its class; ./catalog.ts lists
 * them, and the registry, `score`, `correlate`, `report`, `orange`, the n-best engine and the experiments read them.
 */
import type { TokenizerName } from '../text/tokenizers/index.js';
import type { OptionSpec } from '../util/option-spec.js';
import { sumRows, type Metric, type MetricScore, type PreparedReferences } from './metric.js';
import type { TerShift } from './ter/alignment.js';

/** A field a JSON score carries beyond sacrebleu's, read from `MetricScore.details`. */
export interface JsonScoreField {
  /** Key in the JSON object. */
  readonly key: string;
  /** Key in `details`. */
  readonly detail: string;
  /** `rounded`: a number rounded to `--width` like the score; `count`: an integer as it is. */
  readonly kind: 'rounded' | 'count';
}

/**
 * One hypothesis aligned to the reference its segment's statistics came from: what `-d` lists. Operations are
 * `TerOp` codes (./ter/alignment.ts) over the hypothesis after its shifts (`Ins` a hypothesis word with no reference
 * counterpart, `Del` a reference word the hypothesis lacks).
 */
export interface SegmentAlignment {
  /** Index of the reference (0-based). */
  readonly reference: number;
  /** Hypothesis words, as the metric split them. */
  readonly hypWords: readonly string[];
  /** Reference words, as the metric split them. */
  readonly refWords: readonly string[];
  /** Block moves applied to the hypothesis first (TER; none for WER). */
  readonly shifts: readonly TerShift[];
  /** For each word of the shifted hypothesis, its position in `hypWords`. */
  readonly hypOrder: Int32Array;
  /** The edit operations, left to right. */
  readonly ops: Uint8Array;
  /** Edits counted by the metric for this segment (shifts included). */
  readonly edits: number;
}

/** A metric as the CLI drives it: the {@link Metric} contract plus signatures and the corpus reduction. */
export interface CliMetric {
  /** The metric. */
  readonly metric: Metric;
  /** sacrebleu-style signature; `short` gives the `-sh` form (`#:1|c:mixed|…`). */
  signature(nRefs: number, short: boolean): string;
  /**
   * Corpus score from the statistics rows in corpus order (usually the column sums reduced by `scoreFromStats`;
   * NLTK's smoothing methods 5–7 also need the last row).
   */
  corpusScore(rows: Float64Array): MetricScore;
  /**
   * Decimals printed when `-w` is not given. @default sacrebleu's 1 (ROUGE: 5, ROUGE-1.5.5's `%7.5f`, since its
   * scores are fractions)
   */
  readonly defaultWidth?: number;
  /** JSON fields beyond sacrebleu's. @default precision, recall, fmeasure when `details` has them (ROUGE) */
  readonly jsonFields?: readonly JsonScoreField[];
  /**
   * The alignment `-d` lists for segment `segment` (0-based) of hypothesis line `hyp`, against references the
   * metric prepared; present for the metrics that align words (WER, TER).
   */
  align?(hyp: string, prepared: PreparedReferences, segment: number): SegmentAlignment;
}

/** A {@link CliMetric} for a metric whose `signature(nRefs, short)` and `scoreFromStats` are all the CLI needs. */
export function cliMetric(metric: Metric & { signature(nRefs: number, short?: boolean): string }): CliMetric {
  return {
    metric,
    signature: (nRefs, short) => metric.signature(nRefs, short),
    corpusScore: (rows) => metric.scoreFromStats(sumRows(rows, metric.statsWidth)),
  };
}

/** Whether a higher or a lower score is the better one (error rates: lower). */
export type ScoreDirection = 'higher' | 'lower';

/**
 * How the corpus score comes from the statistics rows:
 * - `sum`: the column sums reduced by `scoreFromStats` (counts summed over the corpus, as BLEU's n-gram matches);
 * - `mean`: the same column sums, but the rows hold each segment's own score and a segment count, so the corpus score
 *   is the mean of the sentence scores;
 * - `ordered`: the rows in corpus order, not only their sums (NLTK's smoothing methods 5–7 read the last row; Moses
 *   sums in single precision, so the order of the additions shows in the last bits).
 *
 * `sum` and `mean` rows may be summed in any grouping (any worker count, any resample) for the same corpus score up
 * to the usual floating-point associativity; `ordered` ones go through `CliMetric.corpusScore` whole.
 */
export type CorpusReduction = 'sum' | 'mean' | 'ordered';

/** What building an instance needs beyond the metric's own settings. */
export interface MetricContext {
  /** `-sl`: the instance scores segments (sacrebleu's CLI then switches BLEU's effective order on). */
  readonly sentenceLevel: boolean;
}

/**
 * The flag values of a command line as a metric reads them into its settings: each reader parses and checks one
 * flag the way every command does (Python's number syntax, the same messages), and returns undefined when the flag is
 * not given. The command line implements it (src/cli/score-options.ts).
 */
export interface FlagValues {
  /** The value of a one-value flag as given. */
  string(key: string): string | undefined;
  /** Whether a no-value flag is given. */
  flag(key: string): boolean;
  /** An integer (Python `int()` syntax) in `min..max`. @throws InputError `E_BAD_OPTION` naming `flagName`. */
  int(key: string, flagName: string, min: number, max?: number): number | undefined;
  /** A finite number (Python `float()` syntax) that `ok` accepts. @throws InputError `E_BAD_OPTION` (`expected`). */
  number(key: string, flagName: string, expected: string, ok: (x: number) => boolean): number | undefined;
  /** One of `choices`. @throws InputError `E_BAD_OPTION`. */
  choice<T extends string>(key: string, flagName: string, choices: readonly T[]): T | undefined;
  /** A `-tok` tokenizer name. @throws InputError `E_UNKNOWN_TOKENIZER`. */
  tokenizer(key: string): TokenizerName | undefined;
}

/** The default of an option: a value, or words where it depends on other settings (or there is none). */
export type OptionDefault = { readonly value: number | string | boolean } | { readonly text: string };

/** One option of a metric: a field of its settings, the flag that sets it, and its default. */
export interface MetricOption<S> {
  /** Field of the settings object. */
  readonly setting: keyof S & string;
  /** Key of the flag in the metric's flag table ({@link MetricDescriptor.flags}) that sets it. */
  readonly flag: string;
  /** What an unset field means. */
  readonly default: OptionDefault;
  /** Settings under which the option applies (a flavor's own option); its flag is refused or has no effect otherwise. */
  readonly appliesWith?: Partial<S>;
}

/** Names of a family of metrics that `-m` takes by pattern (ROUGE's `rouge-2`, `rouge-su4`, `rouge-w-1.5`). */
export interface MetricFamily<S> {
  /** The names as patterns, for help and messages (`rouge-N`, `rouge-suD`). */
  readonly patterns: readonly string[];
  /** A member's name, for examples and checks (`rouge-l`). */
  readonly example: string;
  /** Whether a `-m` name belongs to the family, well formed or not. */
  claims(name: string): boolean;
  /**
   * The canonical id of a member (`rougeL` → `rouge-l`), so that two spellings are scored once.
   * @throws InputError `E_UNKNOWN_METRIC` for a malformed member.
   */
  resolve(name: string, settings: S): string;
}

/**
 * A metric's description. `S` is its settings object (what its flags set), `K` the field of the command line's
 * metric settings that holds it (two metrics may share one: IMPACT and the NP-chunk metric).
 */
export interface MetricDescriptor<S extends object = object, K extends string = string> {
  /** The canonical `-m` id (a family: the family's name, e.g. `rouge`). */
  readonly id: string;
  /** Other `-m` names of the same metric. Every name, the id too, is matched case-insensitively. */
  readonly aliases: readonly string[];
  /** The family of names this descriptor stands for, or null for a metric of one name. */
  readonly family: MetricFamily<S> | null;
  /**
   * The name its scores carry with the default settings (`MetricScore.name`; options may change it: chrF's β and
   * word order give `chrF1`, `chrF2++`; a family member's is its own, as `ROUGE-L`).
   */
  readonly scoreName: string;
  /** Whether higher or lower scores are better. */
  readonly direction: ScoreDirection;
  /** How its corpus score comes from the rows, with these settings. */
  reduction(settings: S): CorpusReduction;
  /**
   * Whether a segment's row depends on the whole reference set, not only on that segment's references (NIST's
   * information weights are counted over every reference of the corpus), so that rows of a part of the corpus
   * need the references of all of it.
   */
  readonly wholeReference: boolean;
  /**
   * Whether the `-sl` instance is the plain one: `-sl` changes neither its statistics, nor its sentence scores,
   * nor its signature (BLEU's does: effective order, Moses' BLEU+1), so one instance serves both.
   */
  readonly sentenceLevelSame: boolean;
  /** JSON fields of its scores beyond sacrebleu's. */
  readonly jsonFields: readonly JsonScoreField[];
  /** Decimals printed when `-w` is not given, or null for the command's own default (`score`: sacrebleu's 1). */
  readonly defaultWidth: number | null;
  /** The field of the command line's metric settings that holds its settings. */
  readonly settingsKey: K;
  /** Its options: the settings fields, the flag of each, and their defaults. */
  readonly options: readonly MetricOption<S>[];
  /** Its command-line flags, in help order (a table two metrics share is the same array). */
  readonly flags: readonly OptionSpec[];
  /**
   * Its settings from the flags of a command line, or undefined when they leave every default (ParaEval: then a
   * command that never names it has nothing to check).
   * @throws InputError for a malformed value, as every command reports it.
   */
  readSettings(flags: FlagValues): S | undefined;
  /**
   * The module that builds its instances, imported on first need: what lists metrics (help, flags, `-m` names)
   * loads no metric's code, and a run loads only the metrics it names.
   */
  readonly implementation: MetricImplementation<S>;
  /**
   * An instance for `-m id` (`id` as given, for messages) with `settings`. Its print width and JSON fields are the
   * descriptor's ({@link describedMetric} adds them). Needs {@link implementation} loaded (the registry of
   * ./registry.ts loads every metric's).
   * @throws InputError `E_BAD_OPTION` for settings the metric refuses.
   */
  create(id: string, settings: S, context: MetricContext): CliMetric;
}

/** How a metric's settings become an instance (the code a descriptor keeps out of its module). */
export type MetricFactory<S> = (id: string, settings: S, context: MetricContext) => CliMetric;

/** A metric's {@link MetricFactory}, imported when first needed or installed by a module that imported it. */
export interface MetricImplementation<S> {
  /** Imports the factory's module, once; resolves when {@link create} can build. */
  load(): Promise<void>;
  /** Gives the factory an importer already holds, so that {@link create} needs no `load` first. */
  install(factory: MetricFactory<S>): void;
  /** Whether {@link create} can build. */
  readonly loaded: boolean;
  /** @throws Error when the factory was neither loaded nor installed (a caller's slip, not bad input). */
  create: MetricFactory<S>;
}

/** The implementation of metric `id` whose factory `importer` imports. */
export function lazyImplementation<S>(id: string, importer: () => Promise<MetricFactory<S>>): MetricImplementation<S> {
  let factory: MetricFactory<S> | null = null;
  let loading: Promise<void> | null = null;
  return {
    load() {
      if (factory !== null) return Promise.resolve();
      loading ??= importer().then((f) => void (factory ??= f));
      return loading;
    },
    install(f) {
      factory ??= f;
    },
    get loaded() {
      return factory !== null;
    },
    create(name, settings, context) {
      if (factory === null) throw new Error(`metric ${id}: its implementation is not loaded (load the metrics a run names first)`);
      return factory(name, settings, context);
    },
  };
}

/** The instance `d.create` builds, with the descriptor's print width and JSON fields. */
export function describedMetric<S extends object>(d: MetricDescriptor<S>, id: string, settings: S, context: MetricContext): CliMetric {
  return { ...d.create(id, settings, context), defaultWidth: d.defaultWidth ?? undefined, jsonFields: d.jsonFields };
}

/** Decimals of the scores that are fractions (edit rates, ParaEval) when `-w` is not given, as ROUGE's. */
export const FRACTION_WIDTH = 5;

/** JSON fields read from `details` under the same key, rounded like the score. */
export function roundedFields(...keys: string[]): JsonScoreField[] {
  return keys.map((key) => ({ key, detail: key, kind: 'rounded' }));
}

/**
 * The flags of several metrics in order, each once (a table two metrics share appears once, where the first of
 * them stands).
 */
export function composeFlags(descriptors: readonly MetricDescriptor[]): OptionSpec[] {
  const seen = new Set<string>();
  const out: OptionSpec[] = [];
  for (const d of descriptors) {
    for (const spec of d.flags) {
      if (seen.has(spec.key)) continue;
      seen.add(spec.key);
      out.push(spec);
    }
  }
  return out;
}
