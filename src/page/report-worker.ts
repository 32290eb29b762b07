/**
 * The scoring page's worker: everything that takes time runs here, so the page never freezes. It parses the
 * request's flags with `palette report`'s parser, reads the inputs in slices (UTF-8 as the CLI reads files), scores
 * the statistics rows on the browser library's pool of Web Workers through the corpus engine, and computes the
 * report with the command's own code (src/cli/report-command/compute.ts): the same HTML and the same messages as
 * `palette report`. Human judgment files are parsed as `--human` files are (src/meta/human-scores.ts), aligned and
 * named by the same code.
 */
import { hardwareConcurrency, type WorkerScope } from '../browser/web-globals.js';
import { readInputLines, type TextInput } from '../browser/read.js';
import { loadWasm } from '../browser/wasm.js';
import { webWorkerPool } from '../browser/worker-pool.js';
import { alignHumanFiles, reportFromTexts, reportMetricIds } from '../cli/report-command/compute.js';
import { parseReportArgs } from '../cli/report-command/options.js';
import { scoreSystemRows } from '../engine/corpus/index.js';
import { InputError, locate } from '../errors.js';
import { parseScoreTable } from '../meta/human-scores.js';
import { defaultRegistry } from '../metrics/registry.js';
import { pyRstrip } from '../text/pystr.js';
import type { PageInput, ReportReply, ReportRequest } from './protocol.js';

const scope = globalThis as unknown as WorkerScope;

function reply(message: ReportReply): void {
  scope.postMessage(message);
}

/** Size of an input for the reading progress: bytes of a File, UTF-16 units of text. */
function sizeOf(x: PageInput): number {
  const input = x.input as { size?: number; length?: number };
  return input.size ?? input.length ?? 0;
}

/** Progress messages at most this often, so that a big run does not flood the page. */
const PROGRESS_MS = 50;
let lastProgress = 0;
function progress(phase: 'read' | 'score' | 'report', done: number, total: number): void {
  const now = Date.now();
  if (done < total && now - lastProgress < PROGRESS_MS) return;
  lastProgress = now;
  reply({ type: 'progress', phase, done, total });
}

/** A human judgment file as read: its lines, or what reading it failed with (thrown when the report asks for it). */
type ReadTable = { readonly lines: readonly string[] } | { readonly error: unknown };

async function run(request: ReportRequest): Promise<void> {
  const files = [...request.refs, ...request.systems, ...(request.source === undefined ? [] : [request.source])];
  const humanFiles = request.human ?? [];
  const argv = [
    ...request.refs.map((r) => r.name),
    '-i',
    ...request.systems.map((s) => s.name),
    '-o',
    'report.html',
    ...(request.source === undefined ? [] : ['--source', request.source.name]),
    ...(humanFiles.length === 0 ? [] : ['--human', ...humanFiles.map((h) => h.name)]),
    ...request.flags,
  ];
  const command = parseReportArgs(argv, {});
  if (command.kind !== 'run') throw new InputError('E_BAD_OPTION', '--help is not a report');
  const { options } = command;
  const ids = reportMetricIds(options, defaultRegistry);
  ids.forEach((id) => defaultRegistry.create(id, options.metricSettings));
  await loadWasm();

  const total = [...files, ...humanFiles].reduce((n, f) => n + sizeOf(f), 0);
  let before = 0;
  const lines = new Map<string, string[]>();
  for (const f of files) {
    if (lines.has(f.name)) continue;
    const at = before;
    const read = await readInputLines(f.input as TextInput, f.name, { onProgress: (done) => progress('read', at + done, total) });
    lines.set(f.name, read.map(pyRstrip));
    before += sizeOf(f);
    progress('read', before, total);
  }
  // The command reads judgments after every segment file has passed its checks: an error in one is kept until the
  // report asks for it, so that the first problem reported is the one the CLI reports. Tables are read as the CLI
  // reads them (an empty file gets the table's own message; lines are not stripped).
  const tables: ReadTable[] = [];
  for (const h of humanFiles) {
    const at = before;
    try {
      tables.push({ lines: await readInputLines(h.input as TextInput, h.name, { allowEmpty: true, onProgress: (done) => progress('read', at + done, total) }) });
    } catch (err) {
      tables.push({ error: err });
    }
    before += sizeOf(h);
    progress('read', before, total);
  }
  const read = (name: string): string[] => lines.get(name)!;

  // Rows on the pool when the inputs are consistent; otherwise the report's own code finds and words the problem.
  const refs = options.refs.map(read);
  const systems = options.inputs.map(read);
  const segments = refs[0].length;
  let rows: Float64Array[][] | undefined;
  let threads = 1;
  if (refs.every((r) => r.length === segments) && systems.every((s) => s.length === segments) && new Set(options.inputs).size === options.inputs.length) {
    try {
      const scored = await scoreSystemRows(systems, {
        metrics: ids,
        references: refs,
        settings: options.metricSettings,
        workers: hardwareConcurrency(),
        pool: webWorkerPool(),
        onProgress: (done, all) => progress('score', done, all),
      });
      rows = scored.rows.map((r) => [...r]);
      threads = scored.threads;
    } catch (err) {
      if (!(err instanceof Error) || err.name !== 'SystemRowsError') throw err;
    }
  }
  const notes: string[] = [];
  const warnings: string[] = [...options.warnings];
  const html = reportFromTexts(options, {
    registry: defaultRegistry,
    read,
    notes,
    warnings,
    ...(rows === undefined ? {} : { rows }),
    human: (systemFiles, segments) =>
      alignHumanFiles(
        options.human,
        (h, columns) => {
          const table = tables[options.human.indexOf(h)];
          if ('error' in table) throw table.error;
          return parseScoreTable(h.file, table.lines, columns);
        },
        systemFiles,
        segments,
        notes,
      ),
    onProgress: (done, all) => progress('report', done, all),
  });
  reply({ type: 'done', html, notes, warnings, threads });
}

scope.onmessage = (event) => {
  run(event.data as ReportRequest).catch((err: unknown) => {
    // Bad input as the CLI words it; anything else is a bug, said as such.
    const message =
      err instanceof InputError
        ? `palette report: error: ${locate(err.message, err.file, err.line)}`
        : `palette report: internal error: ${(err as Error)?.message ?? String(err)}`;
    reply({ type: 'error', message });
  });
};
