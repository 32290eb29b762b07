/**
 * Scores shard jobs in a worker process on the engine (src/engine/nbest/run.ts): the run's references, metrics and
 * scoring pool are built once per run and kept while shards of that run keep coming, so a shard costs its scoring
 * and little more; a shard of another run replaces them. With `workers > 1` the shards are scored on one pool of
 * n-best worker threads (src/pool/nbest-pool.ts) that lives as long as the run's context, not one pool per shard.
 *
 * A shard's lines are numbered from its own first line (the worker does not know where in the list it starts): its
 * bad input and first id name lines of the shard, which the submitter turns into the list's when it reports them.
 *
 * A shard of a merge with a previous run (`rows`) hands over its candidates before duplicate removal, scored in
 * this thread as the single-machine merge scores them (the merge itself is the submitter's).
 *
 * Bad input in a shard is its result (the merge reports the first bad input of the whole list, as the
 * single-machine run would); anything else (a file this machine cannot read, a shard whose bytes changed) is a
 * failure of the job, which BullMQ retries.
 */
import { readFileSync } from 'node:fs';
import { InputError } from '../../errors.js';
import type { SegmentChunk } from '../../corpus/stream/segment-chunks.js';
import type { ChunkResult } from '../../engine/nbest/chunk-job.js';
import { nbestRegistry } from '../../engine/nbest/nbest-metrics.js';
import { taskErrorData } from '../../engine/nbest/nbest-task.js';
import { NbestRun, type NbestChunkRunner, type NbestRunnerFactory } from '../../engine/nbest/run.js';
import { NbestPool } from '../../pool/nbest-pool.js';
import { readLines } from '../read-lines.js';
import type { NbestShardJob, ShardOutcome } from './nbest-jobs.js';
import { readShardChunks, sha1Of, shardResultPath, writeShardResult } from './shards.js';

/** SHA-1 of the reference files' bytes, each file's hash joined (how a submitter and its workers name them). */
export function referencesSha1(paths: readonly string[]): string {
  return sha1Of(new TextEncoder().encode(paths.map((p) => sha1Of(readFileSync(p))).join(' ')));
}

/** A run's context in a worker process. */
interface RunContext {
  readonly runId: string;
  readonly run: NbestRun;
  pool: NbestPool | undefined;
}

/** A runner over a pool that outlives the engine's `score` call (its close is the context's, not the call's). */
function keptRunner(pool: NbestPool): NbestChunkRunner {
  return {
    get capacity() {
      return pool.capacity;
    },
    get inFlight() {
      return pool.inFlight;
    },
    get counters() {
      return pool.counters;
    },
    run: (chunk: SegmentChunk, spare?: Uint8Array): Promise<ChunkResult> => pool.run(chunk, spare),
    close: async () => {},
  };
}

/** See the file comment. */
export class NbestShardRunner {
  private context: Promise<RunContext> | undefined;
  private contextRunId: string | undefined;

  /** @param workers scoring threads per shard (1: in this thread) */
  constructor(private readonly workers: number) {}

  private async build(job: NbestShardJob): Promise<RunContext> {
    let references: string[][];
    try {
      if (referencesSha1(job.refs) !== job.refsSha1) {
        throw new Error('the reference files differ from those submitted (changed since, or another file under that path on this machine)');
      }
      references = job.refs.map((r) => readLines(r));
    } catch (err) {
      // A file this machine cannot read is this machine's failure, not bad input: the job goes to another worker.
      const why = err instanceof InputError ? `${err.file ?? ''}: ${err.message}` : (err as Error).message;
      throw new Error(`references of run ${job.runId}: ${why}`);
    }
    const registry = await nbestRegistry(job.metrics);
    const run = new NbestRun({ ids: job.ids, settings: job.settings, registry, references, task: job.task });
    return { runId: job.runId, run, pool: undefined };
  }

  private async contextFor(job: NbestShardJob): Promise<RunContext> {
    if (this.contextRunId !== job.runId || this.context === undefined) {
      const old = this.context;
      this.contextRunId = job.runId;
      this.context = this.build(job);
      // A failed build is not kept: the next shard tries again.
      this.context.catch(() => {
        if (this.contextRunId === job.runId) {
          this.context = undefined;
          this.contextRunId = undefined;
        }
      });
      if (old !== undefined) void old.then((c) => c.pool?.close()).catch(() => {});
    }
    return this.context;
  }

  /**
   * Scores one shard and writes its result files.
   * @throws Error for a failure of this machine or of the shard's bytes (retried elsewhere by BullMQ)
   */
  async run(job: NbestShardJob): Promise<ShardOutcome> {
    const context = await this.contextFor(job);
    const { shard } = job;
    const parts: Uint8Array[] = [];
    const features: Uint8Array[] = [];
    let firstId = -1;
    let firstIdLine = 0;
    let lastId = -1;
    const runner: NbestRunnerFactory = (setup) => {
      context.pool ??= new NbestPool(setup);
      return keptRunner(context.pool);
    };
    let hyps: number;
    try {
      if (job.rows === true) {
        // A merge with a previous run: the candidates before duplicate removal, scored in this thread as the
        // single-machine merge scores them.
        const info = await context.run.scoreRows({
          rows: (bytes) => parts.push(bytes),
          chunks: (shared) => readShardChunks(job.nbest, shard, job.list, job.taskSize, shared),
        });
        ({ firstId, firstIdLine, lastId } = info);
        hyps = info.hyps;
      } else {
        const info = await context.run.score({
          output: (bytes) => parts.push(bytes),
          ...(job.task.featuresTxt === undefined ? {} : { features: (bytes: Uint8Array) => features.push(bytes) }),
          onBlocks: (first, line, last) => {
            if (firstId === -1) {
              firstId = first;
              firstIdLine = line;
            }
            lastId = last;
          },
          chunks: (shared) => readShardChunks(job.nbest, shard, job.list, job.taskSize, shared),
          workers: this.workers,
          runner,
          inputBytes: shard.length,
          taskSize: job.taskSize,
        });
        hyps = info.hyps;
      }
    } catch (err) {
      if (err instanceof InputError && err.code !== 'E_FILE_NOT_FOUND' && err.code !== 'E_FILE_UNREADABLE') {
        return { index: shard.index, ok: false, error: taskErrorData(err) };
      }
      if (err instanceof InputError) throw new Error(`${err.file ?? job.nbest}: ${err.message}`);
      throw err;
    }
    const stamp = writeShardResult(shardResultPath(job.resultDir, shard.index, 'out'), concat(parts));
    let featureFields = {};
    // A merge's features travel with its candidates (in the statistics file).
    if (job.task.featuresTxt !== undefined && job.rows !== true) {
      const f = writeShardResult(shardResultPath(job.resultDir, shard.index, 'features'), concat(features));
      featureFields = { featuresLength: f.length, featuresCrc32: f.crc32 };
    }
    return { index: shard.index, ok: true, ...stamp, ...featureFields, hyps, firstId, firstIdLine, lastId };
  }

  /** Stops the pool of the current run, if any. */
  async close(): Promise<void> {
    const context = this.context;
    this.context = undefined;
    this.contextRunId = undefined;
    if (context !== undefined) await context.then((c) => c.pool?.close()).catch(() => {});
  }
}

/** The parts in one array. */
function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
