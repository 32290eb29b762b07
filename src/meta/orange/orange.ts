/**
 * ORANGE (Lin & Och 2004, "ORANGE: a Method for Evaluating Automatic Evaluation Metrics for Machine Translation";
 * seed paper 002): how well a metric tells human translations from machine ones. For every source sentence i with an
 * n-best list of N_i candidates and u_i ≥ 2 references, the metric scores
 * - each reference against the other u_i − 1 references (leave one out), and
 * - each candidate against each of the same u_i leave-one-out sets, the u_i scores averaged (so candidates and
 *   references are scored with equally many references; the leave-one-out scoring is in ./scorer.ts).
 * All N_i + u_i texts are then ranked together by score (rank 1 = best: the highest score, or the lowest for an
 * error rate such as WER or PER), tied scores sharing the average of their ranks, and
 *
 *   ORANGE = (1/S) Σ_i avgRank_i(references) / (N_i + 1),
 *
 * lower being better: a metric that ranks the references above every candidate scores (u + 1) / (2(N + 1)).
 * The paper divides by "the length of the n-best list plus 1", and so does Palette (METRICS.md §6), even though
 * the u references ranked together occupy ranks up to N + u: a metric that puts every reference below every
 * candidate scores slightly above 1.
 *
 * The per-sentence ranks are computed without sorting: the rank of a reference is 1 + (texts strictly better) +
 * (texts tied with it, itself excluded) / 2, O((N + u) · u) per sentence. The plain sort-based definition is in
 * test/reference/orange.ts and a property test holds this file to it.
 *
 * The 95% confidence interval resamples sentences with replacement (the paper's bootstrap, Davison & Hinkley) and
 * takes numpy's linearly interpolated 2.5th and 97.5th percentiles of the resampled means. With
 * {@link numpyResampler} the interval is numpy's, bit for bit:
 * `np.percentile(terms[default_rng(seed).choice(S, size=(B, S))].mean(axis=1), [2.5, 97.5])` (means summed
 * pairwise as numpy sums).
 */
import type { ScoreDirection } from '../../metrics/descriptor.js';
import { numpyPercentile } from '../correlation-bootstrap.js';
import { defaultRng, type BoundedIntStream, type NumpySeed } from '../numpy-random.js';
import { numpyMean } from '../significance-stats.js';

/** Scores of one metric variant over many sentences, flat. */
export interface OrangeSentenceScores {
  /** Candidate scores, sentence after sentence (each already averaged over its leave-one-out sets). */
  readonly candidates: Float64Array;
  /** `S + 1` offsets: the candidates of sentence `i` are `candidates[candidateOffsets[i] .. candidateOffsets[i + 1]]`. */
  readonly candidateOffsets: Int32Array;
  /** Reference scores (each against the sentence's other references), sentence after sentence. */
  readonly references: Float64Array;
  /** `S + 1` offsets into `references`; every sentence needs at least 2 references. */
  readonly referenceOffsets: Int32Array;
}

/** Whether a higher score is better (BLEU, NIST, ROUGE) or a lower one (WER, PER): a metric descriptor's direction. */
export type { ScoreDirection };

/** Checks offsets of a flat per-sentence array. */
function checkOffsets(name: string, offsets: Int32Array, length: number, sentences: number): void {
  if (offsets.length !== sentences + 1 || offsets[0] !== 0 || offsets[sentences] !== length) {
    throw new RangeError(`${name} must have ${sentences + 1} offsets from 0 to ${length}`);
  }
  for (let i = 0; i < sentences; i++) {
    if (offsets[i + 1] < offsets[i]) throw new RangeError(`${name} must be non-decreasing (at sentence ${i})`);
  }
}

/** `a` is strictly better than `b` in `direction`. */
function better(a: number, b: number, lower: boolean): boolean {
  return lower ? a < b : a > b;
}

/**
 * The per-sentence ORANGE terms avgRank_i(references) / (N_i + 1), in sentence order; their mean is ORANGE.
 * Scores compare as doubles: only exactly equal scores tie. NaN scores are a caller bug (a NaN ranks below
 * everything would be an arbitrary choice) and throw.
 * @throws RangeError for inconsistent offsets, a sentence with fewer than 2 references, or a NaN score.
 */
export function orangeSentenceTerms(scores: OrangeSentenceScores, direction: ScoreDirection = 'higher'): Float64Array {
  const { candidates, candidateOffsets, references, referenceOffsets } = scores;
  const sentences = candidateOffsets.length - 1;
  checkOffsets('candidateOffsets', candidateOffsets, candidates.length, sentences);
  checkOffsets('referenceOffsets', referenceOffsets, references.length, sentences);
  for (let i = 0; i < candidates.length; i++) if (Number.isNaN(candidates[i])) throw new RangeError(`candidate score ${i} is NaN`);
  for (let i = 0; i < references.length; i++) if (Number.isNaN(references[i])) throw new RangeError(`reference score ${i} is NaN`);
  const lower = direction === 'lower';
  const out = new Float64Array(sentences);
  for (let s = 0; s < sentences; s++) {
    const c0 = candidateOffsets[s];
    const c1 = candidateOffsets[s + 1];
    const r0 = referenceOffsets[s];
    const r1 = referenceOffsets[s + 1];
    if (r1 - r0 < 2) throw new RangeError(`sentence ${s} has ${r1 - r0} reference(s); ORANGE needs at least 2`);
    let rankSum = 0;
    for (let r = r0; r < r1; r++) {
      const x = references[r];
      let above = 0;
      let tied = 0;
      for (let c = c0; c < c1; c++) {
        const y = candidates[c];
        if (better(y, x, lower)) above++;
        else if (y === x) tied++;
      }
      for (let q = r0; q < r1; q++) {
        if (q === r) continue;
        const y = references[q];
        if (better(y, x, lower)) above++;
        else if (y === x) tied++;
      }
      // A block of t + 1 equal scores after `above` better ones holds ranks above+1 … above+t+1: their mean.
      rankSum += above + 1 + tied / 2;
    }
    out[s] = rankSum / (r1 - r0) / (c1 - c0 + 1);
  }
  return out;
}

/** ORANGE from the per-sentence terms: their mean as numpy's `mean` sums (pairwise), NaN for none. */
export function orangeOfTerms(terms: Float64Array): number {
  return numpyMean(terms);
}

/** ORANGE of one metric variant: the mean of {@link orangeSentenceTerms}. */
export function orange(scores: OrangeSentenceScores, direction: ScoreDirection = 'higher'): number {
  return orangeOfTerms(orangeSentenceTerms(scores, direction));
}

/**
 * Where resampled sentence indices come from: called once per resample with the number of sentences `n`, returns
 * `n` indices in `[0, n)` drawn with replacement. The seeded source is numpy's `default_rng` (src/meta/), so that
 * a seed gives the same intervals in Palette and in numpy.
 */
export type ResampleIndices = (n: number) => ArrayLike<number>;

/**
 * The resampling numpy does for `terms[rng.choice(S, size=(B, S))]` with `rng = numpy.random.default_rng(seed)`:
 * resample b is row b of that one `choice` call (one bounded-integer stream, never the whole B × S matrix).
 * @throws RangeError when called with different sentence counts.
 */
export function numpyResampler(seed: NumpySeed): ResampleIndices {
  let stream: BoundedIntStream | null = null;
  let buffer = new Int32Array(0);
  return (n) => {
    if (stream === null) {
      stream = defaultRng(seed).boundedStream(n);
      buffer = new Int32Array(n);
    } else if (n !== buffer.length) {
      throw new RangeError(`one resampler draws rows of one length (${buffer.length}, not ${n})`);
    }
    stream.fill(buffer);
    return buffer;
  };
}

/** A bootstrap confidence interval. */
export interface ConfidenceInterval {
  /** Lower bound (the 2.5th percentile of the resampled means for 95%). */
  readonly lower: number;
  /** Upper bound. */
  readonly upper: number;
}

/**
 * Bootstrap confidence interval of the mean of `terms` (ORANGE over resampled sentences): `resamples` means of
 * `terms` at the drawn indices, and their percentiles (100 − level)/2 and (100 + level)/2.
 * @param level confidence level in percent. @default 95
 * @throws RangeError for `resamples` < 1, no terms, a level outside (0, 100), or indices out of range.
 */
export function bootstrapMeanInterval(
  terms: Float64Array,
  resamples: number,
  draw: ResampleIndices,
  level = 95,
): ConfidenceInterval {
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer (got ${resamples})`);
  if (terms.length === 0) throw new RangeError('no sentences to resample');
  if (!(level > 0 && level < 100)) throw new RangeError(`level must be in (0, 100) (got ${level})`);
  const n = terms.length;
  const means = new Float64Array(resamples);
  const sample = new Float64Array(n);
  for (let b = 0; b < resamples; b++) {
    const idx = draw(n);
    if (idx.length !== n) throw new RangeError(`a resample must draw ${n} indices (got ${idx.length})`);
    for (let i = 0; i < n; i++) {
      const k = idx[i];
      if (!(k >= 0 && k < n)) throw new RangeError(`resampled index ${k} is outside [0, ${n})`);
      sample[i] = terms[k];
    }
    means[b] = numpyMean(sample);
  }
  means.sort();
  return { lower: numpyPercentile(means, (100 - level) / 2), upper: numpyPercentile(means, (100 + level) / 2) };
}
