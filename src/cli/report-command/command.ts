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
import { basename } from 'node:path';
import { InputError } from '../../errors.js';
import { readLines } from '../../node/read-lines.js';
import { readScoreTable } from '../../node/score-table.js';
import { defaultRegistry, type MetricRegistry } from '../../metrics/registry.js';
import { buildReport, type ReportMetricInput, type ReportSystemInput } from '../../report/build-report.js';
import type { ReportHuman } from '../../report/report-data.js';
import { alignHumanTable } from '../../report/report-human.js';
import { renderReportHtml } from '../../report/render-html.js';
import { bootstrapIntervals, pairedSignificance } from '../../report/report-statistics.js';
import { pyRstrip } from '../../text/pystr.js';
import { VERSION } from '../../version.js';
import { reportInputError } from '../input-error-line.js';
import { bomWarning, tabWarning } from '../input-warnings.js';
import { EXIT_OK, type CliIo } from '../io.js';
import { checkOutputFile, openOutputFile } from '../output-file.js';
import { createProgress, type Progress } from '../progress.js';
import { parseReportArgs, reportHelp, type HumanFile, type ReportOptions } from './options.js';

function readStripped(file: string): string[] {
  return readLines(file).map(pyRstrip);
}

/**
 * Names the report shows for system files: the file names when they differ (`sys/online-B.0.de` → `online-B.0.de`),
 * otherwise the paths after their longest common folder, so that tables and plots stay narrow.
 */
export function systemDisplayNames(files: readonly string[]): string[] {
  const names = files.map((f) => basename(f));
  if (new Set(names).size === names.length) return names;
  const parts = files.map((f) => f.split(/[\\/]/));
  let common = 0;
  while (parts.every((p) => common < p.length - 1 && p[common] === parts[0][common])) common++;
  return parts.map((p) => p.slice(common).join('/'));
}

/** The systems of `-i`, each file once. */
function readSystems(files: readonly string[]): ReportSystemInput[] {
  const seen = new Set<string>();
  const names = systemDisplayNames(files);
  return files.map((file, s) => {
    if (seen.has(file)) throw new InputError('E_BAD_OPTION', `"${file}" is given twice to -i: each system needs its own file`);
    seen.add(file);
    return { name: names[s], file, lines: readStripped(file) };
  });
}

/** Reference streams, one per file, all as long as the first. */
function readReferences(files: readonly string[]): string[][] {
  const streams = files.map(readStripped);
  streams.forEach((s, j) => {
    if (s.length !== streams[0].length) {
      throw new InputError('E_LINE_COUNT_MISMATCH', `has ${s.length} lines but ${files[0]} has ${streams[0].length}`, {
        file: files[j],
      });
    }
  });
  return streams;
}

/** Checks that a file read per segment has one line per reference segment. */
function checkLines(file: string, lines: readonly string[], segments: number): void {
  if (lines.length !== segments) {
    throw new InputError('E_LINE_COUNT_MISMATCH', `${lines.length} lines but the references have ${segments}`, {
      file,
      line: Math.min(lines.length, segments) + 1,
    });
  }
}

/** What the report calls a set of judgments: its score column, or the file name when that is ambiguous. */
function humanName(h: HumanFile, all: readonly HumanFile[]): string {
  const unique = h.score !== 'score' && all.filter((o) => o.score === h.score).length === 1;
  return unique ? h.score : `${basename(h.file)} (${h.score})`;
}

/**
 * Reads and aligns the `--human` files (empty scores are "not rated"); what alignment left out is said on `notes`.
 */
function readHuman(options: ReportOptions, systems: readonly string[], segments: number, notes: string[]): ReportHuman[] {
  return options.human.map((h) => {
    const table = readScoreTable(h.file, {
      score: h.score,
      system: h.system,
      ...(h.item === undefined ? { item: undefined } : { item: h.item }),
      allowUnrated: true,
    });
    const aligned = alignHumanTable(table, systems, segments, humanName(h, options.human));
    if (aligned.human.note !== undefined) notes.push(`${h.file}: ${aligned.human.note}`);
    return aligned.human;
  });
}

/**
 * Computes the report's HTML (everything that can fail on the user's input happens here); what alignment left out is
 * said on `notes`, valid input that is probably not what the user meant (input-warnings.ts) on `warnings`, and how
 * far the computation is to `onProgress` (steps done of a total, as buildReport counts them).
 */
export function reportHtml(
  options: ReportOptions,
  registry: MetricRegistry = defaultRegistry,
  notes: string[] = [],
  warnings: string[] = [],
  onProgress?: (done: number, total: number) => void,
): string {
  const ids = [
    ...new Set(options.metrics.map((id) => (registry.resolve === undefined ? id : registry.resolve(id, options.metricSettings)))),
  ];
  const metrics: ReportMetricInput[] = ids.map((id) => ({ id, metric: registry.create(id, options.metricSettings) }));
  const references = readReferences(options.refs);
  const segments = references[0].length;
  const systems = readSystems(options.inputs);
  for (const s of systems) checkLines(s.file!, s.lines, segments);
  const read = [...options.refs.map((file, j) => ({ file, lines: references[j] })), ...systems.map((s) => ({ file: s.file!, lines: s.lines }))];
  for (const w of [...read.map(bomWarning), tabWarning(read.slice(0, options.refs.length), 1, (n) => `give them as ${n} reference files`)]) if (w !== undefined) warnings.push(w);
  const source = options.source === undefined ? undefined : readStripped(options.source);
  if (source !== undefined) checkLines(options.source!, source, segments);
  // Judgments name systems by file (path, file name or stem), whatever the report shows.
  const human = readHuman(options, systems.map((s) => s.file!), segments, notes);
  const data = buildReport({
    title: options.title,
    created: options.created,
    version: VERSION,
    references,
    source,
    systems,
    metrics,
    onProgress,
    ...(human.length === 0 ? {} : { human }),
    ...(options.bootstrap === 0 ? {} : { correlationBootstrap: { resamples: options.bootstrap, seed: options.seed } }),
    ...(options.bootstrap === 0 ? {} : { intervals: bootstrapIntervals(options.bootstrap, options.seed) }),
    ...(options.paired === undefined
      ? {}
      : {
          significance: pairedSignificance({
            test: options.paired,
            samples: options.pairedSamples,
            seed: options.seed,
            allPairs: options.allPairs,
          }),
        }),
  });
  return renderReportHtml(data);
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
