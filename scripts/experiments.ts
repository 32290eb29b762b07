/**
 * `npx tsx scripts/experiments.ts [--quick] [--out FILE] [--data DIR] [--resamples N] [--seed N] [--only NAME,...]`:
 * reproduces the seed papers' experiments on the real data of ../shared/data and writes docs/EXPERIMENTS.md —
 * correlations with human judgments (WMT21 en-de MQM and DA, SummEval), ORANGE on the Joshua and Moses n-best lists,
 * and the BLEUw vs BLEUc study (see ./experiments/).
 *
 * `--quick` draws 100 bootstrap resamples instead of 1000 (development only; the page says so). The page is
 * written to a temporary file and renamed, so a failed run leaves no half-written page. Bad input or arguments:
 * one line `experiments: error: …` and exit status 2; anything else is an internal failure (exit 1).
 */
import { renameSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError, locate } from '../src/errors.js';
import { defaultDataRoot, hasExperimentData } from './experiments/data.js';
import { renderReport } from './experiments/render.js';
import { EXPERIMENTS, runExperiments, type ExperimentName } from './experiments/run.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Parsed command line. */
interface Args {
  quick: boolean;
  out: string;
  data: string;
  resamples: number | undefined;
  seed: number;
  only: ExperimentName[] | undefined;
}

function usage(message: string): InputError {
  return new InputError(
    'E_BAD_OPTION',
    `${message} (usage: npx tsx scripts/experiments.ts [--quick] [--out FILE] [--data DIR] [--resamples N] [--seed N] ` +
      `[--only ${EXPERIMENTS.join(',')}])`,
  );
}

function integer(flag: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < min) throw usage(`${flag} needs an integer ≥ ${min}`);
  return n;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    quick: false,
    out: resolve(REPO_ROOT, 'docs', 'EXPERIMENTS.md'),
    data: defaultDataRoot(REPO_ROOT),
    resamples: undefined,
    seed: 12345,
    only: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw usage(`${a} needs a value`);
      return v;
    };
    if (a === '--quick') args.quick = true;
    else if (a === '--out') args.out = resolve(value());
    else if (a === '--data') args.data = resolve(value());
    else if (a === '--resamples') args.resamples = integer(a, value(), 0);
    else if (a === '--seed') args.seed = integer(a, value(), 0);
    else if (a === '--only') {
      const names = value().split(',');
      for (const n of names) if (!(EXPERIMENTS as readonly string[]).includes(n)) throw usage(`unknown experiment "${n}"`);
      args.only = names as ExperimentName[];
    } else throw usage(`unknown argument "${a}"`);
  }
  return args;
}

async function main(argv: readonly string[]): Promise<number> {
  try {
    const args = parseArgs(argv);
    if (!hasExperimentData(args.data)) {
      throw new InputError('E_FILE_NOT_FOUND', 'the shared corpora are not there (expected wmt21-news-en-de, summeval, joshua-bn-en, moses-mert)', { file: args.data });
    }
    const resamples = args.resamples ?? (args.quick ? 100 : 1000);
    // Paths as seen from the repository root, so that the page does not name this machine's directories.
    const shown = argv.map((a, i) => (i > 0 && (argv[i - 1] === '--out' || argv[i - 1] === '--data') ? relative(REPO_ROOT, resolve(a)) : a));
    const command = ['npx tsx scripts/experiments.ts', ...shown].join(' ');
    const report = await runExperiments({
      repoRoot: REPO_ROOT,
      dataRoot: args.data,
      resamples,
      seed: args.seed,
      quick: args.quick,
      command,
      experiments: args.only,
      log: (m) => process.stderr.write(`experiments: ${m}\n`),
    });
    const page = renderReport(report);
    const tmp = `${args.out}.tmp-${process.pid}`;
    writeFileSync(tmp, page);
    renameSync(tmp, args.out);
    process.stderr.write(`experiments: wrote ${args.out} (${(report.totalMs / 1000).toFixed(1)} s)\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    process.stderr.write(`experiments: error: ${locate(err.message, err.file, err.line)}\n`);
    return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`experiments: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
