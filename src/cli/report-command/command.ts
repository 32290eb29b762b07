/**
 * `palette report REF [REF ...] -i HYP [HYP ...] -o report.html [-m METRIC ...] [--human FILE ...] [--source FILE]
 * [--bootstrap N] [--seed S] [--paired-bs|--paired-ar [--all-pairs]]`: scores every system with the registry's metrics
 * (with `palette score`'s metric flags), computes intervals, paired tests and correlations with src/meta/, and
 * writes one self-contained HTML report (src/report/).
 *
 * Lines are read as `palette score` reads them (UTF-8, `rstrip()`ped). The output path is checked first (a file can
 * be created there), every number is computed before the file is opened, and the file is written to a temporary
 * name beside the target and renamed at the end (../output-file.ts), so bad input leaves no file (and an existing
 * report untouched): `palette report: error: FILE:LINE: message`, exit status 2. The computation is synchronous and
 * holds no temporary file, so an interrupt during it ends the process at once with nothing to remove.
 */
import { readLines } from '../../node/read-lines.js';
import { readScoreTable } from '../../node/score-table.js';
import { defaultRegistry, type MetricRegistry } from '../../metrics/registry.js';
import { pyRstrip } from '../../text/pystr.js';
import { reportInputError } from '../input-error-line.js';
import { EXIT_OK, type CliIo } from '../io.js';
import { checkOutputFile, openOutputFile } from '../output-file.js';
import { createProgress, type Progress } from '../progress.js';
import { alignHumanFiles, reportFromTexts } from './compute.js';
import { parseReportArgs, reportHelp, type ReportOptions } from './options.js';

export { systemDisplayNames } from './compute.js';

function readStripped(file: string): string[] {
  return readLines(file).map(pyRstrip);
}

/**
 * Computes the report's HTML (everything that can fail on the user's input happens here): the files are read, then
 * ./compute.ts does the rest; what alignment left out is said on `notes`, valid input that is probably not what the
 * user meant (input-warnings.ts) on `warnings`, and how far the computation is to `onProgress` (steps done of a
 * total, as buildReport counts them).
 */
export function reportHtml(
  options: ReportOptions,
  registry: MetricRegistry = defaultRegistry,
  notes: string[] = [],
  warnings: string[] = [],
  onProgress?: (done: number, total: number) => void,
): string {
  return reportFromTexts(options, {
    registry,
    read: readStripped,
    notes,
    warnings,
    onProgress,
    human: (files, segments) => alignHumanFiles(options.human, (h, columns) => readScoreTable(h.file, columns), files, segments, notes),
  });
}

/**
 * Runs `palette report` with `argv` (the arguments after `report`) and returns the exit status. Bad input is
 * reported on `io.stderr` (exit 2) and leaves no output file; other errors propagate (reported as internal).
 */
export async function runReportCommand(
  argv: readonly string[],
  io: CliIo,
  registry: MetricRegistry = defaultRegistry,
): Promise<number> {
  let progress: Progress | undefined;
  try {
    const command = parseReportArgs(argv, io.env);
    if (command.kind === 'help') {
      io.stdout.write(reportHelp());
      return EXIT_OK;
    }
    const { options } = command;
    const notes: string[] = [];
    const warnings: string[] = [];
    checkOutputFile(options.output);
    // Twenty systems with intervals take seconds: a line on a terminal once a run passes one.
    progress = createProgress(io.stderr, { label: 'palette report', unit: 'steps', quiet: options.quiet, delayMs: 1000 });
    const html = reportHtml(options, registry, notes, warnings, (done, total) => progress?.update(done, done / total));
    progress.done();
    const sink = openOutputFile(options.output);
    try {
      sink.write(html);
      sink.commit();
    } catch (err) {
      sink.abort();
      throw err;
    }
    if (!options.quiet) {
      for (const w of [...options.warnings, ...warnings]) io.stderr.write(`palette report: warning: ${w}\n`);
      for (const note of notes) io.stderr.write(`palette report: note: ${note}\n`);
      io.stderr.write(`palette report: wrote ${options.output} (${Buffer.byteLength(html)} bytes)\n`);
    }
    return EXIT_OK;
  } catch (err) {
    progress?.clear();
    return reportInputError('report', err, io);
  }
}
