/**
 * BLEU as sacrebleu 2.6.0 computes it (`sacrebleu.metrics.BLEU`): corpus BLEU from summed per-segment statistics,
 * sentence BLEU (`sentence_score`), multiple references (n-gram counts max-merged over references, closest
 * reference length), every tokenizer of src/text, smoothing none/floor/add-k/exp, effective order, any maximum
 * order. Character BLEU "BLEUcM" (Denoual & Lepage 2005) is this metric with `tokenize: 'char'` and
 * `maxNgramOrder: M`.
 *
 * Statistics row (`statsColumns`), `2 + 2N` numbers for max order N:
 * `[hyp_len, ref_len, correct_1 … correct_N, total_1 … total_N]` — hypothesis length, the segment's reference
 * length (per `refLength`), clipped n-gram matches per order, hypothesis n-grams per order.
 *
 * Signature: exactly sacrebleu 2.6.0's (`nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:…` with Palette's
 * version; `smooth:floor[0.10]`, `smooth:add-k[1.00]`, `case:lc`, `eff:yes`). Like sacrebleu it does not record the
 * maximum order — the goldens' order-2 and order-6 records carry the order-4 signature, and Palette keeps them
 * identical rather than add a field sacrebleu never prints; callers that vary the order must say so themselves
 * (e.g. in the metric name, BLEUc18). The only field of Palette's own is `reflen:` for the non-sacrebleu
 * reference-length strategies.
 */
import { badOption } from '../../errors.js';
import { getTokenizer, type TokenizerName } from '../../text/tokenizers/index.js';
import { pyFixed } from '../../util/py-fixed.js';
import { clippedNgramCounts, perReferenceNgramCounts } from '../../wasm/ngram.js';
import type { Csr } from '../../text/csr.js';
import {
  PAIR_BLOCK, checkPairRange, csrSlice, hypothesesPerBlock, referenceBlocks, type PairwiseStage, type PairwiseTexts,
} from '../pairwise.js';
import {
  NgramIds, aggregateMatches, aggregateReferences, bagPairStats, bagScoreRows, ngramBags, ngramPostings, tiledPairScores, worthBags,
  type BagPairing, type NgramBags,
  type NgramIndex,
} from '../ngram-bags.js';
import { formatBleuVerbose } from './format.js';
import {
  BLEU_DEFAULT_MAX_ORDER,
  BLEU_SMOOTH_DEFAULTS,
  BLEU_SMOOTH_METHODS,
  bleuFromStats,
  bleuScore,
  type BleuReduction,
  type BleuResult,
  type BleuSmoothMethod,
} from './score.js';
import { bleuTextOptions, internHypotheses, internReferences, type BleuTextOptions, type InternedReferences } from './text.js';
import {
  checkCandidateSegments, checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences,
} from '../metric.js';
import { formatSignature, type SignatureField } from '../signature.js';
import { checkStatsWidth } from '../stats-width.js';
import { BLEU_REF_LENGTHS, type BleuRefLength } from './ref-length.js';

export { BLEU_REF_LENGTHS, type BleuRefLength } from './ref-length.js';

/** Options of {@link Bleu}; every field is optional. */
export interface BleuOptions {
  /**
   * Maximum n-gram order N. sacrebleu's signature does not record it (nor does Palette's, to stay identical).
   * @default 4
   */
  readonly maxNgramOrder?: number;
  /**
   * Smoothing: `none`, `floor` (Chen & Cherry method 1), `add-k` (method 2), `exp` (method 3, mteval-v13a).
   * @default 'exp'
   */
  readonly smoothMethod?: BleuSmoothMethod;
  /**
   * Value for `floor` and `add-k`.
   * @default 0.1 for `floor`, 1 for `add-k`
   */
  readonly smoothValue?: number;
  /**
   * Average only over the orders that have hypothesis n-grams. When left undefined: off for corpus scores, on for
   * sentence scores (sacrebleu's CLI `--sentence-level` and every sentence-BLEU recommendation); when set, it
   * applies to both, as in sacrebleu's API.
   */
  readonly effectiveOrder?: boolean;
  /**
   * Lowercase (Python `str.lower()`) before tokenizing.
   * @default false
   */
  readonly lowercase?: boolean;
  /**
   * Tokenizer name (src/text/tokenizers).
   * @default '13a'
   */
  readonly tokenize?: TokenizerName;
  /**
   * Reference length per segment: `closest` to the hypothesis length (ties to the shorter; sacrebleu, mteval,
   * NLTK), `shortest` (mteval `--brevity-penalty shortest`), `average` (mean of the reference lengths, not
   * rounded). Only `closest` exists in sacrebleu; the others add `reflen:` to the signature.
   * @default 'closest'
   */
  readonly refLength?: BleuRefLength;
}

/** {@link BleuOptions} with every default filled in (see there for each field). */
export interface ResolvedBleuOptions {
  /** Maximum n-gram order. */
  readonly maxNgramOrder: number;
  /** Smoothing method. */
  readonly smoothMethod: BleuSmoothMethod;
  /** The smoothing value in effect (`null` for `none` and `exp`). */
  readonly smoothValue: number | null;
  /** `undefined` = corpus off, sentence on. */
  readonly effectiveOrder: boolean | undefined;
  /** Lowercase before tokenizing. */
  readonly lowercase: boolean;
  /** Tokenizer name. */
  readonly tokenize: TokenizerName;
  /** Reference-length strategy. */
  readonly refLength: BleuRefLength;
}

/** Validates options and fills in defaults; throws `InputError` (`E_BAD_OPTION`) on a bad value. */
export function resolveBleuOptions(options: BleuOptions = {}): ResolvedBleuOptions {
  const maxNgramOrder = options.maxNgramOrder ?? BLEU_DEFAULT_MAX_ORDER;
  if (!Number.isInteger(maxNgramOrder) || maxNgramOrder < 1) {
    throw badOption('options.maxNgramOrder', 'an integer >= 1', options.maxNgramOrder);
  }
  const smoothMethod = options.smoothMethod ?? 'exp';
  if (!BLEU_SMOOTH_METHODS.includes(smoothMethod)) {
    throw badOption('options.smoothMethod', `one of ${BLEU_SMOOTH_METHODS.join(', ')}`, options.smoothMethod);
  }
  const takesValue = BLEU_SMOOTH_DEFAULTS[smoothMethod] !== null;
  if (
    options.smoothValue !== undefined &&
    (typeof options.smoothValue !== 'number' || !Number.isFinite(options.smoothValue))
  ) {
    throw badOption('options.smoothValue', 'a finite number', options.smoothValue);
  }
  const smoothValue = takesValue ? (options.smoothValue ?? BLEU_SMOOTH_DEFAULTS[smoothMethod]) : null;
  const tokenize = options.tokenize ?? '13a';
  getTokenizer(tokenize); // throws InputError E_UNKNOWN_TOKENIZER for an unknown name
  const refLength = options.refLength ?? 'closest';
  if (!BLEU_REF_LENGTHS.includes(refLength)) {
    throw badOption('options.refLength', `one of ${BLEU_REF_LENGTHS.join(', ')}`, options.refLength);
  }
  if (options.effectiveOrder !== undefined && typeof options.effectiveOrder !== 'boolean') {
    throw badOption('options.effectiveOrder', 'a boolean', options.effectiveOrder);
  }
  if (options.lowercase !== undefined && typeof options.lowercase !== 'boolean') {
    throw badOption('options.lowercase', 'a boolean', options.lowercase);
  }
  return {
    maxNgramOrder,
    smoothMethod,
    smoothValue,
    effectiveOrder: options.effectiveOrder,
    lowercase: options.lowercase ?? false,
    tokenize,
    refLength,
  };
}

/** References prepared for {@link Bleu}: tokenized, interned, lengths known. Immutable; share across systems. */
export interface BleuReferences extends PreparedReferences, InternedReferences {
  /** References per segment (every segment has the same number). */
  readonly nRefs: number;
  /** Token count of every reference row (row order of `refs`). */
  readonly refLengths: Int32Array;
  /** Tokenizer and case setting the references were prepared with (hypotheses must use the same). */
  readonly textKey: string;
}

/** References per tile of the per-reference kernel path of the pairwise stage. */
const KERNEL_TILE_COLUMNS = 256;

/** Texts prepared as references of {@link Bleu}'s pairwise stage: each text its own one-reference segment. */
export interface BleuPairReferences extends BleuReferences, PairwiseTexts {
  /** The texts themselves (hypotheses that are the same array are not prepared again). */
  readonly texts: readonly string[];
  /** The references' n-gram bags (orders 1..maxNgramOrder) and their index, built on first use. */
  index?: NgramIndex;
}

/** Texts prepared as hypotheses of {@link Bleu}'s pairwise stage: token ids in the references' vocabulary. */
export interface BleuPairHypotheses extends PairwiseTexts {
  /** Token ids of every text. */
  readonly tokens: Csr;
  /** Whether the texts are the references themselves (their bags are the references'). */
  readonly self: boolean;
  /** Each text's n-gram bags in the references' ids (only n-grams some reference has), built on first use. */
  bags?: NgramBags;
}

/** The reference length sacrebleu-style BLEU uses for a hypothesis of `hypLen` tokens. */
export function chooseRefLength(
  strategy: BleuRefLength,
  hypLen: number,
  lengths: ArrayLike<number>,
  from: number,
  to: number,
): number {
  if (strategy === 'closest') {
    let bestDiff = -1;
    let best = -1;
    for (let r = from; r < to; r++) {
      const len = lengths[r];
      const diff = Math.abs(hypLen - len);
      if (bestDiff === -1 || diff < bestDiff || (diff === bestDiff && len < best)) {
        bestDiff = diff;
        best = len;
      }
    }
    return best;
  }
  if (strategy === 'shortest') {
    let best = Infinity;
    for (let r = from; r < to; r++) best = Math.min(best, lengths[r]);
    return best;
  }
  let sum = 0;
  for (let r = from; r < to; r++) sum += lengths[r];
  return sum / (to - from);
}

/** Column names of a BLEU statistics row of max order `n`. */
export function bleuStatsColumns(n: number): string[] {
  const cols = ['hyp_len', 'ref_len'];
  for (let i = 1; i <= n; i++) cols.push(`correct_${i}`);
  for (let i = 1; i <= n; i++) cols.push(`total_${i}`);
  return cols;
}

/** sacrebleu's BLEU (see the file comment). */
export class Bleu implements Metric<BleuReferences> {
  /** Metric id. */
  readonly id = 'bleu';
  /** The options in effect. */
  readonly options: ResolvedBleuOptions;
  /** `2 + 2 * maxNgramOrder`. */
  readonly statsWidth: number;
  /** `hyp_len, ref_len, correct_1..N, total_1..N`. */
  readonly statsColumns: readonly string[];
  private readonly text: BleuTextOptions;
  private readonly corpusReduction: BleuReduction;
  private readonly sentenceReduction: BleuReduction;

  constructor(options: BleuOptions = {}) {
    this.options = resolveBleuOptions(options);
    const o = this.options;
    this.statsWidth = 2 + 2 * o.maxNgramOrder;
    this.statsColumns = bleuStatsColumns(o.maxNgramOrder);
    this.text = bleuTextOptions(o.tokenize, o.lowercase);
    const base = { maxNgramOrder: o.maxNgramOrder, smoothMethod: o.smoothMethod, smoothValue: o.smoothValue };
    this.corpusReduction = { ...base, effectiveOrder: o.effectiveOrder ?? false };
    this.sentenceReduction = { ...base, effectiveOrder: o.effectiveOrder ?? true };
  }

  private signatureFields(effectiveOrder: boolean): SignatureField[] {
    const o = this.options;
    const smooth = o.smoothValue === null ? o.smoothMethod : `${o.smoothMethod}[${pyFixed(o.smoothValue, 2)}]`;
    return [
      { key: 'case', abbr: 'c', value: o.lowercase ? 'lc' : 'mixed' },
      { key: 'eff', abbr: 'e', value: effectiveOrder },
      { key: 'tok', abbr: 'tok', value: o.tokenize },
      { key: 'smooth', abbr: 's', value: smooth },
      // Palette's own setting, absent from sacrebleu: printed only when it is not sacrebleu's behaviour.
      { key: 'reflen', abbr: 'rl', value: o.refLength === 'closest' ? null : o.refLength },
    ];
  }

  /**
   * Signature of corpus scores, exactly sacrebleu's (`nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:…`)
   * with Palette's version. `nRefs < 0` prints `var`.
   */
  signature(nRefs: number, short = false): string {
    return formatSignature({ nRefs }, this.signatureFields(this.corpusReduction.effectiveOrder), short);
  }

  /** Signature of sentence scores (differs from {@link signature} only in `eff` when effective order is defaulted). */
  sentenceSignature(nRefs: number, short = false): string {
    return formatSignature({ nRefs }, this.signatureFields(this.sentenceReduction.effectiveOrder), short);
  }

  /** Key of the text settings: references prepared by one BLEU can serve another with the same key. */
  get textKey(): string {
    return `${this.options.tokenize}|${this.options.lowercase ? 'lc' : 'mixed'}`;
  }

  /**
   * Tokenizes and interns references. `refStreams[j][i]` is reference `j` of segment `i`.
   * @throws InputError `E_EMPTY_INPUT` without reference streams, `E_LINE_COUNT_MISMATCH` when streams differ in length.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): BleuReferences {
    const segments = checkReferenceStreams('BLEU', refStreams);
    const interned = internReferences(refStreams, segments, this.text);
    const nRows = interned.refs.offsets.length - 1;
    const refLengths = new Int32Array(nRows);
    for (let r = 0; r < nRows; r++) refLengths[r] = interned.refs.offsets[r + 1] - interned.refs.offsets[r];
    return { ...interned, segments, nRefs: refStreams.length, refLengths, textKey: this.textKey };
  }

  /**
   * Statistics rows of `hyps[i]` against segment `i` (row-major, {@link statsWidth} per segment).
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   * @throws TypeError when the references were prepared with another tokenizer or case setting.
   */
  segmentStats(hyps: readonly string[], refs: BleuReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    return this.rows(hyps, null, refs);
  }

  /**
   * Rows of candidates grouped by segment (`Metric.candidateStats`): one n-gram kernel call builds each segment's
   * reference table once for all of its candidates.
   * @throws RangeError when `segmentOf` does not give each candidate a segment of `refs`, in non-decreasing order.
   */
  candidateStats(hyps: readonly string[], segmentOf: Int32Array, refs: BleuReferences): Float64Array {
    checkCandidateSegments(hyps.length, segmentOf, refs.segments);
    return this.rows(hyps, segmentOf, refs);
  }

  /** Rows of `hyps[i]` against segment `segmentOf[i]` (`i` when null). */
  private rows(hyps: readonly string[], segmentOf: Int32Array | null, refs: BleuReferences): Float64Array {
    if (refs.textKey !== this.textKey) {
      throw new TypeError(`BLEU references were prepared with tokenize|case ${refs.textKey}, not ${this.textKey}`);
    }
    const n = this.options.maxNgramOrder;
    const hypCsr = internHypotheses(hyps, refs, this.text);
    const counts = clippedNgramCounts(
      { hyps: hypCsr, hypSegment: segmentOf, refs: refs.refs, segRefOffsets: refs.segRefOffsets },
      n,
    );
    const width = this.statsWidth;
    const out = new Float64Array(hyps.length * width);
    for (let i = 0; i < hyps.length; i++) {
      const s = segmentOf === null ? i : segmentOf[i];
      const hypLen = hypCsr.offsets[i + 1] - hypCsr.offsets[i];
      const row = i * width;
      out[row] = hypLen;
      out[row + 1] = chooseRefLength(
        this.options.refLength,
        hypLen,
        refs.refLengths,
        refs.segRefOffsets[s],
        refs.segRefOffsets[s + 1],
      );
      out.set(counts.subarray(i * 2 * n, (i + 1) * 2 * n), row + 2);
    }
    return out;
  }

  private checkTextKey(refs: BleuReferences): void {
    if (refs.textKey !== this.textKey) {
      throw new TypeError(`BLEU references were prepared with tokenize|case ${refs.textKey}, not ${this.textKey}`);
    }
  }

  /**
   * The pairwise stage (src/metrics/pairwise.ts): each text tokenized once and its n-grams counted once into bags
   * with ids shared by all texts (../ngram-bags.ts); a hypothesis is scored against every reference in one pass
   * over its n-grams and the references' inverted index. With a single reference, the clipped count of an n-gram is
   * min(hypothesis count, reference count), so a pair's row is the one {@link segmentStats} gives with that
   * reference alone (the same integer counts).
   */
  pairwise(): PairwiseStage<BleuPairHypotheses, BleuPairReferences> {
    const order = this.options.maxNgramOrder;
    const width = this.statsWidth;
    const scratch = new Float64Array(3 * order);
    const row = new Float64Array(width);
    const triples = new Float64Array(3 * order);
    /** The row of hypothesis `i` against reference `j` (one reference: its length is the reference length). */
    const pairRow = (dst: Float64Array, at: number, hyps: BleuPairHypotheses, hb: NgramBags, i: number, refs: BleuPairReferences, j: number, acc: Int32Array): void => {
      dst[at] = hyps.tokens.offsets[i + 1] - hyps.tokens.offsets[i];
      dst[at + 1] = chooseRefLength(this.options.refLength, dst[at], refs.refLengths, j, j + 1);
      for (let n = 0; n < order; n++) {
        dst[at + 2 + n] = acc[n * refs.count + j];
        dst[at + 2 + order + n] = hb.totals[i * order + n];
      }
    };
    const refIndex = (refs: BleuPairReferences): NgramIndex => {
      if (refs.index === undefined) {
        const ids = new NgramIds(refs.count * 64);
        const bags = ngramBags([{ tokens: refs.refs, maxOrder: order }], ids, true);
        refs.index = { ids, bags, postings: ngramPostings(bags, ids.size) };
      }
      return refs.index;
    };
    const hypBags = (hyps: BleuPairHypotheses, refs: BleuPairReferences): NgramBags => {
      if (hyps.self) return refIndex(refs).bags;
      hyps.bags ??= ngramBags([{ tokens: hyps.tokens, maxOrder: order }], refIndex(refs).ids, false);
      return hyps.bags;
    };
    const pairing = (hyps: BleuPairHypotheses, refs: BleuPairReferences): BagPairing => {
      const hb = hypBags(hyps, refs);
      return {
        index: refIndex(refs), hyps: hb, statsWidth: width, accWidth: order,
        pairRow: (dst, at, i, j, acc) => pairRow(dst, at, hyps, hb, i, refs, j, acc),
      };
    };
    return {
      statsWidth: width,
      references: (texts) => ({ ...this.prepareReferences([texts]), count: texts.length, texts }),
      hypotheses: (texts, refs) => {
        this.checkTextKey(refs);
        // The references themselves (MBR's samples as pseudo-references): nothing to prepare again.
        if (texts === refs.texts) return { count: refs.count, tokens: refs.refs, self: true };
        return { count: texts.length, tokens: internHypotheses(texts, refs, this.text), self: false };
      },
      pairStats: (hyps, hypFrom, hypTo, refs, refFrom, refTo) => {
        if (!worthBags(hyps.count, refs.count, hyps.self)) return this.kernelPairRows(hyps, hypFrom, hypTo, refs, refFrom, refTo);
        checkPairRange('hypothesis', hypFrom, hypTo, hyps.count);
        checkPairRange('reference', refFrom, refTo, refs.count);
        return bagPairStats(pairing(hyps, refs), hypFrom, hypTo, refFrom, refTo);
      },
      score: (rows, at) => bleuScore(rows, this.sentenceReduction, at, scratch),
      scoreRows: (hyps, from, to, refs, out, at) => {
        checkPairRange('hypothesis', from, to, hyps.count);
        const score = (rows: Float64Array, k: number): number => bleuScore(rows, this.sentenceReduction, k, scratch);
        if (worthBags(hyps.count, refs.count, hyps.self)) bagScoreRows(pairing(hyps, refs), from, to, score, out, at);
        else tiledPairScores((j0, j1) => this.kernelPairRows(hyps, from, to, refs, j0, j1), width, KERNEL_TILE_COLUMNS, from, to, refs.count, score, out, at);
      },
      aggregateScores: (hyps, refs, options) => {
        const { bags, ids } = refIndex(refs);
        const hb = hypBags(hyps, refs);
        const agg = aggregateReferences(bags, ids.size, options.weights);
        const zeroed = new Float64Array(ids.size);
        const out = new Float64Array(hyps.count);
        for (let i = 0; i < hyps.count; i++) {
          aggregateMatches(hb, i, bags, agg, options.weights, options.leaveOutSelf ? i : -1, zeroed, triples);
          row[0] = hyps.tokens.offsets[i + 1] - hyps.tokens.offsets[i];
          // The aggregate's length is the mean reference length: its unigram total.
          row[1] = triples[1];
          for (let n = 0; n < order; n++) {
            row[2 + n] = triples[3 * n + 2];
            row[2 + order + n] = triples[3 * n];
          }
          out[i] = bleuScore(row, this.sentenceReduction, 0, scratch);
        }
        return out;
      },
    };
  }

  /**
   * Pair rows through the per-reference n-gram kernel: a tile's references in blocks, each block a segment whose
   * hypotheses are the tile's hypotheses (no bags: the n-grams are hashed pair by pair). With a single reference,
   * its per-reference count is the clipped count.
   */
  private kernelPairRows(
    hyps: BleuPairHypotheses, hypFrom: number, hypTo: number, refs: BleuPairReferences, refFrom: number, refTo: number,
  ): Float64Array {
    checkPairRange('hypothesis', hypFrom, hypTo, hyps.count);
    checkPairRange('reference', refFrom, refTo, refs.count);
    const n = hypTo - hypFrom;
    const m = refTo - refFrom;
    const order = this.options.maxNgramOrder;
    const width = this.statsWidth;
    const out = new Float64Array(n * m * width);
    if (n === 0 || m === 0) return out;
    const blocks = referenceBlocks(m, PAIR_BLOCK);
    const batch = hypothesesPerBlock(hyps.tokens, hypFrom, hypTo, blocks.length - 1);
    // Per reference: match_1..N, hypTotal_1..N, refTotal_1..N.
    const counts = perReferenceNgramCounts(
      { hyps: batch.hyps, hypSegment: batch.segment, refs: csrSlice(refs.refs, refFrom, refTo), segRefOffsets: blocks },
      order,
    );
    const offsets = hyps.tokens.offsets;
    for (let b = 0; b + 1 < blocks.length; b++) {
      for (let i = 0; i < n; i++) {
        const hypLen = offsets[hypFrom + i + 1] - offsets[hypFrom + i];
        const first = counts.rowOffsets[b * n + i];
        for (let j = blocks[b]; j < blocks[b + 1]; j++) {
          const row = (i * m + j) * width;
          const src = (first + j - blocks[b]) * 3 * order;
          out[row] = hypLen;
          out[row + 1] = chooseRefLength(this.options.refLength, hypLen, refs.refLengths, refFrom + j, refFrom + j + 1);
          out.set(counts.rows.subarray(src, src + 2 * order), row + 2);
        }
      }
    }
    return out;
  }

  private checkWidth(row: ArrayLike<number>): void {
    checkStatsWidth('BLEU', row, this.statsWidth);
  }

  /**
   * Corpus BLEU with every number sacrebleu's `BLEUScore` has, from column sums of statistics rows.
   * @throws RangeError when `totals` is not {@link statsWidth} long.
   */
  corpusResult(totals: ArrayLike<number>): BleuResult {
    this.checkWidth(totals);
    return bleuFromStats(totals, this.corpusReduction);
  }

  /**
   * Sentence BLEU with every number sacrebleu's `BLEUScore` has, from one statistics row.
   * @throws RangeError when `row` is not {@link statsWidth} long.
   */
  sentenceResult(row: ArrayLike<number>): BleuResult {
    this.checkWidth(row);
    return bleuFromStats(row, this.sentenceReduction);
  }

  /** Corpus score from column sums. */
  scoreFromStats(totals: Float64Array): MetricScore {
    return toMetricScore(this.corpusResult(totals));
  }

  /** Sentence score from one row (effective order on unless set off explicitly). */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    return toMetricScore(this.sentenceResult(row));
  }
}

/** A {@link BleuResult} as the generic {@link MetricScore}. */
export function toMetricScore(r: BleuResult): MetricScore {
  return {
    name: 'BLEU',
    score: r.score,
    verboseScore: formatBleuVerbose(r.precisions, r.bp, r.ratio, r.sysLen, r.refLen),
    details: {
      counts: r.counts,
      totals: r.totals,
      precisions: r.precisions,
      bp: r.bp,
      ratio: r.ratio,
      sysLen: r.sysLen,
      refLen: r.refLen,
    },
  };
}

/**
 * Character BLEU "BLEUcM" (Denoual & Lepage 2005): {@link Bleu} with the `char` tokenizer and max order `m`.
 * @param m maximum character n-gram order (18 approximates word BLEU-4).
 */
export function characterBleu(m: number, options: Omit<BleuOptions, 'tokenize' | 'maxNgramOrder'> = {}): Bleu {
  return new Bleu({ ...options, tokenize: 'char', maxNgramOrder: m });
}
