/**
 * chrF and chrF++ (Popović 2015, 2017) exactly as sacrebleu 2.6.0's `CHRF` computes them.
 *
 * Statistics row (width `3 * (charOrder + wordOrder)`), sacrebleu's own layout: for each character order
 * 1..charOrder, then each word order 1..wordOrder, `[hyp n-grams, ref n-grams, matching n-grams]`. With several
 * references the row is the one of the reference with the best sentence chrF (the first one on ties). As in
 * sacrebleu, the hypothesis count of an order is recorded as 0 when the chosen reference has no n-gram of that
 * order (an empty or too short reference).
 */
import { CsrBuilder, type Csr } from '../../text/csr.js';
import { badOption } from '../../errors.js';
import { Vocabulary } from '../../text/intern.js';
import { pyLower } from '../../text/pystr.js';
import { perReferenceNgramCounts, type NgramBatch } from '../../wasm/ngram.js';
import {
  checkCandidateSegments, checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences,
} from '../metric.js';
import { appendWords } from './text.js';
import { codePointRows } from '../../wasm/words-13a.js';
import { chrfScore } from './score.js';
import { formatSignature } from '../signature.js';
import { checkStatsWidth } from '../stats-width.js';
import {
  PAIR_BLOCK, checkPairRange, csrSlice, hypothesesPerBlock, referenceBlocks, type PairwiseStage, type PairwiseTexts,
} from '../pairwise.js';
import {
  NgramIds, aggregateMatches, aggregateReferences, bagPairStats, bagScoreRows, ngramBags, ngramPostings, tiledPairScores, worthBags,
  type BagPairing, type NgramBags,
  type NgramChannel, type NgramIndex,
} from '../ngram-bags.js';

/** References per tile of the per-reference kernel path of the pairwise stage. */
const KERNEL_TILE_COLUMNS = 256;

/** Texts prepared as references of {@link Chrf}'s pairwise stage: each text its own one-reference segment. */
export interface ChrfPairReferences extends ChrfReferences, PairwiseTexts {
  /** The texts themselves (hypotheses that are the same array are not prepared again). */
  readonly texts: readonly string[];
  /** The references' n-gram bags and their index, built on first use. */
  index?: NgramIndex;
}

/** Code points and words of texts, words in the references' ids. */
export interface ChrfTexts extends PairwiseTexts {
  /** Code points of every text. */
  readonly chars: Csr;
  /** Word ids of every text (or null when `wordOrder` is 0). */
  readonly words: Csr | null;
}

/** Texts prepared as hypotheses of {@link Chrf}'s pairwise stage. */
export interface ChrfPairHypotheses extends ChrfTexts {
  /** Whether the texts are the references themselves (their bags are the references'). */
  readonly self: boolean;
  /** Each text's character and word n-gram bags in the references' ids (only n-grams some reference has), built on first use. */
  bags?: NgramBags;
}

/** Options of {@link Chrf}; the defaults are sacrebleu's. */
export interface ChrfOptions {
  /** Character n-gram order. @default 6 */
  readonly charOrder?: number;
  /** Word n-gram order; 2 gives chrF++. @default 0 */
  readonly wordOrder?: number;
  /** Weight of recall relative to precision. @default 2 */
  readonly beta?: number;
  /** Lowercase both sides first (Python `str.lower()`). @default false */
  readonly lowercase?: boolean;
  /** Keep whitespace inside character n-grams. @default false */
  readonly whitespace?: boolean;
  /** chrF++.py-style epsilon smoothing instead of sacrebleu's effective-order averaging. @default false */
  readonly epsSmoothing?: boolean;
}

/** References prepared for {@link Chrf}: code points and interned words, one CSR row per (segment, reference). */
export interface ChrfReferences extends PreparedReferences {
  /** Number of references per segment. */
  readonly nRefs: number;
  /** Code points of every reference, segment-major. */
  readonly chars: Csr;
  /** chrF++ words of every reference (interned in `vocab`), or null when `wordOrder` is 0. */
  readonly words: Csr | null;
  /** References of segment `s` are rows `segRefOffsets[s] .. segRefOffsets[s + 1]`. */
  readonly segRefOffsets: Int32Array;
  /** The word vocabulary of the references (frozen: hypotheses only look words up). */
  readonly vocab: Vocabulary;
  /** Id given to hypothesis words that no reference has (one past the vocabulary). */
  readonly missingId: number;
  /** The options the references were prepared with (lowercasing and whitespace change what is stored). */
  readonly prepKey: string;
}

function checkOrder(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw badOption(name, 'a non-negative integer', value);
  return value;
}

/** sacrebleu's chrF / chrF++ metric. */
export class Chrf implements Metric<ChrfReferences> {
  /** Metric id as given to `-m`. */
  readonly id = 'chrf';
  /** Character n-gram order. */
  readonly charOrder: number;
  /** Word n-gram order. */
  readonly wordOrder: number;
  /** Recall weight. */
  readonly beta: number;
  /** Whether text is lowercased first. */
  readonly lowercase: boolean;
  /** Whether whitespace stays in character n-grams. */
  readonly whitespace: boolean;
  /** Whether epsilon smoothing is on. */
  readonly epsSmoothing: boolean;
  /** `3 * (charOrder + wordOrder)`. */
  readonly statsWidth: number;
  /** `c1_hyp, c1_ref, c1_match, …, w1_hyp, …` */
  readonly statsColumns: readonly string[];

  constructor(options: ChrfOptions = {}) {
    this.charOrder = checkOrder('charOrder', options.charOrder ?? 6);
    this.wordOrder = checkOrder('wordOrder', options.wordOrder ?? 0);
    if (this.charOrder + this.wordOrder === 0) throw badOption('charOrder + wordOrder', 'at least 1', 0);
    const beta = options.beta ?? 2;
    if (!Number.isFinite(beta) || beta <= 0) throw badOption('beta', 'a positive number', beta);
    this.beta = beta;
    this.lowercase = options.lowercase ?? false;
    this.whitespace = options.whitespace ?? false;
    this.epsSmoothing = options.epsSmoothing ?? false;
    this.statsWidth = 3 * (this.charOrder + this.wordOrder);
    const cols: string[] = [];
    for (let n = 1; n <= this.charOrder; n++) cols.push(`c${n}_hyp`, `c${n}_ref`, `c${n}_match`);
    for (let n = 1; n <= this.wordOrder; n++) cols.push(`w${n}_hyp`, `w${n}_ref`, `w${n}_match`);
    this.statsColumns = cols;
  }

  /** sacrebleu's score name: `chrF2`, with one `+` per word order (`chrF2++`). */
  get scoreName(): string {
    return `chrF${this.beta}${'+'.repeat(this.wordOrder)}`;
  }

  /**
   * sacrebleu's chrF signature, e.g. `nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:…` (short form
   * `#:1|c:mixed|e:yes|nc:6|nw:0|s:no|v:…`). sacrebleu writes `eff:yes` when eps smoothing is *off*
   * (effective-order averaging is then in use). `nRefs < 0` gives `var`.
   */
  signature(nRefs: number, short = false): string {
    return formatSignature(
      { nRefs },
      [
        { key: 'case', abbr: 'c', value: this.lowercase ? 'lc' : 'mixed' },
        { key: 'eff', abbr: 'e', value: !this.epsSmoothing },
        { key: 'nc', abbr: 'nc', value: this.charOrder },
        { key: 'nw', abbr: 'nw', value: this.wordOrder },
        { key: 'space', abbr: 's', value: this.whitespace },
      ],
      short,
    );
  }

  private get prepKey(): string {
    return `${this.lowercase ? 'lc' : 'mixed'}|${this.whitespace ? 'ws' : 'nows'}|${this.wordOrder > 0 ? 'w' : 'c'}`;
  }

  private prepare(line: string): string {
    return this.lowercase ? pyLower(line) : line;
  }

  /**
   * Lowercases (if asked), extracts code points and words of every reference. Empty references are kept, as
   * sacrebleu 2.6.0 keeps them (they just have no n-grams).
   * @throws InputError `E_EMPTY_INPUT` without reference streams, `E_LINE_COUNT_MISMATCH` when they differ in length.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): ChrfReferences {
    const segments = checkReferenceStreams('chrF', refStreams);
    const nRefs = refStreams.length;
    const vocab = new Vocabulary();
    const lines: string[] = new Array(segments * nRefs);
    for (let i = 0; i < segments; i++) for (let j = 0; j < nRefs; j++) lines[i * nRefs + j] = this.prepare(refStreams[j][i]);
    const chars = codePointRows(lines, this.whitespace);
    const words = this.wordOrder > 0 ? new CsrBuilder(segments * nRefs * 24, segments * nRefs) : null;
    if (words) for (const line of lines) appendWords(vocab, line, words);
    const segRefOffsets = new Int32Array(segments + 1);
    for (let i = 0; i <= segments; i++) segRefOffsets[i] = i * nRefs;
    return {
      segments,
      nRefs,
      chars,
      words: words ? words.finish() : null,
      segRefOffsets,
      vocab,
      missingId: vocab.size,
      prepKey: this.prepKey,
    };
  }

  /**
   * One statistics row per hypothesis (see the file comment for the layout).
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: ChrfReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    return this.rows(hyps, null, refs);
  }

  /**
   * Rows of candidates grouped by segment (`Metric.candidateStats`): the n-gram kernel builds a segment's reference
   * table once for all of its candidates, where one `segmentStats` call per candidate would build it every time.
   * @throws RangeError when `segmentOf` does not give each candidate a segment of `refs`, in non-decreasing order.
   */
  candidateStats(hyps: readonly string[], segmentOf: Int32Array, refs: ChrfReferences): Float64Array {
    checkCandidateSegments(hyps.length, segmentOf, refs.segments);
    return this.rows(hyps, segmentOf, refs);
  }

  /** Rows of `hyps[h]` against segment `segmentOf[h]` (`h` when null). */
  private rows(hyps: readonly string[], segmentOf: Int32Array | null, refs: ChrfReferences): Float64Array {
    if (refs.prepKey !== this.prepKey) {
      throw new TypeError('chrF references were prepared with other lowercase/whitespace/word-order options');
    }
    const nHyp = hyps.length;
    // The code points are read only by the two counting calls below (another kernel instance copies them in).
    const text = this.hypothesisTexts(hyps, refs, true);
    const charCounts =
      this.charOrder > 0
        ? countsPerReference(text.chars, segmentOf, refs.chars, refs.segRefOffsets, this.charOrder)
        : null;
    const wordCounts =
      text.words && refs.words
        ? countsPerReference(text.words, segmentOf, refs.words, refs.segRefOffsets, this.wordOrder)
        : null;

    const width = this.statsWidth;
    const order = this.charOrder + this.wordOrder;
    const out = new Float64Array(nHyp * width);
    const candidate = new Float64Array(width);
    for (let h = 0; h < nHyp; h++) {
      let best = -1;
      for (let r = 0; r < refs.nRefs; r++) {
        if (charCounts) fillTriples(candidate, 0, charCounts.rows, charCounts.rowOffsets[h] + r, this.charOrder);
        if (wordCounts) {
          fillTriples(candidate, 3 * this.charOrder, wordCounts.rows, wordCounts.rowOffsets[h] + r, this.wordOrder);
        }
        const f = chrfScore(candidate, 0, order, this.beta, this.epsSmoothing);
        // Strictly greater: the first reference wins ties, as sacrebleu's loop does.
        if (f > best) {
          best = f;
          out.set(candidate, h * width);
        }
      }
    }
    return out;
  }

  /**
   * Code points and words (in the references' ids) of hypotheses, as the kernels take them; with `transient`, the
   * code points are valid only until the thread's next call of the words kernels (`codePointRows`).
   */
  private hypothesisTexts(hyps: readonly string[], refs: ChrfReferences, transient = false): ChrfTexts {
    const nHyp = hyps.length;
    const lines = this.lowercase ? hyps.map((h) => this.prepare(h)) : hyps;
    const chars = codePointRows(lines, this.whitespace, transient);
    const words = this.wordOrder > 0 ? new CsrBuilder(nHyp * 24, nHyp) : null;
    if (words) for (const line of lines) appendWords(refs.vocab, line, words, refs.missingId);
    return { count: nHyp, chars, words: words ? words.finish() : null };
  }

  /**
   * The pairwise stage (src/metrics/pairwise.ts): each text's code points and words prepared once, then its
   * character and word n-grams counted once into bags with ids shared by all texts (../ngram-bags.ts); a
   * hypothesis is scored against every reference in one pass over its n-grams and the references' inverted index.
   * A pair's row is the one {@link segmentStats} gives with that reference alone (the same integer counts).
   */
  pairwise(): PairwiseStage<ChrfPairHypotheses, ChrfPairReferences> {
    const K = this.charOrder + this.wordOrder;
    const row = new Float64Array(3 * K);
    const refIndex = (refs: ChrfPairReferences): NgramIndex => {
      if (refs.index === undefined) {
        const ids = new NgramIds(refs.count * 256);
        const bags = ngramBags(this.channels(refs.chars, refs.words), ids, true);
        refs.index = { ids, bags, postings: ngramPostings(bags, ids.size) };
      }
      return refs.index;
    };
    const hypBags = (hyps: ChrfPairHypotheses, refs: ChrfPairReferences): NgramBags => {
      if (hyps.self) return refIndex(refs).bags;
      hyps.bags ??= ngramBags(this.channels(hyps.chars, hyps.words), refIndex(refs).ids, false);
      return hyps.bags;
    };
    const pairing = (hyps: ChrfPairHypotheses, refs: ChrfPairReferences): BagPairing => {
      const hb = hypBags(hyps, refs);
      const { bags } = refIndex(refs);
      return {
        index: refIndex(refs), hyps: hb, statsWidth: this.statsWidth, accWidth: K,
        pairRow: (dst, at, i, j, acc) => pairTriples(dst, at, hb, i, bags, j, acc),
      };
    };
    return {
      statsWidth: this.statsWidth,
      references: (texts) => ({ ...this.prepareReferences([texts]), count: texts.length, texts }),
      hypotheses: (texts, refs) => {
        if (refs.prepKey !== this.prepKey) {
          throw new TypeError('chrF references were prepared with other lowercase/whitespace/word-order options');
        }
        // The references themselves (MBR's samples as pseudo-references): nothing to prepare again.
        if (texts === refs.texts) return { count: refs.count, chars: refs.chars, words: refs.words, self: true };
        return { ...this.hypothesisTexts(texts, refs), self: false };
      },
      pairStats: (hyps, hypFrom, hypTo, refs, refFrom, refTo) => {
        if (!worthBags(hyps.count, refs.count, hyps.self)) return this.kernelPairRows(hyps, hypFrom, hypTo, refs, refFrom, refTo);
        checkPairRange('hypothesis', hypFrom, hypTo, hyps.count);
        checkPairRange('reference', refFrom, refTo, refs.count);
        return bagPairStats(pairing(hyps, refs), hypFrom, hypTo, refFrom, refTo);
      },
      score: (rows, at) => chrfScore(rows, at, K, this.beta, this.epsSmoothing),
      scoreRows: (hyps, from, to, refs, out, at) => {
        checkPairRange('hypothesis', from, to, hyps.count);
        const score = (rows: Float64Array, k: number): number => chrfScore(rows, k, K, this.beta, this.epsSmoothing);
        if (worthBags(hyps.count, refs.count, hyps.self)) bagScoreRows(pairing(hyps, refs), from, to, score, out, at);
        else tiledPairScores((j0, j1) => this.kernelPairRows(hyps, from, to, refs, j0, j1), this.statsWidth, KERNEL_TILE_COLUMNS, from, to, refs.count, score, out, at);
      },
      aggregateScores: (hyps, refs, options) => {
        const { bags, ids } = refIndex(refs);
        const hb = hypBags(hyps, refs);
        const agg = aggregateReferences(bags, ids.size, options.weights);
        const scratch = new Float64Array(ids.size);
        const out = new Float64Array(hyps.count);
        for (let i = 0; i < hyps.count; i++) {
          aggregateMatches(hb, i, bags, agg, options.weights, options.leaveOutSelf ? i : -1, scratch, row);
          // sacrebleu's rule for a reference without n-grams of an order: the hypothesis's count is recorded as 0.
          for (let k = 0; k < K; k++) if (!(row[3 * k + 1] > 0)) row[3 * k] = 0;
          out[i] = chrfScore(row, 0, K, this.beta, this.epsSmoothing);
        }
        return out;
      },
    };
  }

  /**
   * Pair rows through the per-reference n-gram kernel: a tile's references in blocks, each block a segment whose
   * every hypothesis is the tile's hypotheses, so one probe counts a hypothesis n-gram in all references of a block
   * (no bags: the n-grams are hashed pair by pair).
   */
  private kernelPairRows(
    hyps: ChrfTexts, hypFrom: number, hypTo: number, refs: ChrfPairReferences, refFrom: number, refTo: number,
  ): Float64Array {
    checkPairRange('hypothesis', hypFrom, hypTo, hyps.count);
    checkPairRange('reference', refFrom, refTo, refs.count);
    const n = hypTo - hypFrom;
    const m = refTo - refFrom;
    const width = this.statsWidth;
    const out = new Float64Array(n * m * width);
    if (n === 0 || m === 0) return out;
    const blocks = referenceBlocks(m, PAIR_BLOCK);
    const tile = (hypCsr: Csr, refCsr: Csr, maxOrder: number, at: number): void => {
      const batch = hypothesesPerBlock(hypCsr, hypFrom, hypTo, blocks.length - 1);
      const counts = countsPerReference(batch.hyps, batch.segment, csrSlice(refCsr, refFrom, refTo), blocks, maxOrder);
      for (let b = 0; b + 1 < blocks.length; b++) {
        for (let i = 0; i < n; i++) {
          const first = counts.rowOffsets[b * n + i];
          for (let j = blocks[b]; j < blocks[b + 1]; j++) {
            fillTriples(out, (i * m + j) * width + at, counts.rows, first + j - blocks[b], maxOrder);
          }
        }
      }
    };
    if (this.charOrder > 0) tile(hyps.chars, refs.chars, this.charOrder, 0);
    if (hyps.words && refs.words) tile(hyps.words, refs.words, this.wordOrder, 3 * this.charOrder);
    return out;
  }

  /** The n-gram channels of prepared texts: code points (charOrder), then words (wordOrder). */
  private channels(chars: Csr, words: Csr | null): NgramChannel[] {
    const channels: NgramChannel[] = [{ tokens: chars, maxOrder: this.charOrder }];
    if (words !== null && this.wordOrder > 0) channels.push({ tokens: words, maxOrder: this.wordOrder });
    return channels;
  }

  /** Corpus chrF from the column sums of the rows. */
  scoreFromStats(totals: Float64Array): MetricScore {
    return this.toScore(totals);
  }

  /** Sentence chrF from one row: the same formula as the corpus score (sacrebleu has no sentence variant). */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    return this.toScore(row);
  }

  private toScore(stats: Float64Array): MetricScore {
    checkStatsWidth('chrF', stats, this.statsWidth);
    const score = chrfScore(stats, 0, this.charOrder + this.wordOrder, this.beta, this.epsSmoothing);
    return { name: this.scoreName, score, verboseScore: '' };
  }
}

/**
 * Per-(hypothesis, reference) n-gram counts of a batch whose hypothesis `h` belongs to segment `hypSegment[h]` (`h`
 * when null).
 */
function countsPerReference(
  hyps: Csr,
  hypSegment: Int32Array | null,
  refs: Csr,
  segRefOffsets: Int32Array,
  maxOrder: number,
): { rows: Float64Array; rowOffsets: Int32Array } {
  const batch: NgramBatch = { hyps, hypSegment, refs, segRefOffsets };
  return perReferenceNgramCounts(batch, maxOrder);
}

/**
 * Copies one (hypothesis, reference) row of `perReferenceNgramCounts` (`match_1..N, hyp_1..N, ref_1..N`) into
 * sacrebleu's `[hyp, ref, match]` triples. The hypothesis count is zeroed where the reference has no n-gram of
 * that order: sacrebleu's `hyp_count if ref_ngrams else 0`.
 */
function fillTriples(dst: Float64Array, at: number, counts: Float64Array, pair: number, maxOrder: number): void {
  const row = pair * 3 * maxOrder;
  for (let n = 0; n < maxOrder; n++) {
    const match = counts[row + n];
    const hyp = counts[row + maxOrder + n];
    const ref = counts[row + 2 * maxOrder + n];
    dst[at + 3 * n] = ref > 0 ? hyp : 0;
    dst[at + 3 * n + 1] = ref;
    dst[at + 3 * n + 2] = match;
  }
}

/**
 * sacrebleu's `[hyp, ref, match]` triples of hypothesis `i` against reference `j` from their bags and the
 * hypothesis's row of matches (`acc[k · references + j]`); the hypothesis count is zeroed where the reference has no
 * n-gram of that order, as in {@link fillTriples}.
 */
function pairTriples(dst: Float64Array, at: number, hyps: NgramBags, i: number, refs: NgramBags, j: number, acc: Int32Array): void {
  const K = hyps.columns;
  for (let k = 0; k < K; k++) {
    const ref = refs.totals[j * K + k];
    dst[at + 3 * k] = ref > 0 ? hyps.totals[i * K + k] : 0;
    dst[at + 3 * k + 1] = ref;
    dst[at + 3 * k + 2] = acc[k * refs.count + j];
  }
}
