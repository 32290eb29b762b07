/**
 * One task of `palette nbest`: the raw text of whole segments of the n-best list, parsed, scored by every metric of
 * the run, duplicates removed per segment (Moses' rule) and encoded in the output format. The same code runs on the
 * main thread (small inputs, `--workers 1`) and in the pool's workers, which is why the output bytes do not depend
 * on where a task ran.
 *
 * Rows are flat: one `Float64Array` of `hyps × totalWidth` per task, each candidate's row the concatenation of the
 * metrics' rows in `-m` order (Moses' InterpolatedScorer concatenates its scorers' statistics the same way).
 */
import { InputError } from '../../errors.js';
import { parseNbestLines, type NbestParseState } from '../../corpus/nbest.js';
import { splitBatches } from '../../corpus/stream/line-batch.js';
import {
  featureFieldsOfBytes, featureFieldsOfTexts, mosesRemoveDuplicatesBy, type FeatureFields,
} from './moses-dedup.js';
import { blockEncoder, type BlockEncoder, type NbestStatsFormat } from './stats-format.js';
import { distinctCandidates, distinctFrom, expandRows } from './distinct-candidates.js';
import { rowsEncoder } from './rows.js';
import { taskRowKernels } from '../../wasm/task-rows.js';
import type { ByteOut } from './byte-out.js';
import type { HypBytes, NbestMetric, ReferenceSource, TaskSegments } from './nbest-metrics.js';
import { parseChunkBytes } from './nbest-bytes.js';
import type { FusedRows } from './fast/fused-scorer.js';
import type { ResultStore } from '../../wasm/linear-memory.js';
import { writeFeaturesBlock, type FeaturesTxtHeader } from './features-txt.js';

/** Settings of the tasks of a run. */
export interface NbestTaskSettings {
  /** The n-best file (named in error messages). */
  readonly path: string;
  /** A text format of the statistics, or `rows`: the binary rows of ./rows.ts (the library's row API). */
  readonly format: NbestStatsFormat | 'rows';
  readonly allowDuplicates: boolean;
  /** Per-candidate sentence scores in the output (json, msgpack). */
  readonly sentenceScores: boolean;
  /** When set, the candidates' features are also written as Moses FEATURES_TXT blocks with this header (./features-txt.ts). */
  readonly featuresTxt?: FeaturesTxtHeader;
}

/** A task's candidates, scored (before duplicate removal). */
export interface ScoredTask extends TaskSegments {
  /** `hyps.length × width` statistics. */
  readonly stats: Float64Array;
  /** Width of a row (sum of the metrics' widths). */
  readonly width: number;
  /** Raw features field of each candidate (absent with `allowDuplicates` and no `featuresTxt`). */
  readonly features: readonly string[] | undefined;
  /**
   * The same fields as duplicate removal compares them, read from the bytes when the task was parsed from bytes
   * (no text made for them); absent when `features` is.
   */
  readonly featureFields: FeatureFields | undefined;
  /** 1-based file line of each candidate. */
  readonly lines: Int32Array;
}

/**
 * The decoded text of a task: a string, or its text in pieces (./chunk-job.ts `ChunkText`), sliced by UTF-16
 * offsets into the whole and made whole only when the text parser needs it; or a function that decodes it when
 * first called (a task parsed from bytes may never need it).
 */
export type TaskText = DecodedText | (() => DecodedText);
type DecodedText = string | { slice(from: number, to: number): string; toString(): string };

/** A task's candidates as parsed. */
interface ParsedTask {
  count: number;
  /** The candidates' texts (from the bytes path, sliced when first asked for). */
  hyps(): string[];
  ids: Int32Array;
  /** The features fields, when asked for (from the bytes path, sliced when first asked for). */
  features: (() => string[]) | undefined;
  featureFields: FeatureFields | undefined;
  lines: Int32Array;
  hypBytes?: HypBytes;
  /** Repeated hypotheses found by the byte scan (undefined: none, or not looked for). */
  distinct?: { readonly source: Int32Array; readonly firsts: Int32Array };
}

/**
 * Parses the raw text of a task (lines `firstLine …`) into segments; from its UTF-8 `bytes` when given and every
 * line is plainly well-formed (./nbest-bytes.ts), else from the text.
 */
function parseTask(
  text: TaskText,
  firstLine: number,
  settings: NbestTaskSettings,
  segments: number,
  bytes?: Uint8Array,
): ParsedTask {
  const wantFeatures = !settings.allowDuplicates || settings.featuresTxt !== undefined;
  let decoded: DecodedText | undefined;
  const textOf = (): DecodedText => (decoded ??= typeof text === 'function' ? text() : text);
  if (bytes !== undefined) {
    const parsed = parseChunkBytes(bytes, textOf, firstLine, segments, true);
    if (parsed !== undefined) {
      const { count, ids, lines, hypStarts, hypEnds, featureStarts, featureEnds, distinct } = parsed;
      return {
        count,
        hyps: () => parsed.hyps,
        ids,
        features: wantFeatures ? () => parsed.features : undefined,
        featureFields: wantFeatures ? featureFieldsOfBytes(bytes, featureStarts, featureEnds) : undefined,
        lines,
        hypBytes: { bytes, starts: hypStarts, ends: hypEnds },
        distinct,
      };
    }
  }
  const hyps: string[] = [];
  const ids: number[] = [];
  const lines: number[] = [];
  const features: string[] | undefined = wantFeatures ? [] : undefined;
  const state: NbestParseState = { previousId: 0 };
  const options = { segmentCount: segments, features: wantFeatures };
  const whole = textOf().toString();
  for (const lineBatch of splitBatches(whole, firstLine, 'lf', whole.length + 1)) {
    const batch = parseNbestLines(lineBatch, settings.path, options, state);
    for (let c = 0; c < batch.count; c++) {
      hyps.push(batch.hypotheses[c]);
      ids.push(batch.ids[c]);
      lines.push(batch.lines[c]);
      features?.push(batch.features![c]);
    }
  }
  return {
    count: hyps.length,
    hyps: () => hyps,
    ids: Int32Array.from(ids),
    features: features === undefined ? undefined : () => features,
    featureFields: features === undefined ? undefined : featureFieldsOfTexts(features),
    lines: Int32Array.from(lines),
  };
}

/**
 * Parses and scores the text of a task: whole segments, starting at file line `firstLine` (`bytes`: the UTF-8 the
 * text was decoded from, when the caller has it). With `fused` (the fast path of ./fast/fused-scorer.ts, for the
 * run's metrics) the rows come from it, else from each metric in turn. The rows (`stats`) may live in `fused`'s
 * store or in `rowBuffer`: they are valid until the next task scored with either, so a caller that keeps them
 * copies them.
 * @throws InputError for a malformed line (file and line named), and the metrics' errors.
 */
export function scoreTask(
  text: TaskText,
  firstLine: number,
  settings: NbestTaskSettings,
  metrics: readonly NbestMetric[],
  refs: ReferenceSource,
  fused?: FusedRows,
  bytes?: Uint8Array,
  rowBuffer?: ResultStore<Float64Array>,
): ScoredTask {
  const parsed = parseTask(text, firstLine, settings, refs.segments, bytes);
  const { count: n, ids, features, featureFields, lines, hypBytes } = parsed;
  const hypLocal = new Int32Array(n);
  let segments = 0;
  for (let h = 0; h < n; h++) {
    if (h === 0 || ids[h] !== ids[h - 1]) segments++;
    hypLocal[h] = segments - 1;
  }
  const segmentIds = new Int32Array(segments);
  const starts = new Int32Array(segments + 1);
  for (let h = 0, k = 0; h < n; h++) {
    if (h === 0 || ids[h] !== ids[h - 1]) {
      segmentIds[k] = ids[h];
      starts[k++] = h;
    }
  }
  starts[segments] = n;
  // The texts only when something reads them (a metric without a token stage): the fast path reads the bytes.
  let hyps: string[] | undefined;
  const task: TaskSegments = {
    get hyps(): string[] {
      return (hyps ??= parsed.hyps());
    },
    hypLocal,
    segmentIds,
    segmentStarts: starts,
    hypBytes,
  };
  let width = 0;
  for (const m of metrics) width += m.width;
  // Rows of a set of candidates: the fast path's, or each metric's in turn.
  const rowsOf = (t: TaskSegments): Float64Array => {
    const count = t.hypLocal.length;
    if (fused !== undefined && count > 0) return fused(t, refs);
    const stats = new Float64Array(count * width);
    let column = 0;
    for (const m of metrics) {
      if (count > 0) {
        const rows = m.rows(t, refs);
        for (let h = 0; h < count; h++) {
          for (let c = 0; c < m.width; c++) stats[h * width + column + c] = rows[h * m.width + c];
        }
      }
      column += m.width;
    }
    return stats;
  };
  // A text repeated within its segment is scored once (./distinct-candidates.ts).
  const distinct = parsed.distinct !== undefined
    ? distinctFrom(task, parsed.distinct.source, parsed.distinct.firsts)
    : hypBytes !== undefined ? undefined : distinctCandidates(task);
  const stats = distinct === undefined ? rowsOf(task) : expandRows(rowsOf(distinct.task), distinct.source, width, rowBuffer);
  // Not a spread of `task`: that would read its texts.
  let featureTexts: string[] | undefined;
  return {
    get hyps(): readonly string[] {
      return task.hyps;
    },
    hypLocal,
    segmentIds: task.segmentIds,
    segmentStarts: task.segmentStarts,
    hypBytes,
    stats,
    width,
    get features(): readonly string[] | undefined {
      return features === undefined ? undefined : (featureTexts ??= features());
    },
    featureFields,
    lines,
  };
}

/**
 * Whether some candidate has features equal to those of an earlier candidate of equal row (`links`: the latest
 * earlier equal row of each, -1 for none, indices from `from`), or the comparisons it would take pass a budget of a
 * few per candidate (many derivations of one text): either way the full removal has to decide.
 */
function anyEqualFeatures(links: Int32Array, features: FeatureFields, from: number): boolean {
  let budget = 4 * links.length;
  for (let i = 0; i < links.length; i++) {
    for (let e = links[i]; e >= 0; e = links[e]) {
      if (--budget < 0 || features.same(from + e, from + i)) return true;
    }
  }
  return false;
}

/**
 * Moses' duplicate removal over candidates `from .. to` of a scored task (equal features and equal statistics of
 * every metric); the kept candidates (task indices) in Moses' order.
 */
export function keptCandidates(
  stats: Float64Array,
  width: number,
  fields: readonly string[] | FeatureFields,
  from: number,
  to: number,
): Int32Array {
  const features = Array.isArray(fields) ? featureFieldsOfTexts(fields as readonly string[]) : (fields as FeatureFields);
  const count = to - from;
  // Rows tell most candidates apart (found in the task's kernel): only candidates of equal rows can be duplicates,
  // and where none of them has equal features as well, every candidate stays, in its order.
  const equal = taskRowKernels().equalRows(stats, width, from, to);
  if (equal === undefined || !anyEqualFeatures(equal.links, features, from)) {
    const kept = new Int32Array(count);
    for (let k = 0; k < count; k++) kept[k] = from + k;
    return kept;
  }
  const { hashes } = equal;
  const same = (i: number, j: number): boolean => {
    for (let k = 0; k < width; k++) {
      const a = stats[(from + i) * width + k];
      const b = stats[(from + j) * width + k];
      if (a !== b && !(a !== a && b !== b)) return false;
    }
    return features.same(from + i, from + j);
  };
  // The features are hashed only where rows meet (one text from several derivations), where they keep the buckets
  // of equal rows short.
  const kept = mosesRemoveDuplicatesBy(count, (i) => hashes[i], same, (i) => features.hash(from + i));
  for (let k = 0; k < kept.length; k++) kept[k] += from;
  return kept;
}

/** The encoder of a run's blocks. */
export function taskEncoder(settings: NbestTaskSettings, metrics: readonly NbestMetric[]): BlockEncoder {
  const width = metrics.reduce((w, m) => w + m.width, 0);
  const scorer = metrics.map((m) => m.scorerName).join(',');
  const scores = settings.sentenceScores
    ? {
        ids: metrics.map((m) => m.id),
        score: (stats: ArrayLike<number>, row: number): number[] => {
          const out: number[] = [];
          let column = row * width;
          for (const m of metrics) {
            const r = Float64Array.from({ length: m.width }, (_, c) => stats[column + c]);
            out.push(m.metric.sentenceScoreFromStats(r).score);
            column += m.width;
          }
          return out;
        },
      }
    : undefined;
  if (settings.format === 'rows') return rowsEncoder(width, scores);
  return blockEncoder(settings.format, scorer, width, scores);
}

/**
 * The rows of every segment of a scored task, duplicates removed unless allowed, encoded block by block into `out`;
 * with `featuresOut` (and `settings.featuresTxt`), the same candidates' FEATURES_TXT blocks into it.
 */
export function encodeTask(
  task: ScoredTask,
  settings: NbestTaskSettings,
  encode: BlockEncoder,
  out: ByteOut,
  featuresOut?: ByteOut,
): void {
  const featuresTxt = featuresOut === undefined ? undefined : settings.featuresTxt;
  const { segmentIds, segmentStarts, stats, width } = task;
  const features = settings.allowDuplicates ? undefined : task.featureFields!;
  // The rows in the thread's task kernel once, where the row hashes and the msgpack encoder read them.
  const kernels = taskRowKernels();
  kernels.load(stats);
  try {
    for (let k = 0; k < segmentIds.length; k++) {
      const from = segmentStarts[k];
      const to = segmentStarts[k + 1];
      let rows: Int32Array;
      if (features === undefined) {
        rows = new Int32Array(to - from);
        for (let i = 0; i < rows.length; i++) rows[i] = from + i;
      } else {
        rows = keptCandidates(stats, width, features, from, to);
      }
      encode(segmentIds[k], stats, rows, out);
      if (featuresTxt !== undefined) writeFeaturesBlock(featuresOut!, segmentIds[k], featuresTxt, rows, { fields: task.features! });
    }
  } finally {
    kernels.release();
  }
}

/** A task's error as plain data (it crosses the worker boundary; class instances do not). */
export interface TaskErrorData {
  readonly code: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
}

/** Plain data of an `InputError`. */
export function taskErrorData(err: InputError): TaskErrorData {
  return { code: err.code, message: err.message, file: err.file, line: err.line };
}

/** The `InputError` of plain error data. */
export function inputErrorOf(data: TaskErrorData): InputError {
  return new InputError(data.code as ConstructorParameters<typeof InputError>[0], data.message, { file: data.file, line: data.line });
}
