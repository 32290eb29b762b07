/**
 * The command line of scripts/experiments.ts, separate from the entry file so that the tests can run it:
 * `[--quick] [--out FILE] [--data DIR] [--resamples N] [--seed N] [--only NAME,...]`.
 *
 * `--quick` draws 100 bootstrap resamples instead of 1000 (development only; the page says so). The output path is
 * checked before the experiments run, and the page is written as `palette` writes its files (src/cli/output-file.ts:
 * a temporary file renamed at the end, removed on failure or interrupt), so no half-written page is left. Bad input
 * or arguments: one line `experiments: error: …` and exit status 2; anything else propagates (the entry file exits 1).
 */
import { mkdirSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { checkOutputFile, openOutputFile, outputFileError } from '../../src/cli/output-file.js';
import { InputError, locate } from '../../src/errors.js';
import { defaultDataRoot, hasExperimentData } from './data.js';
import { renderReport } from './render.js';
import { EXPERIMENTS, runExperiments, type ExperimentName } from './run.js';

/** Parsed command line. */
export interface ExperimentArgs {
  readonly quick: boolean;
  /** Absolute path of the page. */
  readonly out: string;
  /** Absolute path of ../shared/data. */
  readonly data: string;
  /** `undefined` = 1000, or 100 with `--quick`. */
  readonly resamples: number | undefined;
  readonly seed: number;
  /** `undefined` = every experiment. */
  readonly only: readonly ExperimentName[] | undefined;
}

function usage(message: string): InputError {
  return new InputError(
    'E_BAD_OPTION',
    `${message} (usage: npx tsx scripts/experiments.ts [--quick] [--out FILE] [--data DIR] [--resamples N] [--seed N] ` +
      `[--only ${EXPERIMENTS.join(',')}])`,
  );
}

function integer(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min) throw usage(`${flag} needs an integer ≥ ${min} (got "${value}")`);
  return n;
}

/**
 * Parses the arguments; paths resolve against the working directory, defaults against `repoRoot`.
 * @throws InputError `E_BAD_OPTION` for an unknown argument, a missing or malformed value, an unknown experiment.
 */
export function parseExperimentArgs(argv: readonly string[], repoRoot: string): ExperimentArgs {
  let quick = false;
  let out = resolve(repoRoot, 'docs', 'EXPERIMENTS.md');
  let data = defaultDataRoot(repoRoot);
  let resamples: number | undefined;
  let seed = 12345;
  let only: ExperimentName[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw usage(`${a} needs a value`);
      return v;
    };
    if (a === '--quick') quick = true;
    else if (a === '--out') out = resolve(value());
    else if (a === '--data') data = resolve(value());
    else if (a === '--resamples') resamples = integer(a, value(), 0);
    else if (a === '--seed') seed = integer(a, value(), 0);
    else if (a === '--only') {
      const names = value().split(',');
      for (const n of names) if (!(EXPERIMENTS as readonly string[]).includes(n)) throw usage(`unknown experiment "${n}"`);
      only = names as ExperimentName[];
    } else throw usage(`unknown argument "${a}"`);
  }
  return { quick, out, data, resamples, seed, only };
}

/** Where messages go. */
export interface ExperimentIo {
  readonly stderr: { write(text: string): unknown };
}

/**
 * Runs the experiments and writes the page; returns the exit status (0, or 2 for bad input with one error line).
 * Other errors propagate.
 */
export async function experimentsMain(argv: readonly string[], repoRoot: string, io: ExperimentIo): Promise<number> {
  try {
    const args = parseExperimentArgs(argv, repoRoot);
    if (!hasExperimentData(args.data)) {
      throw new InputError(
        'E_FILE_NOT_FOUND',
        'the shared corpora are not there (expected wmt21-news-en-de, summeval, joshua-bn-en, moses-mert)',
        { file: args.data },
      );
    }
    // Before minutes of work: the page can be written there (the folder is made if missing).
    try {
      mkdirSync(dirname(args.out), { recursive: true });
    } catch (err) {
      throw outputFileError(err, args.out);
    }
    checkOutputFile(args.out);
    const resamples = args.resamples ?? (args.quick ? 100 : 1000);
    // Paths as seen from the repository root, so that the page does not name this machine's directories.
    const shown = argv.map((a, i) => (i > 0 && (argv[i - 1] === '--out' || argv[i - 1] === '--data') ? relative(repoRoot, resolve(a)) : a));
    const report = await runExperiments({
      repoRoot,
      dataRoot: args.data,
      resamples,
      seed: args.seed,
      quick: args.quick,
      command: ['npx tsx scripts/experiments.ts', ...shown].join(' '),
      experiments: args.only,
      log: (m) => io.stderr.write(`experiments: ${m}\n`),
    });
    const page = renderReport(report);
    const file = openOutputFile(args.out);
    try {
      file.write(page);
      file.commit();
    } catch (err) {
      file.abort();
      throw err;
    }
    io.stderr.write(`experiments: wrote ${args.out} (${(report.totalMs / 1000).toFixed(1)} s)\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`experiments: error: ${locate(err.message, err.file, err.line)}\n`);
    return 2;
  }
}
