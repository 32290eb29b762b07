/**
 * `palette nbest --nbest FILE -r REF [REF ...] -m METRIC [METRIC ...] [--stats OUT] [--stats-format moses|json|msgpack]
 * [--sentence-scores] [--allow-duplicates] [--prev-stats FILE --prev-features FILE] [--ffile FILE] [--workers N]
 * [--task-size B]`: per-candidate sufficient statistics of an n-best list for every metric in one pass, as Moses
 * MERT's `extractor` writes its SCORESTAT file (several metrics: one concatenated row per candidate, as its
 * InterpolatedScorer), and with `--ffile` its FEATSTAT file beside them.
 *
 * The command itself parses the flags and maps them onto one extraction (./job.ts: references and previous runs
 * read, the list streamed from its file as raw chunks of whole segments and handed to the engine,
 * src/engine/nbest/run.ts: scoring in this thread or also on a worker pool, src/pool/nbest-pool.ts, results
 * written in chunk order), which hands back encoded bytes for the outputs.
 *
 * With `--queue redis://…` the list is scored by `palette worker` processes, on any number of machines that see the
 * same files, through a BullMQ queue on Redis (./queue.ts): the same bytes are written, through the same atomic
 * output file. A shard that failed twice, a run whose jobs vanished from Redis, or a Redis that did not answer for
 * `--redis-timeout` seconds, ends it with exit status 1; an
 * interrupted queue run leaves its finished shards for the same command to reuse.
 *
 * Bad input ends the run with `palette nbest: error: FILE[:LINE]: message` and exit status 2, and no output file
 * (statistics or features) is left behind (the output is written to a temporary file and renamed only on success: ../output-file.ts); so
 * does SIGINT or SIGTERM (exit status 130 or 143). A pool task that fails twice is an internal failure (exit status
 * 1, no output file).
 */
import { InputError, locate } from '../../errors.js';
import { EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, type CliIo } from '../io.js';
import { createProgress, type Progress } from '../progress.js';
import { nbestRegistry, resolveNbestMetricIds } from '../../engine/nbest/nbest-metrics.js';
import type { NbestRunOutput } from '../../engine/nbest/run.js';
import { nbestHelp, parseNbestArgs, type NbestOptions } from './options.js';
import { stdoutSink, type StatsSink } from './stats-sink.js';
import { openOutputFile } from '../output-file.js';
import { runNbestJob, type NbestHooks } from './job.js';

export type { NbestRunInfo } from '../../engine/nbest/run.js';
export type { NbestHooks } from './job.js';

/**
 * Computes and writes the statistics (and features); the sinks are committed by the caller, which then runs what
 * this returns (a queue run's clean-up, or the wait for the pool's workers to stop).
 */
async function extract(
  options: NbestOptions,
  sink: StatsSink,
  features: StatsSink | undefined,
  progress: Progress,
  hooks: NbestHooks,
  io: CliIo,
): Promise<(() => Promise<void>) | undefined> {
  const registry = await nbestRegistry(options.metrics);
  const ids = resolveNbestMetricIds(options.metrics, options.settings, registry);
  if (options.queue !== undefined) {
    // Imported here: BullMQ and its Redis client load only for a queue run.
    const { runQueued } = await import('./queue.js');
    return runQueued(
      {
        url: options.queue,
        shardSize: options.shardSize,
        nbest: options.nbest,
        refs: options.refs,
        metrics: options.metrics,
        ids,
        settings: options.settings,
        registry,
        task: { path: options.nbest, format: options.format, allowDuplicates: options.allowDuplicates, sentenceScores: options.sentenceScores },
        taskSize: options.taskSize,
        stats: options.stats!,
        redisTimeoutMs: options.redisTimeoutMs,
        previous: options.prevStats === undefined ? undefined : { stats: options.prevStats, features: options.prevFeatures },
        note: (line) => {
          if (!options.quiet) io.stderr.write(`palette nbest: ${line}\n`);
        },
      },
      sink,
      features,
      progress,
    );
  }
  const out: NbestRunOutput = {
    // Written in the background while later chunks are scored (../output-file.ts), the arrays handed back once
    // written; the features' arrays are the sink's to keep.
    output: (bytes, release) => sink.writeBehind(bytes, release ?? (() => {})),
    transient: true,
    ...(features === undefined ? {} : { features: (bytes: Uint8Array) => features.writeBehind(bytes, () => {}) }),
    onProgress: (hyps, fraction) => progress.update(hyps, fraction),
  };
  const job = {
    nbest: options.nbest,
    refs: options.refs,
    ids,
    settings: options.settings,
    registry,
    task: {
      path: options.nbest,
      format: options.format,
      allowDuplicates: options.allowDuplicates,
      sentenceScores: options.sentenceScores,
    },
    previous: options.prevStats === undefined ? [] : [{ stats: options.prevStats, features: options.prevFeatures }],
    workers: options.workers,
    taskSize: options.taskSize,
  };
  // The pool's workers stop while the caller commits the output.
  const { stopped } = await runNbestJob(job, out, hooks);
  return () => stopped;
}

/**
 * Runs `palette nbest` with `argv` (the arguments after `nbest`) and returns the exit status. Bad input is reported
 * on `io.stderr` (exit 2) and leaves no output file; other errors propagate to the caller (reported as internal).
 */
export async function runNbestCommand(argv: readonly string[], io: CliIo, hooks: NbestHooks = {}): Promise<number> {
  let sink: StatsSink | undefined;
  let features: StatsSink | undefined;
  let progress: Progress | undefined;
  try {
    const command = parseNbestArgs(argv);
    if (command.kind === 'help') {
      io.stdout.write(nbestHelp());
      return EXIT_OK;
    }
    const { options } = command;
    sink = options.stats === undefined ? stdoutSink(io) : openOutputFile(options.stats);
    if (options.ffile !== undefined) features = openOutputFile(options.ffile);
    // Progress on a terminal only, not with -q, and not when the statistics themselves go to the same terminal,
    // where the redrawn line would garble them.
    const statsOnTerminal = options.stats === undefined && io.stdout.isTTY === true;
    const unit = options.queue === undefined ? 'hyps' : 'shards';
    progress = createProgress(io.stderr, { label: 'palette nbest', unit, quiet: options.quiet || statsOnTerminal });
    const cleanUp = await extract(options, sink, features, progress, hooks, io);
    await sink.settled();
    await features?.settled();
    sink.commit();
    features?.commit();
    progress.done();
    await cleanUp?.();
    return EXIT_OK;
  } catch (err) {
    progress?.clear();
    sink?.abort();
    features?.abort();
    if (err instanceof Error && err.name === 'QueueRunError') {
      io.stderr.write(`palette nbest: error: ${err.message}\n`);
      return EXIT_INTERNAL;
    }
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`palette nbest: error: ${locate(err.message, err.file, err.line)}\n`);
    return EXIT_INPUT;
  }
}
