/**
 * Shard jobs of a queue run of `palette score` (`palette score … --queue URL`), as they travel through Redis (plain
 * JSON), and their scoring in a worker process.
 *
 * A shard is a run of consecutive segments, `[from, to)`, of every system and every reference stream at once (they
 * are aligned by line). A stream read from a plain file travels as the file's absolute path with its size and
 * modification time: a worker reads each file once per run (as `palette score` reads it: its lines, right-stripped)
 * and scores the shard's lines of it; a stream that is no plain file on the submitting machine (standard input,
 * a test set's filtered references, the columns of a `-nr` file) travels in the job, the shard's lines only.
 *
 * A worker scores the shard's statistics rows with the engine (../../engine/corpus/: the rows `palette score`
 * sums); a row depends only on its segment's hypothesis and references for every metric whose descriptor does not
 * say `wholeReference`, so the rows of a shard are those of the same segments in the whole corpus. The rows go to
 * the shard's result file (temporary file + rename: ./shards.ts), metric after metric, system after system.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { InputError } from '../../errors.js';
import { SystemRowsError, scoreSystemRows, type CorpusRunnerFactory } from '../../engine/corpus/index.js';
import type { MetricSettings } from '../../metrics/registry.js';
import { decodeLines } from '../../corpus/read-lines.js';
import { pyRstrip } from '../../text/pystr.js';
import { fileError } from '../read-lines.js';
import { insideDirs, RefusedJobError } from './nbest-jobs.js';
import { shardResultPath, writeShardResult } from './shards.js';

/** The job name of a score shard (one of Palette's job kinds). */
export const SCORE_SHARD_JOB = 'score-shard';
/**
 * Version of the score shard job's data (a worker of version 1 reports its result file's SHA-1 where the submitter
 * now checks a CRC-32).
 */
export const SCORE_JOB_VERSION = 2;

/** A stream of lines: a file every worker reads (as planned), or the shard's own lines. */
export type ScoreStream =
  | { readonly file: string; readonly size: number; readonly mtimeMs: number; readonly encoding: string }
  | { readonly lines: readonly string[] };

/** What a worker needs to score one shard of a `palette score` run. */
export interface ScoreShardJob {
  readonly kind: typeof SCORE_SHARD_JOB;
  readonly version: typeof SCORE_JOB_VERSION;
  readonly runId: string;
  readonly index: number;
  /** Canonical metric ids (sorted as `palette score` sorts them) and their settings. */
  readonly ids: readonly string[];
  readonly settings: MetricSettings;
  /** The system streams, then the reference streams. */
  readonly systems: readonly ScoreStream[];
  readonly references: readonly ScoreStream[];
  /** The shard's segments, `[from, to)`. */
  readonly from: number;
  readonly to: number;
  /** Folder of the result files, absolute. */
  readonly resultDir: string;
}

/** What a finished score shard returns (its rows are in its result file). */
export type ScoreShardOutcome =
  | { readonly index: number; readonly ok: true; readonly length: number; readonly crc32: number }
  /** A metric refused a hypothesis or reference of the shard: the submitter finds and reports it as without a queue. */
  | { readonly index: number; readonly ok: false; readonly message: string };

/**
 * Checks that `data` is a score shard job of this version whose every path lies in `allowDirs`.
 * @throws RefusedJobError saying why not
 */
export function checkScoreShardJob(data: unknown, allowDirs: readonly string[]): ScoreShardJob {
  const job = data as Partial<ScoreShardJob> | null;
  if (job === null || typeof job !== 'object' || job.kind !== SCORE_SHARD_JOB) throw new RefusedJobError('refused: the job\'s data is not a score shard');
  if (job.version !== SCORE_JOB_VERSION) {
    throw new RefusedJobError(`refused: score shard job version ${String(job.version)} (this worker runs version ${SCORE_JOB_VERSION}: run the same Palette version everywhere)`);
  }
  const streams = [...(job.systems ?? []), ...(job.references ?? [])];
  const paths = [...streams.flatMap((s) => ('file' in s ? [s.file] : [])), job.resultDir];
  for (const p of paths) {
    if (typeof p !== 'string' || !isAbsolute(p)) throw new RefusedJobError('refused: the job names a path that is not absolute');
    if (!insideDirs(p, allowDirs)) {
      throw new RefusedJobError(`refused: ${p} lies outside the folders this worker may use (${allowDirs.join(', ')}; see --allow-dir)`);
    }
  }
  return job as ScoreShardJob;
}

/** The rows of the metrics, metric after metric and system after system, as the bytes of a result file. */
export function rowsBytes(rows: readonly (readonly Float64Array[])[]): Uint8Array {
  let n = 0;
  for (const perSystem of rows) for (const r of perSystem) n += r.length;
  const all = new Float64Array(n);
  let at = 0;
  for (const perSystem of rows) {
    for (const r of perSystem) {
      all.set(r, at);
      at += r.length;
    }
  }
  return new Uint8Array(all.buffer);
}

/** Scores score shard jobs in a worker process; each run's files are read once, while its shards keep coming. */
export class ScoreShardRunner {
  private runId: string | undefined;
  private files = new Map<string, string[]>();

  /**
   * @param workers scoring threads per shard (1: in this thread)
   * @param pool the pool of the other threads
   */
  constructor(
    private readonly workers: number,
    private readonly pool: CorpusRunnerFactory | undefined,
  ) {}

  /** The shard's lines of a stream. @throws Error when the file is not the one planned, or unreadable. */
  private lines(stream: ScoreStream, job: ScoreShardJob): readonly string[] {
    if ('lines' in stream) return stream.lines;
    let lines = this.files.get(stream.file);
    if (lines === undefined) {
      // A file this machine cannot read, or not as planned, is this machine's failure: the job goes to another worker.
      const unreadable = (err: unknown): Error => new Error(`${stream.file}: ${fileError(err, stream.file).message}`);
      let bytes: Buffer;
      try {
        const st = statSync(stream.file);
        if (st.size !== stream.size || st.mtimeMs !== stream.mtimeMs) {
          throw new Error(`${stream.file}: not the file submitted (its size or modification time differs: changed since, or another file under that path on this machine)`);
        }
        bytes = readFileSync(stream.file);
      } catch (err) {
        throw err instanceof Error && !('code' in err) ? err : unreadable(err);
      }
      lines = decodeLines(bytes, stream.file, { encoding: stream.encoding }).map(pyRstrip);
      this.files.set(stream.file, lines);
    }
    if (lines.length < job.to) throw new Error(`${stream.file}: has ${lines.length} lines, the run was planned for at least ${job.to}`);
    return lines.slice(job.from, job.to);
  }

  /**
   * Scores one shard and writes its result file.
   * @throws Error for a failure of this machine or of the shard's files (retried elsewhere by BullMQ)
   */
  async run(job: ScoreShardJob): Promise<ScoreShardOutcome> {
    if (this.runId !== job.runId) {
      this.runId = job.runId;
      this.files = new Map();
    }
    const systems = job.systems.map((s) => this.lines(s, job));
    const references = job.references.map((s) => this.lines(s, job));
    let rows: readonly (readonly Float64Array[])[];
    try {
      ({ rows } = await scoreSystemRows(systems, {
        metrics: job.ids,
        references,
        settings: job.settings,
        workers: this.workers,
        ...(this.pool === undefined ? {} : { pool: this.pool }),
      }));
    } catch (err) {
      if (err instanceof SystemRowsError) return { index: job.index, ok: false, message: err.message };
      if (err instanceof InputError) return { index: job.index, ok: false, message: err.message };
      throw err;
    }
    const bytes = rowsBytes(rows);
    return { index: job.index, ok: true, ...writeShardResult(shardResultPath(job.resultDir, job.index, 'out'), bytes) };
  }
}
