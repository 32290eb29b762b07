/**
 * `palette extractor`: a drop-in for Moses MERT's `extractor` (mert/extractor.cpp). Its flags and defaults
 * (./options.ts) are mapped onto one extraction of `palette nbest`'s engine (../nbest/job.ts): the n-best list
 * scored by the scorer types of `--sctype` (./scorers.ts), previous runs' files merged (`--prev-scfile`,
 * `--prev-ffile`: loaded first, as Moses loads them), duplicates removed unless `--allow-duplicates`, and the
 * statistics written to `--scfile` (SCORES_TXT) and the features to `--ffile` (FEATURES_TXT), both byte-identical
 * to Moses' files.
 *
 * Bad input ends the run with `palette extractor: error: FILE[:LINE]: message` and exit status 2 (Moses exits 1),
 * and neither output file is written: both go to temporary files renamed only when the whole run succeeded.
 */
import { InputError, locate } from '../../errors.js';
import type { NbestRunOutput } from '../../engine/nbest/run.js';
import { EXIT_INPUT, EXIT_OK, type CliIo } from '../io.js';
import { openOutputFile, type OutputFile } from '../output-file.js';
import { createProgress, type Progress } from '../progress.js';
import { runNbestJob, type NbestHooks } from '../nbest/job.js';
import { extractorHelp, parseExtractorArgs, type ExtractorOptions } from './options.js';

async function extract(
  options: ExtractorOptions,
  scores: OutputFile,
  features: OutputFile,
  progress: Progress,
  hooks: NbestHooks,
): Promise<void> {
  const out: NbestRunOutput = {
    output: (bytes) => scores.write(bytes),
    features: (bytes) => features.write(bytes),
    onProgress: (hyps, fraction) => progress.update(hyps, fraction),
  };
  const job = {
    nbest: options.nbest,
    refs: options.references,
    ids: options.scorer.ids,
    settings: options.scorer.settings,
    // Moses' scorer types Palette writes (BLEU) need no metric registry.
    registry: undefined,
    task: { path: options.nbest, format: 'moses' as const, allowDuplicates: options.allowDuplicates, sentenceScores: false },
    previous: options.prevScores.map((stats, i) => ({ stats, features: options.prevFeatures[i] })),
    workers: options.workers,
    taskSize: options.taskSize,
  };
  await (await runNbestJob(job, out, hooks)).stopped;
}

/**
 * Runs `palette extractor` with `argv` (the arguments after `extractor`) and returns the exit status. Bad input is
 * reported on `io.stderr` (exit 2) and leaves no output file; other errors propagate (reported as internal).
 */
export async function runExtractorCommand(argv: readonly string[], io: CliIo, hooks: NbestHooks = {}): Promise<number> {
  let scores: OutputFile | undefined;
  let features: OutputFile | undefined;
  let progress: Progress | undefined;
  try {
    const command = parseExtractorArgs(argv);
    if (command.kind === 'help') {
      io.stdout.write(extractorHelp());
      return EXIT_OK;
    }
    const { options } = command;
    scores = openOutputFile(options.scfile);
    features = openOutputFile(options.ffile);
    progress = createProgress(io.stderr, { label: 'palette extractor', unit: 'hyps', quiet: options.quiet });
    await extract(options, scores, features, progress, hooks);
    scores.commit();
    features.commit();
    progress.done();
    return EXIT_OK;
  } catch (err) {
    progress?.clear();
    scores?.abort();
    features?.abort();
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`palette extractor: error: ${locate(err.message, err.file, err.line)}\n`);
    return EXIT_INPUT;
  }
}
