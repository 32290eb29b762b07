/**
 * One n-best extraction as `palette nbest` and `palette extractor` run it, whatever flags asked for it: the
 * references read, the run built (src/engine/nbest/run.ts), the list streamed from its file as raw chunks of whole
 * segments (src/node/segment-chunks.ts) and scored in this thread or also on a worker pool, or merged with previous
 * runs' files (Moses `--prev-scfile`/`--prev-ffile`, plain or gzip); the encoded statistics, and the FEATURES_TXT
 * blocks when asked for, go to the caller's sinks.
 *
 * The FEATURES_TXT header names the features as Moses does: after the first previous features file's first block
 * when there is one, else after the features field of the list's first line.
 */
import { readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { decodeLines } from '../../corpus/read-lines.js';
import { InputError } from '../../errors.js';
import { featuresTxtHeader, type FeaturesTxtHeader } from '../../engine/nbest/features-txt.js';
import type { NbestTaskSettings } from '../../engine/nbest/nbest-task.js';
import { combinePreviousRuns, firstFeaturesHeader, parsePreviousRun, type PreviousRun, type PreviousRunFile } from '../../engine/nbest/previous-run.js';
import { NbestRun, type NbestRunInfo, type NbestRunOutput } from '../../engine/nbest/run.js';
import type { MetricRegistry, MetricSettings } from '../../metrics/registry.js';
import { fileError, readLines } from '../../node/read-lines.js';
import { isGzipFile, readSegmentChunks } from '../../node/segment-chunks.js';
import { nbestPoolRunner, type EarlyNbestPool, type NbestInjectedFault } from '../../pool/nbest-pool.js';

/** Hooks of tests and benchmarks (never set by the command line). */
export interface NbestHooks {
  /** Makes a pool task simulate worker failures (tests of the retry path). */
  readonly injectFault?: NbestInjectedFault;
  /** Receives how the run went: in-thread or pooled, tasks, retries, time inside tasks and wall time (ms). */
  readonly onRun?: (info: NbestRunInfo) => void;
  /** A pool started at the command's entry (./early-pool.ts), for the run to adopt if it needs one of its size. */
  readonly early?: EarlyNbestPool;
}

/** A previous run's files: statistics, and features (needed to remove duplicates and to write FEATURES_TXT). */
export interface PreviousFiles {
  readonly stats: string;
  readonly features: string | undefined;
}

/** What one extraction reads, computes and how. */
export interface NbestJob {
  readonly nbest: string;
  /** Reference files, all of the same length. */
  readonly refs: readonly string[];
  /** Canonical metric ids in output order. */
  readonly ids: readonly string[];
  readonly settings: MetricSettings;
  readonly registry: MetricRegistry | undefined;
  /** Task settings but the FEATURES_TXT header, which the job decides. */
  readonly task: Omit<NbestTaskSettings, 'featuresTxt'>;
  /** Previous runs to merge with, in order (none: the list is streamed). */
  readonly previous: readonly PreviousFiles[];
  /** Scoring threads; undefined = one per core. */
  readonly workers: number | undefined;
  readonly taskSize: number;
}

/** Reads the references: one stream per file, all of the same length (the queue's submitter reads them so too). */
export function readReferences(files: readonly string[]): string[][] {
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

/** Size of the n-best file (decides in-thread versus pool). */
function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch (err) {
    throw fileError(err, path);
  }
}

/**
 * The features field of the list's first non-empty line (the third `|||` field, as Moses' `Data::loadNBest` takes
 * it), read from the list's first chunk (the file reader's, so a gzip list is read alike); '' when the line has no
 * such field (the list's parser reports that line).
 */
export async function firstFeaturesField(path: string): Promise<string> {
  for await (const chunk of readSegmentChunks(path, 1 << 16)) {
    const { bytes } = chunk;
    let start = 0;
    while (start < bytes.length) {
      let end = bytes.indexOf(0x0a, start);
      if (end < 0) end = bytes.length;
      if (end > start) return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8').split('|||')[2] ?? '';
      start = end + 1;
    }
  }
  return '';
}

/**
 * A previous run's file as lines, decompressed first when it is gzip (Moses reads a `.gz` statistics or features
 * file through its gzip stream).
 */
function previousFileLines(name: string): string[] {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(name);
  } catch (err) {
    throw fileError(err, name);
  }
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new InputError('E_FILE_UNREADABLE', `cannot decompress the gzip file: ${why}`, { file: name });
    }
  }
  return decodeLines(bytes, name);
}

/** A file read when a parser first asks for its lines (each access reads it). */
function lazyFile(name: string): PreviousRunFile {
  return { name, get lines() { return previousFileLines(name); } };
}

/** Previous runs' files, each read when a parser first asks for its lines. */
export function previousRunFiles(previous: readonly PreviousFiles[]): { stats: PreviousRunFile; features: PreviousRunFile | undefined }[] {
  return previous.map((p) => ({
    stats: lazyFile(p.stats),
    features: p.features === undefined ? undefined : lazyFile(p.features),
  }));
}

/** The FEATURES_TXT header of a run of the list `nbest` merged with `previous` runs (see the file comment). */
export async function featuresHeaderOf(
  nbest: string,
  previous: readonly { features: PreviousRunFile | undefined }[],
): Promise<FeaturesTxtHeader> {
  const first = previous[0]?.features;
  if (first !== undefined) {
    const header = firstFeaturesHeader(first.lines);
    // Moses names the features after the list's first line when the previous run named none.
    if (header !== undefined && header.names !== '') return header;
  }
  return featuresTxtHeader(await firstFeaturesField(nbest));
}

/**
 * The previous runs parsed with the run's row width, in order (a malformed statistics file is reported before a
 * missing features file), as one.
 */
export function parsePreviousRuns(
  previous: readonly { stats: PreviousRunFile; features: PreviousRunFile | undefined }[],
  width: number,
): PreviousRun {
  return combinePreviousRuns(previous.map((p) => parsePreviousRun(p.stats, p.features, width)));
}

/**
 * Runs the job, writing into `out` (statistics; FEATURES_TXT blocks when `out.features` is set). Resolves once the
 * output is complete, while a pool's workers may still be stopping: `stopped` settles once they have (the caller
 * commits its output meanwhile, then awaits it).
 * @throws InputError for bad input (file and line named); other errors are internal.
 */
export async function runNbestJob(job: NbestJob, out: NbestRunOutput, hooks: NbestHooks = {}): Promise<{ stopped: Promise<void> }> {
  const started = performance.now();
  const references = readReferences(job.refs);
  const previous = previousRunFiles(job.previous);
  if (out.features !== undefined && previous.some((p) => p.features === undefined)) {
    throw new RangeError('FEATURES_TXT output of a merge needs every previous run\'s features file');
  }
  const featuresTxt = out.features === undefined ? undefined : await featuresHeaderOf(job.nbest, previous);
  const task: NbestTaskSettings = featuresTxt === undefined ? job.task : { ...job.task, featuresTxt };
  const run = new NbestRun({ ids: job.ids, settings: job.settings, registry: job.registry, references, task });
  const chunks = (shared: boolean) => readSegmentChunks(job.nbest, job.taskSize, shared);
  if (previous.length > 0) {
    // Files are read in order when the parser comes to them.
    await run.merge({ ...out, chunks, previous: parsePreviousRuns(previous, run.width) });
    return { stopped: Promise.resolve() };
  }
  const workers = job.workers ?? availableParallelism();
  // The list's size is needed only to run a small list in-thread when workers could help.
  const inputBytes = workers === 1 ? undefined : fileSize(job.nbest);
  const stops: Promise<void>[] = [];
  const info = await run.score({
    ...out,
    chunks,
    workers,
    runner: nbestPoolRunner({ injectFault: hooks.injectFault, early: hooks.early, stopping: (stopped) => stops.push(stopped) }),
    inputBytes,
    // A gzip list's chunks are its decompressed bytes, of a length not known beforehand.
    chunkBytes: inputBytes !== undefined && !isGzipFile(job.nbest) ? inputBytes : undefined,
    taskSize: job.taskSize,
  });
  hooks.onRun?.({ ...info, wallMs: performance.now() - started });
  return { stopped: Promise.all(stops).then(() => {}) };
}
