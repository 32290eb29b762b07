/**
 * The `moses` BLEU flavor behind the common {@link Metric} contract: Moses MERT's `BleuScorer`
 * (mosesdecoder mert/BleuScorer.cpp, StatisticsBasedScorer.cpp) on text, on Moses' 0–1 scale and in its
 * single-precision arithmetic (the statistics and scores of moses.ts).
 *
 * - Text: Moses splits a line on ASCII spaces; `lowercase` is its `case:false` (ASCII letters only). With a
 *   `tokenize` name, the line first goes through that tokenizer (e.g. `13a` for detokenized text) and its tokens
 *   are joined by single spaces, so Moses sees exactly those tokens.
 * - Statistics row (width `2N + 1`), what Moses' `extractor` writes per candidate:
 *   `correct_1 total_1 … correct_N total_N ref_len` (clipped matches and hypothesis n-grams interleaved per order,
 *   then the reference length of the chosen strategy).
 * - Corpus score: `BleuScorer::calculateScore` (no smoothing; 0 when an order has no match; brevity penalty
 *   applied inside the logarithm) of the rows summed the way `StatisticsBasedScorer::score` sums them, in single
 *   precision and in corpus order: {@link MosesBleu.corpusScoreFromRows}. `scoreFromStats` receives column sums
 *   already made in double precision; they are the same numbers while every column sum stays below 2^24.
 * - Sentence score: `smoothedSentenceBleu` (BLEU+1 by default: the smoothing is added to the matches and totals of
 *   every order, and to the reference length with `smoothBP`), Moses' sentence BLEU for PRO and MIRA.
 * - Verbose string: sacrebleu's layout with the n-gram precisions, brevity penalty and ratio in double precision, as
 *   multi-bleu.perl prints them (smoothed counts for sentence scores).
 *
 * Signature (Palette's own: Moses has none): `nrefs:1|flavor:moses|case:mixed|tok:space|reflen:closest|n:4|
 * smooth:none|version:…`; sentence scores say `smooth:add[1.00]` (`add[1.00]+bp` with `smoothBP`).
 */
import { badOption } from '../../errors.js';
import { pyJoinSplit } from '../../text/pystr.js';
import { getTokenizer, type Tokenizer, type TokenizerName } from '../../text/tokenizers/index.js';
import { expCR } from '../../util/correctly-rounded.js';
import { pyFixed } from '../../util/py-fixed.js';
import { formatBleuVerbose } from './format.js';
import {
  mosesBleu,
  mosesBleuStats,
  mosesSmoothedSentenceBleu,
  prepareMosesReferences,
  type MosesReferences,
  type MosesRefLength,
} from './moses.js';
import { checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences } from '../metric.js';
import type { TokenStage } from '../token-stage.js';
import { mosesTokenStage } from './moses-token-stage.js';
import { formatSignature } from '../signature.js';
import { checkStatsWidth } from '../stats-width.js';

/** The reference-length strategies of Moses' `reflen` option. */
export const MOSES_REF_LENGTHS: readonly MosesRefLength[] = ['closest', 'shortest', 'average'];

/** Options of {@link MosesBleu}; every field is optional. */
export interface MosesBleuMetricOptions {
  /**
   * Tokenizer applied before Moses splits on spaces; `undefined` = Moses' own space split of the line as given
   * (for pre-tokenized text, as Moses expects it).
   * @default undefined
   */
  readonly tokenize?: TokenizerName;
  /**
   * Lowercase ASCII letters (Moses `case:false`).
   * @default false
   */
  readonly lowercase?: boolean;
  /**
   * Reference length (`reflen:`): `closest` (ties to the shorter), `shortest`, `average` (truncated, computed in
   * single precision).
   * @default 'closest'
   */
  readonly refLength?: MosesRefLength;
  /**
   * Maximum n-gram order (Moses fixes 4; other orders are Palette's generalisation).
   * @default 4
   */
  readonly maxNgramOrder?: number;
  /**
   * Count added to every order's matches and totals in sentence scores (1 = BLEU+1).
   * @default 1
   */
  readonly smoothing?: number;
  /**
   * Add the smoothing to the reference length too in sentence scores (Moses `smoothBP`).
   * @default false
   */
  readonly smoothBP?: boolean;
}

/** References prepared for {@link MosesBleu}. */
export interface MosesBleuReferences extends PreparedReferences, MosesReferences {
  /** Tokenizer and case setting the references were prepared with (hypotheses must use the same). */
  readonly textKey: string;
}

/** Column names of a Moses statistics row of max order `n`. */
export function mosesStatsColumns(n: number): string[] {
  const cols: string[] = [];
  for (let i = 1; i <= n; i++) cols.push(`correct_${i}`, `total_${i}`);
  cols.push('ref_len');
  return cols;
}

/** Moses' BLEU as a {@link Metric} (see the file comment). */
export class MosesBleu implements Metric<MosesBleuReferences> {
  /** Metric id. */
  readonly id = 'bleu-moses';
  /** `2 * maxNgramOrder + 1`. */
  readonly statsWidth: number;
  /** `correct_1, total_1, …, correct_N, total_N, ref_len`. */
  readonly statsColumns: readonly string[];
  /** Tokenizer applied first, if any. */
  readonly tokenize: TokenizerName | undefined;
  /** ASCII lowercasing. */
  readonly lowercase: boolean;
  /** Reference-length strategy. */
  readonly refLength: MosesRefLength;
  /** Maximum n-gram order. */
  readonly maxNgramOrder: number;
  /** Sentence-score smoothing count. */
  readonly smoothing: number;
  /** Whether sentence scores smooth the reference length too. */
  readonly smoothBP: boolean;
  private readonly tokenizer: Tokenizer | undefined;

  /** @throws InputError `E_BAD_OPTION` / `E_UNKNOWN_TOKENIZER` for a bad option. */
  constructor(options: MosesBleuMetricOptions = {}) {
    this.tokenize = options.tokenize;
    this.tokenizer = options.tokenize === undefined ? undefined : getTokenizer(options.tokenize);
    this.lowercase = options.lowercase ?? false;
    this.refLength = options.refLength ?? 'closest';
    if (!MOSES_REF_LENGTHS.includes(this.refLength)) {
      throw badOption('options.refLength', `one of ${MOSES_REF_LENGTHS.join(', ')}`, options.refLength);
    }
    this.maxNgramOrder = options.maxNgramOrder ?? 4;
    if (!Number.isInteger(this.maxNgramOrder) || this.maxNgramOrder < 1) {
      throw badOption('options.maxNgramOrder', 'an integer >= 1', options.maxNgramOrder);
    }
    this.smoothing = options.smoothing ?? 1;
    if (typeof this.smoothing !== 'number' || !Number.isFinite(this.smoothing) || this.smoothing < 0) {
      throw badOption('options.smoothing', 'a finite number >= 0', options.smoothing);
    }
    this.smoothBP = options.smoothBP ?? false;
    this.statsWidth = 2 * this.maxNgramOrder + 1;
    this.statsColumns = mosesStatsColumns(this.maxNgramOrder);
  }

  private signatureOf(smooth: string, nRefs: number, short: boolean): string {
    return formatSignature(
      { nRefs },
      [
        { key: 'flavor', abbr: 'f', value: 'moses' },
        { key: 'case', abbr: 'c', value: this.lowercase ? 'lc' : 'mixed' },
        { key: 'tok', abbr: 'tok', value: this.tokenize ?? 'space' },
        { key: 'reflen', abbr: 'rl', value: this.refLength },
        { key: 'n', abbr: 'n', value: this.maxNgramOrder },
        { key: 'smooth', abbr: 's', value: smooth },
      ],
      short,
    );
  }

  /** Signature of corpus scores (`…|smooth:none|…`). */
  signature(nRefs: number, short = false): string {
    return this.signatureOf('none', nRefs, short);
  }

  /** Signature of sentence scores (`…|smooth:add[1.00]|…`). */
  sentenceSignature(nRefs: number, short = false): string {
    return this.signatureOf(`add[${pyFixed(this.smoothing, 2)}]${this.smoothBP ? '+bp' : ''}`, nRefs, short);
  }

  private get textKey(): string {
    return `${this.tokenize ?? ''}|${this.lowercase ? 'lc' : 'mixed'}`;
  }

  /** The line as Moses receives it: as given, or the tokenizer's tokens joined by single spaces. */
  private text(lines: readonly string[]): readonly string[] {
    const tokenizer = this.tokenizer;
    return tokenizer === undefined ? lines : lines.map((l) => pyJoinSplit(tokenizer(l)));
  }

  /**
   * Tokenizes and interns references (`refStreams[j][i]` = reference `j` of segment `i`).
   * @throws InputError `E_EMPTY_INPUT` without reference streams, `E_LINE_COUNT_MISMATCH` when streams differ.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): MosesBleuReferences {
    checkReferenceStreams('BLEU', refStreams);
    const refs = prepareMosesReferences(
      refStreams.map((s) => this.text(s)),
      { lowercase: this.lowercase },
    );
    return { ...refs, textKey: this.textKey };
  }

  /**
   * Moses statistics rows of `hyps[i]` against segment `i` (the row writer of {@link tokenStage}, with the identity
   * candidate→segment map).
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   * @throws TypeError when the references were prepared with another tokenizer or case setting.
   */
  segmentStats(hyps: readonly string[], refs: MosesBleuReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    if (refs.textKey !== this.textKey) {
      throw new TypeError(
        `Moses BLEU references were prepared with tokenize|case ${refs.textKey}, not ${this.textKey}`,
      );
    }
    const ids = new Int32Array(hyps.length);
    for (let i = 0; i < ids.length; i++) ids[i] = i;
    return mosesBleuStats(this.text(hyps), ids, refs, { refLength: this.refLength, order: this.maxNgramOrder });
  }

  /**
   * The token stage (../token-stage.ts) of Moses' own space split: the rows of `segmentStats`, whose tokens are the
   * chunks of the line. Undefined with `lowercase` or a `tokenize` name (they change the text before the split).
   */
  tokenStage(): TokenStage | undefined {
    if (this.tokenize !== undefined || this.lowercase) return undefined;
    return mosesTokenStage(this.maxNgramOrder, this.refLength);
  }

  private checkWidth(row: ArrayLike<number>): void {
    checkStatsWidth('Moses BLEU', row, this.statsWidth);
  }

  /**
   * Corpus BLEU (0–1) from column sums: `BleuScorer::calculateScore` of the sums rounded to single precision.
   * @throws RangeError when `totals` is not {@link statsWidth} long.
   */
  scoreFromStats(totals: Float64Array): MetricScore {
    this.checkWidth(totals);
    return this.result(totals, mosesBleu(totals, this.maxNgramOrder), 0, false);
  }

  /**
   * Corpus BLEU (0–1) from the statistics rows in corpus order, summed in single precision as Moses sums them.
   * @throws RangeError when the rows are not a whole number of {@link statsWidth}-wide rows.
   */
  corpusScoreFromRows(rows: Float64Array): MetricScore {
    const w = this.statsWidth;
    if (rows.length % w !== 0) throw new RangeError(`Moses BLEU rows must be ${w} numbers wide`);
    const sums = new Float64Array(w);
    for (let i = 0; i < rows.length; i += w) for (let c = 0; c < w; c++) sums[c] = Math.fround(sums[c] + rows[i + c]);
    return this.scoreFromStats(sums);
  }

  /**
   * Sentence BLEU (0–1) from one row: Moses' `smoothedSentenceBleu` with {@link smoothing} and {@link smoothBP}.
   * @throws RangeError when `row` is not {@link statsWidth} long.
   */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    this.checkWidth(row);
    const score = mosesSmoothedSentenceBleu(row, this.smoothing, this.smoothBP, this.maxNgramOrder);
    return this.result(row, score, this.smoothing, this.smoothBP);
  }

  /** The score with the numbers multi-bleu.perl prints beside it (double precision; `add` added to counts). */
  private result(stats: ArrayLike<number>, score: number, add: number, smoothBP: boolean): MetricScore {
    const n = this.maxNgramOrder;
    const counts: number[] = [];
    const totals: number[] = [];
    const precisions: number[] = [];
    for (let i = 0; i < n; i++) {
      counts.push(stats[2 * i] + add);
      totals.push(stats[2 * i + 1] + add);
      precisions.push(totals[i] > 0 ? (100 * counts[i]) / totals[i] : 0);
    }
    const sysLen = stats[1];
    const refLen = stats[2 * n] + (smoothBP ? add : 0);
    const bp = sysLen >= refLen ? 1 : sysLen > 0 ? expCR(1 - refLen / sysLen) : 0;
    const ratio = refLen > 0 ? sysLen / refLen : 0;
    return {
      name: 'BLEU',
      score,
      verboseScore: formatBleuVerbose(precisions, bp, ratio, sysLen, refLen),
      details: { counts, totals, precisions, bp, ratio, sysLen, refLen },
    };
  }
}
