/**
 * The jobs of a queue run of `palette nbest`, as they travel through Redis (plain JSON): one flow per run, a parent
 * merge job on a queue of the run's own (which only the submitting process works on: it writes the output) and one
 * child per shard on the shared shard queue, which `palette worker` processes on any number of machines.
 *
 * Job ids derive from the run id, itself a hash of everything the output depends on (the list's path, size,
 * modification time and the shards' cuts and end hashes, the references' bytes, metrics, settings, format, result folder): the
 * same run submitted again finds its finished shards under the same ids and does not run them again, and a run that
 * differs in anything gets other ids.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { NbestTaskSettings, TaskErrorData } from '../../engine/nbest/nbest-task.js';
import type { MetricSettings } from '../../metrics/registry.js';
import type { PlannedList, Shard } from './shards.js';

/** The queue every worker takes shards from. */
export const SHARD_QUEUE = 'palette-shards';
/** Names of Palette's job kinds (a worker refuses every other name). */
export const SHARD_JOB = 'nbest-shard';
export const MERGE_JOB = 'nbest-merge';
/**
 * Version of the shard job's data: a worker refuses data of another version rather than misread it (a worker of
 * version 2 would ignore `rows` and write blocks where candidates are expected; one of version 3 would report its
 * result file's SHA-1 where the submitter checks a CRC-32).
 */
export const SHARD_JOB_VERSION = 4;

/** The queue of a run's merge job (worked on by the submitting process only). */
export function mergeQueueName(runId: string): string {
  return `palette-merge-${runId}`;
}

/** The id of shard `index` of a run. */
export function shardJobId(runId: string, index: number): string {
  return `${runId}-shard-${String(index).padStart(6, '0')}`;
}

/** A run id: 16 lowercase hex digits. */
export const RUN_ID = /^[0-9a-f]{16}$/;

/** What a worker needs to score one shard (every path absolute, as the submitting machine resolved it). */
export interface NbestShardJob {
  readonly kind: typeof SHARD_JOB;
  readonly version: typeof SHARD_JOB_VERSION;
  readonly runId: string;
  /** The list, absolute, and its size and modification time when the run was planned. */
  readonly nbest: string;
  readonly list: PlannedList;
  /** Reference files, absolute, and the SHA-1 of their bytes (in order, each file's hash joined). */
  readonly refs: readonly string[];
  readonly refsSha1: string;
  /** Metric names as `-m` gave them, and their canonical ids. */
  readonly metrics: readonly string[];
  readonly ids: readonly string[];
  readonly settings: MetricSettings;
  /** Task settings; `path` is the list as the user named it (messages name it so). */
  readonly task: NbestTaskSettings;
  readonly shard: Shard;
  /** Folder of the result files, absolute. */
  readonly resultDir: string;
  /** Bytes per engine task inside the shard. */
  readonly taskSize: number;
  /**
   * The shard's candidates before duplicate removal (src/engine/nbest/sentence-rows.ts) instead of its blocks: the
   * run merges them with a previous run's, which removes duplicates across both runs.
   */
  readonly rows?: boolean;
}

/** What a finished shard job returns (its bytes are in its result files). */
export type ShardOutcome =
  | {
      readonly index: number;
      readonly ok: true;
      /** Length and CRC-32 of the statistics file (./shards.ts `ResultStamp`), and of the FEATURES_TXT file when the run writes one. */
      readonly length: number;
      readonly crc32: number;
      readonly featuresLength?: number;
      readonly featuresCrc32?: number;
      readonly hyps: number;
      /** First and last segment id of the shard's candidates (-1 when none), line of the first. */
      readonly firstId: number;
      readonly firstIdLine: number;
      readonly lastId: number;
    }
  | {
      readonly index: number;
      readonly ok: false;
      /** The shard's first bad input (merged in list order: the run reports the first of all shards). */
      readonly error: TaskErrorData;
    };

/** The run id of a run (see the file comment). */
export function runIdOf(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

/** `path` with symbolic links resolved (for a path that does not exist yet: its folder's). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return resolve(realpathSync(dirname(path)), relative(dirname(path), path));
    } catch {
      return resolve(path);
    }
  }
}

/** Whether `path` lies inside one of `dirs` (symbolic links resolved on both sides). */
export function insideDirs(path: string, dirs: readonly string[]): boolean {
  const target = realPath(resolve(path));
  return dirs.some((d) => {
    const rel = relative(realPath(resolve(d)), target);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  });
}

/** A job the worker refuses (another kind, another version, a path outside its folders): never retried. */
export class RefusedJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedJobError';
  }
}

/**
 * Checks that `data` is a shard job of this version whose every path lies in `allowDirs`.
 * @throws RefusedJobError saying why not
 */
export function checkShardJob(name: string, data: unknown, allowDirs: readonly string[]): NbestShardJob {
  if (name !== SHARD_JOB) throw new RefusedJobError(`refused: a job named ${JSON.stringify(name)} is not a Palette job kind (${SHARD_JOB}, score-shard, mbr-shard)`);
  const job = data as Partial<NbestShardJob> | null;
  if (job === null || typeof job !== 'object' || job.kind !== SHARD_JOB) throw new RefusedJobError('refused: the job\'s data is not an n-best shard');
  if (job.version !== SHARD_JOB_VERSION) {
    throw new RefusedJobError(`refused: shard job version ${String(job.version)} (this worker runs version ${SHARD_JOB_VERSION}: run the same Palette version everywhere)`);
  }
  const paths = [job.nbest, ...(job.refs ?? []), job.resultDir];
  for (const p of paths) {
    if (typeof p !== 'string' || !isAbsolute(p)) throw new RefusedJobError('refused: the job names a path that is not absolute');
    if (!insideDirs(p, allowDirs)) {
      throw new RefusedJobError(`refused: ${p} lies outside the folders this worker may use (${allowDirs.join(', ')}; see --allow-dir)`);
    }
  }
  return job as NbestShardJob;
}
