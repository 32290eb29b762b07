/**
 * The pairwise ranking optimisation sampler (Hopkins & May 2011, "Tuning as Ranking") as Moses' `pro` runs it
 * (mert/pro.cpp), on flat statistics and feature matrices.
 *
 * For each sentence, `candidates` (Γ, 5000) pairs of its candidates are drawn with replacement, two glibc `rand() %
 * n` per pair in that order, from one stream for the whole corpus. A pair whose sentence-level BLEU+1 scores
 * differ by less than `minDiff` (0.05) is dropped; of the rest, the `samples` (Ξ, 50) with the largest differences
 * are kept, in the order they were drawn, each as (better, worse). Moses keeps them with a threshold rather than a
 * sort: the Ξ-th largest difference d, then every pair in draw order whose difference is at least 0.99999 − (1 − d)
 * (a slack of 10^-5 that lets ties at d through) until Ξ are taken; with Ξ or fewer pairs, all of them.
 *
 * Arithmetic is Moses': statistics and features are floats, sentence BLEU is Moses' `smoothedSentenceBleu` in single
 * precision (`mosesSmoothedSentenceBleu`), differences and their threshold are floats, so the kept pairs and the
 * printed feature differences are the ones Moses prints.
 */
import { mosesSmoothedSentenceBleu } from '../../metrics/bleu/moses.js';
import { cFormatG } from '../../util/c-format.js';
import { GlibcRandom } from '../mert/glibc-random.js';

const f32 = Math.fround;

/** Options of {@link proSample}; the defaults are Moses' constants. */
export interface ProSamplerOptions {
  /** Seed of glibc's `srand` (Moses `pro -r`). Ignored when `random` is given. @default 0 (glibc then seeds with 1) */
  readonly seed?: number;
  /** A glibc `rand()` stream to draw from (continued, not reseeded): for several calls that share Moses' one stream. */
  readonly random?: GlibcRandom;
  /** Pairs drawn per sentence (Γ). @default 5000 */
  readonly candidates?: number;
  /** Pairs kept per sentence at most (Ξ). @default 50 */
  readonly samples?: number;
  /** Smallest sentence-BLEU difference of a kept pair (a float). @default 0.05 */
  readonly minDiff?: number;
  /** Added to every n-gram count of sentence BLEU. @default 1 */
  readonly smoothing?: number;
  /** Add the smoothing to the reference length too (Moses `pro --smooth-brevity-penalty`). @default false */
  readonly smoothBrevityPenalty?: boolean;
}

/** What {@link proSample} samples from: statistics rows and which rows belong to which sentence. */
export interface ProSamplerInput {
  /** BLEU statistics rows `m1 t1 … m4 t4 reflen` (9 columns), `candidates × 9`, row-major. */
  readonly stats: ArrayLike<number>;
  /** `sentences + 1` offsets: the candidates of sentence `s` are rows `candidateOffsets[s] .. candidateOffsets[s + 1]`. */
  readonly candidateOffsets: Int32Array;
}

/** Pairs kept by {@link proSample}, as parallel arrays in output order (sentence by sentence, draw order within). */
export interface ProSamples {
  /** Number of pairs. */
  readonly count: number;
  /** Sentence index of each pair. */
  readonly sentence: Int32Array;
  /** Row of the candidate with the higher sentence BLEU. */
  readonly better: Int32Array;
  /** Row of the candidate with the lower sentence BLEU. */
  readonly worse: Int32Array;
  /** Sentence-BLEU difference, better minus worse (a float, > 0). */
  readonly diff: Float32Array;
}

const BLEU_WIDTH = 9;

function positiveInteger(name: string, v: number): number {
  if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1 (got ${v})`);
  return v;
}

/**
 * Samples PRO's training pairs as Moses' `pro` does (see the file comment): per sentence, Γ pairs drawn with glibc's
 * `rand()`, those whose sentence-BLEU+1 differ by at least `minDiff`, at most Ξ of them with the largest differences.
 * The pairs are the candidate rows; {@link proMegamText} writes them as Moses prints them.
 * @throws RangeError when the statistics are not 9 columns per candidate, the offsets do not increase from 0 to the
 *   number of candidates, a sentence has no candidate, or an option is out of range.
 */
export function proSample(input: ProSamplerInput, options: ProSamplerOptions = {}): ProSamples {
  const { stats, candidateOffsets } = input;
  const sentences = candidateOffsets.length - 1;
  if (sentences < 0 || (sentences > 0 && candidateOffsets[0] !== 0)) throw new RangeError('candidateOffsets must start at 0');
  for (let s = 0; s < sentences; s++) {
    if (!(candidateOffsets[s + 1] > candidateOffsets[s])) throw new RangeError(`sentence ${s} has no candidate (candidateOffsets must increase)`);
  }
  const rows = sentences > 0 ? candidateOffsets[sentences] : 0;
  if (stats.length !== rows * BLEU_WIDTH) throw new RangeError(`stats must hold ${rows} × ${BLEU_WIDTH} values (got ${stats.length})`);
  const gamma = positiveInteger('candidates', options.candidates ?? 5000);
  const xi = positiveInteger('samples', options.samples ?? 50);
  if (gamma > 2 ** 26) throw new RangeError(`candidates must be at most 2^26 (got ${gamma})`);
  const minDiff = f32(options.minDiff ?? 0.05);
  const smoothing = options.smoothing ?? 1;
  if (!Number.isFinite(minDiff) || !Number.isFinite(smoothing)) throw new RangeError('minDiff and smoothing must be finite');
  const smoothBP = options.smoothBrevityPenalty ?? false;
  const random = options.random ?? new GlibcRandom(options.seed ?? 0);

  // A row's sentence BLEU does not depend on the draw: computed once per row (Moses recomputes it per draw).
  const bleu = new Float32Array(rows);
  const row = new Float64Array(BLEU_WIDTH);
  for (let r = 0; r < rows; r++) {
    for (let k = 0; k < BLEU_WIDTH; k++) row[k] = stats[r * BLEU_WIDTH + k];
    bleu[r] = mosesSmoothedSentenceBleu(row, smoothing, smoothBP);
  }

  const out = { sentence: [] as number[], better: [] as number[], worse: [] as number[], diff: [] as number[] };
  const first = new Int32Array(gamma);
  const second = new Int32Array(gamma);
  const diffs = new Float32Array(gamma);
  const scores = new Float32Array(gamma);
  for (let s = 0; s < sentences; s++) {
    const base = candidateOffsets[s];
    const n = candidateOffsets[s + 1] - base;
    let kept = 0;
    for (let i = 0; i < gamma; i++) {
      const r1 = base + (random.next() % n);
      const r2 = base + (random.next() % n);
      const d = f32(bleu[r1] - bleu[r2]);
      const ad = Math.abs(d);
      if (ad < minDiff) continue;
      // Moses' SampledPair puts the better candidate first and keeps |d|; 1 − |d| in double, stored as a float.
      if (d > 0) {
        first[kept] = r1;
        second[kept] = r2;
      } else {
        first[kept] = r2;
        second[kept] = r1;
      }
      diffs[kept] = ad;
      scores[kept] = 1.0 - ad;
      kept++;
    }
    let threshold = -1;
    if (kept > xi) {
      // The Ξ-th smallest 1 − |d| (std::nth_element's value, whatever order it leaves).
      const sorted = scores.slice(0, kept).sort();
      threshold = f32(0.99999 - sorted[xi - 1]);
    }
    let collected = 0;
    for (let i = 0; collected < xi && i < kept; i++) {
      if (diffs[i] < threshold) continue;
      collected++;
      out.sentence.push(s);
      out.better.push(first[i]);
      out.worse.push(second[i]);
      out.diff.push(diffs[i]);
    }
  }
  return {
    count: out.sentence.length,
    sentence: Int32Array.from(out.sentence),
    better: Int32Array.from(out.better),
    worse: Int32Array.from(out.worse),
    diff: Float32Array.from(out.diff),
  };
}

/**
 * One pair as Moses' `pro` prints it: ` F<j> <a_j − b_j>` for every dense feature j whose difference exceeds 10^-5 in
 * magnitude (float difference, printed as C++ prints a float: `%g`, six significant digits).
 */
function pairText(features: ArrayLike<number>, dimensions: number, a: number, b: number): string {
  let text = '';
  const ra = a * dimensions;
  const rb = b * dimensions;
  for (let j = 0; j < dimensions; j++) {
    const d = f32(f32(features[ra + j]) - f32(features[rb + j]));
    if (Math.abs(d) > 0.00001) text += ` F${j} ${cFormatG(d)}`;
  }
  return text;
}

/**
 * The pairs as MegaM's binary training data, byte for byte what Moses' `pro` writes: for each pair the line
 * `1 F<j> <better − worse> …` then the line `0 F<j> <worse − better> …`, each ending with a newline.
 * @param features feature rows, `candidates × dimensions`, row-major (the rows the samples index)
 * @throws RangeError when `features` is not a whole number of rows of `dimensions`, or a sample's row is outside it.
 */
export function proMegamText(samples: ProSamples, features: ArrayLike<number>, dimensions: number): string {
  positiveInteger('dimensions', dimensions);
  if (features.length % dimensions !== 0) throw new RangeError(`features must hold whole rows of ${dimensions} (got ${features.length} values)`);
  const rows = features.length / dimensions;
  const parts: string[] = [];
  for (let i = 0; i < samples.count; i++) {
    const a = samples.better[i];
    const b = samples.worse[i];
    if (!(a >= 0 && a < rows && b >= 0 && b < rows)) throw new RangeError(`pair ${i} names row ${a < 0 || a >= rows ? a : b}, outside the ${rows} feature rows`);
    parts.push(`1${pairText(features, dimensions, a, b)}\n0${pairText(features, dimensions, b, a)}\n`);
  }
  return parts.join('');
}
