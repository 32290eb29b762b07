/**
 * `palette nbest --nbest FILE -r REF [REF ...] -m METRIC [METRIC ...] [--stats OUT] [--stats-format moses|json|msgpack]
 * [--sentence-scores] [--allow-duplicates] [--prev-stats FILE --prev-features FILE] [--workers N] [--task-size B]`:
 * per-candidate sufficient statistics of an n-best list for every metric in one pass, as Moses MERT's `extractor`
 * writes its SCORESTAT file (several metrics: one concatenated row per candidate, as its InterpolatedScorer).
 *
 * The main thread streams the list as raw chunks of whole segments (src/corpus/stream/segment-chunks.ts). Each
 * chunk is decoded, parsed, scored by every metric (references prepared once per segment: ./nbest/nbest-metrics.ts),
 * deduplicated (Moses' rule: equal features and equal statistics) and encoded by ./nbest/chunk-job.ts, either here
 * (small lists, `--workers 1`, `--prev-stats`) or, with `--workers N`, by N scoring threads: the `N − 1` workers of
 * the pool (src/pool/nbest-pool.ts) and this thread, which scores a chunk whenever the workers already hold all
 * the tasks they can; results are written in chunk order with a bounded number of chunks in flight, so the output
 * bytes are the same whichever thread scored a chunk.
 * With `--prev-stats`, the previous run's candidates come first in each sentence and the sentences keep the
 * previous run's order (Moses loads the previous files before the n-best list), so the whole merge is held.
 *
 * Bad input ends the run with `palette nbest: error: FILE[:LINE]: message` and exit status 2, and no output file
 * is left behind (the output is written to a temporary file and renamed only on success: ./output-file.ts); so
 * does SIGINT or SIGTERM (exit status 130 or 143). A pool task that fails twice is an internal failure (exit status
 * 1, no output file).
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { InputError, locate } from '../errors.js';
import { fileError, readLines } from '../node/read-lines.js';
import { lineIdAt, type SegmentChunk } from '../corpus/stream/segment-chunks.js';
import { readSegmentChunks } from '../node/segment-chunks.js';
import { NbestPool, type NbestInjectedFault } from '../pool/nbest-pool.js';
import { EXIT_INPUT, EXIT_OK, type CliIo } from './io.js';
import { createProgress, type Progress } from './progress.js';
import {
  chunkJobContext, decodeChunk, runChunkJob, shareReferences, streamReferenceSource, type ChunkResult,
} from '../engine/nbest/chunk-job.js';
import { inputErrorOf, keptCandidates, scoreTask, type NbestTaskSettings } from '../engine/nbest/nbest-task.js';
import { nbestRegistry, resolveNbestMetricIds } from '../engine/nbest/nbest-metrics.js';
import type { MetricRegistry } from '../metrics/registry.js';
import { nbestHelp, parseNbestArgs, type NbestOptions } from './nbest/options.js';
import { readPreviousRun } from '../engine/nbest/previous-run.js';
import { stdoutSink, type StatsSink } from './nbest/stats-sink.js';
import { openOutputFile } from './output-file.js';

/** Hooks of tests and benchmarks (never set by the command line). */
export interface NbestHooks {
  /** Makes a pool task simulate worker failures (tests of the retry path). */
  readonly injectFault?: NbestInjectedFault;
  /** Receives how the run went: in-thread or pooled, tasks, retries, time inside tasks and wall time (ms). */
  readonly onRun?: (info: NbestRunInfo) => void;
}

/** How a run went (benchmarks: task overhead = 1 − busy / (workers × wall)). */
export interface NbestRunInfo {
  readonly workers: number;
  readonly inThread: boolean;
  readonly tasks: number;
  /** Of `tasks`, those run by pool workers (the rest ran on the main thread). */
  readonly poolTasks?: number;
  readonly retries: number;
  readonly busyMs: number;
  readonly wallMs: number;
  readonly hyps: number;
}

/**
 * Chunks held beyond the pool's own (read, scored or being scored, not yet written) per scoring thread: enough that
 * this thread goes on scoring while an older pool task is still out (with 4 per thread, it sat idle ~0.3 s of a
 * 3.4 s run waiting for one), few enough to bound memory (a chunk and its output are well under 1 MB).
 */
const IN_FLIGHT_PER_THREAD = 6;

/** Longest synchronous stretch (ms) of the `--prev-stats` output loop before it lets signals be handled. */
const YIELD_EVERY_MS = 50;

/** Reads the references: one stream per file, all of the same length. */
function readReferences(files: readonly string[]): string[][] {
  const streams = files.map((f) => readLines(f));
  for (let j = 1; j < streams.length; j++) {
    if (streams[j].length !== streams[0].length) {
      throw new InputError(
        'E_LINE_COUNT_MISMATCH',
        `has ${streams[j].length} lines but ${files[0]} has ${streams[0].length}: references must have the same length`,
        { file: files[j] },
      );
    }
  }
  return streams;
}

/** The id and line of a chunk's first non-empty line, read from its bytes (-1 when none parses). */
function firstChunkId(chunk: SegmentChunk): { id: number; line: number } {
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

/** Checks chunk results in order (ids across chunks) and writes them. */
class OrderedWriter {
  lastId = -1;
  hyps = 0;

  constructor(
    private readonly path: string,
    private readonly segments: number,
    private readonly sink: StatsSink,
    private readonly progress: Progress,
  ) {}

  write(chunk: SegmentChunk, result: ChunkResult): void {
    const first = result.ok ? { id: result.firstId, line: result.firstIdLine } : firstChunkId(chunk);
    if (first.id >= 0 && first.id < this.lastId) {
      const why = 'an n-best list must be grouped by id in non-decreasing order';
      throw new InputError('E_BAD_INPUT', `malformed n-best line: id ${first.id} after id ${this.lastId}: ${why}`, {
        file: this.path,
        line: first.line,
      });
    }
    if (!result.ok) throw inputErrorOf(result.error);
    if (result.hyps === 0) return;
    if (result.firstId === this.lastId) {
      // Only an id the byte-level chunk reader could not read (non-ASCII blanks around it) can split a segment.
      throw new InputError(
        'E_BAD_INPUT',
        `malformed n-best line: the candidates of sentence ${result.firstId} are interrupted by a line whose id is ` +
          'not ASCII digits between ASCII blanks',
        { file: this.path, line: first.line },
      );
    }
    this.sink.write(result.out);
    this.lastId = result.lastId;
    this.hyps += result.hyps;
    // Ids are non-decreasing and bounded by the reference count, so the last id gives the fraction done.
    this.progress.update(this.hyps, (result.lastId + 1) / this.segments);
  }
}

/** Size of the n-best file (decides in-thread versus pool). */
function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch (err) {
    throw fileError(err, path);
  }
}

/** Computes and writes the statistics; the sink is committed by the caller. */
async function extract(options: NbestOptions, sink: StatsSink, progress: Progress, hooks: NbestHooks): Promise<void> {
  const started = performance.now();
  const registry = await nbestRegistry(options.metrics);
  const ids = resolveNbestMetricIds(options.metrics, options.settings, registry);
  const refStreams = readReferences(options.refs);
  const settings: NbestTaskSettings = {
    path: options.nbest,
    format: options.format,
    allowDuplicates: options.allowDuplicates,
    sentenceScores: options.sentenceScores,
  };
  const spec = { ids, settings: options.settings };
  if (options.prevStats !== undefined) {
    await extractWithPrevious(options, settings, spec, refStreams, sink, progress, registry);
    return;
  }
  const segments = refStreams[0].length;
  const workers = options.workers ?? availableParallelism();
  const inThread = workers === 1 || fileSize(options.nbest) < 2 * options.taskSize;
  const writer = new OrderedWriter(options.nbest, segments, sink, progress);
  // Metrics are built here first so that a bad setting is reported before any worker starts; this thread scores
  // with this context too (see below).
  const context = chunkJobContext(settings, spec, streamReferenceSource(refStreams), registry);
  const pool = inThread
    ? undefined
    : new NbestPool({
        workers: workers - 1, refs: shareReferences(refStreams), settings, spec, injectFault: hooks.injectFault,
      });
  const pending: { chunk: SegmentChunk; result: Promise<ChunkResult> }[] = [];
  let mainTasks = 0;
  let mainBusyMs = 0;
  try {
    // `workers` scoring threads: the pool's `workers − 1` and this one. A chunk goes to the pool while its workers
    // can take one more task (so each always has its next task waiting), else this thread scores it between its
    // reads and writes ("caller runs"). On a 2-core machine that is one worker thread fewer to start, warm up and
    // share the cores with than a pool of 2 (the 1M-candidate run: 3.8 s → ~3.3 s). No wait for the workers to
    // load: this thread scores from the first chunk on, and chunks posted meanwhile wait in the pool's queue.
    // In-thread, every chunk is scored here and written at once.
    const limit = pool === undefined ? 1 : pool.capacity + IN_FLIGHT_PER_THREAD * workers;
    for await (const chunk of readSegmentChunks(options.nbest, options.taskSize, pool !== undefined)) {
      let result: Promise<ChunkResult>;
      if (pool !== undefined && pool.inFlight < pool.capacity) {
        result = pool.run(chunk);
        // Awaited in order below; a rejection seen only after an earlier failure must not go unhandled.
        result.catch(() => {});
      } else {
        const done = runChunkJob(context, chunk.bytes, chunk.firstLine, chunk.byteOffset);
        mainTasks++;
        mainBusyMs += done.busyMs;
        result = Promise.resolve(done);
      }
      pending.push({ chunk, result });
      while (pending.length >= limit) {
        const head = pending.shift()!;
        writer.write(head.chunk, await head.result);
      }
    }
    while (pending.length > 0) {
      const head = pending.shift()!;
      writer.write(head.chunk, await head.result);
    }
  } finally {
    await pool?.close();
  }
  const { tasks, retries, busyMs } = pool?.counters ?? { tasks: 0, retries: 0, busyMs: 0 };
  const wallMs = performance.now() - started;
  hooks.onRun?.({
    workers: pool === undefined ? 1 : workers, inThread: pool === undefined, tasks: tasks + mainTasks, poolTasks: tasks,
    retries, busyMs: busyMs + mainBusyMs, wallMs, hyps: writer.hyps,
  });
}

/**
 * One sentence's candidates while merging with a previous run: statistics flat (`width` numbers each) and, when
 * duplicates are removed, their features (the previous run's feature keys first, then raw features fields: a key
 * parses like its field).
 */
interface Group {
  stats: number[];
  count: number;
  features: string[];
}

/** `--prev-stats`: the merge of a previous run with this one, in-thread (every sentence is held to the end). */
async function extractWithPrevious(
  options: NbestOptions,
  settings: NbestTaskSettings,
  spec: { ids: readonly string[]; settings: NbestOptions['settings'] },
  refStreams: string[][],
  sink: StatsSink,
  progress: Progress,
  registry: MetricRegistry | undefined,
): Promise<void> {
  const refs = streamReferenceSource(refStreams);
  const context = chunkJobContext(settings, spec, refs, registry);
  const width = context.metrics.reduce((w, m) => w + m.width, 0);
  const previous = readPreviousRun(options.prevStats!, options.prevFeatures, width);
  const keepFeatures = !options.allowDuplicates;
  const held = new Map<number, Group>();
  const groupOf = (sentence: number): Group => {
    let group = held.get(sentence);
    if (group === undefined) {
      group = { stats: [], count: 0, features: [] };
      for (const row of previous.stats.get(sentence) ?? []) {
        for (const v of row) group.stats.push(v);
        group.count++;
      }
      if (keepFeatures) for (const key of previous.featureKeys?.get(sentence) ?? []) group.features.push(key);
      held.set(sentence, group);
    }
    return group;
  };
  let lastId = -1;
  let done = 0;
  for await (const chunk of readSegmentChunks(options.nbest, options.taskSize)) {
    const text = decodeChunk(chunk.bytes, chunk.byteOffset, chunk.firstLine, options.nbest);
    const first = firstChunkId(chunk);
    if (first.id >= 0 && first.id < lastId) {
      const why = 'an n-best list must be grouped by id in non-decreasing order';
      throw new InputError('E_BAD_INPUT', `malformed n-best line: id ${first.id} after id ${lastId}: ${why}`, {
        file: options.nbest,
        line: first.line,
      });
    }
    const task = scoreTask(text, chunk.firstLine, settings, context.metrics, refs, context.fused);
    for (let h = 0; h < task.hyps.length; h++) {
      const group = groupOf(task.segmentIds[task.hypLocal[h]]);
      for (let c = 0; c < width; c++) group.stats.push(task.stats[h * width + c]);
      group.count++;
      if (keepFeatures) group.features.push(task.features![h]);
    }
    if (task.hyps.length > 0) {
      lastId = task.segmentIds[task.segmentIds.length - 1];
      done += task.hyps.length;
      progress.update(done, (lastId + 1) / refs.segments);
    }
  }
  const emit = (sentence: number, group: Group): void => {
    const stats = Float64Array.from(group.stats);
    let rows: Int32Array;
    if (keepFeatures) rows = keptCandidates(stats, width, group.features, 0, group.count);
    else rows = Int32Array.from({ length: group.count }, (_, i) => i);
    context.encode(sentence, stats, rows, context.out);
    sink.write(context.out.take());
  };
  // Every sentence is written in one synchronous stretch after the whole list was read; the event loop gets a turn
  // now and then so that an interrupt is handled (the temporary file removed) while it runs, not after it.
  let lastTurn = performance.now();
  let sinceCheck = 0;
  const turnDue = (): boolean => {
    if (++sinceCheck < 64) return false;
    sinceCheck = 0;
    return performance.now() - lastTurn >= YIELD_EVERY_MS;
  };
  const takeTurn = async (): Promise<void> => {
    await new Promise<void>((resolve) => setImmediate(resolve));
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
}

/**
 * Runs `palette nbest` with `argv` (the arguments after `nbest`) and returns the exit status. Bad input is reported
 * on `io.stderr` (exit 2) and leaves no output file; other errors propagate to the caller (reported as internal).
 */
export async function runNbestCommand(argv: readonly string[], io: CliIo, hooks: NbestHooks = {}): Promise<number> {
  let sink: StatsSink | undefined;
  let progress: Progress | undefined;
  try {
    const command = parseNbestArgs(argv);
    if (command.kind === 'help') {
      io.stdout.write(nbestHelp());
      return EXIT_OK;
    }
    const { options } = command;
    sink = options.stats === undefined ? stdoutSink(io) : openOutputFile(options.stats);
    // Progress on a terminal only, not with -q, and not when the statistics themselves go to the same terminal,
    // where the redrawn line would garble them.
    const statsOnTerminal = options.stats === undefined && io.stdout.isTTY === true;
    progress = createProgress(io.stderr, { label: 'palette nbest', unit: 'hyps', quiet: options.quiet || statsOnTerminal });
    await extract(options, sink, progress, hooks);
    sink.commit();
    progress.done();
    return EXIT_OK;
  } catch (err) {
    progress?.clear();
    sink?.abort();
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`palette nbest: error: ${locate(err.message, err.file, err.line)}\n`);
    return EXIT_INPUT;
  }
}
