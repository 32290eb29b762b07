/**
 * One n-best scoring run: the metrics built once (a bad setting is reported before any chunk is read or any worker
 * starts), then either the streaming run ({@link NbestRun.score}) or the merge with a previous run
 * ({@link NbestRun.merge}). Chunks of whole segments come in (raw bytes: ./segment-stream.ts cuts them from bytes,
 * the Node adapter from a file), encoded output bytes go out through a callback, so nothing here reads or writes a
 * file.
 *
 * Streaming: each chunk is decoded, parsed, scored by every metric (references prepared once per segment:
 * ./nbest-metrics.ts), deduplicated (Moses' rule: equal features and equal statistics) and encoded by
 * ./chunk-job.ts, either in the calling thread or, with `workers: N` and a runner (a worker pool), by N scoring
 * threads: the runner's `N − 1` workers and the calling thread, which scores a chunk whenever the workers already
 * hold all the tasks they can. Results are written in chunk order with a bounded number of chunks in flight, so
 * the output bytes are the same whichever thread scored a chunk, and for any task size.
 *
 * Merging (`--prev-stats`): the previous run's candidates come first in each sentence and the sentences keep the
 * previous run's order (Moses loads the previous files before the n-best list), so the whole merge is held and
 * written at the end, in the calling thread.
 */
import { InputError } from '../../errors.js';
import { lineIdAt, type SegmentChunk } from '../../corpus/stream/segment-chunks.js';
import type { MetricRegistry, MetricSettings } from '../../metrics/registry.js';
import {
  chunkJobContext, decodeChunk, runChunkJob, shareReferences, streamReferenceSource, type ChunkJobContext,
  type ChunkResult, type SharedReferences,
} from './chunk-job.js';
import type { NbestMetricSpec } from './nbest-metrics.js';
import { inputErrorOf, keptCandidates, scoreTask, type NbestTaskSettings } from './nbest-task.js';
import type { PreviousRun } from './previous-run.js';
import { addCandidates, mergedBlock, previousGroup, StreamingMerge, type MergeGroup, type MergeSettings } from './previous-merge.js';
import { ByteOut } from './byte-out.js';
import { writeSentenceRows } from './sentence-rows.js';

import { DEFAULT_TASK_SIZE } from './task-size.js';

export { DEFAULT_TASK_SIZE };

/**
 * What scores chunks away from the calling thread (a worker pool): the scheduling loop posts a chunk while
 * `inFlight < capacity` and scores it itself otherwise.
 */
export interface NbestChunkRunner {
  /** Tasks the runner holds at once without queueing (more would only wait). */
  readonly capacity: number;
  /** Tasks handed to {@link run} and not yet settled. */
  readonly inFlight: number;
  /**
   * False while the workers are still starting (loading code, compiling, warming up): tasks posted meanwhile wait,
   * and the scheduling loop then does not wait for them either. Absent: started.
   */
  readonly started?: boolean;
  /** Tasks run, tasks retried, time spent inside tasks (ms, summed over workers). */
  readonly counters: { readonly tasks: number; readonly retries: number; readonly busyMs: number };
  /**
   * Scores one chunk (its bytes in a `SharedArrayBuffer`); bad input comes back as data, not as a rejection. `spare`,
   * an output array already written out, becomes the runner's: the task's output goes into it when it is long enough
   * (it then comes back as the result's `out`).
   */
  run(chunk: SegmentChunk, spare?: Uint8Array): Promise<ChunkResult>;
  /** Stops the workers. */
  close(): Promise<void>;
}

/** What a runner's workers need to score chunks exactly as the calling thread does (plain, postable data). */
export interface NbestRunnerSetup {
  /** Worker threads (the calling thread is one more scoring thread). */
  readonly workers: number;
  /** Every reference line once, in shared memory. */
  readonly refs: SharedReferences;
  readonly settings: NbestTaskSettings;
  readonly spec: NbestMetricSpec;
}

/** Starts a runner for a run (src/pool/nbest-pool.ts: a piscina pool). */
export type NbestRunnerFactory = (setup: NbestRunnerSetup) => NbestChunkRunner;

/** Chunks of whole segments, in order; `shared`: their bytes must live in `SharedArrayBuffer`s (a runner is used). */
export type NbestChunkSource = (shared: boolean) => AsyncIterable<SegmentChunk> | Iterable<SegmentChunk>;

/** How a run went (benchmarks: task overhead = 1 − busy / (workers × wall)). */
export interface NbestRunInfo {
  /** Scoring threads used (1 in-thread). */
  readonly workers: number;
  readonly inThread: boolean;
  readonly tasks: number;
  /** Of `tasks`, those run by pool workers (the rest ran on the calling thread). */
  readonly poolTasks?: number;
  readonly retries: number;
  /** Time spent inside tasks, ms, summed over threads. */
  readonly busyMs: number;
  /** Wall time of the scoring loop, ms. */
  readonly wallMs: number;
  /** Candidates read (before duplicate removal). */
  readonly hyps: number;
}

/** What a run is built from. */
export interface NbestRunOptions {
  /** Canonical metric ids (`resolveNbestMetricIds`), in output order. */
  readonly ids: readonly string[];
  readonly settings: MetricSettings;
  /** The metric registry (`nbestRegistry`): needed for any metric but `bleu`. */
  readonly registry: MetricRegistry | undefined;
  /** Reference streams: `references[j][s]` is reference `j` of segment `s`; all of the same length. */
  readonly references: readonly (readonly string[])[];
  /** Name of the list in messages, output format, duplicate removal, sentence scores. */
  readonly task: NbestTaskSettings;
}

/** Where a run's output and progress go. */
export interface NbestRunOutput {
  /**
   * Receives the encoded blocks in sentence order (whole blocks per call; the array is the caller's to keep, unless
   * {@link transient}).
   */
  readonly output: (bytes: Uint8Array, release?: () => void) => void;
  /**
   * Set when `output` hands back each array given with a `release` by calling it once done with the array: at once
   * when it only reads the bytes during the call, or once a write in the background has ended. The run then reuses
   * the array for a later task's output.
   */
  readonly transient?: boolean;
  /**
   * Receives the FEATURES_TXT blocks of the same sentences when the task settings ask for them (`featuresTxt`),
   * each call right after the `output` call of the same blocks.
   */
  readonly features?: (bytes: Uint8Array) => void;
  /** Candidates read so far and the fraction of the segments done. */
  readonly onProgress?: (hyps: number, fraction: number) => void;
  /**
   * After each `output` call: the first segment id of the blocks written (with the line of its first candidate)
   * and the last one. A part of a list scored on its own (a queue's shard) reports them so that the parts can be
   * checked against each other when they are put together, as chunks are here.
   */
  readonly onBlocks?: (firstId: number, firstIdLine: number, lastId: number) => void;
}

/** Options of {@link NbestRun.score}. */
export interface NbestScoreOptions extends NbestRunOutput {
  readonly chunks: NbestChunkSource;
  /** Scoring threads (the calling thread and `workers − 1` runner workers); 1 = in-thread. */
  readonly workers: number;
  /** Starts the runner when `workers > 1`. */
  readonly runner?: NbestRunnerFactory;
  /** Size of the input in bytes when known: under two tasks' worth it is scored in-thread whatever `workers`. */
  readonly inputBytes?: number;
  /** Bytes per task the chunks were cut to (with `inputBytes`, decides in-thread). */
  readonly taskSize: number;
  /**
   * The chunks' bytes in all, when known exactly (the list's own bytes: not a compressed file's size). Near the end
   * the runner's workers are then given no more than their share of the chunks left, so that at the end this thread
   * does not wait for several chunks queued in a worker after it has scored its last one.
   */
  readonly chunkBytes?: number;
}

/** Options of {@link NbestRun.merge}. */
export interface NbestMergeOptions extends NbestRunOutput {
  readonly chunks: NbestChunkSource;
  /** The previous run, parsed with this run's width (`parsePreviousRun`). */
  readonly previous: PreviousRun;
}

/**
 * Chunks held beyond the pool's own (read, scored or being scored, not yet written) per scoring thread: enough that
 * this thread goes on scoring while an older pool task is still out (with 4 per thread, it sat idle ~0.3 s of a
 * 3.4 s run waiting for one), few enough to bound memory (a chunk and its output are well under 1 MB).
 */
const IN_FLIGHT_PER_THREAD = 6;

/**
 * Chunks held at most while the runner's workers are still starting, and until the tasks posted to them meanwhile
 * have settled. The first chunks posted to the pool wait for a worker that is loading (a few tenths of a second);
 * with the usual bound this thread soon had nothing to do but wait for them, a core idle for most of a worker's
 * start, and right after it for the worker's first tasks. It scores on meanwhile, up to this many chunks (a chunk
 * and its output are well under 1 MB).
 */
const STARTING_IN_FLIGHT = 128;

/**
 * Output arrays kept for later tasks' output at most: this thread's tasks and the runner's take them (one or two
 * are in use at a time per scoring thread).
 */
const MAX_SPARE_OUTPUTS = 8;

/** Longest synchronous stretch (ms) of the merge's output loop before it lets the event loop run (signals). */
const YIELD_EVERY_MS = 50;

/** The id and line of a chunk's first non-empty line, read from its bytes (-1 when none parses). */
export function firstChunkId(chunk: SegmentChunk): { id: number; line: number } {
  const { bytes } = chunk;
  let line = chunk.firstLine;
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    const id = lineIdAt(bytes, start, end);
    if (id !== -1) return { id, line };
    start = end + 1;
    line++;
  }
  return { id: -1, line };
}

/** The error of a chunk whose first id is below the previous chunk's last. */
export function orderError(path: string, id: number, lastId: number, line: number): InputError {
  const why = 'an n-best list must be grouped by id in non-decreasing order';
  return new InputError('E_BAD_INPUT', `malformed n-best line: id ${id} after id ${lastId}: ${why}`, { file: path, line });
}

/**
 * Checks chunk results in order (ids across chunks) and writes them. Also what puts the separately scored parts of
 * one list back together (a queue run's shards, each given as one chunk and its result).
 */
export class OrderedWriter {
  lastId = -1;
  hyps = 0;

  constructor(
    private readonly path: string,
    private readonly segments: number,
    private readonly out: NbestRunOutput,
  ) {}

  /** `release`: handed to the output with the result's bytes (see {@link NbestRunOutput.transient}). */
  write(chunk: SegmentChunk, result: ChunkResult, release?: () => void): void {
    const first = result.ok ? { id: result.firstId, line: result.firstIdLine } : firstChunkId(chunk);
    if (first.id >= 0 && first.id < this.lastId) throw orderError(this.path, first.id, this.lastId, first.line);
    if (!result.ok) throw inputErrorOf(result.error);
    if (result.hyps === 0) {
      release?.();
      return;
    }
    if (result.firstId === this.lastId) {
      // Only an id the byte-level chunk reader could not read (non-ASCII blanks around it) can split a segment.
      throw new InputError(
        'E_BAD_INPUT',
        `malformed n-best line: the candidates of sentence ${result.firstId} are interrupted by a line whose id is ` +
          'not ASCII digits between ASCII blanks',
        { file: this.path, line: first.line },
      );
    }
    this.out.output(result.out, release);
    if (result.features !== undefined) this.out.features?.(result.features);
    this.out.onBlocks?.(result.firstId, result.firstIdLine, result.lastId);
    this.lastId = result.lastId;
    this.hyps += result.hyps;
    // Ids are non-decreasing and bounded by the reference count, so the last id gives the fraction done.
    this.out.onProgress?.(this.hyps, (result.lastId + 1) / this.segments);
  }
}

/** Whether a merge's candidates carry their features fields (duplicates removed, or FEATURES_TXT written). */
export function rowsCarryFeatures(settings: NbestTaskSettings): boolean {
  return !settings.allowDuplicates || settings.featuresTxt !== undefined;
}

/**
 * How many tasks the runner may hold when the next chunk is handed out: its capacity, and near the end of a list of
 * `chunkBytes` bytes in all (when known) its share of what is left. With `left` chunks to hand out (this one
 * included, estimated from the mean size of those seen), the runner's `workers` and this thread finish together
 * when the runner holds about `workers · (left − 1)` tasks before it takes this one: the runner takes the chunk only
 * below that, else this thread scores it. The last chunk then goes to the pool only when its workers hold nothing.
 */
export function poolShare(capacity: number, workers: number, chunkBytes: number | undefined, seenBytes: number, seenChunks: number): number {
  if (chunkBytes === undefined || seenChunks === 0) return capacity;
  const left = 1 + Math.ceil(Math.max(0, chunkBytes - seenBytes) / (seenBytes / seenChunks));
  return Math.min(capacity, workers * (left - 1));
}

/** Lets the event loop run (an interrupt handler, say) between synchronous stretches. */
function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}

/** See the file comment. */
export class NbestRun {
  /** Numbers per candidate row (the metrics' widths summed). */
  readonly width: number;
  private readonly context: ChunkJobContext;
  private readonly spec: NbestMetricSpec;

  /**
   * Builds the run's metrics in the calling thread.
   * @throws InputError for a bad metric setting (the registry's errors) or reference streams of unequal lengths.
   */
  constructor(private readonly options: NbestRunOptions) {
    const { references } = options;
    if (references.length === 0) throw new InputError('E_BAD_OPTION', 'references are required (at least one stream)');
    for (let j = 1; j < references.length; j++) {
      if (references[j].length !== references[0].length) {
        throw new InputError(
          'E_LINE_COUNT_MISMATCH',
          `reference stream ${j + 1} has ${references[j].length} lines but stream 1 has ${references[0].length}: references must have the same length`,
        );
      }
    }
    this.spec = { ids: options.ids, settings: options.settings };
    // Metrics are built here first so that a bad setting is reported before any worker starts; the calling thread
    // scores with this context too.
    this.context = chunkJobContext(options.task, this.spec, streamReferenceSource(references), options.registry);
    this.width = this.context.metrics.reduce((w, m) => w + m.width, 0);
  }

  /**
   * Scores the chunks and writes their blocks in order (see the file comment).
   * @throws InputError for the first bad input in list order (file and line named); PoolTaskError when a runner's
   * task fails twice; RangeError for `workers > 1` without a runner.
   */
  async score(options: NbestScoreOptions): Promise<NbestRunInfo> {
    const started = performance.now();
    const { workers, runner } = options;
    if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be an integer ≥ 1 (got ${workers})`);
    if (workers > 1 && runner === undefined) throw new RangeError(`workers = ${workers} needs a runner (a worker pool)`);
    const inThread = workers === 1 || (options.inputBytes !== undefined && options.inputBytes < 2 * options.taskSize);
    const { task, references } = this.options;
    const writer = new OrderedWriter(task.path, references[0].length, options);
    const pool = inThread
      ? undefined
      : runner!({ workers: workers - 1, refs: shareReferences(references), settings: task, spec: this.spec });
    const context = this.context;
    const pending: { chunk: SegmentChunk; result: Promise<ChunkResult> }[] = [];
    // Pool tasks posted while the runner was starting and not yet settled. Its workers take them only once started,
    // so right after the start the oldest chunks in flight are these: waiting for them there, with the usual bound,
    // left this thread idle for several of a worker's tasks while it held dozens of chunks it had scored itself.
    const early = new Set<Promise<ChunkResult>>();
    let mainTasks = 0;
    let mainBusyMs = 0;
    // Output arrays written out go back to the context, for the output of this thread's later tasks: pool tasks'
    // arrays too (transferred here, they are this thread's to reuse).
    const recycle = options.transient === true;
    const writeHead = async (): Promise<void> => {
      const head = pending.shift()!;
      const result = await head.result;
      const release = recycle && result.ok
        ? () => {
            if (context.spareOut.length < MAX_SPARE_OUTPUTS) context.spareOut.push(new Uint8Array(result.out.buffer));
          }
        : undefined;
      writer.write(head.chunk, result, release);
      // Scored (its task settled: no retry can read it again) and handed to the output: the buffer serves a later
      // chunk.
      head.chunk.release?.();
    };
    try {
      // `workers` scoring threads: the pool's `workers − 1` and this one. A chunk goes to the pool while its workers
      // can take one more task (so each always has its next task waiting), else this thread scores it between its
      // reads and writes ("caller runs"). On a 2-core machine that is one worker thread fewer to start, warm up and
      // share the cores with than a pool of 2 (the 1M-candidate run: 3.8 s → ~3.3 s). No wait for the workers to
      // load: this thread scores from the first chunk on, and chunks posted meanwhile wait in the pool's queue (while
      // the workers start, and until those chunks are done, this thread holds more chunks rather than wait for them:
      // STARTING_IN_FLIGHT).
      // In-thread, every chunk is scored here and written at once.
      const limit = pool === undefined ? 1 : pool.capacity + IN_FLIGHT_PER_THREAD * workers;
      let seenBytes = 0;
      let seenChunks = 0;
      for await (const chunk of options.chunks(pool !== undefined)) {
        seenBytes += chunk.bytes.length;
        seenChunks++;
        let result: Promise<ChunkResult>;
        const share = pool === undefined ? 0 : poolShare(pool.capacity, workers - 1, options.chunkBytes, seenBytes, seenChunks);
        // A pool that looks full may only not have been heard from: its results reach this thread, and its count of
        // tasks in flight goes down, when the event loop turns, which it does not while chunks come in without a
        // wait and this thread scores them. Its workers then ran out of tasks while this thread scored (≈ 60 ms of
        // a worker's 1M-candidate run at -j 2, idle). One turn first lets it take this chunk if it can.
        if (pool !== undefined && pool.inFlight >= share && share > 0) await nextTurn();
        if (pool !== undefined && pool.inFlight < share) {
          // An output array written out goes with the task: a worker then allocates none for its output, which
          // was a new array per task there (memory outside V8's heap, counting towards its full-GC trigger), and
          // this thread, receiving it, held ever more such memory (six full GCs in a 1M-candidate run at -j 2).
          const posted = pool.run(chunk, recycle ? context.spareOut.pop() : undefined);
          result = posted;
          // Awaited in order below; a rejection seen only after an earlier failure must not go unhandled.
          posted.catch(() => {});
          if (pool.started === false) {
            early.add(posted);
            const settled = (): void => void early.delete(posted);
            posted.then(settled, settled);
          }
        } else {
          const done = runChunkJob(context, chunk.bytes, chunk.firstLine, chunk.byteOffset, recycle);
          mainTasks++;
          mainBusyMs += done.busyMs;
          result = Promise.resolve(done);
        }
        pending.push({ chunk, result });
        while (pending.length >= (pool?.started === false || early.size > 0 ? STARTING_IN_FLIGHT : limit)) await writeHead();
      }
      while (pending.length > 0) await writeHead();
    } finally {
      await pool?.close();
    }
    const { tasks, retries, busyMs } = pool?.counters ?? { tasks: 0, retries: 0, busyMs: 0 };
    return {
      workers: pool === undefined ? 1 : workers,
      inThread: pool === undefined,
      tasks: tasks + mainTasks,
      poolTasks: tasks,
      retries,
      busyMs: busyMs + mainBusyMs,
      wallMs: performance.now() - started,
      hyps: writer.hyps,
    };
  }

  /**
   * Scores the chunks in this thread, as {@link merge} reads them, and hands each chunk's candidates over before
   * duplicate removal (./sentence-rows.ts), with their raw features fields when the merge needs them (duplicates
   * removed, or FEATURES_TXT written): a queue run's shard of a merge with a previous run.
   * @throws InputError for bad input in the chunks (ids checked across them as {@link merge} checks them).
   */
  async scoreRows(options: {
    readonly chunks: NbestChunkSource;
    readonly rows: (bytes: Uint8Array) => void;
  }): Promise<{ hyps: number; firstId: number; firstIdLine: number; lastId: number }> {
    const { task: settings } = this.options;
    const context = this.context;
    const withFeatures = rowsCarryFeatures(settings);
    const out = new ByteOut();
    let lastId = -1;
    let firstId = -1;
    let firstIdLine = 0;
    let hyps = 0;
    for await (const chunk of options.chunks(false)) {
      const text = decodeChunk(chunk.bytes, chunk.byteOffset, chunk.firstLine, settings.path);
      const first = firstChunkId(chunk);
      if (first.id >= 0 && first.id < lastId) throw orderError(settings.path, first.id, lastId, first.line);
      const task = scoreTask(text, chunk.firstLine, settings, context.metrics, context.refs, context.fused, chunk.bytes, context.rows);
      // Counted by their segment map: `hyps` would make every candidate's text.
      if (task.hypLocal.length === 0) {
        chunk.release?.();
        continue;
      }
      writeSentenceRows(out, task.segmentIds, task.segmentStarts, task.stats, this.width, withFeatures ? task.features : undefined);
      options.rows(out.take());
      if (firstId === -1) {
        firstId = task.segmentIds[0];
        firstIdLine = task.lines[0];
      }
      lastId = task.segmentIds[task.segmentIds.length - 1];
      hyps += task.hypLocal.length;
      chunk.release?.();
    }
    return { hyps, firstId, firstIdLine, lastId };
  }

  /**
   * A merge with a previous run written as it goes (./previous-merge.ts), fed with candidates in list order:
   * {@link scoreRows}' bytes, read back with `readSentenceRows`. FEATURES_TXT blocks are written when `out.features`
   * is set (with the task's header for sentences the previous run lacks).
   */
  streamingMerge(previous: PreviousRun, out: NbestRunOutput): StreamingMerge {
    const { task: settings } = this.options;
    const featuresTxt = out.features === undefined ? undefined : settings.featuresTxt;
    if (featuresTxt !== undefined && previous.stats.size > 0 && previous.featureLines === undefined) {
      throw new RangeError('FEATURES_TXT output of a merge needs the previous run\'s features');
    }
    const context = this.context;
    return new StreamingMerge(
      { previous, width: this.width, keepFeatures: !settings.allowDuplicates, featuresTxt, encode: context.encode, out: new ByteOut() },
      out,
    );
  }

  /**
   * Merges a previous run with the chunks' candidates, in-thread (every sentence is held to the end), and writes
   * every sentence's block: the previous run's sentences first, in their order, then the new ones in list order.
   * @throws InputError for bad input in the list.
   */
  async merge(options: NbestMergeOptions): Promise<NbestRunInfo> {
    const started = performance.now();
    const { previous } = options;
    const { task: settings } = this.options;
    const context = this.context;
    const { refs } = context;
    const width = this.width;
    const keepFeatures = !settings.allowDuplicates;
    const featuresTxt = options.features === undefined ? undefined : settings.featuresTxt;
    if (featuresTxt !== undefined && previous.stats.size > 0 && previous.featureLines === undefined) {
      throw new RangeError('FEATURES_TXT output of a merge needs the previous run\'s features');
    }
    const merge: MergeSettings = { previous, width, keepFeatures, featuresTxt, encode: context.encode, out: context.out };
    const held = new Map<number, MergeGroup>();
    const groupOf = (sentence: number): MergeGroup => {
      let group = held.get(sentence);
      if (group === undefined) {
        group = previousGroup(merge, sentence);
        held.set(sentence, group);
      }
      return group;
    };
    let lastId = -1;
    let done = 0;
    let tasks = 0;
    for await (const chunk of options.chunks(false)) {
      tasks++;
      const text = decodeChunk(chunk.bytes, chunk.byteOffset, chunk.firstLine, settings.path);
      const first = firstChunkId(chunk);
      if (first.id >= 0 && first.id < lastId) throw orderError(settings.path, first.id, lastId, first.line);
      const task = scoreTask(text, chunk.firstLine, settings, context.metrics, refs, context.fused, chunk.bytes, context.rows);
      for (let k = 0; k < task.segmentIds.length; k++) {
        const from = task.segmentStarts[k];
        addCandidates(merge, groupOf(task.segmentIds[k]), task.stats, from, task.segmentStarts[k + 1] - from, task.features);
      }
      // Counted by their segment map: `hyps` would make every candidate's text.
      if (task.hypLocal.length > 0) {
        lastId = task.segmentIds[task.segmentIds.length - 1];
        done += task.hypLocal.length;
        options.onProgress?.(done, (lastId + 1) / refs.segments);
      }
      // The candidates are copied into their sentences' groups: the buffer serves a later chunk.
      chunk.release?.();
    }
    const emit = (sentence: number, group: MergeGroup): void => {
      const block = mergedBlock(merge, sentence, group);
      options.output(block.stats);
      if (block.features !== undefined) options.features!(block.features);
    };
    // Every sentence is written in one synchronous stretch after the whole list was read; the event loop gets a turn
    // now and then so that an interrupt is handled (a temporary output file removed) while it runs, not after it.
    let lastTurn = performance.now();
    let sinceCheck = 0;
    const turnDue = (): boolean => {
      if (++sinceCheck < 64) return false;
      sinceCheck = 0;
      return performance.now() - lastTurn >= YIELD_EVERY_MS;
    };
    const takeTurn = async (): Promise<void> => {
      await nextTurn();
      lastTurn = performance.now();
    };
    for (const s of previous.order) {
      emit(s, groupOf(s));
      if (turnDue()) await takeTurn();
    }
    for (const [s, g] of held) {
      if (previous.stats.has(s)) continue;
      emit(s, g);
      if (turnDue()) await takeTurn();
    }
    const wallMs = performance.now() - started;
    return { workers: 1, inThread: true, tasks, poolTasks: 0, retries: 0, busyMs: wallMs, wallMs, hyps: done };
  }
}
