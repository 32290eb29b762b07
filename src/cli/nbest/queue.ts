/**
 * `palette nbest … --queue URL`: the list is cut into shards at segment boundaries (src/node/queue/shards.ts), one
 * BullMQ flow is submitted — a merge job on the run's own queue with one child per shard on the shard queue that
 * `palette worker` processes (src/node/queue/nbest-jobs.ts) — and this process waits, showing shards done / total,
 * rate and ETA, then works on the merge job itself: each shard's result file is read once, in shard order, checked
 * against the length and hash its job reported, and written to the output, which the command commits (temporary
 * file + rename). The merged bytes are those of the single-machine run: each shard is whole segments and is scored
 * by the same chunk jobs, and the parts are put back together by the engine's own ordered writer, which also
 * checks the ids across shards as it checks them across chunks.
 *
 * Exactly-once results from at-least-once delivery: a shard may run twice (a worker killed after writing its result
 * but before acknowledging it, a stalled lock). Its result is a pure function of the shard's bytes, the references
 * and the settings, so the second run writes the same bytes to the same file, through a temporary file and a
 * rename: a reader finds one complete copy. The merge takes shard i's result from shard i's file exactly once,
 * whatever the number of runs, so nothing is lost or counted twice.
 *
 * A run submitted again (the same list, references, metrics, settings and output) gets the same run id and job ids:
 * shards that finished (and whose result files are intact) are not run again; failed ones are.
 */
import { mkdirSync, openSync, readSync, closeSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { FlowProducer, Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { InputError } from '../../errors.js';
import type { ChunkResult } from '../../engine/nbest/chunk-job.js';
import type { NbestTaskSettings } from '../../engine/nbest/nbest-task.js';
import { NbestRun, OrderedWriter } from '../../engine/nbest/run.js';
import type { MetricRegistry } from '../../metrics/registry.js';
import { readReferences } from './job.js';
import { connectRedis, redactSecrets, redactUrl } from '../../node/queue/connection.js';
import {
  MERGE_JOB, SHARD_JOB, SHARD_JOB_VERSION, SHARD_QUEUE, mergeQueueName, runIdOf, shardJobId, type NbestShardJob,
  type ShardOutcome,
} from '../../node/queue/nbest-jobs.js';
import { referencesSha1 } from '../../node/queue/nbest-shard-runner.js';
import { planShards, readShardResult, shardResultPath, type Shard } from '../../node/queue/shards.js';
import type { Progress } from '../progress.js';
import type { StatsSink } from './stats-sink.js';

/** Default shard size: 4 MiB of the list (about 25k candidates of 150 bytes, a second or two of one core). */
export const DEFAULT_SHARD_SIZE = 1 << 22;

/** How often the submitter looks at the run's state (ms). */
const POLL_MS = 200;

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
  /** Where the run id and notes go (standard error), unless quiet. */
  readonly note: (line: string) => void;
}

type NbestRunSettings = ConstructorParameters<typeof NbestRun>[0]['settings'];

/** A run that failed for a reason other than bad input (exit status 1). */
export class QueueRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueueRunError';
  }
}

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
 * Submits the run, waits for it, merges the shards into `sink` and returns what to do once the output is committed
 * (remove the run's jobs and result files).
 * @throws InputError for bad input (the first of the list, as the single-machine run reports it) and for an
 * unusable Redis; QueueRunError when a shard failed twice or the run's jobs vanished.
 */
export async function runQueued(options: QueueRunOptions, sink: StatsSink, progress: Progress): Promise<() => Promise<void>> {
  const { url } = options;
  if (isGzip(options.nbest)) {
    throw new InputError('E_BAD_OPTION', '--queue: a gzip n-best list cannot be cut into byte ranges: decompress it first', { file: options.nbest });
  }
  const references = readReferences(options.refs);
  // Metrics built here too: a bad setting is reported before anything is submitted.
  new NbestRun({ ids: options.ids, settings: options.settings, registry: options.registry, references, task: options.task });
  const shards = await planShards(options.nbest, options.shardSize);
  const nbestAbs = resolve(options.nbest);
  const statsAbs = resolve(options.stats);
  const refsAbs = options.refs.map((r) => resolve(r));
  const refsSha1 = referencesSha1(refsAbs);
  const runId = runIdOf({
    v: SHARD_JOB_VERSION,
    nbest: nbestAbs,
    shards: shards.map((s) => [s.offset, s.length, s.sha1]),
    refs: refsAbs,
    refsSha1,
    metrics: options.metrics,
    ids: options.ids,
    settings: options.settings,
    task: options.task,
    stats: statsAbs,
  });
  const resultDir = join(dirname(statsAbs), `.${basename(statsAbs)}.palette-run-${runId}`);
  const redis = await connectRedis(url, { option: '--queue' });
  try {
    mkdirSync(resultDir, { recursive: true });
  } catch (err) {
    redis.disconnect();
    throw new InputError('E_FILE_UNWRITABLE', `cannot create the folder of the shard results: ${(err as Error).message}`, { file: resultDir });
  }
  const shardQueue = new Queue(SHARD_QUEUE, { connection: redis });
  const mergeQueue = new Queue(mergeQueueName(runId), { connection: redis });
  const flows = new FlowProducer({ connection: redis });
  let merger: Worker | undefined;
  let merged: { error?: unknown } | undefined;
  const closeAll = async (): Promise<void> => {
    await merger?.close(true).catch(() => {});
    await Promise.all([shardQueue.close(), mergeQueue.close(), flows.close()].map((p) => p.catch(() => {})));
    redis.disconnect();
  };
  try {
    options.note(`run ${runId}: ${shards.length} shard${shards.length === 1 ? '' : 's'} on ${redactUrl(url)}`);
    await prepareResubmission(runId, shards, resultDir, shardQueue, mergeQueue);
    const child = (shard: Shard): NbestShardJob => ({
      kind: SHARD_JOB,
      version: SHARD_JOB_VERSION,
      runId,
      nbest: nbestAbs,
      refs: refsAbs,
      refsSha1,
      metrics: options.metrics,
      ids: options.ids,
      settings: options.settings,
      task: options.task,
      shard,
      resultDir,
      taskSize: options.taskSize,
    });
    await flows.add({
      name: MERGE_JOB,
      queueName: mergeQueueName(runId),
      data: { runId, shards: shards.length },
      opts: { jobId: runId },
      children: shards.map((s) => ({
        name: SHARD_JOB,
        queueName: SHARD_QUEUE,
        data: child(s),
        opts: {
          jobId: shardJobId(runId, s.index),
          // Two attempts: a shard that fails twice fails the run (with failParentOnFailure) with its error.
          attempts: 2,
          backoff: { type: 'fixed', delay: 500 },
          failParentOnFailure: true,
          removeOnComplete: false,
          removeOnFail: false,
        },
      })),
    });
    const segments = references[0].length;
    merger = new Worker(
      mergeQueueName(runId),
      async (job: Job) => {
        if (job.name !== MERGE_JOB) throw new UnrecoverableError(`refused: ${job.name} is not a merge job`);
        try {
          mergeShards(await job.getChildrenValues(), runId, shards, resultDir, options, segments, sink);
          merged = {};
        } catch (err) {
          merged = { error: err };
          throw new UnrecoverableError(err instanceof Error ? err.message : String(err));
        }
        return { merged: shards.length };
      },
      { connection: redis, concurrency: 1 },
    );
    merger.on('error', () => {});
    await waitForRun(runId, shards, shardQueue, mergeQueue, progress, () => merged, url);
    if (merged?.error !== undefined) throw merged.error;
  } catch (err) {
    // Bad input fails the same way each time the run is submitted (fixing it makes another run): nothing to keep.
    if (err instanceof InputError && merged !== undefined) await removeRun();
    await closeAll();
    throw err;
  }
  return async () => {
    // The output is committed: the run's jobs and result files have served their purpose.
    await removeRun();
    await closeAll();
  };

  /** Removes the run's jobs from Redis and its result folder (what cannot be removed is left for `queue clean`). */
  async function removeRun(): Promise<void> {
    try {
      await merger?.close();
      const parent = await mergeQueue.getJob(runId);
      await parent?.remove({ removeChildren: true });
      await mergeQueue.obliterate({ force: true });
    } catch {
      // Left for `palette queue clean RUN`.
    }
    rmSync(resultDir, { recursive: true, force: true });
  }
}

/**
 * Before a run is submitted again: a finished merge job is removed (its children stay and are attached to the new
 * one), failed shards are removed (to run again), and a finished shard whose result file is gone or not the bytes
 * it reported is removed too.
 */
async function prepareResubmission(runId: string, shards: readonly Shard[], resultDir: string, shardQueue: Queue, mergeQueue: Queue): Promise<void> {
  const parent = await mergeQueue.getJob(runId);
  if (parent !== undefined) {
    const state = await parent.getState();
    if (state === 'completed' || state === 'failed') await parent.remove({ removeChildren: false });
  }
  for (const shard of shards) {
    const job = await shardQueue.getJob(shardJobId(runId, shard.index));
    if (job === undefined) continue;
    const state = await job.getState();
    if (state === 'failed') {
      await job.remove({ removeChildren: false });
    } else if (state === 'completed') {
      const outcome = job.returnvalue as ShardOutcome | null;
      const intact =
        outcome !== null &&
        (!outcome.ok || readShardResult(shardResultPath(resultDir, shard.index, 'out'), outcome.length, outcome.sha1) !== undefined);
      if (!intact) await job.remove({ removeChildren: false });
    }
  }
}

/** Puts the shards' results together in order into `sink` (see the file comment). */
function mergeShards(
  values: Record<string, unknown>,
  runId: string,
  shards: readonly Shard[],
  resultDir: string,
  options: QueueRunOptions,
  segments: number,
  sink: StatsSink,
): void {
  const outcomes = new Array<ShardOutcome | undefined>(shards.length);
  for (const value of Object.values(values)) {
    const outcome = (typeof value === 'string' ? JSON.parse(value) : value) as ShardOutcome;
    if (outcome !== null && typeof outcome === 'object' && Number.isInteger(outcome.index)) outcomes[outcome.index] = outcome;
  }
  const writer = new OrderedWriter(options.task.path, segments, { output: (bytes) => sink.write(bytes) });
  for (const shard of shards) {
    const outcome = outcomes[shard.index];
    if (outcome === undefined) throw new QueueRunError(`run ${runId}: shard ${shard.index} reported no result`);
    let result: ChunkResult;
    let bytes: Uint8Array = new Uint8Array(0);
    if (outcome.ok) {
      const file = shardResultPath(resultDir, shard.index, 'out');
      const out = readShardResult(file, outcome.length, outcome.sha1);
      if (out === undefined) {
        throw new QueueRunError(`run ${runId}: the result file of shard ${shard.index} (${file}) is missing or not the bytes its job reported: submit the run again`);
      }
      result = { ok: true, out, hyps: outcome.hyps, firstId: outcome.firstId, lastId: outcome.lastId, firstIdLine: outcome.firstIdLine, busyMs: 0 };
    } else {
      // Its bytes locate an order error at the shard's start, which comes before the shard's own error.
      bytes = shardBytes(options.nbest, shard);
      result = { ok: false, error: outcome.error, busyMs: 0 };
    }
    writer.write({ bytes, firstLine: shard.firstLine, byteOffset: shard.offset }, result);
  }
}

/** Waits until the merge has run (or the run failed), drawing the progress line. */
async function waitForRun(
  runId: string,
  shards: readonly Shard[],
  shardQueue: Queue,
  mergeQueue: Queue,
  progress: Progress,
  merged: () => { error?: unknown } | undefined,
  url: string,
): Promise<void> {
  const total = shards.length;
  for (;;) {
    if (merged() !== undefined) return;
    const parent = await mergeQueue.getJob(runId);
    if (parent === undefined) {
      throw new QueueRunError(
        `run ${runId}: its jobs are gone from Redis at ${redactUrl(url)} (restarted without persistence, evicted, or cleaned): submit the run again`,
      );
    }
    const state = await parent.getState();
    if (state === 'failed') {
      if (merged() !== undefined) return;
      throw new QueueRunError(await failureOf(runId, shards, shardQueue, parent.failedReason, url));
    }
    if (state === 'unknown') {
      throw new QueueRunError(`run ${runId}: its merge job is in no queue state on ${redactUrl(url)}: submit the run again`);
    }
    const counts = await parent.getDependenciesCount();
    const done = counts.processed ?? 0;
    progress.update(done, total === 0 ? 1 : done / total);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** The message of a failed run: the first failed shard, its place in the list and its error. */
async function failureOf(runId: string, shards: readonly Shard[], shardQueue: Queue, parentReason: string, url: string): Promise<string> {
  for (const shard of shards) {
    const job = await shardQueue.getJob(shardJobId(runId, shard.index));
    if (job !== undefined && (await job.getState()) === 'failed') {
      const tries = job.attemptsMade;
      return redactSecrets(
        `run ${runId}: shard ${shard.index} (from line ${shard.firstLine}) failed after ${tries} attempt${tries === 1 ? '' : 's'}: ${job.failedReason}`,
        url,
      );
    }
  }
  return redactSecrets(`run ${runId} failed: ${parentReason}`, url);
}
