/** BLEU's settings and flavors as the CLI gives them: what ./descriptor.ts reads from the flags and ./factory.ts builds from. */
import type { TokenizerName } from '../../text/tokenizers/index.js';
import type { NltkSmoothingMethod } from './nltk.js';
import type { BleuRefLength } from './ref-length.js';
import type { BleuSmoothMethod } from './score.js';

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
