/**
 * NIST as NLTK 3.8 computes it (`nltk.translate.nist_score.corpus_nist` / `sentence_nist`), which is not
 * mteval's: for every order separately NLTK keeps the reference with the best (precision, numerator, denominator,
 * reference length) tuple, so the best reference can change from order to order; the reference length it adds up
 * is that best reference's, once per order (so both lengths are N times too large, which cancels in the ratio);
 * the weights come from the references of the whole corpus for `corpus_nist` but from the segment's own references
 * for `sentence_nist`. NLTK raises ZeroDivisionError when some order has no hypothesis n-gram in the whole input
 * (e.g. `sentence_nist` on a hypothesis shorter than N words) or when all references are empty; Palette gives NaN.
 *
 * Statistics row (width `1 + 5N`): `hyp_len`, `hyp_1..N` (hypothesis n-grams), `info_1..N` and `ref_len_1..N`
 * (numerator and reference length of the best reference per order under the corpus weights), then
 * `sent_info_1..N` and `sent_ref_len_1..N` (the same under the segment's own weights, for sentence scores).
 */
import type { Csr } from '../../text/csr.js';
import { expCR, logCR } from '../../util/correctly-rounded.js';
import { ngramWeights, perReferenceNgramCounts, type NgramWeights } from '../../wasm/ngram.js';

/** What the NLTK rows need from the prepared references. */
export interface NltkReferenceData {
  readonly refs: Csr;
  readonly segRefOffsets: Int32Array;
  /** Information weights over every reference of the corpus (`corpus_nist`). */
  readonly weights: NgramWeights;
}

/** Column names of an NLTK NIST row for max order `n`. */
export function nltkColumns(n: number): string[] {
  const cols = ['hyp_len'];
  for (const k of ['hyp', 'info', 'ref_len', 'sent_info', 'sent_ref_len'])
    for (let i = 1; i <= n; i++) cols.push(`${k}_${i}`);
  return cols;
}

/**
 * NLTK statistics rows of `hyps` (row `h` against segment `segmentOf[h]`, or `h` when null). The corpus-weight part comes from one batch; the
 * sentence part needs each segment's own weights, so it is one small batch per segment.
 */
export function nltkRows(
  hyps: Csr,
  data: NltkReferenceData,
  maxOrder: number,
  segmentOf: Int32Array | null = null,
): Float64Array {
  const nHyp = hyps.offsets.length - 1;
  const width = 1 + 5 * maxOrder;
  const out = new Float64Array(nHyp * width);
  const corpus = perReferenceNgramCounts(
    { hyps, hypSegment: segmentOf, refs: data.refs, segRefOffsets: data.segRefOffsets },
    maxOrder,
    data.weights,
  );
  for (let h = 0; h < nHyp; h++) {
    const dst = h * width;
    out[dst] = hyps.offsets[h + 1] - hyps.offsets[h];
    const seg = segmentOf === null ? h : segmentOf[h];
    const firstRef = data.segRefOffsets[seg];
    pickBest(
      out,
      dst,
      1 + maxOrder,
      corpus.rows,
      corpus.rowOffsets[h],
      corpus.rowOffsets[h + 1],
      data.refs,
      firstRef,
      maxOrder,
      true,
    );

    const segRefs = segmentRefs(data.refs, firstRef, data.segRefOffsets[seg + 1]);
    const own = perReferenceNgramCounts(
      {
        hyps: {
          tokens: hyps.tokens.subarray(hyps.offsets[h], hyps.offsets[h + 1]),
          offsets: Int32Array.of(0, out[dst]),
        },
        hypSegment: null,
        refs: segRefs,
        segRefOffsets: Int32Array.of(0, segRefs.offsets.length - 1),
      },
      maxOrder,
      ngramWeights(segRefs, maxOrder),
    );
    pickBest(out, dst, 1 + 3 * maxOrder, own.rows, 0, own.rowOffsets[1], data.refs, firstRef, maxOrder, false);
  }
  return out;
}

/** Rows `from .. to` of `refs` as a CSR store of their own (views, offsets rebased). */
function segmentRefs(refs: Csr, from: number, to: number): Csr {
  const base = refs.offsets[from];
  const offsets = new Int32Array(to - from + 1);
  for (let j = from; j <= to; j++) offsets[j - from] = refs.offsets[j] - base;
  return { tokens: refs.tokens.subarray(base, refs.offsets[to]), offsets };
}

/**
 * For each order, NLTK's `max(nist_score_per_ref)` over the tuples (precision, numerator, denominator, ref_len),
 * precision being 0 without hypothesis n-grams; the first maximal reference on complete ties. Writes the
 * denominators (when `withHyp`) at `dst + 1`, and the numerators and reference lengths at `dst + at`.
 * `counts` rows are `match_1..N, hyp_1..N, ref_1..N, info_1..N` (perReferenceNgramCounts with weights).
 */
function pickBest(
  out: Float64Array,
  dst: number,
  at: number,
  counts: Float64Array,
  fromRow: number,
  toRow: number,
  refs: Csr,
  firstRef: number,
  maxOrder: number,
  withHyp: boolean,
): void {
  const w = 4 * maxOrder;
  for (let n = 0; n < maxOrder; n++) {
    let bestPrec = -1;
    let bestNum = 0;
    let bestDen = 0;
    let bestLen = 0;
    for (let row = fromRow, r = firstRef; row < toRow; row++, r++) {
      const den = counts[row * w + maxOrder + n];
      const num = counts[row * w + 3 * maxOrder + n];
      const prec = den === 0 ? 0 : num / den;
      const len = refs.offsets[r + 1] - refs.offsets[r];
      const better =
        prec > bestPrec ||
        (prec === bestPrec &&
          (num > bestNum || (num === bestNum && (den > bestDen || (den === bestDen && len > bestLen)))));
      if (better) {
        bestPrec = prec;
        bestNum = num;
        bestDen = den;
        bestLen = len;
      }
    }
    if (withHyp) out[dst + 1 + n] = bestDen;
    out[dst + at + n] = bestNum;
    out[dst + at + maxOrder + n] = bestLen;
  }
}

/**
 * NLTK's `nist_length_penalty(ref_len, hyp_len)`, with its operation order; `math.exp`/`math.log` are the C
 * library's, hence the correctly rounded ones rather than V8's.
 */
export function nltkLengthPenalty(refLen: number, hypLen: number): number {
  const ratio = hypLen / refLen;
  if (ratio > 0 && ratio < 1) {
    const ratioX = 1.5;
    const scoreX = 0.5;
    const beta = logCR(scoreX) / logCR(ratioX) ** 2;
    return expCR(beta * logCR(ratio) ** 2);
  }
  return Math.max(Math.min(ratio, 1), 0);
}

/** The NIST numbers of NLTK's reduction. */
export interface NltkNist {
  /** The NIST score; NaN where NLTK raises ZeroDivisionError. */
  readonly score: number;
  /** Information-weighted precision per order (before the penalty). */
  readonly precisions: number[];
  /** The length penalty. */
  readonly penalty: number;
  /** Hypothesis words over the (per-order best) reference words. */
  readonly ratio: number;
  /** Hypothesis words. */
  readonly hypLen: number;
  /** Reference words NLTK sums, divided by N (the mean of the per-order best references' lengths). */
  readonly refLen: number;
}

/**
 * NLTK's final reduction from one (summed) row: Σ_i numerator_i / denominator_i, times the penalty on
 * (N · hyp words) / (Σ_i best reference words). `sentence` selects the segment-weight columns.
 */
export function nltkScore(stats: ArrayLike<number>, maxOrder: number, sentence: boolean): NltkNist {
  const info = sentence ? 1 + 3 * maxOrder : 1 + maxOrder;
  const refLens = info + maxOrder;
  const precisions: number[] = [];
  let precision = 0;
  let divideByZero = false;
  let lRef = 0;
  for (let n = 0; n < maxOrder; n++) {
    const den = stats[1 + n];
    if (den === 0) divideByZero = true;
    const p = stats[info + n] / den;
    precisions.push(p);
    precision += p;
    lRef += stats[refLens + n];
  }
  const hypLen = stats[0];
  const lSys = maxOrder * hypLen;
  if (lRef === 0) divideByZero = true;
  const penalty = divideByZero ? Number.NaN : nltkLengthPenalty(lRef, lSys);
  return {
    score: divideByZero ? Number.NaN : precision * penalty,
    precisions,
    penalty,
    ratio: lSys / lRef,
    hypLen,
    refLen: lRef / maxOrder,
  };
}
