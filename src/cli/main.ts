/**
 * The `palette` command: dispatch to a sub-command, print, map errors to exit statuses. The only place (with the
 * rest of src/cli/) that writes to the terminal or decides how the process ends.
 *
 * Exit statuses: 0 success; 2 bad input or usage (a missing/unreadable/empty file, invalid UTF-8, line-count
 * mismatch, unknown metric/tokenizer/option), reported as one line `palette: error: FILE:LINE: message` with no stack
 * trace; 1 an internal failure, reported with its message (and the stack when `PALETTE_DEBUG` is set).
 */
import type { MetricRegistry } from '../metrics/registry.js';
import { VERSION } from '../version.js';
import { EXIT_INPUT, EXIT_OK, processIo, type CliIo } from './io.js';
import { reportError } from './report-error.js';

export type { CliIo } from './io.js';

const USAGE = `usage: palette <command> [options]

Commands:
  score     score systems against references (sacrebleu-compatible flags and output): BLEU, chrF, NIST, TER,
            WER, PER, GTM, ROUGE, ParaEval, IMPACT, NP-chunk; paired significance tests and confidence intervals
  rouge155  ROUGE-1.5.5.pl drop-in: its options, XML configuration and byte-identical output
  nbest     per-candidate statistics of a Moses n-best list, every metric in one pass on a worker pool
            (Moses extractor SCORES_TXT, json, msgpack)
  extractor Moses MERT extractor drop-in: its flags, SCORES_TXT and FEATURES_TXT byte-identical, previous runs merged
  orange    ORANGE of metric variants over an n-best list with several references (seed 002), bootstrap CIs
  correlate correlation of metric scores with human scores (Pearson, Spearman, Kendall) with bootstrap CIs
  report    one self-contained HTML report: scores, CIs, ranking, significance, human correlations, segments
  mert      Moses mert: Och's exact line search with random restarts on FEATURES_TXT/SCORES_TXT files
  pro       Moses pro: PRO's pairs of candidates (sentence BLEU+1, glibc rand) as MegaM lines, byte-identical
  kbmira    Moses kbmira: k-best batch MIRA (hope/fear updates against a BLEU background), dense weights
  pairwise  all-pairs sentence scores (chrF, chrF++, BLEU, TER, WER, PER, ROUGE) of every line of one file against
            every line of another, exact to palette score -sl (sacreBLEU's sentence_score): tsv, msgpack or numpy .npy
  mbr       minimum Bayes risk decoding: per line, the sample with the best mean chrF/BLEU/TER/… against the others
  worker    takes shard jobs of queue runs (palette nbest --queue redis://…) from Redis and scores them
  queue     status or clean-up of a queue run: palette queue status|clean RUN --redis URL
  serve     the offline scoring page on http://127.0.0.1 (scores, CIs, significance, segments, computed in the browser)

Run "palette COMMAND --help" (or "palette rouge155 -h") for the options of a command; "palette --version" prints the
version.
`;

/** The sub-commands, as the unknown-command message lists them. */
const COMMANDS = ['score', 'rouge155', 'nbest', 'extractor', 'orange', 'correlate', 'report', 'mert', 'pro', 'kbmira', 'pairwise', 'mbr', 'worker', 'queue', 'serve'];

/** The registry of every metric, imported on first need (it loads every metric's module). */
async function defaultRegistry(): Promise<MetricRegistry> {
  return (await import('../metrics/registry.js')).defaultRegistry;
}

/**
 * Runs `palette` with `argv` (the arguments after the program name) and returns the exit status. Never throws and
 * never exits: callers (bin/palette via {@link main}, or tests) decide what to do with the status.
 * Start-up is most of a short run, so each command imports only its own modules, on demand: `--version` and
 * `--help` load nothing beyond this file's few imports, and the Node adapter (kernels, tables read from files) is
 * installed only once a command runs.
 * @param registry the metrics `-m` can name (tests pass fakes); the default registry when omitted
 */
export async function run(argv: readonly string[], io: CliIo, registry?: MetricRegistry): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined) {
      io.stderr.write(USAGE);
      return EXIT_INPUT;
    }
    if (command === '-h' || command === '--help' || command === 'help') {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    if (command === '-V' || command === '--version') {
      io.stdout.write(`palette ${VERSION}\n`);
      return EXIT_OK;
    }
    // score before the others: its module carries its whole path, the Node adapter included (see ./score-command.ts).
    if (command === 'score') return await (await import('./score-command.js')).runScoreCommand(rest, io, registry);
    // nbest as score: one module with its whole path, its pool started first (see ./nbest/entry.ts).
    if (command === 'nbest') return await (await import('./nbest/entry.js')).runNbestEntry(rest, io);
    if (COMMANDS.includes(command)) await import('../node/install.js');
    if (command === 'rouge155') return await (await import('./rouge155/command.js')).runRouge155Command(rest, io);
    if (command === 'extractor') return await (await import('./extractor/command.js')).runExtractorCommand(rest, io);
    if (command === 'orange') return await (await import('./orange/command.js')).runOrangeCommand(rest, io);
    if (command === 'correlate') return await (await import('./correlate/command.js')).runCorrelateCommand(rest, io);
    if (command === 'mert') return await (await import('./mert/command.js')).runMertCommand(rest, io, registry ?? (await defaultRegistry()));
    if (command === 'pro') return await (await import('./pro/command.js')).runProCommand(rest, io);
    if (command === 'kbmira') return await (await import('./kbmira/command.js')).runKbmiraCommand(rest, io);
    if (command === 'pairwise') return await (await import('./pairwise/command.js')).runPairwiseCommand(rest, io, registry ?? (await defaultRegistry()));
    if (command === 'mbr') return await (await import('./mbr/command.js')).runMbrCommand(rest, io, registry ?? (await defaultRegistry()));
    if (command === 'worker') return await (await import('./worker/command.js')).runWorkerCommand(rest, io);
    if (command === 'queue') return await (await import('./queue/command.js')).runQueueCommand(rest, io);
    if (command === 'serve') return await (await import('./serve/command.js')).runServeCommand(rest, io);
    if (command === 'report') return await (await import('./report-command/command.js')).runReportCommand(rest, io, registry ?? (await defaultRegistry()));
    // Not reportError's way: its hint points at "palette score --help", and the command may not be score.
    const expected = `${COMMANDS.slice(0, -1).join(', ')} or ${COMMANDS[COMMANDS.length - 1]}`;
    io.stderr.write(`palette: error: unknown command ${JSON.stringify(command)} (expected ${expected}; see "palette --help")\n`);
    return EXIT_INPUT;
  } catch (err) {
    return reportError(err, io);
  }
}

/** Entry point of bin/palette: runs with the process's arguments and streams and sets `process.exitCode`. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await run(argv, processIo());
}
