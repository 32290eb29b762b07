/**
 * `palette nbest … --queue URL`: the list is cut into shards at segment boundaries (src/node/queue/shards.ts: a few
 * reads around each cut, not a pass over the list), one BullMQ flow is submitted — a merge job on the run's own
 * queue with one child per shard on the shard queue that `palette worker` processes (src/node/queue/nbest-jobs.ts)
 * — and this process waits, showing shards done / total, rate and ETA. Meanwhile it writes each shard's result as
 * soon as the shards before it are done (read once, checked against the length and hash its job reported), and the
 * flow's merge job, which it works on itself, writes what is left; the command then commits the output (temporary
 * file + rename). The merged bytes are those of the single-machine run: each shard is whole segments and is scored
 * by the same chunk jobs, and the parts are put back together by the engine's own ordered writer, which also
 * checks the ids across shards as it checks them across chunks. With `--ffile` the workers also write each shard's
 * FEATURES_TXT blocks (under the list's header, as the single-machine run names the features) and they are put
 * together alike. A gzip list is decompressed once into the run's folder first ({@link ListCopy}); with a previous
 * run to merge with, this process does the merge as the shards' candidates come in (see {@link runQueued}).
 *
 * Exactly-once results from at-least-once delivery: a shard may run twice (a worker killed after writing its result
 * but before acknowledging it, a stalled lock). Its result is a pure function of the shard's bytes, the references
 * and the settings, so the second run writes the same bytes to the same file, through a temporary file and a
 * rename: a reader finds one complete copy. The merge takes shard i's result from shard i's file exactly once
 * (a cursor that only moves forward), whatever the number of runs, so nothing is lost or counted twice.
 *
 * Redis going away: every look at Redis is bounded by `--redis-timeout`. Until then the connection retries and a
 * Redis that comes back lets the run go on (with persistence its jobs are still there; without, the run ends with
 * "its jobs are gone"); after it, the run ends with exit status 1 and nothing written. The output is only ever
 * committed once every shard was merged, so an outage costs time, never a wrong output.
 *
 * A run submitted again (the same list, references, metrics, settings and output) gets the same run id and job ids:
 * shards that finished (and whose result files are intact) are not run again; failed ones are.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../../errors.js';
import type { ChunkResult } from '../../engine/nbest/chunk-job.js';
import { inputErrorOf, type NbestTaskSettings } from '../../engine/nbest/nbest-task.js';
import { firstChunkId, NbestRun, orderError, OrderedWriter, rowsCarryFeatures } from '../../engine/nbest/run.js';
import type { StreamingMerge } from '../../engine/nbest/previous-merge.js';
import type { PreviousRun } from '../../engine/nbest/previous-run.js';
import { readSentenceRows } from '../../engine/nbest/sentence-rows.js';
import type { MetricRegistry } from '../../metrics/registry.js';
import { featuresHeaderOf, parsePreviousRuns, previousRunFiles, readReferences, type PreviousFiles } from './job.js';
import { SHARD_JOB, SHARD_JOB_VERSION, runIdOf, type NbestShardJob, type ShardOutcome } from '../../node/queue/nbest-jobs.js';
import { referencesSha1 } from '../../node/queue/nbest-shard-runner.js';
import { copyShardResult, lineAtOffset, planShards, readShardResult, shardResultPath, type ResultStamp, type Shard } from '../../node/queue/shards.js';
import { isGzipFile } from '../../node/segment-chunks.js';
import type { Progress } from '../progress.js';
import { InOrderMerge, QueueRunError, runFlow } from '../queue/flow.js';
import { ListCopy } from '../queue/list-copy.js';
import type { StatsSink } from './stats-sink.js';

/** Default shard size: 4 MiB of the list (about 25k candidates of 150 bytes, a second or two of one core). */
export const DEFAULT_SHARD_SIZE = 1 << 22;

/** What a queue run needs beyond the n-best options. */
export interface QueueRunOptions {
  readonly url: string;
  readonly shardSize: number;
  readonly nbest: string;
  readonly refs: readonly string[];
  readonly metrics: readonly string[];
  readonly ids: readonly string[];
  readonly settings: NbestRunSettings;
  readonly registry: MetricRegistry | undefined;
  readonly task: NbestTaskSettings;
  readonly taskSize: number;
  /** The output file (the shard results go to a folder beside it). */
  readonly stats: string;
  /** How long Redis may be away (unanswered) before the run gives up, ms. */
  readonly redisTimeoutMs: number;
  /** Where the run id and notes go (standard error), unless quiet. */
  readonly note: (line: string) => void;
  /** A previous run to merge with (`--prev-stats`, `--prev-features`); none: the shards' blocks are the output. */
  readonly previous: PreviousFiles | undefined;
}

type NbestRunSettings = ConstructorParameters<typeof NbestRun>[0]['settings'];

const NO_BYTES = new Uint8Array(0);

export { QueueRunError };

/** The bytes of a shard read from the list (only to locate a shard's bad input). */
function shardBytes(path: string, shard: Shard): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const bytes = Buffer.alloc(shard.length);
    let at = 0;
    while (at < shard.length) {
      const n = readSync(fd, bytes, at, shard.length - at, shard.offset + at);
      if (n === 0) break;
      at += n;
    }
    return bytes.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/**
 * Submits the run, waits for it, merges the shards into `sink` (and `features`) and returns what to do once the
 * output is committed (remove the run's jobs and result files).
 *
 * With a previous run to merge with (`--prev-stats`), the shards write their candidates before duplicate removal
 * (src/engine/nbest/sentence-rows.ts) and this process merges them with the previous run's, sentence by sentence
 * (src/engine/nbest/previous-merge.ts), as the shards come in: duplicates are removed across both runs, so a
 * sentence needs its previous and new candidates in one place, and this process has the previous run anyway (its
 * files are read and checked here first, with the messages of the single-machine run, before anything is
 * submitted). Handing each shard the previous candidates of its sentences instead would mean cutting the previous
 * files by sentence (a sentence may have several blocks anywhere in them, and they may be gzip) and still putting
 * the sentences in the merge's order here. Scoring stays on the workers; what is left here is the duplicate
 * removal and encoding, and the merge streams: a sentence is written as soon as its turn has come, so with the
 * previous run's sentences in list order (a tuning loop's) nothing is held. The shards' results do not depend on
 * the previous run, so a run submitted again with another previous run reuses them.
 * @throws InputError for bad input (the first of the list, as the single-machine run reports it) and for an
 * unusable Redis; QueueRunError when a shard failed twice, the run's jobs vanished or Redis stayed away longer than
 * `redisTimeoutMs`.
 */
export async function runQueued(
  options: QueueRunOptions, sink: StatsSink, features: StatsSink | undefined, progress: Progress,
): Promise<() => Promise<void>> {
  const references = readReferences(options.refs);
  const previousFiles = previousRunFiles(options.previous === undefined ? [] : [options.previous]);
  // The FEATURES_TXT header is the one the single-machine run gives (the previous run's or the list's): every
  // shard's blocks carry it.
  const task: NbestTaskSettings =
    features === undefined ? options.task : { ...options.task, featuresTxt: await featuresHeaderOf(options.nbest, previousFiles) };
  // Metrics built here too: a bad setting is reported before anything is submitted.
  const run = new NbestRun({ ids: options.ids, settings: options.settings, registry: options.registry, references, task });
  const previous = previousFiles.length === 0 ? undefined : parsePreviousRuns(previousFiles, run.width);
  const statsAbs = resolve(options.stats);
  const copy = isGzipFile(options.nbest) ? await ListCopy.of(options.nbest, dirname(statsAbs), `.${basename(statsAbs)}`) : undefined;
  try {
    const cleanUp = await submit(options, run, task, previous, copy, references[0].length, sink, features, progress);
    copy?.remove();
    return cleanUp;
  } catch (err) {
    copy?.remove();
    throw err;
  }
}

async function submit(
  options: QueueRunOptions,
  nbestRun: NbestRun,
  task: NbestTaskSettings,
  previous: PreviousRun | undefined,
  copy: ListCopy | undefined,
  segments: number,
  sink: StatsSink,
  features: StatsSink | undefined,
  progress: Progress,
): Promise<() => Promise<void>> {
  const { url } = options;
  let listPath = copy?.file ?? options.nbest;
  if (copy !== undefined && statSync(listPath).size === 0) {
    throw new InputError('E_EMPTY_INPUT', 'empty input (0 bytes): expected one segment per line', { file: options.nbest });
  }
  const plan = planShards(listPath, options.shardSize);
  const { shards } = plan;
  const list = { size: plan.size, mtimeMs: plan.mtimeMs };
  const nbestAbs = resolve(options.nbest);
  const statsAbs = resolve(options.stats);
  const refsAbs = options.refs.map((r) => resolve(r));
  const refsSha1 = referencesSha1(refsAbs);
  const rows = previous === undefined ? undefined : true;
  const gzip = copy === undefined ? undefined : (({ size, mtimeMs }) => ({ size, mtimeMs }))(statSync(options.nbest));
  const runId = runIdOf({
    v: SHARD_JOB_VERSION,
    nbest: nbestAbs,
    ...(gzip === undefined ? {} : { gzip }),
    list,
    shards: shards.map((s) => [s.offset, s.length, s.head, s.tail]),
    refs: refsAbs,
    refsSha1,
    metrics: options.metrics,
    ids: options.ids,
    settings: options.settings,
    task,
    stats: statsAbs,
    ...(rows === undefined ? {} : { rows }),
  });
  const resultDir = join(dirname(statsAbs), `.${basename(statsAbs)}.palette-run-${runId}`);
  if (copy !== undefined) {
    copy.moveInto(resultDir);
    listPath = copy.file;
  }
  const streaming = previous === undefined ? undefined : nbestRun.streamingMerge(previous, {
    output: (bytes) => sink.write(bytes),
    ...(features === undefined ? {} : { features: (bytes: Uint8Array) => features.write(bytes) }),
  });
  const merge = new ShardMerger(runId, shards, resultDir, listPath, task, segments, sink, features, streaming, nbestRun.width);
  const listAbs = resolve(listPath);
  const child = (index: number): NbestShardJob => ({
    kind: SHARD_JOB,
    version: SHARD_JOB_VERSION,
    runId,
    nbest: listAbs,
    list,
    refs: refsAbs,
    refsSha1,
    metrics: options.metrics,
    ids: options.ids,
    settings: options.settings,
    task,
    shard: shards[index],
    resultDir,
    taskSize: options.taskSize,
    ...(rows === undefined ? {} : { rows }),
  });
  return runFlow({
    url,
    option: '--queue',
    runId,
    shards: shards.length,
    resultDir,
    shardJob: SHARD_JOB,
    child,
    merge,
    where: (index) => `from line ${lineAtOffset(listPath, shards[index].offset)}`,
    redisTimeoutMs: options.redisTimeoutMs,
    note: options.note,
    progress,
  });
}

/**
 * Puts the shards' results together in order, each exactly once (../queue/flow.ts): shard i is written as soon as
 * shards 0 … i are done (while the workers go on with the rest, so little is left to do when the last shard ends),
 * the rest when the flow's merge job runs. Each result file is checked against the length and CRC-32 its job
 * reported. Why writing stopped (bad input, the run's first in list order, or a result file that is not what its
 * job reported) fails the run when its merge job runs, as it would have had nothing been written before.
 *
 * Without a previous run, a shard's result files hold the very bytes of the output (the blocks the single-machine
 * run writes for its segments), so they are copied to the output a block at a time, checked as they go by
 * (src/node/queue/shards.ts `copyShardResult`), never held whole or decoded: this process shares the machine with
 * workers that keep its cores busy, and reading each file whole and hashing it cost it a third of a second per
 * 100 MB of output.
 */
class ShardMerger extends InOrderMerge<ShardOutcome> {
  private readonly writer: OrderedWriter;
  /** The shard whose blocks the writer asks for (its outputs copy them from the shard's result files). */
  private current: { shard: Shard; outcome: Extract<ShardOutcome, { ok: true }> } | undefined;

  /** Whether the merge's candidates carry their features fields. */
  private readonly rowsFeatures: boolean;
  /** The last sentence id of the candidates merged so far (a merge with a previous run). */
  private lastId = -1;

  /**
   * @param nbest the list's bytes as the shards were cut from them (a gzip list's decompressed copy)
   * @param streaming the merge with a previous run, fed with the shards' candidates; none: the shards' blocks are
   * written as they are
   */
  constructor(
    runId: string,
    private readonly plan: readonly Shard[],
    private readonly resultDir: string,
    readonly nbest: string,
    private readonly task: NbestTaskSettings,
    segments: number,
    private readonly sink: StatsSink,
    private readonly features: StatsSink | undefined,
    private readonly streaming: StreamingMerge | undefined,
    private readonly width: number,
  ) {
    super(runId, plan.length);
    this.rowsFeatures = rowsCarryFeatures(task);
    this.writer = new OrderedWriter(task.path, segments, {
      output: () => this.copy('out'),
      ...(features === undefined ? {} : { features: () => this.copy('features') }),
    });
  }

  /** Ends the merge (every shard is done): throws why writing stopped, if it did; else ends the previous run's merge. */
  override finish(): void {
    super.finish();
    this.streaming?.finish();
  }

  protected apply(index: number, outcome: ShardOutcome): void {
    this.write(this.plan[index], outcome);
  }

  private badResult(shard: Shard, file: string): QueueRunError {
    return new QueueRunError(`run ${this.runId}: the result file of shard ${shard.index} (${file}) is missing or not the bytes its job reported: submit the run again`);
  }

  /** Copies the current shard's statistics or FEATURES_TXT blocks to their output, checked against its job's report. */
  private copy(what: 'out' | 'features'): void {
    const { shard, outcome } = this.current!;
    const file = shardResultPath(this.resultDir, shard.index, what);
    const stamp: Partial<ResultStamp> = what === 'out' ? outcome : { length: outcome.featuresLength, crc32: outcome.featuresCrc32 };
    const sink = what === 'out' ? this.sink : this.features!;
    if (!copyShardResult(file, stamp, (block) => sink.write(block))) throw this.badResult(shard, file);
  }

  private write(shard: Shard, outcome: ShardOutcome): void {
    if (this.streaming !== undefined) {
      this.mergeRows(this.streaming, shard, outcome);
      return;
    }
    // A worker numbers its shard's lines from 1; the list's lines are counted only when a message needs them.
    const needsLines = !outcome.ok || (outcome.firstId >= 0 && outcome.firstId <= this.writer.lastId);
    const base = needsLines ? lineAtOffset(this.nbest, shard.offset) - 1 : 0;
    let result: ChunkResult;
    let bytes: Uint8Array = new Uint8Array(0);
    if (outcome.ok) {
      // The writer checks the shard's ids and, when its blocks are due, calls the outputs, which copy them from the
      // result files (the placeholders stand for those bytes).
      this.current = { shard, outcome };
      result = {
        ok: true, out: NO_BYTES, ...(this.features === undefined ? {} : { features: NO_BYTES }), hyps: outcome.hyps,
        firstId: outcome.firstId, lastId: outcome.lastId, firstIdLine: outcome.firstIdLine + base, busyMs: 0,
      };
    } else {
      // Its bytes locate an order error at the shard's start, which comes before the shard's own error.
      bytes = shardBytes(this.nbest, shard);
      const { error } = outcome;
      result = { ok: false, error: error.line === undefined ? error : { ...error, line: error.line + base }, busyMs: 0 };
    }
    this.writer.write({ bytes, firstLine: base + 1, byteOffset: shard.offset }, result);
  }

  /**
   * A shard's candidates into the merge with the previous run, checked as the single-machine merge checks a chunk:
   * its first id against the last id so far, then its bad input.
   */
  private mergeRows(streaming: StreamingMerge, shard: Shard, outcome: ShardOutcome): void {
    const needsLines = !outcome.ok || (outcome.firstId >= 0 && outcome.firstId < this.lastId);
    const base = needsLines ? lineAtOffset(this.nbest, shard.offset) - 1 : 0;
    const path = this.task.path;
    if (!outcome.ok) {
      const first = firstChunkId({ bytes: shardBytes(this.nbest, shard), firstLine: base + 1, byteOffset: shard.offset });
      if (first.id >= 0 && first.id < this.lastId) throw orderError(path, first.id, this.lastId, first.line);
      const { error } = outcome;
      throw inputErrorOf(error.line === undefined ? error : { ...error, line: error.line + base });
    }
    if (outcome.firstId >= 0 && outcome.firstId < this.lastId) {
      throw orderError(path, outcome.firstId, this.lastId, outcome.firstIdLine + base);
    }
    const file = shardResultPath(this.resultDir, shard.index, 'out');
    const bytes = readShardResult(file, outcome);
    if (bytes === undefined) throw this.badResult(shard, file);
    for (const s of readSentenceRows(bytes, this.width, this.rowsFeatures)) streaming.add(s.sentence, s.stats, 0, s.count, s.features);
    if (outcome.hyps > 0) this.lastId = outcome.lastId;
  }
}
