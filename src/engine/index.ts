/**
 * The engine's public API: streaming n-best scoring, the path `palette nbest` runs. An n-best list (Moses format:
 * `id ||| hypothesis ||| features ||| score`, grouped by id) goes in as text or UTF-8 bytes, whole or in pieces;
 * per-candidate statistics rows come out, sentence by sentence, either encoded (Moses SCORES_TXT, JSON Lines or
 * MessagePack: the same bytes `palette nbest --stats-format …` writes) or as numbers. Each distinct chunk of a line
 * is tokenized once per tokenizer, candidates go to the kernels in batches with a candidate→segment map, and
 * duplicates are removed as Moses' `extractor` does. With `workers: N` and a pool (the Node adapter's
 * `nbestWorkerPool`), N threads score: the calling one and N − 1 workers; rows are identical for any number of
 * threads and any task size.
 *
 * @example
 * ```ts
 * import { nbestWorkerPool, readLines, scoreNbestRows } from 'palette-mt';
 * const refs = [readLines('ref.1'), readLines('ref.2')];
 * await scoreNbestRows(readFileSync('list.nbest'), {
 *   metrics: ['bleu', 'rouge-l', 'wer'],
 *   references: refs,
 *   workers: 2,
 *   pool: nbestWorkerPool,
 *   onRows: ({ sentence, count, width, stats }) => { … }, // stats: count × width numbers, BLEU's 9 first
 * });
 * ```
 */
import type { MetricSettings } from '../metrics/registry.js';
import { nbestRegistry, resolveNbestMetricIds } from './nbest/nbest-metrics.js';
import { parsePreviousRun, type PreviousRunFile } from './nbest/previous-run.js';
import { decodeRowBlocks, type NbestRowBlock } from './nbest/rows.js';
import {
  DEFAULT_TASK_SIZE, NbestRun, type NbestRunInfo, type NbestRunnerFactory,
} from './nbest/run.js';
import { segmentChunksOf, type NbestInput } from './nbest/segment-stream.js';
import type { NbestStatsFormat } from './nbest/stats-format.js';
import type { NbestTaskSettings } from './nbest/nbest-task.js';

export type { NbestInput } from './nbest/segment-stream.js';
export type { NbestRowBlock } from './nbest/rows.js';
export type { PreviousRunFile } from './nbest/previous-run.js';
export type { NbestStatsFormat } from './nbest/stats-format.js';
export {
  DEFAULT_TASK_SIZE,
  type NbestChunkRunner,
  type NbestRunInfo,
  type NbestRunnerFactory,
  type NbestRunnerSetup,
} from './nbest/run.js';

/** Options of {@link scoreNbest} and {@link scoreNbestRows}. */
export interface NbestScoringOptions {
  /**
   * Metric names as `palette nbest -m` takes them: `bleu` (Moses BleuScorer statistics, 9 columns) or any
   * `palette score` metric (`rouge-l`, `rouge-s4`, `wer`, `chrf`, …). A candidate's row is the metrics' rows
   * concatenated in this order (aliases of one metric count once).
   */
  readonly metrics: readonly string[];
  /** Reference streams, `references[j][s]` = reference `j` of segment `s`; every stream of the same length. */
  readonly references: readonly (readonly string[])[];
  /** Settings of the metrics, as the library's registry takes them (`{ rouge: { flavor: 'rouge155' } }`). @default {} */
  readonly settings?: MetricSettings;
  /** Keep candidates equal in features and statistics (Moses `extractor --allow-duplicates`). @default false */
  readonly allowDuplicates?: boolean;
  /** Per-candidate sentence scores too (JSON, MessagePack and rows; SCORES_TXT has no place for them). @default false */
  readonly sentenceScores?: boolean;
  /** Name of the list in error messages (`InputError.file`). @default '<n-best>' */
  readonly name?: string;
  /** Bytes of the list per task. @default DEFAULT_TASK_SIZE (256 KiB) */
  readonly taskSize?: number;
  /**
   * Scoring threads: the calling one and `workers − 1` of `pool`. A list of under two tasks is scored in-thread.
   * @default 1
   */
  readonly workers?: number;
  /** The worker pool for `workers > 1` (Node: `nbestWorkerPool`). */
  readonly pool?: NbestRunnerFactory;
  /**
   * A previous run to merge with (Moses `--prev-scfile`/`--prev-ffile`): its SCORES_TXT lines and, unless
   * `allowDuplicates`, its FEATURES_TXT lines (duplicates across runs). The merge runs in-thread and writes every
   * sentence at the end: the previous run's sentences first, in their order, each with its previous candidates first.
   */
  readonly previous?: { readonly stats: PreviousRunFile; readonly features?: PreviousRunFile };
  /** Candidates read so far and the fraction of the segments done, as the run goes. */
  readonly onProgress?: (hyps: number, fraction: number) => void;
}

/** Options of {@link scoreNbest}. */
export interface NbestBytesOptions extends NbestScoringOptions {
  /** `moses` (SCORES_TXT), `json` (JSON Lines) or `msgpack` (a MessagePack value per candidate). @default 'moses' */
  readonly format?: NbestStatsFormat;
  /** Receives the encoded blocks in sentence order, whole blocks per call (the array is the caller's to keep). */
  readonly output: (bytes: Uint8Array) => void;
}

/** Options of {@link scoreNbestRows}. */
export interface NbestRowsOptions extends NbestScoringOptions {
  /** Receives each sentence's rows, in sentence order. */
  readonly onRows: (block: NbestRowBlock) => void;
}

/** Runs the engine with an encoder format and an output callback (see the file comment). */
async function runNbest(
  input: NbestInput,
  options: NbestScoringOptions,
  format: NbestTaskSettings['format'],
  output: (bytes: Uint8Array) => void,
): Promise<NbestRunInfo> {
  const settings = options.settings ?? {};
  const registry = await nbestRegistry(options.metrics);
  const ids = resolveNbestMetricIds(options.metrics, settings, registry);
  const task: NbestTaskSettings = {
    path: options.name ?? '<n-best>',
    format,
    allowDuplicates: options.allowDuplicates ?? false,
    sentenceScores: options.sentenceScores ?? false,
  };
  const run = new NbestRun({ ids, settings, registry, references: options.references, task });
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const taskSize = options.taskSize ?? DEFAULT_TASK_SIZE;
  const chunks = (shared: boolean) => segmentChunksOf(bytes, taskSize, shared);
  const { onProgress } = options;
  if (options.previous !== undefined) {
    const previous = parsePreviousRun(options.previous.stats, options.previous.features, run.width);
    return run.merge({ chunks, previous, output, onProgress });
  }
  return run.score({
    chunks,
    workers: options.workers ?? 1,
    runner: options.pool,
    inputBytes: bytes instanceof Uint8Array ? bytes.length : undefined,
    chunkBytes: bytes instanceof Uint8Array ? bytes.length : undefined,
    taskSize,
    output,
    onProgress,
  });
}

/**
 * Scores an n-best list and writes its statistics encoded as `palette nbest` writes them (same bytes for the same
 * list, references, metrics and settings).
 * @throws InputError for bad input (`file` = `options.name`, with the line), an unknown metric or a bad setting;
 * PoolTaskError when a pool task fails twice; RangeError for `workers > 1` without a pool, or sentence scores in
 * the `moses` format.
 */
export async function scoreNbest(input: NbestInput, options: NbestBytesOptions): Promise<NbestRunInfo> {
  return runNbest(input, options, options.format ?? 'moses', options.output);
}

/**
 * Scores an n-best list and hands over its statistics rows as numbers, one block per sentence: the rows
 * `palette nbest` writes, bit for bit.
 * @throws the errors of {@link scoreNbest}.
 */
export async function scoreNbestRows(input: NbestInput, options: NbestRowsOptions): Promise<NbestRunInfo> {
  const { onRows } = options;
  return runNbest(input, options, 'rows', (bytes) => decodeRowBlocks(bytes, onRows));
}
