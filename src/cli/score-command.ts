/**
 * `palette score` as one module: its option parser, the command, the Node adapter and the metric catalog, imported
 * statically so that the bundled CLI can ship the whole path of a score run as a single file (dist/bundle/
 * score-command.js, scripts/build-cli.mjs): a short run then links one file instead of dozens of chunks, most of
 * its start-up. The metrics' own code, the pool, queue runs, test sets and significance tests stay behind dynamic
 * imports: a run evaluates only what it uses.
 */
import '../node/install.js';
import { defaultRegistry as catalogRegistry } from '../metrics/default-registry.js';
import type { MetricRegistry } from '../metrics/registry.js';
import { VERSION } from '../version.js';
import { EXIT_OK, type CliIo } from './io.js';

/**
 * The process's streams, and whether they are settled, for bin/palette's way into this module
 * (dist/bundle/score-command-loader.cjs).
 */
export { processIo, processIoSettled } from './io.js';
import { reportError } from './report-error.js';
import { runScore } from './score.js';
import { parseScoreCommand, scoreHelp } from './score-options.js';

/**
 * Runs `palette score` with `argv` (the arguments after `score`) and returns the exit status; never throws.
 * @param registry the metrics `-m` can name (tests pass fakes); the catalog's registry when omitted, which loads
 * the code of the metrics a run names and no other
 */
export async function runScoreCommand(argv: readonly string[], io: CliIo, registry?: MetricRegistry): Promise<number> {
  try {
    const parsed = parseScoreCommand(argv, io.env);
    const metrics = registry ?? catalogRegistry;
    if (parsed.kind === 'help') {
      io.stdout.write(scoreHelp([...metrics.ids, ...(metrics.families ?? [])]));
      return EXIT_OK;
    }
    if (parsed.kind === 'version') {
      io.stdout.write(`palette ${VERSION}\n`);
      return EXIT_OK;
    }
    await metrics.load?.(parsed.options.metrics);
    io.stdout.write(await runScore(parsed.options, io, metrics));
    return EXIT_OK;
  } catch (err) {
    return reportError(err, io);
  }
}
