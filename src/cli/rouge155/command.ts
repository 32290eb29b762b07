/**
 * `palette rouge155 [ROUGE-1.5.5 options] CONFIG [SYSTEM]`: a drop-in for ROUGE-1.5.5.pl with byte-identical
 * standard output. Its options, configuration files and printing are in this folder; its per-unit numbers come from
 * the ROUGE-1.5.5 scorer in src/metrics/rouge155/; the averages and intervals from src/meta/rouge155-bootstrap.ts.
 *
 * `-h`/`-H` print ROUGE's usage texts on standard output (exit 0); no argument at all prints the short one on
 * standard error (exit 2). Bad input ends the run with one line `palette rouge155: error: FILE[:LINE]: message` and
 * exit status 2, before anything is printed on standard output. ROUGE-1.5.5's `-e` is accepted and ignored: its
 * stopword list and WordNet exceptions ship with Palette. `-v` is accepted with a warning: ROUGE's debugging output
 * (its hashes dumped in Perl's random hash order) is not reproduced.
 */
import { reportInputError } from '../input-error-line.js';
import { EXIT_INPUT, EXIT_OK, type CliIo } from '../io.js';
import { parseRouge155Args } from './options.js';
import { rouge155Unit } from '../../metrics/rouge155/unit.js';
import { runRouge155, type Rouge155UnitScorer } from './run.js';
import { rouge155FullUsage, rouge155Usage } from './usage.js';

/** The program name the usage texts show (ROUGE's `$0`). */
const PROGRAM = 'palette rouge155';

/** Test hooks of {@link runRouge155Command}. */
export interface Rouge155CommandHooks {
  /** The directory relative paths start from. @default process.cwd() */
  readonly cwd?: string;
  /** The per-unit scorer. @default the ROUGE-1.5.5 scorer of src/metrics/rouge155 */
  readonly scorer?: Rouge155UnitScorer;
}

/**
 * Runs `palette rouge155` with `argv` (the arguments after `rouge155`) and returns the exit status. Bad input is
 * reported on `io.stderr` (exit 2); other errors propagate to the caller, which reports them as internal.
 */
export async function runRouge155Command(
  argv: readonly string[],
  io: CliIo,
  hooks: Rouge155CommandHooks = {},
): Promise<number> {
  try {
    const command = parseRouge155Args(argv);
    if (command.kind === 'usage') {
      const text = command.full ? rouge155FullUsage(PROGRAM) : rouge155Usage(PROGRAM);
      (command.requested ? io.stdout : io.stderr).write(text);
      return command.requested ? EXIT_OK : EXIT_INPUT;
    }
    if (command.options.verbose) {
      // ROUGE's -v dumps its internal hashes in Perl's (random) hash order: nothing to reproduce byte for byte.
      io.stderr.write("palette rouge155: warning: -v is accepted, but ROUGE-1.5.5's debugging output is not printed\n");
    }
    const output = runRouge155(command.options, {
      cwd: hooks.cwd ?? process.cwd(),
      warn: (line) => io.stderr.write(line),
      scorer: hooks.scorer ?? rouge155Unit,
    });
    io.stdout.write(output);
    return EXIT_OK;
  } catch (err) {
    return reportInputError('rouge155', err, io);
  }
}
