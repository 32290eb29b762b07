/**
 * The data of an HTML report, as plain JSON-serialisable values: what `palette report` computes and what the page
 * shows. The renderer embeds it whole as one JSON blob, so the page's script and a reader of the file see the same
 * numbers; nothing here holds a function, a `Map` or a typed array.
 *
 * Layout is columnar where it is large: per-segment texts and sentence scores are arrays indexed by system, metric
 * and segment (one array per system and metric, not one object per segment), which keeps 16 systems × 3000 segments
 * a few megabytes.
 */

/** The format tag of {@link ReportData}; bumped when a field changes meaning. */
export const REPORT_FORMAT = 'palette-report/1';

/** A metric of the report. */
export interface ReportMetric {
  /** Canonical `-m` id (`bleu`, `chrf`, `ter`, `rouge-l`). */
  readonly id: string;
  /** Score name as printed (`BLEU`, `chrF2`, `TER`). */
  readonly name: string;
  /** sacrebleu-style signature (long form). */
  readonly signature: string;
  /** Whether a higher score is better (false for error rates: TER, WER, PER). */
  readonly higherIsBetter: boolean;
  /** Decimals the report prints its scores with. */
  readonly decimals: number;
}

/** A confidence interval of a corpus score. */
export interface ReportInterval {
  /** Lower bound. */
  readonly low: number;
  /** Upper bound. */
  readonly high: number;
  /** The bootstrap mean the interval is centred on (sacreBLEU's μ), where there is one. */
  readonly mean?: number;
}

/** A corpus score of one system for one metric. */
export interface ReportScore {
  /** The corpus score on the metric's own scale. */
  readonly score: number;
  /** Everything sacrebleu prints after the score (may be ''). */
  readonly verbose: string;
  /** The confidence interval, when one was computed. */
  readonly ci?: ReportInterval;
}

/** How confidence intervals were computed. */
export interface ReportConfidence {
  /** Coverage, e.g. 0.95. */
  readonly level: number;
  /** Bootstrap resamples. */
  readonly resamples: number;
  /** Seed of the resampling. */
  readonly seed: number;
  /** Short description, e.g. `bootstrap over segments`. */
  readonly method: string;
}

/** Pairwise significance tests. */
export interface ReportSignificance {
  /** `bs`: paired bootstrap; `ar`: paired approximate randomization (both as sacrebleu). */
  readonly test: 'bs' | 'ar';
  /** Resamples (bootstrap) or trials (randomization). */
  readonly resamples: number;
  /** Seed of the test. */
  readonly seed: number;
  /** Index of the baseline system, or null when every pair was tested. */
  readonly baseline: number | null;
  /**
   * p-values by metric: `pValues[m][i][j]` is the p-value of system `j` against system `i` as baseline, null where
   * not tested (the diagonal; rows other than the baseline's when `baseline` is set).
   */
  readonly pValues: readonly (readonly (readonly (number | null)[])[])[];
}

/** A correlation with its confidence interval. */
export interface ReportCorrelationValue {
  /** The coefficient; null when undefined (constant input). */
  readonly value: number | null;
  /** Confidence interval, when computed. */
  readonly ci?: ReportInterval;
}

/** Correlations of one metric with one human score set at one level. */
export interface ReportCorrelation {
  /** Index into {@link ReportData.metrics}. */
  readonly metric: number;
  /** Index into {@link ReportData.human}. */
  readonly human: number;
  /** `system` (one point per system) or `segment` (one point per scored segment, all systems pooled). */
  readonly level: 'system' | 'segment';
  /** Number of points. */
  readonly n: number;
  /** Segments the coefficients (and their resamples) are computed over. */
  readonly segments: number;
  /**
   * System level: the points correlated, one per report system (null where left out) — the metric's system score
   * over the judged segments, and the human system score.
   */
  readonly x?: readonly (number | null)[];
  readonly y?: readonly (number | null)[];
  readonly pearson: ReportCorrelationValue;
  readonly spearman: ReportCorrelationValue;
  readonly kendall: ReportCorrelationValue;
}

/** One set of human judgments (e.g. DA, MQM). */
export interface ReportHuman {
  /** Name shown in the report (the file name unless given). */
  readonly name: string;
  /** System-level scores, one per system (null where the set has none). */
  readonly system: readonly (number | null)[];
  /** Segment-level scores, `segment[s][i]` for system `s` and segment `i` (null where missing); absent if none. */
  readonly segment?: readonly (readonly (number | null)[])[];
  /** What was left out when the judgments were aligned to the report (shown with them). */
  readonly note?: string;
}

/** Per-segment texts and sentence scores. */
export interface ReportSegments {
  /** Number of segments. */
  readonly count: number;
  /** Source sentences, when given. */
  readonly source?: readonly string[];
  /** References: `references[j][i]` is reference `j` of segment `i`. */
  readonly references: readonly (readonly string[])[];
  /** Hypotheses: `hypotheses[s][i]` is system `s`'s output for segment `i`. */
  readonly hypotheses: readonly (readonly string[])[];
  /** Sentence scores: `scores[m][s][i]` for metric `m`, system `s`, segment `i` (null where undefined). */
  readonly scores: readonly (readonly (readonly (number | null)[])[])[];
}

/** Everything an HTML report shows. */
export interface ReportData {
  /** {@link REPORT_FORMAT}. */
  readonly format: typeof REPORT_FORMAT;
  /** Title of the page. */
  readonly title: string;
  /** Palette's version. */
  readonly version: string;
  /** When the report was made, only if the caller passes it (reports are otherwise byte-for-byte reproducible). */
  readonly created?: string;
  /** System names (file names), in the order given. */
  readonly systems: readonly string[];
  /** Metrics, in the order scored. */
  readonly metrics: readonly ReportMetric[];
  /** Corpus scores: `scores[m][s]` for metric `m` and system `s`. */
  readonly scores: readonly (readonly ReportScore[])[];
  /** Systems best first per metric: `ranking[m]` lists system indices (ties keep the order given). */
  readonly ranking: readonly (readonly number[])[];
  /** How the intervals of {@link ReportScore.ci} were computed, when they were. */
  readonly confidence?: ReportConfidence;
  /** Pairwise significance, when tested. */
  readonly significance?: ReportSignificance;
  /** Human judgments, when given. */
  readonly human?: readonly ReportHuman[];
  /** Metric-vs-human correlations. */
  readonly correlations?: readonly ReportCorrelation[];
  /** Per-segment drill-down data. */
  readonly segments: ReportSegments;
}

/**
 * Systems best first by corpus score (`higherIsBetter` decides the direction); equal scores keep the given order
 * (the sort is stable), so the ranking is reproducible.
 */
export function rankSystems(scores: readonly ReportScore[], higherIsBetter: boolean): number[] {
  const order = scores.map((_, s) => s);
  const key = (s: number): number => (Number.isNaN(scores[s].score) ? -Infinity : higherIsBetter ? scores[s].score : -scores[s].score);
  return order.sort((a, b) => key(b) - key(a) || a - b);
}
