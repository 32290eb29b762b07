/**
 * One task of corpus scoring: the rows of one metric for the distinct hypotheses of a run of consecutive segments.
 * The calling thread and the pool workers (src/pool/kinds/corpus.ts) run tasks through the same code, so a row is
 * the same whichever thread computed it and however the segments were cut into tasks.
 *
 * A metric with `candidateStats` (chrF) scores the task's candidates in one call against the whole prepared
 * references. Any other is scored in layers (../layered-rows.ts): against the whole prepared references when the
 * task covers every segment or the metric's rows need every reference (NIST), otherwise against the references of
 * the task's segments alone, prepared for the task, so that a layer is as long as the task and not the corpus.
 */
import type { Metric, PreparedReferences } from '../../metrics/metric.js';
import { layeredRows } from '../layered-rows.js';

/** The candidates of a task: distinct hypotheses of segments `from .. from + groupStarts.length - 1`. */
export interface CorpusTaskInput {
  /** First segment of the task. */
  readonly from: number;
  /** Hypotheses, segment after segment. */
  readonly hyps: readonly string[];
  /** Hypotheses of the task's segment `g` (segment `from + g`) are `groupStarts[g] .. groupStarts[g + 1]`. */
  readonly groupStarts: Int32Array;
}

/** A metric as a thread runs its tasks: the instance, and its references prepared on first need. */
export class CorpusTaskMetric {
  private whole: PreparedReferences | undefined;

  /**
   * @param metric the metric instance.
   * @param references reference streams (`references[j][s]`).
   * @param wholeReference whether its rows need every reference (the descriptor's `wholeReference`).
   * @param prepared its references already prepared over every segment, if the caller has them.
   */
  constructor(
    readonly metric: Metric,
    private readonly references: readonly (readonly string[])[],
    private readonly wholeReference: boolean,
    prepared?: PreparedReferences,
  ) {
    this.whole = prepared;
  }

  /**
   * Whether tasks of a part of the segments cost about their share of the whole: false for a metric scored in
   * layers against every reference (its rows need them all, and each layer is as long as the corpus).
   */
  get splits(): boolean {
    return this.metric.candidateStats !== undefined || !this.wholeReference;
  }

  /** The references prepared over every segment (prepared on the first call). */
  prepared(): PreparedReferences {
    this.whole ??= this.metric.prepareReferences(this.references);
    return this.whole;
  }

  /** Rows of the task's hypotheses, `metric.statsWidth` numbers each, in order. */
  rows(task: CorpusTaskInput): Float64Array {
    const { metric } = this;
    const { from, hyps, groupStarts } = task;
    const groups = groupStarts.length - 1;
    const segments = this.references[0]?.length ?? 0;
    // One hypothesis for every segment (one system, or systems that agree throughout): the metric's plain call.
    if (from === 0 && groups === segments && oneEach(groupStarts)) return metric.segmentStats(hyps, this.prepared());
    if (metric.candidateStats !== undefined) {
      const segmentOf = new Int32Array(hyps.length);
      for (let g = 0; g < groups; g++) segmentOf.fill(from + g, groupStarts[g], groupStarts[g + 1]);
      return metric.candidateStats(hyps, segmentOf, this.prepared());
    }
    if (this.wholeReference || (from === 0 && groups === segments)) {
      return layeredRows(metric, this.prepared(), hyps, groupStarts, (g) => from + g);
    }
    const own = metric.prepareReferences(this.references.map((stream) => stream.slice(from, from + groups)));
    return layeredRows(metric, own, hyps, groupStarts);
  }
}

/** Whether every group holds exactly one hypothesis. */
function oneEach(groupStarts: Int32Array): boolean {
  for (let g = 0; g < groupStarts.length; g++) if (groupStarts[g] !== g) return false;
  return true;
}
