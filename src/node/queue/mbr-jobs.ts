/**
 * Shard jobs of a queue run of `palette mbr` (`palette mbr --samples … --queue URL`), as they travel through Redis
 * (plain JSON), and their decoding in a worker process.
 *
 * A shard is a run of consecutive segments, `[from, to)`, of every sample, pseudo-reference and weight stream at once
 * (they are aligned by line). A stream read from a plain file travels as a byte range of that file — the shard's
 * lines, each with its line feed — with the file's size and modification time and the SHA-1 of the range, so a worker
 * reads only its shard's bytes and refuses a file that is not the one planned (changed since, or another file under
 * that path on its machine); a stream that is no plain file, and the weights (a number a line, already read and
 * checked by the submitter), travel in the job.
 *
 * A worker decides the shard's segments exactly as `palette mbr` does, in this thread or on the engine's MBR pool
 * (../../pool/mbr-pool.ts, the same task kind as `palette mbr -j N`): a segment's choice and utilities depend on its
 * samples, pseudo-references and weights alone, so they are those of the single-machine run. The shard's utilities,
 * matrices (when `--matrix` asks for them) and choices go to its result file (temporary file + rename: ./shards.ts).
 *
 * A shard of an n-best list (`palette mbr --nbest … --queue URL`) is a byte range of the list that starts and ends at
 * segment boundaries (./shards.ts `planShards`, checked by its size, modification time and the hashes of its ends as
 * for `palette nbest`); the worker walks its groups as `palette mbr --nbest` walks the list
 * (../../engine/pairwise/mbr-nbest.ts) and writes each group's id, choice, chosen hypothesis and utilities.
 */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { InputError, type PaletteErrorCode } from '../../errors.js';
import { utilityFromSpecs, type UtilitySpec } from '../../engine/pairwise/index.js';
import { decideNbestGroup, nbestGroups } from '../../engine/pairwise/mbr-nbest.js';
import { parseNbestLines, type NbestParseState } from '../../corpus/nbest.js';
import { decodeLines } from '../../corpus/read-lines.js';
import { DEFAULT_MAX_LINES, splitBatches, utf8Error } from '../../corpus/stream/line-batch.js';
import { defaultRegistry, type MetricSettings } from '../../metrics/registry.js';
import { createHandler, type MbrTaskResult, type MbrWorkerSetup } from '../../pool/kinds/mbr.js';
import type { MbrRun } from '../../pool/mbr-pool.js';
import { fileError } from '../read-lines.js';
import { insideDirs, RefusedJobError } from './nbest-jobs.js';
import { readAt, readShardChunks, sha1Of, shardResultPath, writeShardResult, type PlannedList, type Shard } from './shards.js';

/** The job name of an MBR shard (one of Palette's job kinds). */
export const MBR_SHARD_JOB = 'mbr-shard';
/**
 * Version of the MBR shard job's data (a worker of version 1 reports its result file's SHA-1 where the submitter
 * now checks a CRC-32).
 */
export const MBR_JOB_VERSION = 2;

/** A stream's lines of one shard: a byte range of a file every worker reads, or the lines themselves. */
export type MbrStream =
  | {
      readonly file: string;
      /** The file's size and modification time when the run was planned. */
      readonly size: number;
      readonly mtimeMs: number;
      /** The shard's bytes: `[offset, offset + length)`, and their SHA-1. */
      readonly offset: number;
      readonly length: number;
      readonly sha1: string;
    }
  | { readonly lines: readonly string[] };

/** What every shard of a `palette mbr` run carries: the run, the shard, and how a segment is decided. */
interface MbrJobBase {
  readonly kind: typeof MBR_SHARD_JOB;
  readonly version: typeof MBR_JOB_VERSION;
  readonly runId: string;
  readonly index: number;
  /** The utility's metrics as `-m` names them, with their weights, and the metrics' settings. */
  readonly utility: readonly UtilitySpec[];
  readonly settings: MetricSettings;
  readonly direction: 'higher' | 'lower';
  readonly includeSelf: boolean;
  readonly aggregate: boolean;
  /** Folder of the result files, absolute. */
  readonly resultDir: string;
}

/** What a worker needs to decide one shard of a `palette mbr --samples` run. */
export interface MbrShardJob extends MbrJobBase {
  /** Whether the result holds each segment's utility matrix (`--matrix`). */
  readonly matrices: boolean;
  readonly samples: readonly MbrStream[];
  /** Null: the samples are the pseudo-references. */
  readonly pseudoRefs: readonly MbrStream[] | null;
  /** The shard's weights, one array per pseudo-reference (null: uniform). */
  readonly weights: readonly (readonly number[])[] | null;
  /** The shard's segments, `[from, to)`. */
  readonly from: number;
  readonly to: number;
}

/** What a worker needs to decide one shard of a `palette mbr --nbest` run. */
export interface MbrNbestShardJob extends MbrJobBase {
  /** The list, absolute; as the user named it (messages name it so); its size and modification time at planning. */
  readonly nbest: string;
  readonly name: string;
  readonly list: PlannedList;
  readonly shard: Shard;
}

/**
 * A finished n-best shard: the first and last id of its groups (-1 when it has none), so that the submitter can
 * check the ids' order across shards.
 */
export type MbrNbestShardOutcome =
  | { readonly index: number; readonly ok: true; readonly length: number; readonly crc32: number; readonly firstId: number; readonly lastId: number }
  /** The shard's first bad input, its line counted from the shard's first line (1). */
  | { readonly index: number; readonly ok: false; readonly error: { readonly code: PaletteErrorCode; readonly message: string; readonly line: number | undefined } };

/** One group's decision in an n-best shard's result file. */
export interface MbrNbestGroupResult {
  readonly id: number;
  readonly choice: number;
  /** The chosen hypothesis (stripped). */
  readonly text: string;
  readonly utilities: Float64Array;
}

/** An n-best shard's result file: its groups as JSON, the utilities as the base64 of their float64 bytes (exact). */
function nbestResultBytes(groups: readonly MbrNbestGroupResult[]): Uint8Array {
  const n = groups.reduce((sum, g) => sum + g.utilities.length, 0);
  const all = new Float64Array(n);
  let at = 0;
  for (const g of groups) {
    all.set(g.utilities, at);
    at += g.utilities.length;
  }
  const json = {
    groups: groups.map((g) => [g.id, g.choice, g.utilities.length, g.text]),
    utilities: Buffer.from(all.buffer).toString('base64'),
  };
  return new TextEncoder().encode(JSON.stringify(json));
}

/** The groups of an n-best shard's result file; undefined when it is not one. */
export function parseMbrNbestResult(bytes: Uint8Array): MbrNbestGroupResult[] | undefined {
  try {
    const json = JSON.parse(new TextDecoder().decode(bytes)) as { groups: [number, number, number, string][]; utilities: string };
    const raw = Buffer.from(json.utilities, 'base64');
    const all = new Float64Array(raw.length / 8);
    new Uint8Array(all.buffer).set(raw);
    let at = 0;
    return json.groups.map(([id, choice, n, text]) => {
      const utilities = all.slice(at, at + n);
      at += n;
      return { id, choice, text, utilities };
    });
  } catch {
    return undefined;
  }
}

/** What a finished MBR shard returns (its numbers are in its result file: see {@link mbrResultLayout}). */
export type MbrShardOutcome =
  | { readonly index: number; readonly ok: true; readonly length: number; readonly crc32: number }
  /** A segment's bad input (weights that sum to zero), its line counted from the shard's first segment (1). */
  | { readonly index: number; readonly ok: false; readonly error: { readonly code: PaletteErrorCode; readonly message: string; readonly line: number | undefined } };

/**
 * Where the parts of a result file lie (bytes): the utilities (float64, segment after segment, `rows` each), the
 * matrices when asked for (float64, `rows × columns` a segment), then the choices (int32 a segment).
 */
export function mbrResultLayout(segments: number, rows: number, columns: number, matrices: boolean) {
  const utilities = 8 * segments * rows;
  const matrixBytes = matrices ? 8 * segments * rows * columns : 0;
  return { utilities, matrices: matrixBytes, choicesAt: utilities + matrixBytes, length: utilities + matrixBytes + 4 * segments };
}

/** The bytes of a result file. */
function resultBytes(run: MbrRun, segments: number, rows: number, columns: number): Uint8Array {
  const layout = mbrResultLayout(segments, rows, columns, run.matrices !== null);
  const bytes = new Uint8Array(layout.length);
  bytes.set(new Uint8Array(run.utilities.buffer, run.utilities.byteOffset, layout.utilities), 0);
  if (run.matrices !== null) bytes.set(new Uint8Array(run.matrices.buffer, run.matrices.byteOffset, layout.matrices), layout.utilities);
  bytes.set(new Uint8Array(run.choices.buffer, run.choices.byteOffset, 4 * segments), layout.choicesAt);
  return bytes;
}

/** A result file's numbers (copied into aligned arrays: a file's bytes need not start at a multiple of 8). */
export function parseMbrResult(bytes: Uint8Array, segments: number, rows: number, columns: number, matrices: boolean): MbrRun | undefined {
  const layout = mbrResultLayout(segments, rows, columns, matrices);
  if (bytes.length !== layout.length) return undefined;
  const utilities = new Float64Array(segments * rows);
  new Uint8Array(utilities.buffer).set(bytes.subarray(0, layout.utilities));
  let matrix: Float64Array | null = null;
  if (matrices) {
    matrix = new Float64Array(segments * rows * columns);
    new Uint8Array(matrix.buffer).set(bytes.subarray(layout.utilities, layout.choicesAt));
  }
  const choices = new Int32Array(segments);
  new Uint8Array(choices.buffer).set(bytes.subarray(layout.choicesAt));
  return { ok: true, choices, utilities, matrices: matrix };
}

/**
 * Checks that `data` is an MBR shard job of this version whose every path lies in `allowDirs`.
 * @throws RefusedJobError saying why not
 */
export function checkMbrShardJob(data: unknown, allowDirs: readonly string[]): MbrShardJob | MbrNbestShardJob {
  const job = data as (Partial<MbrShardJob> & Partial<MbrNbestShardJob>) | null;
  if (job === null || typeof job !== 'object' || job.kind !== MBR_SHARD_JOB) throw new RefusedJobError('refused: the job\'s data is not an MBR shard');
  if (job.version !== MBR_JOB_VERSION) {
    throw new RefusedJobError(`refused: MBR shard job version ${String(job.version)} (this worker runs version ${MBR_JOB_VERSION}: run the same Palette version everywhere)`);
  }
  const streams = [...(job.samples ?? []), ...(job.pseudoRefs ?? [])];
  const paths = [...streams.flatMap((s) => ('file' in s ? [s.file] : [])), ...('nbest' in job ? [job.nbest] : []), job.resultDir];
  for (const p of paths) {
    if (typeof p !== 'string' || !isAbsolute(p)) throw new RefusedJobError('refused: the job names a path that is not absolute');
    if (!insideDirs(p, allowDirs)) {
      throw new RefusedJobError(`refused: ${p} lies outside the folders this worker may use (${allowDirs.join(', ')}; see --allow-dir)`);
    }
  }
  return job as MbrShardJob | MbrNbestShardJob;
}

/**
 * The shard's lines of a stream.
 * @throws Error when the file is unreadable or not the one planned (this machine's failure: BullMQ retries the job)
 */
function shardLines(stream: MbrStream, job: MbrShardJob): readonly string[] {
  if ('lines' in stream) return stream.lines;
  const { file } = stream;
  let bytes: Buffer;
  try {
    const fd = openSync(file, 'r');
    try {
      const st = fstatSync(fd);
      if (st.size !== stream.size || st.mtimeMs !== stream.mtimeMs) {
        throw new Error(`${file}: not the file submitted (its size or modification time differs: changed since, or another file under that path on this machine)`);
      }
      bytes = readAt(fd, file, stream.offset, stream.length);
      if (bytes.length < stream.length) throw new Error(`${file}: shorter than planned`);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw err instanceof Error && !('code' in err) ? err : new Error(`${file}: ${fileError(err, file).message}`);
  }
  if (sha1Of(bytes) !== stream.sha1) {
    throw new Error(`${file}: the bytes of segments ${job.from + 1}-${job.to} differ from those submitted (changed since, or another file under that path on this machine)`);
  }
  const lines = decodeLines(bytes, file);
  if (lines.length !== job.to - job.from) throw new Error(`${file}: bytes ${stream.offset}+${stream.length} hold ${lines.length} lines, not ${job.to - job.from}`);
  return lines;
}

/** Decides runs of segments on the engine's MBR pool (`mbrOnPool`). */
export type MbrPoolRunner = (setup: MbrWorkerSetup, workers: number, onRun: (from: number, to: number, run: MbrRun) => void) => Promise<void>;

/** Decides MBR shard jobs in a worker process. */
export class MbrShardRunner {
  /**
   * @param workers decoding threads per shard (1: in this thread)
   * @param pool the engine's MBR pool, for `workers > 1` (`palette worker`'s lasts as long as the process)
   */
  constructor(
    private readonly workers: number,
    private readonly pool: MbrPoolRunner | undefined,
  ) {}

  /**
   * Decides one shard and writes its result file.
   * @throws Error for a failure of this machine or of the shard's files (retried elsewhere by BullMQ)
   */
  async run(job: MbrShardJob | MbrNbestShardJob): Promise<MbrShardOutcome | MbrNbestShardOutcome> {
    return 'nbest' in job ? this.runNbest(job) : this.runSamples(job);
  }

  private async runSamples(job: MbrShardJob): Promise<MbrShardOutcome> {
    const segments = job.to - job.from;
    const samples = job.samples.map((s) => shardLines(s, job));
    const pseudoRefs = job.pseudoRefs === null ? undefined : job.pseudoRefs.map((s) => shardLines(s, job));
    const rows = samples.length;
    const columns = pseudoRefs?.length ?? rows;
    const setup: MbrWorkerSetup = {
      utility: job.utility,
      settings: job.settings,
      samples,
      pseudoRefs,
      weightStreams: job.weights ?? undefined,
      direction: job.direction,
      includeSelf: job.includeSelf,
      aggregate: job.aggregate,
      matrices: job.matrices,
    };
    let result: MbrTaskResult;
    if (this.pool !== undefined && this.workers > 1 && segments > 1) {
      const parts: MbrRun[] = [];
      try {
        await this.pool(setup, this.workers, (_from, _to, run) => parts.push(run));
        result = joinRuns(parts, segments, rows, columns, job.matrices);
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        result = { ok: false, error: { code: err.code, message: err.message, line: err.line } };
      }
    } else {
      // The pool's own task, run in this thread: the same decisions, the same errors.
      result = createHandler(setup).run({ from: 0, to: segments });
    }
    if (!result.ok) return { index: job.index, ok: false, error: result.error };
    const bytes = resultBytes(result, segments, rows, columns);
    return { index: job.index, ok: true, ...writeShardResult(shardResultPath(job.resultDir, job.index, 'out'), bytes) };
  }

  /**
   * Decides the groups of an n-best shard in this thread (a group is one segment: the pool's gain is in many).
   * @throws Error for a failure of this machine or of the shard's bytes (retried elsewhere by BullMQ)
   */
  private async runNbest(job: MbrNbestShardJob): Promise<MbrNbestShardOutcome> {
    const parts: Uint8Array[] = [];
    for await (const chunk of readShardChunks(job.nbest, job.shard, job.list, 1 << 20, false)) parts.push(chunk.bytes);
    const bytes = Buffer.concat(parts);
    const groups: MbrNbestGroupResult[] = [];
    try {
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
      } catch {
        throw utf8Error(bytes, 0, 1, 'lf', job.name);
      }
      // Parsed as the streaming reader parses the list (its lines numbered from the shard's first).
      const state: NbestParseState = { previousId: 0 };
      const parsed = (function* () {
        for (const batch of splitBatches(text, 1, 'lf', DEFAULT_MAX_LINES)) {
          const b = parseNbestLines(batch, job.name, {}, state);
          if (b.count > 0) yield b;
        }
      })();
      const utility = utilityFromSpecs(job.utility, (id) => defaultRegistry.create(id, job.settings).metric);
      const options = { direction: job.direction, includeSelf: job.includeSelf, aggregate: job.aggregate };
      for await (const group of nbestGroups(parsed)) {
        const c = decideNbestGroup(utility, group, job.name, options);
        groups.push({ id: group.id, choice: c.choice, text: group.hypotheses[c.choice], utilities: c.utilities });
      }
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      return { index: job.shard.index, ok: false, error: { code: err.code, message: err.message, line: err.line } };
    }
    const out = nbestResultBytes(groups);
    return {
      index: job.shard.index, ok: true, ...writeShardResult(shardResultPath(job.resultDir, job.shard.index, 'out'), out),
      firstId: groups[0]?.id ?? -1, lastId: groups[groups.length - 1]?.id ?? -1,
    };
  }
}

/** The pool's runs of segments, in order, as one. */
function joinRuns(parts: readonly MbrRun[], segments: number, rows: number, columns: number, matrices: boolean): MbrRun {
  const choices = new Int32Array(segments);
  const utilities = new Float64Array(segments * rows);
  const matrix = matrices ? new Float64Array(segments * rows * columns) : null;
  let at = 0;
  for (const part of parts) {
    choices.set(part.choices, at);
    utilities.set(part.utilities, at * rows);
    if (matrix !== null && part.matrices !== null) matrix.set(part.matrices, at * rows * columns);
    at += part.choices.length;
  }
  return { ok: true, choices, utilities, matrices: matrix };
}
