/**
 * Human performance by jackknifing (Lin & Och 2004 §5): with N references per segment, reference k is scored as a
 * hypothesis against the other N−1, for each k, and the N scores are averaged. Systems scored with
 * `jackknife: true` are likewise scored against N−1 references at a time, so the two are comparable.
 */
import { InputError } from '../../errors.js';
import { corpusScore, type Metric, type MetricScore, type PreparedReferences } from '../metric.js';
import type { ResolvedRougeOptions, RougeOptions } from './options.js';

/** The options a resolved set came from, with jackknifing off (a human is scored against N−1 references once). */
export function unjackknifedOptions(o: ResolvedRougeOptions): RougeOptions {
  const w = o.weighting;
  return {
    type: o.type,
    flavor: o.flavor,
    tokenizer: o.tokenizer,
    lowercase: o.lowercase,
    stem: o.stem,
    removeStopwords: o.removeStopwords,
    split: o.split,
    limit: o.limit,
    multiReference: o.multiReference,
    alpha: w.form === 'alpha' ? w.alpha : undefined,
    beta: w.form === 'beta' ? w.beta : undefined,
    average: o.average,
    jackknife: false,
  };
}

/** Each reference's score against the others, and their mean. */
export interface HumanScores {
  /** `perReference[k]`: reference stream k against the other streams (corpus score). */
  readonly perReference: MetricScore[];
  /** Mean precision, recall and F over the references. */
  readonly mean: { readonly precision: number; readonly recall: number; readonly fmeasure: number };
}

/**
 * Scores every reference stream against the other N−1 with a metric's settings (without jackknifing).
 * @param options the resolved options of the metric whose human performance is wanted
 * @param makeMetric builds a ROUGE metric from options (the `Rouge` constructor, which calls this function: passed
 *   in rather than imported, so that the two modules do not import each other)
 * @throws InputError `E_BAD_INPUT` with fewer than 2 reference streams.
 */
export function humanReferenceScores<P extends PreparedReferences>(
  options: ResolvedRougeOptions,
  refStreams: readonly (readonly string[])[],
  makeMetric: (options: RougeOptions) => Metric<P>,
): HumanScores {
  if (refStreams.length < 2) {
    throw new InputError(
      'E_BAD_INPUT',
      `jackknifing human scores needs at least 2 reference streams (got ${refStreams.length})`,
    );
  }
  const plain = makeMetric(unjackknifedOptions(options));
  const perReference = refStreams.map((hyps, k) =>
    corpusScore(
      plain,
      hyps,
      refStreams.filter((_, j) => j !== k),
    ),
  );
  let precision = 0;
  let recall = 0;
  let fmeasure = 0;
  for (const s of perReference) {
    precision += s.details!.precision as number;
    recall += s.details!.recall as number;
    fmeasure += s.details!.fmeasure as number;
  }
  const n = perReference.length;
  return { perReference, mean: { precision: precision / n, recall: recall / n, fmeasure: fmeasure / n } };
}
