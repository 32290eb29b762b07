/**
 * The metrics `palette score -m` knows, and how command-line settings become metric instances.
 *
 * Settings arrive already parsed and typed (src/cli/ parses flags); each metric's constructor validates its own
 * options. sacrebleu's CLI quirks that are about metrics live here: `--sentence-level` switches BLEU's effective
 * order on (sacrebleu sets `effective_order=True` for `-sl`, so the signature says `eff:yes`). Where an oracle gives
 * no number (NLTK raises, mteval dies), the metrics built here throw an `InputError` saying why, which the CLI
 * reports with the file and line.
 */
import { badOption, InputError, unknownMetric } from '../errors.js';
import type { TokenizerName } from '../text/tokenizers/index.js';
import { Bleu, type BleuRefLength } from './bleu.js';
import { LinOchBleu } from './bleu-lin-och.js';
import { MosesBleu } from './bleu-moses-metric.js';
import type { NltkSmoothingMethod } from './bleu-nltk.js';
import { NltkBleu } from './bleu-nltk-metric.js';
import type { BleuSmoothMethod } from './bleu-score.js';
import { Chrf } from './chrf.js';
import { sumRows, type Metric, type MetricScore } from './metric.js';
import { Nist, type NistFlavor } from './nist.js';

/** BLEU implementations `--bleu-flavor` selects, in the order help lists them. */
export const BLEU_FLAVORS = ['sacrebleu', 'nltk', 'moses', 'lin-och'] as const;

/**
 * One of {@link BLEU_FLAVORS}: sacreBLEU 2.6.0; NLTK 3.8 (0–1); Moses MERT's BleuScorer (0–1, BLEU+1 sentences);
 * Lin & Och's BLEUS (add one for n > 1, 0–100).
 */
export type BleuFlavor = (typeof BLEU_FLAVORS)[number];

/** BLEU settings as the CLI gives them (`undefined` = the flavor's default). */
export interface BleuSettings {
  /** `--bleu-flavor`. @default 'sacrebleu' */
  readonly flavor?: BleuFlavor;
  /**
   * `-tok`. @default '13a' (sacrebleu, lin-och), 'none' (nltk: whitespace-split, as NLTK's own tests), Moses' own
   * split on spaces (moses)
   */
  readonly tokenize?: TokenizerName;
  /** `-lc`. @default false */
  readonly lowercase?: boolean;
  /** `-s` (sacrebleu flavor). @default 'exp' */
  readonly smoothMethod?: BleuSmoothMethod;
  /** `-sv` (sacrebleu flavor). @default the method's default (floor 0.1, add-k 1) */
  readonly smoothValue?: number;
  /** `--bleu-effective-order` (sacrebleu flavor; forced on with `-sl`). @default false */
  readonly effectiveOrder?: boolean;
  /** `--bleu-max-ngram-order` (nltk flavor: uniform weights 1/N). @default 4 */
  readonly maxNgramOrder?: number;
  /** `--bleu-ref-length` (all flavors but nltk; moses truncates the average). @default 'closest' */
  readonly refLength?: BleuRefLength;
  /** `--nltk-smoothing`: NLTK `SmoothingFunction` method (nltk flavor). @default 0 */
  readonly nltkSmoothing?: NltkSmoothingMethod;
}

/** chrF settings as the CLI gives them (`undefined` = sacrebleu's default). */
export interface ChrfSettings {
  /** `-cc`. @default 6 */
  readonly charOrder?: number;
  /** `-cw`. @default 0 */
  readonly wordOrder?: number;
  /** `--chrf-beta`. @default 2 */
  readonly beta?: number;
  /** `--chrf-whitespace`. @default false */
  readonly whitespace?: boolean;
  /** `--chrf-lowercase`. @default false */
  readonly lowercase?: boolean;
  /** `--chrf-eps-smoothing`. @default false */
  readonly epsSmoothing?: boolean;
}

/** NIST settings as the CLI gives them (`undefined` = the metric's default). */
export interface NistSettings {
  /** `--nist-flavor`. @default 'mteval' */
  readonly flavor?: NistFlavor;
  /** `--nist-max-ngram-order`. @default 5 */
  readonly maxOrder?: number;
  /** `--nist-tokenize`. @default '13a' */
  readonly tokenize?: TokenizerName;
  /** `--nist-lowercase` (mteval-v13a without `-c`). @default false */
  readonly lowercase?: boolean;
}

/** Everything that decides which metric instances a `palette score` run builds. */
export interface MetricSettings {
  /** Scores per segment (`-sl`). @default false */
  readonly sentenceLevel?: boolean;
  readonly bleu?: BleuSettings;
  readonly chrf?: ChrfSettings;
  readonly nist?: NistSettings;
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
}

/** Maps `-m` names to metric factories. */
export interface MetricRegistry {
  /** The names `-m` accepts, in the order help and messages list them. */
  readonly ids: readonly string[];
  /**
   * Builds the metric `id` for `settings`.
   * @throws InputError `E_UNKNOWN_METRIC`, or the metric's own `E_BAD_OPTION`/`E_UNKNOWN_TOKENIZER`.
   */
  create(id: string, settings: MetricSettings): CliMetric;
}

/** A {@link CliMetric} for a metric whose `signature(nRefs, short)` and `scoreFromStats` are all the CLI needs. */
export function cliMetric(metric: Metric & { signature(nRefs: number, short?: boolean): string }): CliMetric {
  return {
    metric,
    signature: (nRefs, short) => metric.signature(nRefs, short),
    corpusScore: (rows) => metric.scoreFromStats(sumRows(rows, metric.statsWidth)),
  };
}

/** Why a flavor has no use for a sacrebleu smoothing flag. */
const OWN_SMOOTHING: Readonly<Record<Exclude<BleuFlavor, 'sacrebleu'>, string>> = {
  nltk: 'NLTK smooths with --nltk-smoothing',
  moses: "Moses' corpus BLEU is unsmoothed and its -sl sentence BLEU is BLEU+1",
  'lin-och': 'lin-och smoothing is fixed: add 1 for n > 1, no effective order',
};

/** Refuses the flags the chosen flavor has no use for. */
function checkBleuFlags(s: BleuSettings, flavor: BleuFlavor): void {
  if (flavor !== 'sacrebleu') {
    const smoothing = [
      ['-s/--smooth-method', s.smoothMethod],
      ['-sv/--smooth-value', s.smoothValue],
      ['--bleu-effective-order', s.effectiveOrder || undefined],
    ] as const;
    for (const [flag, value] of smoothing) {
      if (value !== undefined) {
        throw new InputError('E_BAD_OPTION', `${flag} applies to --bleu-flavor sacrebleu (${OWN_SMOOTHING[flavor]})`);
      }
    }
  }
  if (flavor === 'nltk' && s.refLength !== undefined) {
    throw new InputError(
      'E_BAD_OPTION',
      '--bleu-ref-length applies to --bleu-flavor sacrebleu, moses and lin-och ' +
        '(NLTK uses the closest reference length)',
    );
  }
  if (flavor !== 'nltk' && s.nltkSmoothing !== undefined) {
    throw new InputError('E_BAD_OPTION', '--nltk-smoothing needs --bleu-flavor nltk');
  }
}

function createBleu(settings: MetricSettings): CliMetric {
  const s = settings.bleu ?? {};
  const flavor = s.flavor ?? 'sacrebleu';
  if (!(BLEU_FLAVORS as readonly string[]).includes(flavor)) {
    throw badOption('--bleu-flavor', `one of ${BLEU_FLAVORS.join(', ')}`, flavor);
  }
  checkBleuFlags(s, flavor);
  if (flavor === 'nltk') {
    const n = s.maxNgramOrder;
    const nltk = new NltkBleu({
      tokenize: s.tokenize,
      lowercase: s.lowercase,
      method: s.nltkSmoothing,
      weights: n === undefined ? undefined : Array.from({ length: n }, () => 1 / n),
    });
    return {
      metric: nltk,
      // NltkBleu has only the long form; its keys are Palette's own, so the short form keeps them.
      signature: (nRefs) => nltk.signature(nRefs),
      corpusScore: (rows) => nltk.corpusScoreFromRows(rows),
    };
  }
  if (flavor === 'moses') {
    const moses = new MosesBleu({
      tokenize: s.tokenize,
      lowercase: s.lowercase,
      refLength: s.refLength,
      maxNgramOrder: s.maxNgramOrder,
    });
    return {
      metric: moses,
      // -sl scores are Moses' smoothed sentence BLEU, which its signature says.
      signature: (nRefs, short) =>
        settings.sentenceLevel ? moses.sentenceSignature(nRefs, short) : moses.signature(nRefs, short),
      // Moses sums the statistics in single precision, in corpus order.
      corpusScore: (rows) => moses.corpusScoreFromRows(rows),
    };
  }
  const text = { tokenize: s.tokenize, lowercase: s.lowercase, maxNgramOrder: s.maxNgramOrder, refLength: s.refLength };
  if (flavor === 'lin-och') return cliMetric(new LinOchBleu(text));
  return cliMetric(
    new Bleu({
      ...text,
      smoothMethod: s.smoothMethod,
      smoothValue: s.smoothValue,
      // sacrebleu's CLI forces effective order on in sentence-level mode, which its signature then reports.
      effectiveOrder: settings.sentenceLevel ? true : (s.effectiveOrder ?? false),
    }),
  );
}

const FACTORIES: ReadonlyMap<string, (settings: MetricSettings) => CliMetric> = new Map([
  ['bleu', createBleu],
  ['chrf', (settings: MetricSettings) => cliMetric(new Chrf({ ...settings.chrf }))],
  // The CLI reports where NIST's oracles give no number instead of printing NaN.
  ['nist', (settings: MetricSettings) => cliMetric(new Nist({ ...settings.nist, onOracleFailure: 'throw' }))],
]);

/** The metrics of this build: `bleu`, `chrf`, `nist`. */
export const defaultRegistry: MetricRegistry = {
  ids: [...FACTORIES.keys()],
  create(id, settings) {
    const factory = FACTORIES.get(id);
    if (factory === undefined) throw unknownMetric(id, [...FACTORIES.keys()]);
    return factory(settings);
  },
};
