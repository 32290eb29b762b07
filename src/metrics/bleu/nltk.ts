/**
 * The `nltk` BLEU flavor: NLTK 3.8's `corpus_bleu` / `sentence_bleu` (nltk/translate/bleu_score.py) with
 * `SmoothingFunction(epsilon, alpha, k)` methods 0–7 (Chen & Cherry 2014), number for number, quirks included:
 *
 * - modified precision divides by `max(1, hypothesis n-grams)`, so orders longer than the hypothesis add 1 to the
 *   denominator (sacrebleu adds 0);
 * - method 0 (also the default) replaces a zero precision by the smallest normal double, giving ~1e-78…1e-231
 *   instead of 0; a zero precision left unsmoothed by any method is silently dropped from the mean (`p > 0`);
 * - at corpus level the smoothing function sees the *last* segment's references and hypothesis: method 5 uses that
 *   segment's 5-gram precision (always order 5, whatever the weights), method 6 that hypothesis's n-gram counts
 *   (so corpus method 6 exceeds 1); method 4 sees the corpus hypothesis length;
 * - method 6 fails (AssertionError) when the trigram precision is 0 — NLTK's message says bigrams — and with fewer
 *   than three weights (IndexError); these surface as {@link NltkBleuError};
 * - exact `Fraction` arithmetic where NLTK keeps Fractions (methods 2, 5, 6) and `math.fsum` of the weighted logs.
 *
 * Per-segment statistics (`NltkSegmentStats`) are what `corpus_bleu` accumulates; scores come from their sums plus
 * the last segment (see {@link nltkBleuFromStats}).
 */
import { InputError } from '../../errors.js';
import { csrFromArrays } from '../../text/csr.js';
import { clippedNgramCounts } from '../../wasm/ngram.js';
import {
  fsum,
  pyAdd,
  pyDiv,
  pyFloat,
  pyFraction,
  pyInt,
  pyIsPositive,
  pyIsZero,
  pyMul,
  pySquare,
  toFloat,
  type PyNumber,
} from './python-number.js';
import { expCR, logCR } from '../../util/correctly-rounded.js';
import { internId } from './text.js';

/** NLTK's `SmoothingFunction` method number (`methodK`); 0 is also NLTK's behaviour without a smoothing function. */
export type NltkSmoothingMethod = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** Options of the `nltk` flavor; every field is optional. */
export interface NltkBleuOptions {
  /**
   * Weights of the n-gram orders 1..W (NLTK `weights`).
   * @default [0.25, 0.25, 0.25, 0.25]
   */
  readonly weights?: readonly number[];
  /**
   * Smoothing method K of `SmoothingFunction().methodK`.
   * @default 0
   */
  readonly method?: NltkSmoothingMethod;
  /**
   * `SmoothingFunction(epsilon=…)` (method 1).
   * @default 0.1
   */
  readonly epsilon?: number;
  /**
   * `SmoothingFunction(alpha=…)` (method 6).
   * @default 5
   */
  readonly alpha?: number;
  /**
   * `SmoothingFunction(k=…)` (method 4).
   * @default 5
   */
  readonly k?: number;
  /**
   * NLTK `auto_reweigh`: with default weights and a corpus shorter than 4 tokens, uniform weights over its length.
   * @default false
   */
  readonly autoReweigh?: boolean;
}

/** The order method 5 always adds, whatever the number of weights (NLTK hard-codes `modified_precision(…, 5)`). */
const METHOD5_EXTRA_ORDER = 5;

/**
 * An exception NLTK raises for this input (the flavor reproduces it instead of inventing a number). It is an
 * {@link InputError} (`E_BAD_INPUT`): the input cannot be scored with these options, so the CLI exits with status 2
 * and names the segment.
 */
export class NltkBleuError extends InputError {
  /** The Python exception NLTK raises: `AssertionError` or `IndexError`. */
  readonly pythonError: 'AssertionError' | 'IndexError';
  /** NLTK's own message (`This smoothing method requires non-zero precision for bigrams.`). */
  readonly pythonMessage: string;

  /**
   * @param pythonMessage the exception's text as NLTK raises it
   * @param why what in the input triggers it, in Palette's words
   */
  constructor(pythonError: 'AssertionError' | 'IndexError', pythonMessage: string, why: string) {
    super('E_BAD_INPUT', `NLTK BLEU raises ${pythonError}: ${pythonMessage} (${why})`);
    this.name = 'NltkBleuError';
    this.pythonError = pythonError;
    this.pythonMessage = pythonMessage;
  }
}

/** What NLTK's `corpus_bleu` collects for one segment. */
export interface NltkSegmentStats {
  /** Hypothesis length. */
  hypLen: number;
  /** Closest reference length (ties to the shorter). */
  refLen: number;
  /** Clipped matches per order 1..W. */
  numerators: number[];
  /** `max(1, hypothesis n-grams)` per order 1..W. */
  denominators: number[];
  /** Clipped 5-gram matches (method 5's extra order). */
  numerator5: number;
  /** `max(1, hypothesis 5-grams)`. */
  denominator5: number;
}

interface ResolvedNltk {
  weights: readonly number[];
  method: NltkSmoothingMethod;
  epsilon: number;
  alpha: number;
  k: number;
  autoReweigh: boolean;
}

const DEFAULT_WEIGHTS: readonly number[] = [0.25, 0.25, 0.25, 0.25];

function resolve(o: NltkBleuOptions): ResolvedNltk {
  const weights = o.weights ?? DEFAULT_WEIGHTS;
  if (weights.length === 0) throw new RangeError('options.weights must have at least one weight');
  const method = o.method ?? 0;
  if (!Number.isInteger(method) || method < 0 || method > 7) {
    throw new RangeError(`options.method must be an integer 0..7 (got ${JSON.stringify(method)})`);
  }
  return {
    weights,
    method,
    epsilon: o.epsilon ?? 0.1,
    alpha: o.alpha ?? 5,
    k: o.k ?? 5,
    autoReweigh: o.autoReweigh ?? false,
  };
}

/** NLTK's `closest_ref_length`: the reference length nearest the hypothesis length, ties to the shorter. */
function closestRefLength(lengths: ArrayLike<number>, from: number, to: number, hypLen: number): number {
  let best = -1;
  for (let r = from; r < to; r++) {
    const len = lengths[r];
    if (
      best < 0 ||
      Math.abs(len - hypLen) < Math.abs(best - hypLen) ||
      (Math.abs(len - hypLen) === Math.abs(best - hypLen) && len < best)
    ) {
      best = len;
    }
  }
  return best;
}

/**
 * NLTK statistics of interned hypotheses against interned references (CSR rows; segment `s` owns reference rows
 * `segRefOffsets[s] .. segRefOffsets[s + 1]`), for orders 1..`order` plus order 5.
 */
export function nltkSegmentStatsFromIds(
  hyps: { tokens: Int32Array; offsets: Int32Array },
  refs: { tokens: Int32Array; offsets: Int32Array },
  segRefOffsets: Int32Array,
  order: number,
): NltkSegmentStats[] {
  const maxOrder = Math.max(order, METHOD5_EXTRA_ORDER);
  const counts = clippedNgramCounts({ hyps, hypSegment: null, refs, segRefOffsets }, maxOrder);
  const nHyp = hyps.offsets.length - 1;
  const refLens = new Int32Array(refs.offsets.length - 1);
  for (let r = 0; r < refLens.length; r++) refLens[r] = refs.offsets[r + 1] - refs.offsets[r];
  const out: NltkSegmentStats[] = [];
  for (let h = 0; h < nHyp; h++) {
    const row = h * 2 * maxOrder;
    const hypLen = hyps.offsets[h + 1] - hyps.offsets[h];
    const numerators: number[] = [];
    const denominators: number[] = [];
    for (let i = 0; i < order; i++) {
      numerators.push(counts[row + i]);
      denominators.push(Math.max(1, counts[row + maxOrder + i]));
    }
    out.push({
      hypLen,
      refLen: closestRefLength(refLens, segRefOffsets[h], segRefOffsets[h + 1], hypLen),
      numerators,
      denominators,
      numerator5: counts[row + METHOD5_EXTRA_ORDER - 1],
      denominator5: Math.max(1, counts[row + maxOrder + METHOD5_EXTRA_ORDER - 1]),
    });
  }
  return out;
}

/** NLTK statistics of token lists (`listOfReferences[i]` are the references of `hypotheses[i]`). */
export function nltkSegmentStats(
  listOfReferences: readonly (readonly (readonly string[])[])[],
  hypotheses: readonly (readonly string[])[],
  order: number,
): NltkSegmentStats[] {
  if (listOfReferences.length !== hypotheses.length) {
    throw new RangeError('The number of hypotheses and their reference(s) should be the same');
  }
  const vocab = new Map<string, number>();
  const toIds = (toks: readonly string[]): number[] => toks.map((t) => internId(vocab, t));
  const refRows: number[][] = [];
  const segRefOffsets = new Int32Array(hypotheses.length + 1);
  listOfReferences.forEach((refs, s) => {
    if (refs.length === 0)
      throw new RangeError(`segment ${s + 1} has no reference (NLTK: min() arg is an empty sequence)`);
    for (const r of refs) refRows.push(toIds(r));
    segRefOffsets[s + 1] = segRefOffsets[s] + refs.length;
  });
  const hypRows = hypotheses.map(toIds);
  return nltkSegmentStatsFromIds(csrFromArrays(hypRows), csrFromArrays(refRows), segRefOffsets, order);
}

/** Column sums of segment statistics, as `corpus_bleu` accumulates them. */
export interface NltkTotals {
  /** Σ hypothesis lengths (`hyp_lengths`). */
  hypLen: number;
  /** Σ closest reference lengths (`ref_lengths`). */
  refLen: number;
  /** Σ clipped matches per order (`p_numerators`). */
  numerators: number[];
  /** Σ `max(1, hypothesis n-grams)` per order (`p_denominators`). */
  denominators: number[];
}

/** Sums segment statistics. */
export function sumNltkStats(stats: readonly NltkSegmentStats[], order: number): NltkTotals {
  const t: NltkTotals = {
    hypLen: 0,
    refLen: 0,
    numerators: new Array(order).fill(0),
    denominators: new Array(order).fill(0),
  };
  for (const s of stats) {
    t.hypLen += s.hypLen;
    t.refLen += s.refLen;
    for (let i = 0; i < order; i++) {
      t.numerators[i] += s.numerators[i];
      t.denominators[i] += s.denominators[i];
    }
  }
  return t;
}

/** NLTK's `brevity_penalty(closest_ref_len, hyp_len)`. */
function nltkBrevityPenalty(refLen: number, hypLen: number): number {
  if (hypLen > refLen) return 1;
  if (hypLen === 0) return 0;
  return expCR(1 - refLen / hypLen);
}

/** A user-given smoothing constant as Python would hold it: `int` when integral, else `float`. */
function pyScalar(x: number): PyNumber {
  return Number.isInteger(x) ? pyInt(x) : pyFloat(x);
}

/** The smoothing step: `SmoothingFunction().methodK(p_n, references, hypothesis, hyp_len)`. */
function smooth(p: PyNumber[], r: ResolvedNltk, last: NltkSegmentStats | undefined, hypLengths: number): PyNumber[] {
  const rawNumerator = (x: PyNumber): bigint => (x.kind === 'int' ? x.n : x.kind === 'fraction' ? x.n : 0n);
  const rawDenominator = (x: PyNumber): bigint => (x.kind === 'fraction' ? x.d : 1n);
  const method4 = (pn: PyNumber[]): PyNumber[] => {
    let incvnt = 1;
    // hyp_len here is the corpus hypothesis length NLTK passes (len(hypothesis) only when that is 0).
    const hypLen = hypLengths !== 0 ? hypLengths : (last?.hypLen ?? 0);
    for (let i = 0; i < pn.length; i++) {
      if (rawNumerator(pn[i]) === 0n && hypLen > 1) {
        const numerator = 1 / ((2 ** incvnt * r.k) / logCR(hypLen));
        pn[i] = pyFloat(numerator / Number(rawDenominator(pn[i])));
        incvnt++;
      }
    }
    return pn;
  };
  const method5 = (pn: PyNumber[]): PyNumber[] => {
    // The extra precision comes from the last segment only, at order 5 whatever the weights.
    const p5 = last === undefined ? pyFraction(0, 1) : pyFraction(last.numerator5, last.denominator5);
    const plus1 = [...pn, p5];
    let prev = pyAdd(pn[0], pyInt(1));
    for (let i = 0; i < pn.length; i++) {
      const v = pyDiv(pyAdd(pyAdd(prev, pn[i]), plus1[i + 1]), pyInt(3));
      pn[i] = v;
      prev = v;
    }
    return pn;
  };
  switch (r.method) {
    case 0:
      // sys.float_info.min stands in for a zero precision.
      return p.map((x) => (rawNumerator(x) !== 0n ? x : pyFloat(2.2250738585072014e-308)));
    case 1:
      return p.map((x) => (rawNumerator(x) === 0n ? pyFloat((0 + r.epsilon) / Number(rawDenominator(x))) : x));
    case 2:
      return p.map((x, i) => (i === 0 ? x : pyFraction(rawNumerator(x) + 1n, rawDenominator(x) + 1n)));
    case 3: {
      let incvnt = 1;
      return p.map((x) => {
        if (rawNumerator(x) !== 0n) return x;
        const v = pyFloat(1 / (2 ** incvnt * Number(rawDenominator(x))));
        incvnt++;
        return v;
      });
    }
    case 4:
      return method4(p);
    case 5:
      return method5(p);
    case 6: {
      if (p.length < 3) {
        throw new NltkBleuError(
          'IndexError',
          'list index out of range',
          `smoothing method 6 needs at least 3 n-gram orders, the weights give ${p.length}`,
        );
      }
      if (pyIsZero(p[2])) {
        // NLTK's message says bigrams; the precision it tests is the trigram one (p_n[2]).
        throw new NltkBleuError(
          'AssertionError',
          'This smoothing method requires non-zero precision for bigrams.',
          'smoothing method 6 needs a matching trigram: the trigram precision is 0',
        );
      }
      const lastHypLen = last?.hypLen ?? 0;
      for (let i = 2; i < p.length; i++) {
        const pi0 = pyIsZero(p[i - 2]) ? pyInt(0) : pyDiv(pySquare(p[i - 1]), p[i - 2]);
        const m = pyInt(rawNumerator(p[i]));
        // Number of (i+1)-grams of the last hypothesis.
        const l = pyInt(Math.max(0, lastHypLen - i));
        p[i] = pyDiv(pyAdd(m, pyMul(pyScalar(r.alpha), pi0)), pyAdd(l, pyScalar(r.alpha)));
      }
      return p;
    }
    case 7:
      return method5(method4(p));
  }
}

/**
 * NLTK BLEU (0–1 scale, NLTK's float) from summed statistics and the last segment's statistics, exactly as
 * `corpus_bleu` computes it after its accumulation loop.
 * @param last the last segment (method 4's fallback, methods 5–7 use it); `undefined` for an empty corpus.
 * @throws NltkBleuError where NLTK raises (method 6).
 */
export function nltkBleuFromStats(
  totals: NltkTotals,
  last: NltkSegmentStats | undefined,
  options: NltkBleuOptions = {},
): number {
  const r = resolve(options);
  const order = r.weights.length;
  if (totals.numerators.length < order || totals.denominators.length < order) {
    throw new RangeError(`statistics have fewer orders than the ${order} weights`);
  }
  const bp = nltkBrevityPenalty(totals.refLen, totals.hypLen);
  const p: PyNumber[] = [];
  for (let i = 0; i < order; i++) p.push(pyFraction(totals.numerators[i], totals.denominators[i]));
  if (totals.numerators[0] === 0) return 0;
  const smoothed = smooth(p, r, last, totals.hypLen);
  let weights = r.weights;
  if (r.autoReweigh && totals.hypLen < 4 && sameWeights(weights, DEFAULT_WEIGHTS)) {
    weights = new Array(totals.hypLen).fill(1 / totals.hypLen);
  }
  const terms: number[] = [];
  const n = Math.min(weights.length, smoothed.length);
  for (let i = 0; i < n; i++) {
    if (pyIsPositive(smoothed[i])) terms.push(weights[i] * logCR(toFloat(smoothed[i])));
  }
  return bp * expCR(fsum(terms));
}

function sameWeights(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((w, i) => w === b[i]);
}

/**
 * NLTK `corpus_bleu(list_of_references, hypotheses, …)` on token lists.
 * @throws NltkBleuError where NLTK raises (method 6).
 */
export function nltkCorpusBleu(
  listOfReferences: readonly (readonly (readonly string[])[])[],
  hypotheses: readonly (readonly string[])[],
  options: NltkBleuOptions = {},
): number {
  const order = (options.weights ?? DEFAULT_WEIGHTS).length;
  const stats = nltkSegmentStats(listOfReferences, hypotheses, order);
  return nltkBleuFromStats(sumNltkStats(stats, order), stats[stats.length - 1], options);
}

/**
 * NLTK `sentence_bleu(references, hypothesis, …)` on token lists.
 * @throws NltkBleuError where NLTK raises (method 6).
 */
export function nltkSentenceBleu(
  references: readonly (readonly string[])[],
  hypothesis: readonly string[],
  options: NltkBleuOptions = {},
): number {
  return nltkCorpusBleu([references], [hypothesis], options);
}
