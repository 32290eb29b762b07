/**
 * `palette orange --nbest FILE -r REF REF [REF ...] -m METRIC ... [--bootstrap N] [--seed S] [-f text|json]`:
 * ORANGE (seed paper 002) of many metric variants in one pass over a Moses or Joshua n-best list
 * (src/node/orange/evaluate.ts), with numpy-reproducible bootstrap 95% intervals over the sentences
 * (src/meta/orange/orange.ts), printed as a table sorted by ORANGE or as JSON (./report.ts).
 *
 * Bad input ends the run with `palette orange: error: FILE[:LINE]: message` and exit status 2; the report goes to
 * standard output only when everything has been read, so a failed run prints no partial table.
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { bootstrapMeanInterval, numpyResampler, orangeOfTerms } from '../../meta/orange/orange.js';
import { evaluateOrange } from '../../node/orange/evaluate.js';
import { lowerIsBetter } from '../../meta/orange/variants.js';
import { reportInputError } from '../input-error-line.js';
import { EXIT_OK, type CliIo } from '../io.js';
import { parseOrangeArgs, orangeHelp, type OrangeOptions } from './options.js';
import { formatOrangeJson, formatOrangeText, type OrangeReport } from './report.js';
import { createProgress, type Progress } from '../progress.js';

/**
 * Below this size an n-best list is scored in this thread when `-j` is not given: a pool's start costs more than
 * the one or two blocks of sentences such a list holds.
 */
const IN_THREAD_BYTES = 1 << 20;

/** `-j`, or its default: one thread per core, this thread alone for a small (or unreadable, reported later) list. */
function workerCount(options: OrangeOptions): number {
  if (options.workers !== undefined) return options.workers;
  let bytes = 0;
  try {
    bytes = statSync(options.nbest).size;
  } catch {
    // The reader reports a missing or unreadable list with its own message.
  }
  return bytes < IN_THREAD_BYTES ? 1 : availableParallelism();
}

/** Scores, resamples and builds the report. */
async function report(options: OrangeOptions, progress: Progress): Promise<OrangeReport> {
  const result = await evaluateOrange({
    nbest: options.nbest,
    refs: options.refs,
    variants: options.variants,
    settings: options.settings,
    workers: workerCount(options),
    onProgress: (count, fraction) => progress.update(count, fraction),
  });
  const rows = result.variants.map((v, i) => ({
    name: v.name,
    orange: orangeOfTerms(result.terms[i]),
    // Every variant resamples the same sentences (the same seed): their intervals are comparable.
    ci: options.bootstrap > 0 ? bootstrapMeanInterval(result.terms[i], options.bootstrap, numpyResampler(options.seed)) : undefined,
    lowerIsBetter: lowerIsBetter(v),
  }));
  return {
    rows,
    sentences: result.sentences.length,
    candidates: result.candidates,
    references: result.referencesPerSentence,
    bootstrap: options.bootstrap,
    seed: options.seed,
  };
}

/**
 * Runs `palette orange` with `argv` (the arguments after `orange`) and returns the exit status. Bad input is
 * reported on `io.stderr` (exit 2); other errors propagate to the caller (reported as internal).
 */
export async function runOrangeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let progress: Progress | undefined;
  try {
    const command = parseOrangeArgs(argv, io.env);
    if (command.kind === 'help') {
      io.stdout.write(orangeHelp());
      return EXIT_OK;
    }
    const { options } = command;
    if (!options.quiet) for (const w of options.warnings) io.stderr.write(`palette orange: warning: ${w}\n`);
    progress = createProgress(io.stderr, { label: 'palette orange', unit: 'hyps', quiet: options.quiet });
    const result = await report(options, progress);
    progress.done();
    io.stdout.write(options.format === 'json' ? formatOrangeJson(result) : formatOrangeText(result, options.width));
    return EXIT_OK;
  } catch (err) {
    progress?.clear();
    return reportInputError('orange', err, io);
  }
}
