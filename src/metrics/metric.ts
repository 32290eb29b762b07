/**
 * The contract every metric follows (after sacrebleu's `Metric`): options fixed at construction, a signature
 * holding every setting that changes the number, references prepared once (shareable across systems), a fixed-width
 * sufficient-statistics row per segment, and a pure reduction from summed rows to the corpus score.
 */

import { InputError } from '../errors.js';
import type { PairwiseStage } from './pairwise.js';
import type { TokenStage } from './token-stage.js';

/** A score as printed and as JSON-serialised. */
export interface MetricScore {
  /** Score name as sacrebleu prints it: `BLEU`, `chrF2`, `chrF2++`, `NIST`. */
  readonly name: string;
  /** The score on the metric's own scale (0–100 for BLEU and chrF, as sacrebleu). */
  readonly score: number;
  /** Everything after the score in sacrebleu's text output, e.g. `58.6/31.9/19.6/12.9 (BP = 1.000 …)`; may be ''. */
  readonly verboseScore: string;
  /** Extra numbers a metric exposes (precisions, brevity penalty, lengths …). */
  readonly details?: Readonly<Record<string, number | readonly number[]>>;
}

/** References of a test set after tokenization and interning; opaque to callers. */
export interface PreparedReferences {
  /** Number of segments. */
  readonly segments: number;
}

/** One evaluation metric. */
export interface Metric<P extends PreparedReferences = PreparedReferences> {
  /** Metric id as given to `-m` (`bleu`, `chrf`, `nist`). */
  readonly id: string;
  /** Width of a statistics row. */
  readonly statsWidth: number;
  /** Column names of a statistics row, in order. */
  readonly statsColumns: readonly string[];
  /** sacrebleu-style signature, e.g. `nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:0.1.0`. */
  signature(nRefs: number): string;
  /**
   * Tokenizes and interns references. `refStreams[j][i]` is reference `j` of segment `i`; every stream has the same
   * length. Prepare once and reuse for every system scored against the same references.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): P;
  /** Statistics rows (row-major, `statsWidth` per segment) of hypotheses `hyps[i]` against segment `i`. */
  segmentStats(hyps: readonly string[], refs: P): Float64Array;
  /**
   * Statistics rows of candidates grouped by segment: `hyps[h]` against segment `segmentOf[h]` of the prepared
   * references (`segmentOf` non-decreasing; a segment may have any number of candidates, none included). Row `h` is
   * the row `segmentStats` gives `hyps[h]` at position `segmentOf[h]`. Present where the metric gains from it (chrF
   * counts each segment's reference n-grams once for all of its candidates); callers of a metric without it score
   * candidates in layers of `segmentStats` calls (src/engine/layered-rows.ts).
   */
  candidateStats?(hyps: readonly string[], segmentOf: Int32Array, refs: P): Float64Array;
  /** Corpus score from the column sums of the rows. */
  scoreFromStats(totals: Float64Array): MetricScore;
  /** Sentence score from one row (may differ from `scoreFromStats`, e.g. effective order for BLEU). */
  sentenceScoreFromStats(row: Float64Array): MetricScore;
  /**
   * Its token-level stage (./token-stage.ts): the tokenizer it needs and its rows from token batches with a
   * candidate→segment map; absent, or undefined for settings whose rows need the text itself (their
   * `segmentStats` is then the only way to the rows).
   */
  tokenStage?(): TokenStage | undefined;
  /**
   * Its pairwise stage (./pairwise.ts): the statistics rows of every (hypothesis, reference) pair of two sets of
   * texts, each text tokenized once; absent for metrics that have none.
   */
  pairwise?(): PairwiseStage;
}

/** Column sums of row-major statistics. */
export function sumRows(rows: Float64Array, width: number): Float64Array {
  const totals = new Float64Array(width);
  for (let i = 0; i < rows.length; i += width) for (let c = 0; c < width; c++) totals[c] += rows[i + c];
  return totals;
}

/** Scores a whole corpus: statistics per segment, summed, reduced. */
export function corpusScore<P extends PreparedReferences>(
  metric: Metric<P>,
  hyps: readonly string[],
  refStreams: readonly (readonly string[])[] | P,
): MetricScore {
  const refs = 'segments' in refStreams ? refStreams : metric.prepareReferences(refStreams);
  return metric.scoreFromStats(sumRows(metric.segmentStats(hyps, refs), metric.statsWidth));
}

/** Scores every segment on its own. */
export function sentenceScores<P extends PreparedReferences>(
  metric: Metric<P>,
  hyps: readonly string[],
  refStreams: readonly (readonly string[])[] | P,
): MetricScore[] {
  const refs = 'segments' in refStreams ? refStreams : metric.prepareReferences(refStreams);
  const rows = metric.segmentStats(hyps, refs);
  const out: MetricScore[] = [];
  for (let i = 0; i < hyps.length; i++) {
    out.push(metric.sentenceScoreFromStats(rows.subarray(i * metric.statsWidth, (i + 1) * metric.statsWidth)));
  }
  return out;
}

/** Scores one hypothesis against its references. */
export function sentenceScore<P extends PreparedReferences>(
  metric: Metric<P>,
  hyp: string,
  refs: readonly string[],
): MetricScore {
  return sentenceScores(metric, [hyp], refs.map((r) => [r]))[0];
}

/**
 * Checks reference streams before preparation: at least one stream, all of one length.
 * @returns the number of segments.
 * @throws InputError `E_EMPTY_INPUT` without streams, `E_LINE_COUNT_MISMATCH` when their lengths differ.
 */
export function checkReferenceStreams(metricName: string, refStreams: readonly (readonly string[])[]): number {
  if (refStreams.length === 0) throw new InputError('E_EMPTY_INPUT', `${metricName} needs at least one reference stream`);
  const segments = refStreams[0].length;
  refStreams.forEach((stream, j) => {
    if (stream.length !== segments) {
      throw new InputError(
        'E_LINE_COUNT_MISMATCH',
        `reference stream ${j + 1} has ${stream.length} lines, reference stream 1 has ${segments}`,
      );
    }
  });
  return segments;
}

/**
 * Checks that there is one hypothesis per prepared reference segment.
 * @throws InputError `E_LINE_COUNT_MISMATCH` otherwise.
 */
export function checkHypothesisCount(hyps: readonly string[], segments: number): void {
  if (hyps.length !== segments) {
    throw new InputError('E_LINE_COUNT_MISMATCH', `${hyps.length} hypotheses but ${segments} reference segments`);
  }
}

/**
 * Checks the candidate→segment map of `Metric.candidateStats`: one segment per candidate, each a segment of the
 * prepared references, in non-decreasing order.
 * @throws RangeError otherwise.
 */
export function checkCandidateSegments(candidates: number, segmentOf: Int32Array, segments: number): void {
  if (segmentOf.length !== candidates) throw new RangeError(`${candidates} candidates but ${segmentOf.length} segment indices`);
  for (let h = 0; h < candidates; h++) {
    const s = segmentOf[h];
    if (!(s >= 0 && s < segments) || (h > 0 && s < segmentOf[h - 1])) {
      throw new RangeError(`candidate ${h}: segment ${s} is not one of the ${segments} segments in non-decreasing order`);
    }
  }
}
