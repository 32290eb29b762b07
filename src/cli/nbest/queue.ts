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
 * together alike.
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
import { openSync, readSync, closeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../../errors.js';
import type { ChunkResult } from '../../engine/nbest/chunk-job.js';
import type { NbestTaskSettings } from '../../engine/nbest/nbest-task.js';
import { NbestRun, OrderedWriter } from '../../engine/nbest/run.js';
import type { MetricRegistry } from '../../metrics/registry.js';
import { firstFeaturesField, readReferences } from './job.js';
import { SHARD_JOB, SHARD_JOB_VERSION, runIdOf, type NbestShardJob, type ShardOutcome } from '../../node/queue/nbest-jobs.js';
import { referencesSha1 } from '../../node/queue/nbest-shard-runner.js';
import { lineAtOffset, planShards, readShardResult, shardResultPath, type Shard } from '../../node/queue/shards.js';
import { featuresTxtHeader } from '../../engine/nbest/features-txt.js';
import type { Progress } from '../progress.js';
import { QueueRunError, runFlow, type FlowMerge } from '../queue/flow.js';
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
}

type NbestRunSettings = ConstructorParameters<typeof NbestRun>[0]['settings'];

export { QueueRunError };

/** Whether the file starts as gzip data does (its shards would be byte ranges of the compressed stream). */
function isGzip(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

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
 * @throws InputError for bad input (the first of the list, as the single-machine run reports it) and for an
 * unusable Redis; QueueRunError when a shard failed twice, the run's jobs vanished or Redis stayed away longer than
 * `redisTimeoutMs`.
 */
export async function runQueued(
  options: QueueRunOptions, sink: StatsSink, features: StatsSink | undefined, progress: Progress,
): Promise<() => Promise<void>> {
  const { url } = options;
  if (isGzip(options.nbest)) {
    throw new InputError('E_BAD_OPTION', '--queue: a gzip n-best list cannot be cut into byte ranges: decompress it first', { file: options.nbest });
  }
  const references = readReferences(options.refs);
  // The FEATURES_TXT header is the list's, as the single-machine run names it: every shard's blocks carry it.
  const task: NbestTaskSettings =
    features === undefined ? options.task : { ...options.task, featuresTxt: featuresTxtHeader(await firstFeaturesField(options.nbest)) };
  // Metrics built here too: a bad setting is reported before anything is submitted.
  new NbestRun({ ids: options.ids, settings: options.settings, registry: options.registry, references, task });
  const plan = planShards(options.nbest, options.shardSize);
  const { shards } = plan;
  const list = { size: plan.size, mtimeMs: plan.mtimeMs };
  const nbestAbs = resolve(options.nbest);
  const statsAbs = resolve(options.stats);
  const refsAbs = options.refs.map((r) => resolve(r));
  const refsSha1 = referencesSha1(refsAbs);
  const runId = runIdOf({
    v: SHARD_JOB_VERSION,
    nbest: nbestAbs,
    list,
    shards: shards.map((s) => [s.offset, s.length, s.head, s.tail]),
    refs: refsAbs,
    refsSha1,
    metrics: options.metrics,
    ids: options.ids,
    settings: options.settings,
    task,
    stats: statsAbs,
  });
  const resultDir = join(dirname(statsAbs), `.${basename(statsAbs)}.palette-run-${runId}`);
  const merge = new ShardMerger(runId, shards, resultDir, options.nbest, task, references[0].length, sink, features);
  const child = (index: number): NbestShardJob => ({
    kind: SHARD_JOB,
    version: SHARD_JOB_VERSION,
    runId,
    nbest: nbestAbs,
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
    where: (index) => `from line ${lineAtOffset(options.nbest, shards[index].offset)}`,
    redisTimeoutMs: options.redisTimeoutMs,
    note: options.note,
    progress,
  });
}

/**
 * Puts the shards' results together in order, each exactly once: shard i is written as soon as shards 0 … i are
 * done (while the workers go on with the rest, so little is left to do when the last shard ends), the rest when the
 * flow's merge job runs. Each result file is checked against the length and hash its job reported.
 */
class ShardMerger implements FlowMerge {
  /** The next shard to write. */
  next = 0;
  /**
   * Why writing stopped (bad input, the run's first in list order, or a result file that is not what its job
   * reported): the run fails with it when its merge job runs, as it would have had nothing been written before.
   */
  private error: unknown;
  private readonly outcomes: (ShardOutcome | undefined)[];
  private readonly writer: OrderedWriter;

  constructor(
    private readonly runId: string,
    private readonly shards: readonly Shard[],
    private readonly resultDir: string,
    readonly nbest: string,
    task: NbestTaskSettings,
    segments: number,
    sink: StatsSink,
    private readonly features: StatsSink | undefined,
  ) {
    this.outcomes = new Array<ShardOutcome | undefined>(shards.length);
    this.writer = new OrderedWriter(task.path, segments, {
      output: (bytes) => sink.write(bytes),
      ...(features === undefined ? {} : { features: (bytes: Uint8Array) => features.write(bytes) }),
    });
  }

  /** Whether writing stopped at bad input. */
  get failed(): boolean {
    return this.error instanceof InputError;
  }

  /** Records finished shards' outcomes (a flow's children values) and writes those that are next in order. */
  take(values: Record<string, unknown>): void {
    for (const value of Object.values(values)) {
      const outcome = (typeof value === 'string' ? JSON.parse(value) : value) as ShardOutcome;
      if (outcome !== null && typeof outcome === 'object' && Number.isInteger(outcome.index)) this.outcomes[outcome.index] = outcome;
    }
    if (this.error !== undefined) return;
    try {
      while (this.next < this.shards.length && this.outcomes[this.next] !== undefined) {
        this.write(this.shards[this.next], this.outcomes[this.next]!);
        this.next++;
      }
    } catch (err) {
      this.error = err;
    }
  }

  /** Ends the merge (its job runs once every shard is done): throws why writing stopped, if it did. */
  finish(): void {
    if (this.error !== undefined) throw this.error;
    if (this.next < this.shards.length) throw new QueueRunError(`run ${this.runId}: shard ${this.next} reported no result`);
  }

  private readResult(shard: Shard, what: 'out' | 'features', length: number | undefined, sha1: string | undefined): Uint8Array {
    const file = shardResultPath(this.resultDir, shard.index, what);
    const bytes = length === undefined || sha1 === undefined ? undefined : readShardResult(file, length, sha1);
    if (bytes === undefined) {
      throw new QueueRunError(`run ${this.runId}: the result file of shard ${shard.index} (${file}) is missing or not the bytes its job reported: submit the run again`);
    }
    return bytes;
  }

  private write(shard: Shard, outcome: ShardOutcome): void {
    // A worker numbers its shard's lines from 1; the list's lines are counted only when a message needs them.
    const needsLines = !outcome.ok || (outcome.firstId >= 0 && outcome.firstId <= this.writer.lastId);
    const base = needsLines ? lineAtOffset(this.nbest, shard.offset) - 1 : 0;
    let result: ChunkResult;
    let bytes: Uint8Array = new Uint8Array(0);
    if (outcome.ok) {
      const out = this.readResult(shard, 'out', outcome.length, outcome.sha1);
      const features =
        this.features === undefined ? undefined : this.readResult(shard, 'features', outcome.featuresLength, outcome.featuresSha1);
      result = {
        ok: true, out, ...(features === undefined ? {} : { features }), hyps: outcome.hyps, firstId: outcome.firstId,
        lastId: outcome.lastId, firstIdLine: outcome.firstIdLine + base, busyMs: 0,
      };
    } else {
      // Its bytes locate an order error at the shard's start, which comes before the shard's own error.
      bytes = shardBytes(this.nbest, shard);
      const { error } = outcome;
      result = { ok: false, error: error.line === undefined ? error : { ...error, line: error.line + base }, busyMs: 0 };
    }
    this.writer.write({ bytes, firstLine: base + 1, byteOffset: shard.offset }, result);
  }
}
