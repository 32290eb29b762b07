/**
 * ORANGE variants scored through the generic {@link Metric} API of `palette score`'s registry: ParaEval (seed 001),
 * IMPACT and the NP-chunk metric (seed 003), CER, GLEU, RIBES and METEOR. Their text pipelines (paraphrase-table words, chunking) live inside the
 * metric, so they are scored as `palette score -sl` scores them, with the same definition of a candidate's score as
 * every other ORANGE variant (./scorer.ts): a reference against the other u − 1 references of its sentence, a
 * candidate against each of the u leave-one-out sets, the u scores summed in set order and divided by u. A set's
 * score is the metric's own multi-reference sentence score (`sentenceScoreFromStats` of the text's row).
 *
 * The Metric API scores hypothesis i against prepared segment i, so a block is scored set by set: the block's
 * sentences with the set's u − 1 references are prepared once per set (tokenised, chunked), the references of the
 * left-out stream scored against them, then the candidates in rounds — round r holds the r-th candidate of every
 * sentence, an empty text standing in (and its score dropped) where a sentence has fewer. Each candidate is thus
 * read (chunked) once per set, u times in all; the metric's internals stay its own.
 *
 * Input errors a metric raises while reading a candidate (a malformed pre-chunked line) are re-raised at that
 * candidate's n-best line when the block carries the lines.
 */
import { InputError } from '../../errors.js';
import type { Metric, PreparedReferences } from '../../metrics/metric.js';
import { defaultRegistry, type MetricSettings } from '../../metrics/registry.js';
import type { OrangeVariant } from './variants.js';

/** The ids of the registry metrics ORANGE scores through the Metric API. */
export const ORANGE_API_METRICS = ['paraeval', 'impact', 'npchunk', 'cer', 'gleu', 'ribes', 'meteor'] as const;

/** One of {@link ORANGE_API_METRICS}. */
export type OrangeApiMetric = (typeof ORANGE_API_METRICS)[number];

/** A variant scored through the Metric API. */
export type OrangeMetricVariant = Extract<OrangeVariant, { kind: 'metric' }>;

/**
 * The metric of a variant, set up as `palette score -sl -m ID` with `settings` (its metric flags).
 * @throws InputError as the registry: a missing or malformed paraphrase table, an unknown chunker, a bad parameter.
 */
export function createOrangeMetric(variant: OrangeMetricVariant, settings: MetricSettings): Metric {
  return defaultRegistry.create(variant.id, { ...settings, sentenceLevel: true }).metric;
}

/** Sentence scores of `rows`, `count` rows of `metric.statsWidth`. */
function rowScore(metric: Metric, rows: Float64Array, i: number): number {
  const w = metric.statsWidth;
  return metric.sentenceScoreFromStats(rows.subarray(i * w, (i + 1) * w)).score;
}

/**
 * Leave-one-out scores of one block for one Metric-API variant, written into `candidates` (one per candidate, the
 * mean over the u sets) and `references` (`b · u`, reference j of block sentence i at `i · u + j`).
 * @param refStreams `refStreams[j][s]`: reference j of sentence s of the whole test set.
 * @param candidateLines n-best line of each candidate, for messages (optional).
 * @throws InputError a metric's error on a candidate, at its n-best line when `candidateLines` is given.
 */
export function scoreMetricVariant(
  metric: Metric,
  refStreams: readonly (readonly string[])[],
  sentences: Int32Array,
  candidates: readonly string[],
  candidateOffsets: Int32Array,
  candidateScores: Float64Array,
  referenceScores: Float64Array,
  candidateLines?: Int32Array,
): void {
  const u = refStreams.length;
  const b = sentences.length;
  let rounds = 0;
  for (let i = 0; i < b; i++) rounds = Math.max(rounds, candidateOffsets[i + 1] - candidateOffsets[i]);
  const texts = new Array<string>(b);
  for (let k = 0; k < u; k++) {
    const set: string[][] = [];
    for (let j = 0; j < u; j++) {
      if (j === k) continue;
      const stream = refStreams[j];
      set.push(Array.from(sentences, (s) => stream[s]));
    }
    const prepared: PreparedReferences = metric.prepareReferences(set);
    const left = refStreams[k];
    for (let i = 0; i < b; i++) texts[i] = left[sentences[i]];
    const refRows = metric.segmentStats(texts, prepared);
    for (let i = 0; i < b; i++) referenceScores[i * u + k] = rowScore(metric, refRows, i);
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < b; i++) {
        const c = candidateOffsets[i] + r;
        texts[i] = c < candidateOffsets[i + 1] ? candidates[c] : '';
      }
      let rows: Float64Array;
      try {
        rows = metric.segmentStats(texts, prepared);
      } catch (err) {
        throw locateCandidate(err, candidateOffsets, r, candidateLines);
      }
      for (let i = 0; i < b; i++) {
        const c = candidateOffsets[i] + r;
        if (c < candidateOffsets[i + 1]) candidateScores[c] += rowScore(metric, rows, i);
      }
    }
  }
  for (let c = 0; c < candidateScores.length; c++) candidateScores[c] /= u;
}

/** A metric's error at text `line` of round `r` moved to the candidate's n-best line (no file: the caller's). */
function locateCandidate(err: unknown, candidateOffsets: Int32Array, r: number, lines: Int32Array | undefined): unknown {
  if (!(err instanceof InputError) || err.line === undefined) return err;
  const c = candidateOffsets[err.line - 1] + r;
  const located = new InputError(err.code, lines === undefined ? `${err.message} (candidate ${c + 1} of the block)` : err.message, {
    file: err.file,
    line: lines?.[c],
  });
  located.cause = err;
  return located;
}
