/**
 * The metrics of one `palette nbest` run, and how each computes the statistics rows of a task: a run of whole
 * segments of the n-best list (every candidate of a segment is in exactly one task).
 *
 * Every `-m` name of the registry works, built by the registry with the run's settings, so a row is by
 * construction the row that metric's `segmentStats` gives the candidate (the tests check it against
 * `buildStatsMatrix`, the Metric API's n-best path). Three ways to get there:
 * - `bleu`: always Moses MERT's BleuScorer statistics (the `moses` BLEU flavor: Moses' own space split, 9
 *   columns), which is what `extractor` writes; `settings.bleu`'s `lowercase` and `refLength` are its `case:false`
 *   and `reflen:` (closest unless set). References of the task's segments are prepared once, and
 *   `mosesBleuStats` scores every candidate against its segment with a hypothesis→segment map (no layers).
 * - any other metric whose row depends only on the candidate and its own segment's references (all but NIST):
 *   references of the task's segments are prepared once per task, and the candidates are scored in layers
 *   (../layered-rows.ts: layer k = the k-th candidate of every segment of the task, one ordinary `segmentStats`
 *   call per layer), as the Metric API's statistics matrix (src/tuning/stats-matrix.ts) builds them.
 * - NIST: its information weights come from the whole reference set, so its references are prepared once (per
 *   thread) over every segment, and each layer is as long as the reference set, segments outside the task holding
 *   the empty hypothesis. Correct but slow on large n-best lists.
 *
 * When some metric of a run has a token stage (`Metric.tokenStage`: Moses BLEU, ROUGE-N/S/SU/L/W with a ROUGE
 * tokenizer and whole-line sentences, WER and PER with jiwer's or Python's split), ./fast/fused-scorer.ts computes
 * the rows of those metrics in one pass over the task (lines scanned once into memoised chunks, all candidates per
 * kernel call) and asks the others for their `rows` above; the tests check both paths bit for bit.
 *
 * Ids (token interning): each preparation interns into its own vocabulary, and a segment's candidates are read
 * against the references prepared with them, so the ids of a candidate and of its references always come from one
 * table; statistics depend only on token equality within a segment, so rows do not depend on how the list is cut
 * into tasks.
 */
import type { Metric, PreparedReferences } from '../../metrics/metric.js';
import { layeredRows } from '../layered-rows.js';
import { MosesBleu } from '../../metrics/bleu/moses-metric.js';
import { MosesPer } from '../../metrics/per/moses.js';
import { MosesWer } from '../../metrics/wer/moses.js';
import { mosesBleuStats } from '../../metrics/bleu/moses.js';
import type { MetricRegistry, MetricSettings } from '../../metrics/registry.js';

/** What decides the metrics of a run: plain data, so that it can be posted to worker threads. */
export interface NbestMetricSpec {
  /** Canonical metric ids in `-m` order (duplicates removed). */
  readonly ids: readonly string[];
  /** Settings of the metrics (`bleu` is always the Moses flavor). */
  readonly settings: MetricSettings;
}

/** The candidates of one task, grouped by segment. */
export interface TaskSegments {
  /** Candidate texts in file order. */
  readonly hyps: readonly string[];
  /** Task-local segment index of each candidate (non-decreasing). */
  readonly hypLocal: Int32Array;
  /** Segment (sentence) id of each task-local segment, increasing. */
  readonly segmentIds: Int32Array;
  /** Candidates of local segment `k` are `segmentStarts[k] .. segmentStarts[k + 1]`. */
  readonly segmentStarts: Int32Array;
  /**
   * The candidates as byte ranges of the UTF-8 text they were parsed from (`hyps[h]` is the text of
   * `bytes[starts[h] .. ends[h]]`), when the task was parsed from bytes: the fast path then reads them there.
   */
  readonly hypBytes?: HypBytes;
}

/** Candidates as byte ranges of one UTF-8 text. */
export interface HypBytes {
  readonly bytes: Uint8Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

/** The reference texts of a run: reference `j` of segment `s`. */
export interface ReferenceSource {
  /** Number of reference streams. */
  readonly nRefs: number;
  /** Number of segments. */
  readonly segments: number;
  /** Reference `j` of segment `s`. */
  line(j: number, s: number): string;
}

/** One metric of a run. */
export interface NbestMetric {
  /** Canonical `-m` id. */
  readonly id: string;
  /** Name in a SCORES_TXT header (`BLEU`, as Moses; the upper-cased id for the others: `ROUGE-L`, `WER`). */
  readonly scorerName: string;
  /** The metric itself (its row layout, sentence score). */
  readonly metric: Metric;
  /** Row width. */
  readonly width: number;
  /** Rows of a task's candidates, `width` numbers each, in candidate order. */
  rows(task: TaskSegments, refs: ReferenceSource): Float64Array;
}

/** The reference streams of the task's segments: `streams[j][k]` is reference `j` of local segment `k`. */
function taskStreams(task: TaskSegments, refs: ReferenceSource): string[][] {
  const streams: string[][] = [];
  for (let j = 0; j < refs.nRefs; j++) {
    const stream = new Array<string>(task.segmentIds.length);
    for (let k = 0; k < stream.length; k++) stream[k] = refs.line(j, task.segmentIds[k]);
    streams.push(stream);
  }
  return streams;
}

/** Moses BLEU statistics with a candidate→segment map, references of the task prepared once. */
function mosesBleuRows(metric: MosesBleu): NbestMetric['rows'] {
  const options = { refLength: metric.refLength, order: metric.maxNgramOrder };
  return (task, refs) => {
    const prepared = metric.prepareReferences(taskStreams(task, refs));
    return mosesBleuStats(task.hyps, task.hypLocal, prepared, options);
  };
}

/** Rows of a metric whose rows depend on a segment's own references only. */
function localRows(metric: Metric): NbestMetric['rows'] {
  return (task, refs) => {
    const prepared = metric.prepareReferences(taskStreams(task, refs));
    return layeredRows(metric, prepared, task.hyps, task.segmentStarts);
  };
}

/** Rows of a metric whose references must be prepared as a whole (once per thread, on first use). */
function wholeReferenceRows(metric: Metric): NbestMetric['rows'] {
  let prepared: PreparedReferences | undefined;
  let preparedFor: ReferenceSource | undefined;
  return (task, refs) => {
    if (prepared === undefined || preparedFor !== refs) {
      const streams: string[][] = [];
      for (let j = 0; j < refs.nRefs; j++) streams.push(Array.from({ length: refs.segments }, (_, s) => refs.line(j, s)));
      prepared = metric.prepareReferences(streams);
      preparedFor = refs;
    }
    return layeredRows(metric, prepared, task.hyps, task.segmentStarts, (k) => task.segmentIds[k]);
  };
}

/**
 * The metric registry, loaded only when a metric other than `bleu` is asked for, with the code of the metrics
 * `names` name and no other: importing every metric and its resources (what ../../metrics/registry.ts does) took
 * a good part of each thread's start-up, and Moses BLEU alone needs none of it. A name no metric has is left to the
 * registry to refuse.
 */
export async function nbestRegistry(names: readonly string[]): Promise<MetricRegistry | undefined> {
  if (!needsRegistry(names)) return undefined;
  const { defaultRegistry } = await import('../../metrics/default-registry.js');
  await defaultRegistry.load?.(names);
  return defaultRegistry;
}

/**
 * Moses' scorers the engine builds itself (no registry): `bleu` (its BleuScorer), `per-moses` and `wer-moses` (the
 * statistics of its PerScorer and of its CderScorer without long jumps, ../../metrics/{per,wer}/moses.ts; not `-m`
 * names: `palette extractor --sctype PER|WER` asks for them).
 */
const MOSES_IDS: readonly string[] = ['bleu', 'per-moses', 'wer-moses'];

/** Whether a run's metrics need the registry (any metric but Moses' own). */
export function needsRegistry(ids: readonly string[]): boolean {
  return !ids.every((id) => MOSES_IDS.includes(id.toLowerCase()));
}

/**
 * Builds the metrics of a run (the same in every thread that runs tasks); `registry` is needed for any metric but
 * `bleu` ({@link nbestRegistry}).
 * @throws InputError for an unknown metric or a bad setting (the registry's errors).
 */
export function buildNbestMetrics(spec: NbestMetricSpec, registry: MetricRegistry | undefined): NbestMetric[] {
  return spec.ids.map((id): NbestMetric => {
    if (id === 'bleu') {
      // The registry's `--bleu-flavor moses`: Moses' own space split; case and reference length as Moses' scconfig.
      const metric = new MosesBleu({ lowercase: spec.settings.bleu?.lowercase, refLength: spec.settings.bleu?.refLength });
      return { id, scorerName: 'BLEU', metric, width: metric.statsWidth, rows: mosesBleuRows(metric) };
    }
    if (id === 'per-moses') {
      const metric = new MosesPer({ lowercase: spec.settings.per?.lowercase });
      // Moses BLEU of order 1 against one reference: its rows on either path (see MosesPer).
      return { id, scorerName: 'PER', metric, width: metric.statsWidth, rows: localRows(metric) };
    }
    if (id === 'wer-moses') {
      const metric = new MosesWer({ lowercase: spec.settings.wer?.lowercase });
      return { id, scorerName: 'WER', metric, width: metric.statsWidth, rows: localRows(metric) };
    }
    if (registry === undefined) throw new Error(`the metric registry is needed for ${id}`);
    const metric = registry.create(id, spec.settings).metric;
    // A metric whose rows depend on the whole reference set (NIST's information weights) says so in its descriptor.
    const rows = registry.describe?.(id)?.wholeReference === true ? wholeReferenceRows(metric) : localRows(metric);
    return { id, scorerName: id.toUpperCase(), metric, width: metric.statsWidth, rows };
  });
}

/**
 * Canonical ids of `-m` names (duplicates, such as `rougeL` and `rouge-l`, kept once, in first-seen order).
 * @throws InputError `E_UNKNOWN_METRIC` for a name the registry does not know.
 */
export function resolveNbestMetricIds(
  names: readonly string[],
  settings: MetricSettings,
  registry: MetricRegistry | undefined,
): string[] {
  const ids: string[] = [];
  for (const name of names) {
    const id = name.toLowerCase() === 'bleu' ? 'bleu' : registry!.resolve!(name, settings);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
