/**
 * What every queue run shares, whatever its shards hold (`palette nbest --queue`, `palette score --queue`): one
 * BullMQ flow — a merge job on the run's own queue, worked on by the submitting process alone, with one child per
 * shard on the shard queue that `palette worker` processes — submitted, watched (shards done / total on the progress
 * line) and merged in shard order, each shard's result exactly once.
 *
 * Exactly-once results from at-least-once delivery: a shard may run twice (a worker killed after writing its result
 * but before acknowledging it, a stalled lock). A shard's result is a pure function of its input and the run's
 * settings, written through a temporary file and a rename (src/node/queue/shards.ts `writeShardResult`), so a second
 * run writes the same bytes to the same file and a reader finds one complete copy; the merge takes shard i's
 * result from shard i's file once (its cursor only moves forward), however often the shard ran.
 *
 * Redis going away: every look at Redis is bounded by the run's timeout (`--redis-timeout`). Until then the
 * connection retries and a Redis that comes back lets the run go on; after it the run ends with a
 * {@link QueueRunError} and nothing is written. A run submitted again gets the same run id and job ids: finished
 * shards whose result files are intact are not run again; failed ones are.
 */
import { mkdirSync, rmSync } from 'node:fs';
import type { Job, Queue, Worker } from 'bullmq';
import { bullmq } from '../../node/queue/packages.js';
import { InputError } from '../../errors.js';
import { connectRedis, redactSecrets, redactUrl, stopReconnecting } from '../../node/queue/connection.js';
import { MERGE_JOB, SHARD_QUEUE, mergeQueueName, shardJobId } from '../../node/queue/nbest-jobs.js';
import { copyShardResult, shardResultPath } from '../../node/queue/shards.js';
import type { Progress } from '../progress.js';

/** How often the submitter looks at the run's state (ms). */
const POLL_MS = 200;

/** A run that failed for a reason other than bad input (exit status 1). */
export class QueueRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueueRunError';
  }
}

/** Redis did not answer for longer than the run waits for it (exit status 1, like any failed run). */
export class RedisAwayError extends QueueRunError {
  constructor(runId: string, url: string, timeoutMs: number) {
    super(
      `run ${runId}: Redis at ${redactUrl(url)} did not answer for ${Math.round(timeoutMs / 1000)} s (--redis-timeout): ` +
        'nothing was written; the finished shards are kept: submit the same command again once Redis is back',
    );
  }
}

/** `promise`, or `onTimeout()`'s error once `ms` have passed (a Redis command waits for ever while Redis is away). */
export function within<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), Math.max(0, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * What a finished shard job returned, as far as the flow needs it: a shard that succeeded reports the length and
 * CRC-32 of its result file (`shardResultPath(resultDir, index, 'out')`; see src/node/queue/shards.ts `ResultStamp`).
 */
export type ShardOutcomeBase =
  | { readonly index: number; readonly ok: true; readonly length: number; readonly crc32: number }
  | { readonly index: number; readonly ok: false };

/** Whether a finished shard's result file is still what its job reported (else it runs again on resubmission). */
function resultIntact(resultDir: string, index: number, outcome: ShardOutcomeBase): boolean {
  return !outcome.ok || copyShardResult(shardResultPath(resultDir, index, 'out'), outcome, () => {});
}

/** The merge of a run's shards, in shard order. */
export interface FlowMerge {
  /** Shards merged so far (the next to merge). */
  readonly next: number;
  /** Whether merging stopped at bad input. */
  readonly failed: boolean;
  /** Records finished shards' outcomes (a flow's children values) and merges those that are next in order. */
  take(values: Record<string, unknown>): void;
  /** Ends the merge (every shard is done): throws why merging stopped, if it did. */
  finish(): void;
}

/**
 * A merge that applies finished shards' outcomes in shard order, each exactly once (its cursor only moves forward,
 * however often a shard ran or its outcome is seen again); the first error stops it and is thrown by `finish`.
 */
export abstract class InOrderMerge<T extends { readonly index: number }> implements FlowMerge {
  next = 0;
  protected error: unknown;
  private readonly outcomes: (T | undefined)[];

  constructor(protected readonly runId: string, protected readonly shards: number) {
    this.outcomes = new Array<T | undefined>(shards);
  }

  get failed(): boolean {
    return this.error instanceof InputError;
  }

  take(values: Record<string, unknown>): void {
    for (const value of Object.values(values)) {
      const outcome = (typeof value === 'string' ? JSON.parse(value) : value) as T | null;
      if (outcome !== null && typeof outcome === 'object' && Number.isInteger(outcome.index)) this.outcomes[outcome.index] = outcome;
    }
    if (this.error !== undefined) return;
    try {
      while (this.next < this.shards && this.outcomes[this.next] !== undefined) {
        this.apply(this.next, this.outcomes[this.next]!);
        this.next++;
      }
    } catch (err) {
      this.error = err;
    }
  }

  finish(): void {
    if (this.error !== undefined) throw this.error;
    if (this.next < this.shards) throw new QueueRunError(`run ${this.runId}: shard ${this.next} reported no result`);
  }

  /** Merges shard `index`'s outcome (the shards before it are merged); throws to stop the merge. */
  protected abstract apply(index: number, outcome: T): void;
}

/** A run to submit. */
export interface FlowRun {
  readonly url: string;
  /** The option the URL came from, in messages. */
  readonly option: string;
  readonly runId: string;
  /** Number of shards. */
  readonly shards: number;
  /** Folder of the shards' result files (created here; removed with the run). */
  readonly resultDir: string;
  /** The job name of the shards (a kind `palette worker` runs). */
  readonly shardJob: string;
  /** The data of shard `index`'s job. */
  child(index: number): object;
  readonly merge: FlowMerge;
  /** Where shard `index` lies in the input, for a message (e.g. "from line 12"). */
  where(index: number): string;
  /** How long Redis may be away (unanswered) before the run gives up, ms. */
  readonly redisTimeoutMs: number;
  /** Where the run id goes (standard error), unless quiet. */
  readonly note: (line: string) => void;
  readonly progress: Progress;
}

/**
 * Submits the run, waits for it, merges its shards through `run.merge` and returns what to do once the output is
 * committed (remove the run's jobs and result files).
 * @throws InputError for an unusable Redis or result folder, and what the merge throws (bad input); QueueRunError
 * when a shard failed twice, the run's jobs vanished or Redis stayed away longer than `redisTimeoutMs`.
 */
export async function runFlow(run: FlowRun): Promise<() => Promise<void>> {
  const { url, runId, resultDir, merge } = run;
  const total = run.shards;
  const redis = await connectRedis(url, { option: run.option });
  try {
    mkdirSync(resultDir, { recursive: true });
  } catch (err) {
    redis.disconnect();
    throw new InputError('E_FILE_UNWRITABLE', `cannot create the folder of the shard results: ${(err as Error).message}`, { file: resultDir });
  }
  const shardQueue = new bullmq.Queue(SHARD_QUEUE, { connection: redis });
  const mergeQueue = new bullmq.Queue(mergeQueueName(runId), { connection: redis });
  const flows = new bullmq.FlowProducer({ connection: redis });
  // Connection errors while Redis is away are what the bounded waits below report; BullMQ would print each one.
  shardQueue.on('error', () => {});
  mergeQueue.on('error', () => {});
  flows.on('error', () => {});
  let merger: Worker | undefined;
  let merged: { error?: unknown } | undefined;
  let wake: () => void = () => {};
  const closeAll = async (redisAway = false): Promise<void> => {
    // Closing waits for Redis; when it is away, the connections are dropped (at once when it is known to be away).
    const closing = (async () => {
      await merger?.close(true).catch(() => {});
      await Promise.all([shardQueue.close(), mergeQueue.close(), flows.close()].map((p) => p.catch(() => {})));
    })();
    // Started in any case: a closing worker stops its loop instead of reconnecting for ever.
    await within(closing, redisAway ? 0 : 2000, () => new Error('closing')).catch(() => {});
    // Each BullMQ object may hold a connection of its own (the merge worker's blocking one) that would otherwise
    // go on reconnecting and keep the process alive.
    stopReconnecting(redis);
    const dropping = Promise.all([merger?.disconnect(), shardQueue.disconnect(), mergeQueue.disconnect(), flows.disconnect()].map((p) => p?.catch(() => {})));
    // Bounded too: with Redis away a disconnection may never be confirmed (and nothing else keeps the process up).
    await within(dropping, 1000, () => new Error('disconnecting')).catch(() => {});
  };
  /** Removes the run's jobs from Redis and its result folder (what cannot be removed is left for `queue clean`). */
  const removeRun = async (): Promise<void> => {
    try {
      await within(
        (async () => {
          await merger?.close();
          const parent = await mergeQueue.getJob(runId);
          await parent?.remove({ removeChildren: true });
          await mergeQueue.obliterate({ force: true });
        })(),
        run.redisTimeoutMs,
        () => new Error('Redis away'),
      );
    } catch {
      // Left for `palette queue clean RUN`.
    }
    rmSync(resultDir, { recursive: true, force: true });
  };
  try {
    run.note(`run ${runId}: ${total} shard${total === 1 ? '' : 's'} on ${redactUrl(url)}`);
    const gone = (): Error => new RedisAwayError(runId, url, run.redisTimeoutMs);
    await within(prepareResubmission(run, shardQueue, mergeQueue), run.redisTimeoutMs, gone);
    await within(
      flows.add({
        name: MERGE_JOB,
        queueName: mergeQueueName(runId),
        data: { runId, shards: total },
        opts: { jobId: runId },
        children: Array.from({ length: total }, (_, index) => ({
          name: run.shardJob,
          queueName: SHARD_QUEUE,
          data: run.child(index),
          opts: {
            jobId: shardJobId(runId, index),
            // Two attempts: a shard that fails twice fails the run (with failParentOnFailure) with its error.
            attempts: 2,
            backoff: { type: 'fixed', delay: 500 },
            failParentOnFailure: true,
            removeOnComplete: false,
            removeOnFail: false,
          },
        })),
      }),
      run.redisTimeoutMs,
      gone,
    );
    merger = new bullmq.Worker(
      mergeQueueName(runId),
      async (job: Job) => {
        if (job.name !== MERGE_JOB) throw new bullmq.UnrecoverableError(`refused: ${job.name} is not a merge job`);
        try {
          merge.take(await job.getChildrenValues());
          merge.finish();
          merged = {};
        } catch (err) {
          merged = { error: err };
          throw new bullmq.UnrecoverableError(err instanceof Error ? err.message : String(err));
        } finally {
          wake();
        }
        return { merged: total };
      },
      { connection: redis, concurrency: 1 },
    );
    merger.on('error', () => {});
    await waitForRun(run, shardQueue, mergeQueue, () => merged, (ms) => new Promise<void>((r) => {
      wake = r;
      setTimeout(r, ms);
    }));
    if (merged?.error !== undefined) throw merged.error;
  } catch (err) {
    // Bad input fails the same way each time the run is submitted (fixing it makes another run): nothing to keep.
    if (err instanceof InputError && (merged !== undefined || merge.failed)) await removeRun();
    await closeAll(err instanceof RedisAwayError);
    throw err;
  }
  return async () => {
    // The output is committed: the run's jobs and result files have served their purpose.
    await removeRun();
    await closeAll();
  };
}

/**
 * Before a run is submitted again: a finished merge job is removed (its children stay and are attached to the new
 * one), failed shards are removed (to run again), and a finished shard whose result file is gone or not the bytes
 * it reported is removed too.
 */
async function prepareResubmission(run: FlowRun, shardQueue: Queue, mergeQueue: Queue): Promise<void> {
  const parent = await mergeQueue.getJob(run.runId);
  if (parent === undefined) return;
  const state = await parent.getState();
  if (state === 'completed' || state === 'failed') await parent.remove({ removeChildren: false });
  for (let index = 0; index < run.shards; index++) {
    const job = await shardQueue.getJob(shardJobId(run.runId, index));
    if (job === undefined) continue;
    const jobState = await job.getState();
    if (jobState === 'failed') {
      await job.remove({ removeChildren: false });
    } else if (jobState === 'completed') {
      const outcome = job.returnvalue as ShardOutcomeBase | null;
      if (outcome === null || !resultIntact(run.resultDir, index, outcome)) await job.remove({ removeChildren: false });
    }
  }
}

/**
 * Waits until the merge has run (or the run failed), drawing the progress line and merging the shards that are
 * done in order. Every look at Redis is bounded: a Redis that stays away longer than the timeout ends the run (the
 * connection retries meanwhile, and a Redis back in time lets the run go on where it was).
 */
async function waitForRun(
  run: FlowRun,
  shardQueue: Queue,
  mergeQueue: Queue,
  merged: () => { error?: unknown } | undefined,
  sleep: (ms: number) => Promise<void>,
): Promise<void> {
  const { runId, url, merge } = run;
  const total = run.shards;
  let lastContact = performance.now();
  const gone = (): Error => new RedisAwayError(runId, url, run.redisTimeoutMs);
  const ask = <T>(p: Promise<T>): Promise<T> => within(p, lastContact + run.redisTimeoutMs - performance.now(), gone);
  let written = -1;
  for (;;) {
    if (merged() !== undefined) return;
    const parent = await ask(mergeQueue.getJob(runId));
    if (parent === undefined) {
      throw new QueueRunError(
        `run ${runId}: its jobs are gone from Redis at ${redactUrl(url)} (restarted without persistence, evicted, or cleaned): submit the run again`,
      );
    }
    const state = await ask(parent.getState());
    if (state === 'failed') {
      if (merged() !== undefined) return;
      throw new QueueRunError(await ask(failureOf(run, shardQueue, parent.failedReason)));
    }
    if (state === 'unknown') {
      throw new QueueRunError(`run ${runId}: its merge job is in no queue state on ${redactUrl(url)}: submit the run again`);
    }
    const counts = await ask(parent.getDependenciesCount());
    const done = counts.processed ?? 0;
    if (done > written && merge.next < total && merged() === undefined) {
      // The shards done so far, merged while the others run.
      merge.take(await ask(parent.getChildrenValues()));
      written = done;
    }
    lastContact = performance.now();
    run.progress.update(done, total === 0 ? 1 : done / total);
    await sleep(POLL_MS);
  }
}

/** The message of a failed run: the first failed shard, its place in the input and its error. */
async function failureOf(run: FlowRun, shardQueue: Queue, parentReason: string): Promise<string> {
  for (let index = 0; index < run.shards; index++) {
    const job = await shardQueue.getJob(shardJobId(run.runId, index));
    if (job !== undefined && (await job.getState()) === 'failed') {
      const tries = job.attemptsMade;
      return redactSecrets(
        `run ${run.runId}: shard ${index} (${run.where(index)}) failed after ${tries} attempt${tries === 1 ? '' : 's'}: ${job.failedReason}`,
        run.url,
      );
    }
  }
  return redactSecrets(`run ${run.runId} failed: ${parentReason}`, run.url);
}
