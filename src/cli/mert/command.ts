/**
 * `palette mert -d N --scfile SC --ffile FF --ifile INIT [-n N] [-m N] [-r SEED] …`: Moses `mert` as a thin front
 * end on the tuning library (src/tuning/mert/): read the files, run the start points (in this thread, or on a
 * worker pool with `--threads N`), print `Best point: W1 … WN  => SCORE` on standard error and write the weights
 * to weights.txt, as Moses does (numbers as C++ streams print floats: `%g`, six significant digits).
 *
 * Bad input (files that disagree, an INIT line with the wrong number of weights, a non-number) ends the run with
 * `palette: error: FILE:LINE: message` and exit status 2 before anything is written; weights.txt is written to a
 * temporary file and renamed (../output-file.ts), so it is never left half-written.
 */
import { InputError, locate } from '../../errors.js';
import type { MetricRegistry } from '../../metrics/registry.js';
import { readLines } from '../../node/read-lines.js';
import { cFormatG } from '../../util/c-format.js';
import { readMertFiles, readMertInit } from '../../tuning/mert/moses-files.js';
import { bestOfRuns, prepareMertRuns, runMertStart, type MertOptions, type MertRun } from '../../tuning/mert/optimizer.js';
import { mertObjective } from '../../tuning/mert/objective-name.js';
import type { MertProblem } from '../../tuning/mert/problem.js';
import type { MertPlan } from '../../tuning/mert/optimizer.js';
import { EXIT_INPUT, EXIT_OK, type CliIo } from '../io.js';
import { openOutputFile, checkOutputFile } from '../output-file.js';
import { mertHelp, parseMertArgs, type MertCommandOptions } from './options.js';

const file = (name: string) => ({ name, lines: readLines(name) });

/** Index of each feature name in `names`, for `-o` and `-P`. */
function featureIndices(flag: string, wanted: readonly string[], names: readonly string[]): number[] {
  return wanted.map((w) => {
    const i = names.indexOf(w);
    if (i < 0) throw new InputError('E_BAD_OPTION', `${flag}: unknown feature ${JSON.stringify(w)} (the features are ${names.join(', ')})`);
    return i;
  });
}

/** Runs every start point of the plan: in this thread, or on a pool of `threads` workers. */
async function runStarts(problem: MertProblem, plan: MertPlan, options: MertCommandOptions, mertOptions: MertOptions): Promise<MertRun[]> {
  if (options.threads <= 1 || plan.starts.length <= 1) {
    return plan.starts.map((_, i) => runMertStart(problem, plan, i));
  }
  const { runMertOnPool } = await import('../../pool/mert-pool.js');
  return runMertOnPool(problem, options.scorer, mertOptions, options.threads);
}

/** The text of a point as Moses' `operator<<(ostream, Point)` writes it: each weight then a space. */
export function mosesPointText(point: ArrayLike<number>): string {
  let text = '';
  for (let i = 0; i < point.length; i++) text += `${cFormatG(point[i])} `;
  return text;
}

/** Runs `palette mert`; bad input is reported as `palette mert: error: FILE:LINE: message`, exit status 2. */
export async function runMertCommand(argv: readonly string[], io: CliIo, registry: MetricRegistry): Promise<number> {
  try {
    return await mert(argv, io, registry);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`palette mert: error: ${locate(err.message, err.file, err.line)}\n`);
    return EXIT_INPUT;
  }
}

async function mert(argv: readonly string[], io: CliIo, registry: MetricRegistry): Promise<number> {
  const parsed = parseMertArgs(argv);
  if (parsed.kind === 'help') {
    io.stdout.write(mertHelp());
    return EXIT_OK;
  }
  const options = parsed.options;
  checkOutputFile(options.weightsFile);
  const objective = mertObjective(options.scorer, registry);
  const D = options.dimensions;
  const init = readMertInit(file(options.initFiles[0]), D);
  const extraStarts = options.initFiles.slice(1).map((f) => readMertInit(file(f), D, true).start);
  const pairs = options.featureFiles.map((f, i) => ({ features: file(f), scores: file(options.scoreFiles[i]) }));
  const data = readMertFiles(pairs, objective, D);
  const mertOptions: MertOptions = {
    start: init.start,
    min: init.min,
    max: init.max,
    extraStarts,
    restarts: options.restarts,
    randomDirections: options.randomDirections,
    seed: options.seed ?? Math.floor(Date.now() / 1000),
    optimizer: options.optimizer,
    optimize: options.optimize === undefined ? undefined : featureIndices('-o', options.optimize, data.featureNames),
    positive: featureIndices('-P', options.positive, data.featureNames),
    // One thread: Moses' one stream, drawn by the runs in turn. Several: a stream per run, the same for any count.
    streams: options.threads > 1 ? 'per-run' : 'shared',
  };
  const plan = prepareMertRuns(data.problem, mertOptions);
  const runs = await runStarts(data.problem, plan, options, mertOptions);
  const best = bestOfRuns(plan, runs);
  const text = mosesPointText(best.point);
  const out = openOutputFile(options.weightsFile);
  try {
    out.write(`${text}\n`);
    out.commit();
  } catch (err) {
    out.abort();
    throw err;
  }
  io.stderr.write(`Best point: ${text} => ${cFormatG(best.score)}\n`);
  return EXIT_OK;
}
