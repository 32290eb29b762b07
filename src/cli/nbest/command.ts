/**
 * `palette nbest --nbest FILE -r REF [REF ...] -m METRIC [METRIC ...] [--stats OUT] [--stats-format moses|json|msgpack]
 * [--sentence-scores] [--allow-duplicates] [--prev-stats FILE --prev-features FILE] [--workers N] [--task-size B]`:
 * per-candidate sufficient statistics of an n-best list for every metric in one pass, as Moses MERT's `extractor`
 * writes its SCORESTAT file (several metrics: one concatenated row per candidate, as its InterpolatedScorer).
 *
 * The command itself parses the flags, reads the references (and a previous run's files), streams the list from its
 * file as raw chunks of whole segments (src/node/segment-chunks.ts), and hands them to the engine
 * (src/engine/nbest/run.ts: scoring in this thread or also on a worker pool, src/pool/nbest-pool.ts, results
 * written in chunk order), which hands back encoded bytes for the output.
 *
 * Bad input ends the run with `palette nbest: error: FILE[:LINE]: message` and exit status 2, and no output file
 * is left behind (the output is written to a temporary file and renamed only on success: ../output-file.ts); so
 * does SIGINT or SIGTERM (exit status 130 or 143). A pool task that fails twice is an internal failure (exit status
 * 1, no output file).
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { InputError, locate } from '../../errors.js';
import { fileError, readLines } from '../../node/read-lines.js';
import { readSegmentChunks } from '../../node/segment-chunks.js';
import { nbestPoolRunner, type NbestInjectedFault } from '../../pool/nbest-pool.js';
import { EXIT_INPUT, EXIT_OK, type CliIo } from '../io.js';
import { createProgress, type Progress } from '../progress.js';
import type { NbestTaskSettings } from '../../engine/nbest/nbest-task.js';
import { nbestRegistry, resolveNbestMetricIds } from '../../engine/nbest/nbest-metrics.js';
import { parsePreviousRun } from '../../engine/nbest/previous-run.js';
import { NbestRun, type NbestRunInfo, type NbestRunOutput } from '../../engine/nbest/run.js';
import { nbestHelp, parseNbestArgs, type NbestOptions } from './options.js';
import { stdoutSink, type StatsSink } from './stats-sink.js';
import { openOutputFile } from '../output-file.js';

export type { NbestRunInfo } from '../../engine/nbest/run.js';

/** Hooks of tests and benchmarks (never set by the command line). */
export interface NbestHooks {
  /** Makes a pool task simulate worker failures (tests of the retry path). */
  readonly injectFault?: NbestInjectedFault;
  /** Receives how the run went: in-thread or pooled, tasks, retries, time inside tasks and wall time (ms). */
  readonly onRun?: (info: NbestRunInfo) => void;
}

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
  const references = readReferences(options.refs);
  const task: NbestTaskSettings = {
    path: options.nbest,
    format: options.format,
    allowDuplicates: options.allowDuplicates,
    sentenceScores: options.sentenceScores,
  };
  const out: NbestRunOutput = {
    output: (bytes) => sink.write(bytes),
    onProgress: (hyps, fraction) => progress.update(hyps, fraction),
  };
  const chunks = (shared: boolean) => readSegmentChunks(options.nbest, options.taskSize, shared);
  if (options.prevStats !== undefined) {
    const run = new NbestRun({ ids, settings: options.settings, registry, references, task });
    // Each file is read when the parser comes to it: a malformed statistics file is reported before a missing
    // features file, as the files are read in order.
    const lazyFile = (name: string) => ({ name, get lines() { return readLines(name); } });
    const stats = lazyFile(options.prevStats);
    const features = options.prevFeatures === undefined ? undefined : lazyFile(options.prevFeatures);
    await run.merge({ ...out, chunks, previous: parsePreviousRun(stats, features, run.width) });
    return;
  }
  const workers = options.workers ?? availableParallelism();
  // The list's size is needed only to run a small list in-thread when workers could help.
  const inputBytes = workers === 1 ? undefined : fileSize(options.nbest);
  const run = new NbestRun({ ids, settings: options.settings, registry, references, task });
  const info = await run.score({
    ...out,
    chunks,
    workers,
    runner: nbestPoolRunner({ injectFault: hooks.injectFault }),
    inputBytes,
    taskSize: options.taskSize,
  });
  hooks.onRun?.({ ...info, wallMs: performance.now() - started });
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
