/**
 * NIST as mteval-v13a.pl computes it (`score_segment`, `nist_score`, `nist_length_penalty`, `compute_ngram_info`;
 * moses-smt/mosesdecoder/scripts/generic/mteval-v13a.pl). Doddington (2002): information-weighted n-gram
 * precisions summed over orders 1..N, times a brevity penalty on the hypothesis length over the average
 * reference length.
 *
 * Statistics row (width `3 + 3N`): `segments` (1 per row), `refs` (references of the segment), `ref_words`
 * (words of all its references together), then `hyp_1..N` (hypothesis n-grams), `match_1..N` (clipped matches
 * against the references max-merged per n-gram) and `info_1..N` (Σ information weight × clipped count).
 * Corpus statistics are column sums; mteval's system score is the same reduction of its summed counts.
 */
import type { Csr } from '../../text/csr.js';
import { expCR, logCR } from '../../util/correctly-rounded.js';
import { clippedNgramCounts, type NgramWeights } from '../../wasm/ngram.js';

/** What the mteval rows need from the prepared references. */
export interface MtevalReferenceData {
  readonly refs: Csr;
  readonly segRefOffsets: Int32Array;
  /** Words of all references of each segment together. */
  readonly refWords: Float64Array;
  /** Information weights over every reference of the test set. */
  readonly weights: NgramWeights;
  /** Token id of the word `0` when the references contain it, else -1 (see {@link zeroPrefixCorrection}). */
  readonly zeroId: number;
}

/** Column names of an mteval NIST row for max order `n`. */
export function mtevalColumns(n: number): string[] {
  const cols = ['segments', 'refs', 'ref_words'];
  for (const k of ['hyp', 'match', 'info']) for (let i = 1; i <= n; i++) cols.push(`${k}_${i}`);
  return cols;
}

/** mteval statistics rows of the hypotheses `hyps` (row `h` against segment `segmentOf[h]`, or `h` when null). */
export function mtevalRows(
  hyps: Csr,
  data: MtevalReferenceData,
  maxOrder: number,
  segmentOf: Int32Array | null = null,
): Float64Array {
  const nHyp = hyps.offsets.length - 1;
  const counts = clippedNgramCounts(
    { hyps, hypSegment: segmentOf, refs: data.refs, segRefOffsets: data.segRefOffsets },
    maxOrder,
    data.weights,
  );
  const width = 3 + 3 * maxOrder;
  const out = new Float64Array(nHyp * width);
  for (let h = 0; h < nHyp; h++) {
    const src = h * 3 * maxOrder;
    const dst = h * width;
    const seg = segmentOf === null ? h : segmentOf[h];
    out[dst] = 1;
    out[dst + 1] = data.segRefOffsets[seg + 1] - data.segRefOffsets[seg];
    out[dst + 2] = data.refWords[seg];
    for (let n = 0; n < maxOrder; n++) {
      out[dst + 3 + n] = counts[src + maxOrder + n];
      out[dst + 3 + maxOrder + n] = counts[src + n];
      out[dst + 3 + 2 * maxOrder + n] = counts[src + 2 * maxOrder + n];
    }
    if (maxOrder >= 2 && data.zeroId >= 0) out[dst + 3 + 2 * maxOrder + 1] += zeroPrefixCorrection(hyps, h, seg, data);
  }
  return out;
}

/**
 * mteval's Perl tests the prefix of an n-gram for truth (`$mgram ? … : …`), and the string `0` is false in Perl:
 * a bigram whose first word is `0` gets `log2(total words / count(bigram))`, the unigram formula, instead of
 * `log2(count(0) / count(bigram))`. The difference is exactly the unigram weight of `0`, so the info of such a
 * matched bigram is the standard weight plus `weight(0)`. Returns that extra info for hypothesis `h` of `segment`
 * (Σ over distinct bigrams `0 x` of clipped count × weight(0)); 0 when the hypothesis has no such bigram.
 */
function zeroPrefixCorrection(hyps: Csr, h: number, segment: number, data: MtevalReferenceData): number {
  const zero = data.zeroId;
  const t = hyps.tokens;
  const from = hyps.offsets[h];
  const to = hyps.offsets[h + 1];
  let hypFollowers: Map<number, number> | null = null;
  for (let i = from; i + 1 < to; i++) {
    if (t[i] !== zero) continue;
    hypFollowers ??= new Map();
    hypFollowers.set(t[i + 1], (hypFollowers.get(t[i + 1]) ?? 0) + 1);
  }
  if (hypFollowers === null) return 0;
  const refMax = new Map<number, number>();
  const r = data.refs;
  for (let j = data.segRefOffsets[segment]; j < data.segRefOffsets[segment + 1]; j++) {
    const own = new Map<number, number>();
    for (let i = r.offsets[j]; i + 1 < r.offsets[j + 1]; i++) {
      if (r.tokens[i] === zero) own.set(r.tokens[i + 1], (own.get(r.tokens[i + 1]) ?? 0) + 1);
    }
    for (const [x, c] of own) refMax.set(x, Math.max(refMax.get(x) ?? 0, c));
  }
  let clipped = 0;
  for (const [x, c] of hypFollowers) clipped += Math.min(c, refMax.get(x) ?? 0);
  return clipped === 0 ? 0 : clipped * data.weights.weight([zero], 0, 1);
}

/**
 * mteval's `nist_length_penalty`: 1 from ratio 1 up, 0 at 0, else `exp(-β·log²(ratio))` with
 * β = −log 0.5 / log² 1.5 (0.5 at two thirds of the reference length). Perl calls the C library's `exp`/`log`,
 * hence the correctly rounded ones rather than V8's.
 */
export function mtevalLengthPenalty(ratio: number): number {
  if (ratio >= 1) return 1;
  if (ratio <= 0) return 0;
  const ratioX = 1.5;
  const scoreX = 0.5;
  const beta = -logCR(scoreX) / logCR(ratioX) / logCR(ratioX);
  return expCR(-beta * logCR(ratio) * logCR(ratio));
}

/** The NIST numbers mteval derives from (summed) statistics. */
export interface MtevalNist {
  /** Cumulative NIST at the max order (mteval's score); NaN where mteval dies (no reference words). */
  readonly score: number;
  /** Per-order scores as mteval prints them ("Individual N-gram scoring"): info/count × penalty. */
  readonly individual: number[];
  /** Cumulative scores per order ("Cumulative N-gram scoring"). */
  readonly cumulative: number[];
  /** The length penalty. */
  readonly penalty: number;
  /** Hypothesis words over the average reference words. */
  readonly ratio: number;
  /** Hypothesis words. */
  readonly hypLen: number;
  /** Average reference words (all reference words over the number of references). */
  readonly refLen: number;
}

/**
 * `nist_score` of mteval from one (summed) row: Σ_n info_n / max(hyp_n, 1), times the penalty on
 * hyp_1 / (ref_words / refs-per-segment), in mteval's operation order. With no reference words mteval dies on a
 * division by zero; Palette returns NaN there.
 */
export function mtevalScore(stats: ArrayLike<number>, maxOrder: number): MtevalNist {
  const nsys = stats[1] / stats[0];
  const refWords = stats[2];
  const hypLen = stats[3];
  const refLen = refWords / nsys;
  const ratio = hypLen / refLen;
  const penalty = refWords > 0 ? mtevalLengthPenalty(ratio) : Number.NaN;
  const individual: number[] = [];
  const cumulative: number[] = [];
  let score = 0;
  for (let n = 0; n < maxOrder; n++) {
    const iscore = stats[3 + 2 * maxOrder + n] / Math.max(stats[3 + n], 1);
    score += iscore;
    cumulative.push(score * penalty);
    individual.push(iscore * penalty);
  }
  return { score: cumulative[maxOrder - 1], individual, cumulative, penalty, ratio, hypLen, refLen };
}
