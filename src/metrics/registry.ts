/**
 * The metrics `palette score -m` knows, and how command-line settings become metric instances.
 *
 * Settings arrive already parsed and typed (src/cli/ parses flags); each metric's constructor validates its own
 * options. sacrebleu's CLI quirks that are about metrics live here: `--sentence-level` switches BLEU's effective
 * order on (sacrebleu sets `effective_order=True` for `-sl`, so the signature says `eff:yes`). Where an oracle gives
 * no number (NLTK raises, mteval dies), the metrics built here throw an `InputError` saying why, which the CLI
 * reports with the file and line.
 *
 * ROUGE is a family named by pattern (`rouge-2`, `rouge-su4`, `rouge-w-1.5`, …, see ./rouge/rouge-type.ts): `-m`
 * names are resolved to one canonical id per variant ({@link MetricRegistry.resolve}). Without `--rouge-flavor`,
 * each variant follows the implementation users know it from: rouge-score for the types rouge-score has (rouge1–
 * rouge9, rougeL, rougeLsum: what `evaluate`/`torchmetrics` users get), ROUGE-1.5.5 for the others (ROUGE-W,
 * ROUGE-S/SU, ROUGE-N above 9), which only it defines; the signature always says which (`flavor:`).
 */
import { badOption, InputError, unknownMetric } from '../errors.js';
import type { Rouge155Limit, RougeTokenizerName } from '../text/rouge/index.js';
import type { TokenizerName } from '../text/tokenizers/index.js';
import { Bleu, type BleuRefLength } from './bleu/bleu.js';
import { LinOchBleu } from './bleu/lin-och.js';
import { MosesBleu } from './bleu/moses-metric.js';
import type { NltkSmoothingMethod } from './bleu/nltk.js';
import { NltkBleu } from './bleu/nltk-metric.js';
import type { BleuSmoothMethod } from './bleu/score.js';
import { Chrf } from './chrf/chrf.js';
import type { EditTokenizer } from './edit/words.js';
import { Gtm } from './gtm/gtm.js';
import { sumRows, type Metric, type MetricScore, type PreparedReferences } from './metric.js';
import { Nist, type NistFlavor } from './nist/nist.js';
import { ParaEval, type ParaEvalScoreKind } from './paraeval/paraeval.js';
import { loadParaphraseTable, type ParaphraseFormat } from '../text/paraphrase/index.js';
import { Per } from './per/per.js';
import { Impact } from './impact/impact.js';
import { NpChunk } from './npchunk/npchunk.js';
import { defaultRougeFlavor } from './rouge/options.js';
export { defaultRougeFlavor };
import {
  parseRougeType,
  Rouge,
  rougeTypeId,
  type RougeAverage,
  type RougeFlavor,
  type RougeMultiReference,
  type RougeOptions,
  type RougeType,
} from './rouge/rouge.js';
import { Ter } from './ter/ter.js';
import type { TerShift } from './ter/alignment.js';
import { TercomTer } from './ter/tercom-ter.js';
import { Wer } from './wer/wer.js';
import { alignWords } from './edit/word-alignment.js';
import { TokenBounds, bleuScan } from '../text/tokenizers/index.js';
import { TerOp } from './ter/alignment.js';
import { editTextOptions } from './edit/words.js';

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

/** ROUGE settings as the CLI gives them (`undefined` = the flavor's default, see ./rouge/options.ts). */
export interface RougeSettings {
  /**
   * `--rouge-flavor`. @default 'rouge-score' for rouge-1 … rouge-9, rouge-l and rouge-lsum; 'rouge155' for the
   * types rouge-score does not have ({@link defaultRougeFlavor})
   */
  readonly flavor?: RougeFlavor;
  /** `--rouge-w-weight`: ROUGE-W's exponent for `rouge-w` (an id like `rouge-w-1.5` gives its own). @default 1.2 */
  readonly wWeight?: number;
  /** `--rouge-tokenizer`. @default the flavor's tokenizer */
  readonly tokenizer?: RougeTokenizerName | TokenizerName;
  /** `--stem`. @default false */
  readonly stem?: boolean;
  /** `--stopwords`: remove the SMART stopwords (ROUGE-1.5.5 `-s`). @default false */
  readonly removeStopwords?: boolean;
  /** `--rouge-alpha` (ROUGE-1.5.5 `-p`). @default 0.5 (rouge155) */
  readonly alpha?: number;
  /** `--rouge-beta`. @default 1 (paper) */
  readonly beta?: number;
  /** `--rouge-multi-ref`. @default 'best-f' (rouge-score), 'pool' (rouge155), 'max' (paper) */
  readonly multiReference?: RougeMultiReference;
  /** `--split-sentences`: a rule name (`none`, `newline`, `punct`, `t-tags`, `marker:STR`). @default the flavor's */
  readonly split?: string;
  /** `--rouge-limit` (ROUGE-1.5.5 `-l`/`-b`, rouge155 flavor). @default no limit */
  readonly limit?: Rouge155Limit;
  /** `--rouge-average`. @default 'segment' */
  readonly average?: RougeAverage;
  /** `--rouge-jackknife`. @default false */
  readonly jackknife?: boolean;
}

/** TER implementations `--ter-flavor` selects. */
export const TER_FLAVORS = ['sacrebleu', 'tercom'] as const;

/** One of {@link TER_FLAVORS}: sacreBLEU 2.6.0 (the default) or tercom 0.10.0. */
export type TerFlavor = (typeof TER_FLAVORS)[number];

/** TER settings as the CLI gives them (`undefined` = sacreBLEU's default, or tercom's for its search limits). */
export interface TerSettings {
  /** `--ter-flavor`. @default 'sacrebleu' */
  readonly flavor?: TerFlavor;
  /** `--ter-case-sensitive`. @default false */
  readonly caseSensitive?: boolean;
  /** `--ter-asian-support`. @default false */
  readonly asianSupport?: boolean;
  /** `--ter-no-punct`. @default false */
  readonly noPunct?: boolean;
  /** `--ter-normalized`. @default false */
  readonly normalized?: boolean;
  /** `--ter-beam` (tercom flavor, tercom's `-b`). @default 20 */
  readonly beamWidth?: number;
  /** `--ter-max-shift-distance` (tercom flavor, tercom's `-d`). @default 50 */
  readonly maxShiftDistance?: number;
}

/** Word split and case of an edit metric (WER, PER, GTM) as the CLI gives them. */
export interface EditSettings {
  /** `--wer-tokenize` / `--per-tokenize` / `--gtm-tokenize`. @default 'jiwer' (WER), 'none' (PER, GTM) */
  readonly tokenize?: EditTokenizer;
  /** `--wer-lowercase` / `--per-lowercase` / `--gtm-lowercase`. @default false */
  readonly lowercase?: boolean;
}

/** GTM settings as the CLI gives them. */
export interface GtmSettings extends EditSettings {
  /** `--gtm-exponent`: the run exponent e ≥ 1. @default 1 */
  readonly exponent?: number;
}

/** ParaEval settings as the CLI gives them. */
export interface ParaEvalSettings {
  /** `--paraphrase-table`: the table file (required by `-m paraeval`). */
  readonly table?: string;
  /** `--paraphrase-format`. @default 'auto' */
  readonly format?: ParaphraseFormat;
  /** `--paraphrase-min-words`. @default 1 */
  readonly minWords?: number;
  /** `--paraeval-tokenize` (table phrases and text). @default '13a' */
  readonly tokenize?: TokenizerName;
  /** `--paraeval-lowercase` (table phrases and text). @default false */
  readonly lowercase?: boolean;
  /** `--paraeval-score`. @default 'precision' */
  readonly score?: ParaEvalScoreKind;
}

/** IMPACT and NP-chunk settings as the CLI gives them (`undefined` = the seed paper's values). */
export interface NpChunkSettings {
  /** `--chunker` (npchunk): a chunker name from src/text/chunk/. @default 'compromise' */
  readonly chunker?: string;
  /** `--impact-alpha`: α, 0..1. @default 0.1 */
  readonly alpha?: number;
  /** `--impact-beta`: β ≥ 1. @default 1.1 */
  readonly beta?: number;
  /** `--impact-rounds`: RN, the last round counted. @default all rounds */
  readonly rounds?: number;
  /** `--npchunk-delta`: δ ≥ 0 (npchunk). @default 0.3 */
  readonly delta?: number;
  /** `--impact-lowercase`. @default false */
  readonly lowercase?: boolean;
}

/** Everything that decides which metric instances a `palette score` run builds. */
export interface MetricSettings {
  /** Scores per segment (`-sl`). @default false */
  readonly sentenceLevel?: boolean;
  readonly bleu?: BleuSettings;
  readonly chrf?: ChrfSettings;
  readonly nist?: NistSettings;
  readonly rouge?: RougeSettings;
  readonly ter?: TerSettings;
  readonly wer?: EditSettings;
  readonly per?: EditSettings;
  readonly gtm?: GtmSettings;
  readonly npchunk?: NpChunkSettings;
  readonly paraeval?: ParaEvalSettings;
}

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
 * {@link TerOp} codes over the hypothesis after its shifts (`Ins` a hypothesis word with no reference counterpart,
 * `Del` a reference word the hypothesis lacks).
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

/** The ROUGE names `-m` takes, as patterns (./rouge/rouge-type.ts). */
export const ROUGE_METRIC_FAMILIES = [
  'rouge-N',
  'rouge-l',
  'rouge-lsum',
  'rouge-w[-WEIGHT]',
  'rouge-sD',
  'rouge-suD',
  'rouge-s*',
  'rouge-su*',
] as const;

/** Whether `-m` meant a ROUGE variant (well formed or not): `rouge…`, any case. */
function isRougeName(id: string): boolean {
  return /^rouge/i.test(id);
}

/** Library option names in ./rouge/options.ts's messages, and the flags that set them. */
const ROUGE_OPTION_FLAGS: readonly (readonly [string, string])[] = [
  ['alpha and beta', '--rouge-alpha and --rouge-beta'],
  ['alpha/beta', '--rouge-alpha/--rouge-beta'],
  ['alpha', '--rouge-alpha'],
  ['beta', '--rouge-beta'],
  ['multiReference', '--rouge-multi-ref'],
  ['limit', '--rouge-limit'],
  ['tokenizer', '--rouge-tokenizer'],
  ['average', '--rouge-average'],
  ['sentence split', '--split-sentences'],
  ['ROUGE-W weight', '--rouge-w-weight'],
];

function createRouge(id: string, settings: MetricSettings): CliMetric {
  const s = settings.rouge ?? {};
  const type = parseRougeType(id, s.wWeight);
  // Without --rouge-flavor the library's default applies (the one table of defaults); the message below names it.
  const flavor = s.flavor ?? defaultRougeFlavor(type);
  const options: RougeOptions = {
    // The id, not the parsed type, so that messages show what -m said.
    type: id,
    wWeight: s.wWeight,
    flavor: s.flavor,
    tokenizer: s.tokenizer,
    stem: s.stem,
    removeStopwords: s.removeStopwords,
    alpha: s.alpha,
    beta: s.beta,
    multiReference: s.multiReference,
    split: s.split,
    limit: s.limit,
    average: s.average,
    jackknife: s.jackknife,
  };
  let rouge: Rouge;
  try {
    rouge = new Rouge(options);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    // The options' own names become the flags that set them, and a defaulted flavor is said, with the way out.
    let message = err.message;
    for (const [name, flag] of ROUGE_OPTION_FLAGS) {
      if (message.startsWith(`${name} must be`)) {
        message = flag + message.slice(name.length);
        break;
      }
    }
    const given = s.flavor !== undefined;
    const hint = given ? '' : ` (no --rouge-flavor: ${rougeTypeId(type)} follows ${flavor}; choose another with --rouge-flavor)`;
    throw new InputError(err.code, `-m ${id}, ${flavor} flavor: ${message}${hint}`);
  }
  return { ...cliMetric(rouge), defaultWidth: 5 };
}

/** The TER of `settings`: sacreBLEU's (default) or tercom's, with `-d`'s alignment of the chosen reference. */
function createTer(settings: MetricSettings): CliMetric {
  const s = settings.ter ?? {};
  const flavor = s.flavor ?? 'sacrebleu';
  if (!(TER_FLAVORS as readonly string[]).includes(flavor)) {
    throw badOption('--ter-flavor', `one of ${TER_FLAVORS.join(', ')}`, flavor);
  }
  const text = {
    caseSensitive: s.caseSensitive,
    asianSupport: s.asianSupport,
    noPunct: s.noPunct,
    normalized: s.normalized,
  };
  if (flavor === 'sacrebleu') {
    for (const [flag, value] of [['--ter-beam', s.beamWidth], ['--ter-max-shift-distance', s.maxShiftDistance]] as const) {
      if (value !== undefined) {
        throw new InputError(
          'E_BAD_OPTION',
          `${flag} applies to --ter-flavor tercom (sacreBLEU's search limits are fixed: beam 25, shift distance 50)`,
        );
      }
    }
  }
  const ter =
    flavor === 'tercom'
      ? new TercomTer({ ...text, beamWidth: s.beamWidth, maxShiftDistance: s.maxShiftDistance })
      : new Ter(text);
  return {
    ...cliMetric(ter),
    align(hyp, prepared, segment) {
      // Each flavor aligns against its own prepared references; `prepared` came from this metric's prepareReferences.
      const a =
        ter instanceof TercomTer
          ? ter.alignSegment(hyp, prepared as Parameters<TercomTer['alignSegment']>[1], segment)
          : ter.alignSegment(hyp, prepared as Parameters<Ter['alignSegment']>[1], segment);
      const best = a.perReference[a.bestRef];
      const alignment = best.alignment ?? {
        shifts: [],
        hypOrder: Int32Array.from(a.hypWords, (_, k) => k),
        ops: new Uint8Array(0),
      };
      return {
        reference: a.bestRef,
        hypWords: a.hypWords,
        refWords: a.refWords[a.bestRef],
        shifts: alignment.shifts,
        hypOrder: alignment.hypOrder,
        ops: alignment.ops,
        edits: best.edits,
      };
    },
  };
}

/** Decimals of the edit metrics' fractions when `-w` is not given (as ROUGE's). */
const FRACTION_WIDTH = 5;

/** WER (jiwer), with its counts in JSON and `-d`'s alignment against the reference with the fewest edits. */
function createWer(settings: MetricSettings): CliMetric {
  const s = settings.wer ?? {};
  const wer = new Wer({ tokenize: s.tokenize, lowercase: s.lowercase });
  const text = editTextOptions(wer.tokenize, wer.lowercase);
  const bounds = new TokenBounds();
  const words = (line: string): string[] => {
    const source = bleuScan(line, text.scanner, text.lowercase, bounds);
    return Array.from({ length: bounds.count }, (_, k) => source.slice(bounds.start(k), bounds.end(k)));
  };
  return {
    ...cliMetric(wer),
    defaultWidth: FRACTION_WIDTH,
    jsonFields: ['hits', 'substitutions', 'deletions', 'insertions'].map((key) => ({ key, detail: key, kind: 'count' })),
    align(hyp, prepared, segment) {
      const refs = prepared as ReturnType<Wer['prepareReferences']>;
      const hypWords = words(hyp);
      let best: SegmentAlignment | undefined;
      for (let j = 0; j < refs.nRefs; j++) {
        const refWords = refWordsOf(refs, segment, j);
        const ops = alignWords(hypWords, refWords);
        let edits = 0;
        for (const op of ops) if (op !== TerOp.Match) edits++;
        // The metric's rule: the fewest edits, the first reference on ties.
        if (best === undefined || edits < best.edits) {
          best = { reference: j, hypWords, refWords, shifts: [], hypOrder: Int32Array.from(hypWords, (_, k) => k), ops, edits };
        }
      }
      return best!;
    },
  };
}

/** Words of reference `j` of `segment`, from the interned references. */
function refWordsOf(refs: ReturnType<Wer['prepareReferences']>, segment: number, j: number): string[] {
  const row = refs.segRefOffsets[segment] + j;
  const out: string[] = [];
  for (let k = refs.refs.offsets[row]; k < refs.refs.offsets[row + 1]; k++) out.push(refs.vocab.token(refs.refs.tokens[k]));
  return out;
}

/** ParaEval over the table `--paraphrase-table` names, loaded (streamed) once here. */
function createParaEval(settings: MetricSettings): CliMetric {
  const s = settings.paraeval ?? {};
  if (s.table === undefined) {
    throw new InputError(
      'E_BAD_OPTION',
      '-m paraeval needs --paraphrase-table FILE (Moses phrase table, PPDB, or tab-separated phrase pairs)',
    );
  }
  const table = loadParaphraseTable(s.table, {
    format: s.format,
    minWords: s.minWords,
    tokenize: s.tokenize,
    lowercase: s.lowercase,
  });
  return {
    ...cliMetric(new ParaEval({ table, score: s.score })),
    defaultWidth: FRACTION_WIDTH,
    jsonFields: [
      { key: 'precision', detail: 'precision', kind: 'rounded' },
      { key: 'recall', detail: 'recall', kind: 'rounded' },
    ],
  };
}

const FACTORIES: ReadonlyMap<string, (settings: MetricSettings) => CliMetric> = new Map([
  ['bleu', createBleu],
  ['chrf', (settings: MetricSettings) => cliMetric(new Chrf({ ...settings.chrf }))],
  // The CLI reports where NIST's oracles give no number instead of printing NaN.
  ['nist', (settings: MetricSettings) => cliMetric(new Nist({ ...settings.nist, onOracleFailure: 'throw' }))],
  ['ter', createTer],
  ['wer', createWer],
  ['per', (settings: MetricSettings) => ({ ...cliMetric(new Per({ ...settings.per })), defaultWidth: FRACTION_WIDTH })],
  [
    'gtm',
    (settings: MetricSettings): CliMetric => ({
      ...cliMetric(new Gtm({ ...settings.gtm })),
      defaultWidth: FRACTION_WIDTH,
      jsonFields: [
        { key: 'precision', detail: 'precision', kind: 'rounded' },
        { key: 'recall', detail: 'recall', kind: 'rounded' },
        { key: 'fmeasure', detail: 'f', kind: 'rounded' },
      ],
    }),
  ],
  ['paraeval', createParaEval],
]);

/** IMPACT and the NP-chunk metric (seed 003): sentence-level scores in 0..1, corpus = their mean. */
const NPCHUNK_FACTORIES: ReadonlyMap<string, (settings: MetricSettings) => CliMetric> = new Map<string, (settings: MetricSettings) => CliMetric>([
  [
    'impact',
    (settings) => {
      const { alpha, beta, rounds, lowercase } = settings.npchunk ?? {};
      return { ...cliMetric(new Impact({ alpha, beta, rounds, lowercase })), defaultWidth: 4 };
    },
  ],
  ['npchunk', (settings) => ({ ...cliMetric(new NpChunk({ ...settings.npchunk })), defaultWidth: 4 })],
]);

const IDS = [...FACTORIES.keys(), ...NPCHUNK_FACTORIES.keys()];

/**
 * The metrics of this build: `bleu`, `chrf`, `nist`, and the ROUGE family (`rouge-1`, `rouge-l`, `rouge-lsum`,
 * `rouge-w`, `rouge-s4`, `rouge-su4`, `rouge-s*`, …).
 */
export const defaultRegistry: MetricRegistry = {
  ids: IDS,
  families: ROUGE_METRIC_FAMILIES,
  resolve(id, settings) {
    // Names are case-insensitive (`-m BLEU`, `-m Chrf`), as ROUGE's always were (`ROUGE-L`).
    const lower = id.toLowerCase();
    if (FACTORIES.has(lower) || NPCHUNK_FACTORIES.has(lower)) return lower;
    if (!isRougeName(id)) throw unknownMetric(id, [...IDS, ...ROUGE_METRIC_FAMILIES]);
    try {
      return rougeTypeId(parseRougeType(id, settings.rouge?.wWeight));
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      throw new InputError(
        'E_UNKNOWN_METRIC',
        `unknown ROUGE metric "${id}" (expected ${ROUGE_METRIC_FAMILIES.join(', ')}; N ≥ 1, D a whole number of gap words)`,
      );
    }
  },
  create(id, settings) {
    const factory = FACTORIES.get(id.toLowerCase()) ?? NPCHUNK_FACTORIES.get(id.toLowerCase());
    if (factory !== undefined) return factory(settings);
    if (isRougeName(id)) return createRouge(id, settings);
    throw unknownMetric(id, [...IDS, ...ROUGE_METRIC_FAMILIES]);
  },
};
