/**
 * `npx tsx scripts/experiments.ts [--quick] [--out FILE] [--data DIR] [--resamples N] [--seed N] [--only NAME,...]`:
 * reproduces the seed papers' experiments on the real data of ../shared/data and writes docs/EXPERIMENTS.md —
 * correlations with human judgments (WMT21 en-de MQM and DA, SummEval), ORANGE on the Joshua and Moses n-best lists,
 * and the BLEUw vs BLEUc study. The work is in ./experiments/ (the command line in ./experiments/cli.ts); bad input
 * exits 2 with one error line, an internal failure exits 1.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import '../src/node/install.js';
import { experimentsMain } from './experiments/cli.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

experimentsMain(process.argv.slice(2), REPO_ROOT, process).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`experiments: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
