/**
 * Options of the ROUGE metrics, their per-flavor defaults and their validation.
 *
 * A flavor fixes what the reference implementation it names does; the other options only select among the
 * things that implementation can do:
 * - `rouge155` — ROUGE-1.5.5.pl: its tokenizer, stemmer (`-m`), stopwords (`-s`), `-l`/`-b` limits; ROUGE-L/W
 *   over sentences with hits clipped by unigram counts; multi-reference `-f A` (`pool`) or `-f B` (`best-recall`);
 *   F = P·R / ((1−α)P + αR) with `-p α` (0.5), every R, P and F rounded to 5 decimals per unit as ROUGE does.
 * - `rouge-score` — google-research rouge-score 0.1.2: rouge1–rouge9, rougeL, rougeLsum (`\n`-split sentences);
 *   `score_multi` (`best-f`); F1 only.
 * - `paper` — the definitions of Lin & Och (2004): ROUGE-L/W on whole texts with the textbook WLCS, multiple
 *   references by the maximum recall and the maximum precision (§3.2), ROUGE-SU counting every unigram,
 *   F = (1+β²)RP / (R+β²P), β = 1; summary-level union LCS (Lin 2004 §3.2) without clipping.
 * Case, NoCase and Stem sets (the paper's §5) are tokenizer options: a sacrebleu tokenizer keeps case, ROUGE's
 * tokenizers lowercase, `stem` stems.
 */
import { badOption } from '../../errors.js';
import type { Rouge155Limit } from '../../text/rouge/index.js';
import { parseSentenceSplit, type SentenceSplit } from '../../text/rouge/sentence-split.js';
import { isRougeTokenizerName, ROUGE_TOKENIZER_NAMES, type RougeTokenizerName } from '../../text/rouge/tokenizer-names.js';
import { isTokenizerName, TOKENIZER_NAMES, type TokenizerName } from '../../text/tokenizers/index.js';
import { checkRougeType, parseRougeType, type RougeType } from './rouge-type.js';

/** The reference implementations a ROUGE metric can follow. */
export const ROUGE_FLAVORS = ['rouge155', 'rouge-score', 'paper'] as const;
/** One of {@link ROUGE_FLAVORS}. */
export type RougeFlavor = (typeof ROUGE_FLAVORS)[number];

/**
 * How several references of a segment combine:
 * - `pool`: hits and counts summed over references (ROUGE-1.5.5 `-f A`; the hypothesis is counted once per
 *   reference);
 * - `best-recall`: the reference with the best recall, the first on ties (`-f B`);
 * - `best-f`: the reference with the best F, the first on ties (rouge-score `score_multi`);
 * - `max`: the best recall and the best precision, possibly of different references, F from them (paper §3.2).
 */
export const ROUGE_MULTI_REFERENCE = ['pool', 'best-recall', 'best-f', 'max'] as const;
/** One of {@link ROUGE_MULTI_REFERENCE}. */
export type RougeMultiReference = (typeof ROUGE_MULTI_REFERENCE)[number];

/**
 * How segments make a corpus score: `segment` averages the segments' P, R, F (rouge-score's and ROUGE-1.5.5
 * `-t 0`'s way, without ROUGE's bootstrap); `pooled` computes P, R, F from the summed counts (`-t 1`).
 */
export type RougeAverage = 'segment' | 'pooled';

/** Options of a ROUGE metric. Defaults depend on the flavor (see each field). */
export interface RougeOptions {
  /** The variant: a {@link RougeType} or its id (`rouge-2`, `rougeL`, `rouge-su4`, …). */
  readonly type: RougeType | string;
  /**
   * Which implementation to follow. @default {@link defaultRougeFlavor} of the type: 'rouge-score' for rouge-1 …
   * rouge-9, rouge-l and rouge-lsum, 'rouge155' for the rest (the same default as `palette score -m`)
   */
  readonly flavor?: RougeFlavor;
  /** ROUGE-W's exponent when `type` is an id without one (`rouge-w`). @default 1.2 */
  readonly wWeight?: number;
  /**
   * Tokenizer: a ROUGE tokenizer (`rouge155`, `rouge-score`, `rouge-unicode`: lowercase, alphanumeric runs) or a
   * sacrebleu one (`13a`, `intl`, `zh`, `zh-fixed`, `char`, `none`: case kept unless `lowercase`).
   * @default 'rouge-score' for the rouge-score flavor, 'rouge155' otherwise
   */
  readonly tokenizer?: RougeTokenizerName | TokenizerName;
  /** Lowercase before a sacrebleu tokenizer (ROUGE tokenizers always lowercase). @default false */
  readonly lowercase?: boolean;
  /** Stem tokens longer than 3 characters with the tokenizer's stemmer (ROUGE-1.5.5 `-m`). @default false */
  readonly stem?: boolean;
  /** Remove SMART stopwords (ROUGE-1.5.5 `-s`). @default false */
  readonly removeStopwords?: boolean;
  /**
   * Where sentences end, for summary-level ROUGE-L (`rouge-lsum`) and, in the rouge155 flavor, for ROUGE-W and the
   * `-l`/`-b` limits: a {@link SentenceSplit} or its name (`none`, `newline`, `punct`, `t-tags`, `marker:STR`).
   * `t-tags` and `marker:STR` are markup for every type: the tags, the markers and text outside the `<t>` elements
   * are no words, and types that read the whole summary read its sentences' tokens in order.
   * @default 'newline' for the rouge-score flavor (rougeLsum's rule), 'none' otherwise
   */
  readonly split?: SentenceSplit | string;
  /** ROUGE-1.5.5's `-l N` / `-b N` (rouge155 flavor only). @default no limit */
  readonly limit?: Rouge155Limit;
  /**
   * Multi-reference combination.
   * @default 'pool' (rouge155), 'best-f' (rouge-score), 'max' (paper)
   */
  readonly multiReference?: RougeMultiReference;
  /**
   * F = P·R / ((1−α)P + αR) (ROUGE-1.5.5 `-p`); not with `beta`, not in the rouge-score flavor.
   * @default 0.5 (rouge155)
   */
  readonly alpha?: number;
  /** F = (1+β²)RP / (R+β²P); not with `alpha`, not in the rouge-score flavor. @default 1 (paper) */
  readonly beta?: number;
  /** Corpus reduction. @default 'segment' */
  readonly average?: RougeAverage;
  /**
   * Jackknifing (paper §5): with N ≥ 2 references, a segment's P, R and F are the averages of the N scores
   * against each set of N−1 references (one reference left out in turn). @default false
   */
  readonly jackknife?: boolean;
}

/** {@link RougeOptions} with every default filled in and checked. */
export interface ResolvedRougeOptions {
  /** The variant. */
  readonly type: RougeType;
  /** The implementation followed. */
  readonly flavor: RougeFlavor;
  /** The tokenizer. */
  readonly tokenizer: RougeTokenizerName | TokenizerName;
  /** Lowercase before a sacrebleu tokenizer. */
  readonly lowercase: boolean;
  /** Stem tokens longer than 3 characters. */
  readonly stem: boolean;
  /** Remove SMART stopwords. */
  readonly removeStopwords: boolean;
  /** The sentence-splitting rule. */
  readonly split: SentenceSplit;
  /** ROUGE-1.5.5's limit (0 = none). */
  readonly limit: Required<Rouge155Limit>;
  /** The multi-reference combination. */
  readonly multiReference: RougeMultiReference;
  /** The F-measure's weighting: α-form (`alpha`), β-form (`beta`) or rouge-score's F1. */
  readonly weighting:
    | { readonly form: 'alpha'; readonly alpha: number }
    | { readonly form: 'beta'; readonly beta: number }
    | { readonly form: 'f1' };
  /** The corpus reduction. */
  readonly average: RougeAverage;
  /** Whether segments are jackknifed over their references. */
  readonly jackknife: boolean;
}

const DEFAULT_MULTI_REFERENCE: Record<RougeFlavor, RougeMultiReference> = {
  rouge155: 'pool',
  'rouge-score': 'best-f',
  paper: 'max',
};

/** Multi-reference modes each flavor has. */
const FLAVOR_MULTI_REFERENCE: Record<RougeFlavor, readonly RougeMultiReference[]> = {
  rouge155: ['pool', 'best-recall'],
  'rouge-score': ['best-f'],
  paper: ['max', 'best-f', 'best-recall', 'pool'],
};

function checkLimitValue(name: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isInteger(value) || value < 0) throw badOption(name, 'a non-negative integer', value);
  return value;
}

/**
 * The flavor a ROUGE variant follows when none is chosen, in the library and on the command line alike: the
 * implementation users know it from — rouge-score for what rouge-score computes (rouge1–rouge9, rougeL, rougeLsum:
 * what `evaluate`/`torchmetrics` users get), ROUGE-1.5.5 for the rest (ROUGE-W, ROUGE-S/SU, ROUGE-N above 9), which
 * only it defines.
 */
export function defaultRougeFlavor(type: RougeType): RougeFlavor {
  const inRougeScore = type.kind === 'l' || type.kind === 'lsum' || (type.kind === 'n' && type.n <= 9);
  return inRougeScore ? 'rouge-score' : 'rouge155';
}

/**
 * Fills in the defaults of `options` and checks them.
 * @throws InputError `E_BAD_OPTION` for an unknown flavor/type/tokenizer/mode or a combination the flavor does
 *   not have (e.g. ROUGE-W or α in the rouge-score flavor, a limit outside the rouge155 flavor).
 */
export function resolveRougeOptions(options: RougeOptions): ResolvedRougeOptions {
  if (options === null || typeof options !== 'object') throw badOption('ROUGE options', 'an object', options);
  const type =
    typeof options.type === 'string' ? parseRougeType(options.type, options.wWeight) : checkRougeType(options.type);
  const flavor = options.flavor ?? defaultRougeFlavor(type);
  if (!(ROUGE_FLAVORS as readonly string[]).includes(flavor)) {
    throw badOption('flavor', `one of ${ROUGE_FLAVORS.join(', ')}`, flavor);
  }

  const tokenizer = options.tokenizer ?? (flavor === 'rouge-score' ? 'rouge-score' : 'rouge155');
  if (!isRougeTokenizerName(tokenizer) && !isTokenizerName(tokenizer)) {
    throw badOption('tokenizer', `one of ${[...ROUGE_TOKENIZER_NAMES, ...TOKENIZER_NAMES].join(', ')}`, tokenizer);
  }
  const lowercase = options.lowercase ?? false;
  if (lowercase && isRougeTokenizerName(tokenizer)) {
    // Not an error in substance, but a setting that would do nothing deserves to be refused, not ignored.
    throw badOption('lowercase', `unset with the ${tokenizer} tokenizer (it always lowercases)`, lowercase);
  }

  const split =
    options.split === undefined
      ? parseSentenceSplit(flavor === 'rouge-score' ? 'newline' : 'none')
      : typeof options.split === 'string'
        ? parseSentenceSplit(options.split)
        : options.split;

  const limit = {
    words: checkLimitValue('limit.words', options.limit?.words),
    bytes: checkLimitValue('limit.bytes', options.limit?.bytes),
  };
  if (limit.words > 0 && limit.bytes > 0) throw badOption('limit', 'words or bytes, not both', options.limit);
  if ((limit.words > 0 || limit.bytes > 0) && flavor !== 'rouge155') {
    throw badOption('limit', 'unset outside the rouge155 flavor (it is ROUGE-1.5.5 -l/-b)', options.limit);
  }

  if (flavor === 'rouge-score') {
    const ok = type.kind === 'l' || type.kind === 'lsum' || (type.kind === 'n' && type.n <= 9);
    if (!ok) throw badOption('type', 'rouge1..rouge9, rougeL or rougeLsum in the rouge-score flavor', options.type);
  }

  const multiReference = options.multiReference ?? DEFAULT_MULTI_REFERENCE[flavor];
  if (!FLAVOR_MULTI_REFERENCE[flavor].includes(multiReference)) {
    throw badOption(
      'multiReference',
      `one of ${FLAVOR_MULTI_REFERENCE[flavor].join(', ')} in the ${flavor} flavor`,
      multiReference,
    );
  }

  let weighting: ResolvedRougeOptions['weighting'];
  if (options.alpha !== undefined && options.beta !== undefined) {
    throw badOption('alpha and beta', 'not both set', [options.alpha, options.beta]);
  }
  if (flavor === 'rouge-score') {
    if (options.alpha !== undefined || options.beta !== undefined) {
      throw badOption('alpha/beta', 'unset in the rouge-score flavor (F1 only)', options.alpha ?? options.beta);
    }
    weighting = { form: 'f1' };
  } else if (options.alpha !== undefined) {
    if (!(options.alpha >= 0 && options.alpha <= 1)) throw badOption('alpha', 'a number from 0 to 1', options.alpha);
    weighting = { form: 'alpha', alpha: options.alpha };
  } else if (options.beta !== undefined) {
    if (!(Number.isFinite(options.beta) && options.beta >= 0)) {
      throw badOption('beta', 'a finite number ≥ 0', options.beta);
    }
    weighting =
      flavor === 'rouge155'
        ? { form: 'alpha', alpha: 1 / (1 + options.beta * options.beta) }
        : { form: 'beta', beta: options.beta };
  } else {
    weighting = flavor === 'rouge155' ? { form: 'alpha', alpha: 0.5 } : { form: 'beta', beta: 1 };
  }

  const average = options.average ?? 'segment';
  if (average !== 'segment' && average !== 'pooled') throw badOption('average', '"segment" or "pooled"', average);
  const jackknife = options.jackknife ?? false;
  if (jackknife && average === 'pooled') {
    throw badOption('average', '"segment" with jackknife (jackknifed scores have no counts to pool)', average);
  }
  return {
    type,
    flavor,
    tokenizer,
    lowercase,
    stem: options.stem ?? false,
    removeStopwords: options.removeStopwords ?? false,
    split,
    limit,
    multiReference,
    weighting,
    average,
    jackknife,
  };
}
