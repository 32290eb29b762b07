/**
 * What `palette report` computes once its inputs are read, with no file access: the checks of line counts and
 * duplicates with their messages, the warnings about valid but suspicious input, the scores, intervals and tests
 * (src/report/), and the HTML. The command (./command.ts) reads files on Node and calls this; the offline scoring
 * page runs the same code in a Web Worker on the files the user dropped, so both give the same report and the same
 * messages.
 */
import { InputError } from '../../errors.js';
import type { ScoreColumns, ScoreTable } from '../../meta/human-scores.js';
import type { MetricRegistry } from '../../metrics/registry.js';
import { buildReport, type ReportMetricInput, type ReportSystemInput } from '../../report/build-report.js';
import type { ReportHuman } from '../../report/report-data.js';
import { alignHumanTable } from '../../report/report-human.js';
import { renderReportHtml } from '../../report/render-html.js';
import { bootstrapIntervals, pairedSignificance } from '../../report/report-statistics.js';
import { baseName as posixBaseName } from '../../util/path-name.js';
import { VERSION } from '../../version.js';
import { bomWarning, tabWarning } from '../input-warnings.js';
import type { HumanFile, ReportOptions } from './options.js';

/** A file as read: its name (as given, for messages) and its lines. */
interface ReadFile {
  readonly file: string;
  readonly lines: readonly string[];
}

/** The last part of a path, `/` or `\` separated. */
function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1];
}

/**
 * Names the report shows for system files: the file names when they differ, otherwise the paths after their longest
 * common folder, so that tables and plots stay narrow; an extension every file shares is left out when the names stay
 * distinct and none becomes empty (`sys/online-B.0.de`, `sys/uedin.de` → `online-B.0`, `uedin`).
 */
export function systemDisplayNames(files: readonly string[]): string[] {
  let names = files.map(baseName);
  if (new Set(names).size !== names.length) {
    const parts = files.map((f) => f.split(/[\\/]/));
    let common = 0;
    while (parts.every((p) => common < p.length - 1 && p[common] === parts[0][common])) common++;
    names = parts.map((p) => p.slice(common).join('/'));
  }
  const ext = /[.][^./\\]+$/.exec(names[0] ?? '')?.[0];
  if (ext === undefined || !names.every((n) => n.endsWith(ext) && n.length > ext.length && !n.endsWith(`/${ext}`))) return names;
  const stems = names.map((n) => n.slice(0, -ext.length));
  return new Set(stems).size === stems.length ? stems : names;
}

/**
 * The index of the system `--baseline` names: its path as given, its shown name, or its file name with or without
 * the extension.
 * @throws InputError `E_BAD_OPTION` when it names no system, or several.
 */
export function baselineIndex(baseline: string, files: readonly string[]): number {
  const shown = systemDisplayNames(files);
  const matches = files.flatMap((f, i) => {
    const base = baseName(f);
    const stem = base.replace(/[.][^.]+$/, '');
    return [f, shown[i], base, stem].includes(baseline) ? [i] : [];
  });
  if (matches.length === 1) return matches[0];
  throw new InputError(
    'E_BAD_OPTION',
    matches.length === 0
      ? `--baseline "${baseline}" is none of the systems (${shown.join(', ')})`
      : `--baseline "${baseline}" names ${matches.length} systems: give its path`,
  );
}

/** The canonical ids of the report's metrics, each once, in `-m` order. */
export function reportMetricIds(options: ReportOptions, registry: MetricRegistry): string[] {
  return [
    ...new Set(options.metrics.map((id) => (registry.resolve === undefined ? id : registry.resolve(id, options.metricSettings)))),
  ];
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

/** Reference streams, all as long as the first. */
function checkReferences(refs: readonly ReadFile[]): string[][] {
  refs.forEach((r) => {
    if (r.lines.length !== refs[0].lines.length) {
      throw new InputError('E_LINE_COUNT_MISMATCH', `has ${r.lines.length} lines but ${refs[0].file} has ${refs[0].lines.length}`, {
        file: r.file,
      });
    }
  });
  return refs.map((r) => r.lines as string[]);
}

/** The systems of `-i`, each file once (a file given twice is refused before it is read again). */
function readSystems(files: readonly string[], read: (file: string) => readonly string[]): ReportSystemInput[] {
  const seen = new Set<string>();
  const names = systemDisplayNames(files);
  return files.map((file, s) => {
    if (seen.has(file)) throw new InputError('E_BAD_OPTION', `"${file}" is given twice to -i: each system needs its own file`);
    seen.add(file);
    return { name: names[s], file, lines: read(file) };
  });
}

/** What the report calls a set of judgments: its score column, or the file name when that is ambiguous. */
function humanName(h: HumanFile, all: readonly HumanFile[]): string {
  const unique = h.score !== 'score' && all.filter((o) => o.score === h.score).length === 1;
  return unique ? h.score : `${posixBaseName(h.file)} (${h.score})`;
}

/** The columns a `--human` file is read with (empty scores are "not rated"). */
export function humanColumns(h: HumanFile): ScoreColumns {
  return { score: h.score, system: h.system, item: h.item, allowUnrated: true };
}

/**
 * The `--human` files aligned to the systems (by their files) and segments, in option order; what alignment left
 * out is said on `notes`, one line per file. `readTable` gives a file's table with {@link humanColumns}' columns (the
 * command reads it from disk, the page parses what was dropped), so both name judgments and word notes alike.
 */
export function alignHumanFiles(
  human: readonly HumanFile[],
  readTable: (h: HumanFile, columns: ScoreColumns) => ScoreTable,
  systemFiles: readonly string[],
  segments: number,
  notes: string[],
): ReportHuman[] {
  return human.map((h) => {
    const aligned = alignHumanTable(readTable(h, humanColumns(h)), systemFiles, segments, humanName(h, human));
    if (aligned.human.note !== undefined) notes.push(`${h.file}: ${aligned.human.note}`);
    return aligned.human;
  });
}

/** What {@link reportFromTexts} is told besides the options and the texts. */
export interface ReportComputation {
  readonly registry: MetricRegistry;
  /**
   * The lines of a file the options name, `rstrip()`ped as `palette score` reads them (Node: read from disk; the
   * page: the files dropped, read before). Files are asked for in the command's order: references, systems, source.
   */
  readonly read: (file: string) => readonly string[];
  /** Where notes (what alignment left out) go. */
  readonly notes?: string[];
  /** Where warnings about valid input that is probably not what the user meant go. */
  readonly warnings?: string[];
  readonly onProgress?: (done: number, total: number) => void;
  /** Human judgments, aligned to the systems (the command reads them from `--human` files). */
  readonly human?: (systemFiles: readonly string[], segments: number) => ReportHuman[];
  /**
   * The statistics rows already scored (`rows[m][k]`, metric m of {@link reportMetricIds}, system k), as the corpus
   * engine gives them: the page scores them on its Web Workers. Absent: scored here.
   */
  readonly rows?: readonly (readonly Float64Array[])[];
}

/**
 * The report's HTML from read inputs (everything that can fail on the user's input, after reading, happens here).
 * @throws InputError with the command's messages.
 */
export function reportFromTexts(options: ReportOptions, how: ReportComputation): string {
  const { registry } = how;
  const ids = reportMetricIds(options, registry);
  const metrics: ReportMetricInput[] = ids.map((id) => ({ id, metric: registry.create(id, options.metricSettings) }));
  // A baseline that names no system is refused before any file is read.
  const baseline = options.baseline === undefined ? 0 : baselineIndex(options.baseline, options.inputs);
  const refs = options.refs.map((file) => ({ file, lines: how.read(file) }));
  const references = checkReferences(refs);
  const segments = references[0].length;
  const systems = readSystems(options.inputs, how.read);
  for (const s of systems) checkLines(s.file!, s.lines, segments);
  const read = [...refs, ...systems.map((s) => ({ file: s.file!, lines: s.lines }))];
  for (const w of [...read.map(bomWarning), tabWarning(refs, 1, (n) => `give them as ${n} reference files`)]) {
    if (w !== undefined) how.warnings?.push(w);
  }
  const source = options.source === undefined ? undefined : how.read(options.source);
  if (source !== undefined) checkLines(options.source!, source, segments);
  // Judgments name systems by file (path, file name or stem), whatever the report shows.
  const human = how.human?.(systems.map((s) => s.file!), segments) ?? [];
  const data = buildReport({
    title: options.title,
    created: options.created,
    version: VERSION,
    references,
    source,
    systems,
    metrics,
    onProgress: how.onProgress,
    ...(how.rows === undefined ? {} : { rows: how.rows }),
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
            baseline,
          }),
        }),
  });
  return renderReportHtml(data);
}
