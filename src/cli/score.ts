/**
 * `palette score`: read references once, read every system, score, and render exactly what sacrebleu prints.
 *
 * Reading follows sacrebleu's CLI: every reference and hypothesis line is `rstrip()`ped (Python whitespace, which
 * also drops a `'\r'` of CRLF files); with `-nr N` each reference line is split on tabs into N references; without
 * `-i`, standard input holds the systems as tab-separated columns. References are tokenized and interned once per
 * metric (`prepareReferences`) and reused for every system. Metrics run in sacrebleu's order (sorted by upper-case
 * name), whatever order `-m` gave. Nothing is printed before every number is known, so an error leaves stdout empty.
 * A metric's complaint about the data (an `InputError` without a location, e.g. NLTK raising on a segment) is
 * reported with the system's file and, for segment scores, the segment's line.
 */
import { SystemRowsError, scoreSystemRows, type CorpusRunnerFactory } from '../engine/corpus/index.js';
import { InputError, unknownMetric } from '../errors.js';
import { readLines, readStreamLines } from '../node/read-lines.js';
import type { MetricScore, PreparedReferences } from '../metrics/metric.js';
import type { CliMetric, MetricRegistry } from '../metrics/registry.js';
import { pyRstrip } from '../text/pystr.js';
import type { CliIo } from './io.js';
import { formatAlignments } from './detail.js';
import { bomWarning, oneSentenceLsumWarnings, tabWarning, type ReadFile } from './input-warnings.js';
import { createProgress } from './progress.js';
import { pyFixed } from './py-format.js';
import {
  formatResultsTable,
  formatScore,
  formatSingleResults,
  type ResultColumn,
} from './report.js';
import type { ScoreOptions } from './score-options.js';
import { formatSegmentRows, type SegmentRowFormat } from './segment-rows.js';

const STDIN_NAME = '<stdin>';

/** A system to score: its name (the file name, as sacrebleu), where its lines come from, and its lines. */
interface System {
  readonly name: string;
  /** The file errors name: the file, `<stdin>`, or `<stdin> (column k)` for tab-separated systems. */
  readonly file: string;
  readonly lines: readonly string[];
  /** The file the lines were read from, whole (a queue run's workers read it too); undefined for other sources. */
  readonly path?: string;
}

/**
 * Runs `f`; an `InputError` that names no file (a metric's complaint about the data it scores) comes out located
 * at `file` and `line` (or the line the metric named, e.g. a malformed pre-chunked segment), so the message says
 * which system and which segment.
 */
function locatedAt<T>(file: string, line: number | undefined, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof InputError && err.file === undefined) {
      const located = new InputError(err.code, err.message, { file, line: line ?? err.line });
      located.cause = err;
      throw located;
    }
    throw err;
  }
}

async function readStdin(io: CliIo, options: ScoreOptions): Promise<string[]> {
  if (io.stdin === undefined) throw new InputError('E_BAD_INPUT', 'no standard input to read', { file: STDIN_NAME });
  // sacrebleu reads stdin through a TextIOWrapper with universal newlines: '\r' and '\r\n' end lines there too.
  return readStreamLines(io.stdin, STDIN_NAME, { encoding: options.encoding, newline: 'universal' });
}

/** Python `s.split('\t', maxsplit)`. */
function splitTabs(s: string, maxsplit: number): string[] {
  const parts: string[] = [];
  let from = 0;
  while (parts.length < maxsplit) {
    const at = s.indexOf('\t', from);
    if (at < 0) break;
    parts.push(s.slice(from, at));
    from = at + 1;
  }
  parts.push(s.slice(from));
  return parts;
}

/**
 * Reference streams (`streams[j][i]` = reference j of segment i), the file each stream comes from, and each file as
 * read (for the input warnings).
 */
function readReferences(options: ScoreOptions): { streams: string[][]; files: string[]; read: ReadFile[] } {
  const streams: string[][] = [];
  const files: string[] = [];
  const read: ReadFile[] = [];
  for (const file of options.refs) {
    const lines = readLines(file, { encoding: options.encoding });
    read.push({ file, lines });
    if (options.numRefs === 1) {
      streams.push(lines.map(pyRstrip));
      files.push(file);
      continue;
    }
    const n = options.numRefs;
    for (let j = 0; j < n; j++) {
      streams.push([]);
      files.push(`${file} (column ${j + 1})`);
    }
    lines.forEach((line, i) => {
      const fields = splitTabs(pyRstrip(line), n - 1);
      if (fields.length !== n) {
        throw new InputError('E_BAD_INPUT', `expected ${n} tab-separated references, found ${fields.length}`, {
          file,
          line: i + 1,
        });
      }
      fields.forEach((field, j) => streams[j].push(field));
    });
  }
  return { streams, files, read };
}

/**
 * The references of `-t` (sacreBLEU's cached text files of each set, concatenated set after set) and its
 * `--origlang`/`--subset` mask.
 */
async function readTestSetReferences(
  options: ScoreOptions,
  io: CliIo,
): Promise<{ streams: string[][]; files: string[]; read: ReadFile[]; mask: boolean[] | null }> {
  const { files, mask } = await (await import('./testsets/index.js')).testSetReferences(options.testSets, io, options.quiet);
  const streams: string[][] = [];
  const names: string[] = [];
  const read: ReadFile[] = [];
  for (const setFiles of files) {
    setFiles.forEach((file, j) => {
      const lines = readLines(file, { encoding: options.encoding });
      read.push({ file, lines });
      if (streams[j] === undefined) {
        streams[j] = [];
        names[j] = file;
      }
      for (const line of lines) streams[j].push(pyRstrip(line));
    });
  }
  return { streams, files: names, read, mask };
}

/**
 * The segments `--origlang`/`--subset` keep, of every system and reference stream (sacreBLEU's `filter_subset`);
 * a system whose length is not the test set's is refused first, naming both lengths.
 */
function filterSegments(
  systems: readonly System[],
  refs: { streams: string[][]; files: string[] },
  mask: readonly boolean[],
  options: ScoreOptions,
): System[] {
  checkLineCounts(systems, refs);
  const keep = <T>(xs: readonly T[]): T[] => xs.filter((_, i) => mask[i]);
  refs.streams = refs.streams.map(keep);
  const kept = systems.map((s) => ({ name: s.name, file: s.file, lines: keep(s.lines) }));
  if (kept.some((s) => s.lines.length === 0)) {
    const t = options.testSets;
    const filters = [t.origlang !== null ? `origlang=${t.origlang}` : '', t.subset !== null ? `subset=${t.subset}` : ''].filter((x) => x);
    throw new InputError('E_EMPTY_INPUT', `test set ${t.testSets!.join(',')} contains no sentence with ${filters.join(' ')}`);
  }
  return kept;
}

async function readSystems(options: ScoreOptions, io: CliIo): Promise<System[]> {
  if (options.inputs === null) {
    const lines = await readStdin(io, options);
    // As sacrebleu: the first line fixes the number of systems; its fields are not rstripped one by one.
    const first = pyRstrip(lines[0]).split('\t');
    const columns = first.map((field) => [field]);
    for (let i = 1; i < lines.length; i++) {
      const fields = pyRstrip(lines[i]).split('\t');
      if (fields.length !== columns.length) {
        throw new InputError(
          'E_BAD_INPUT',
          `${fields.length} tab-separated systems on this line, ${columns.length} on the first line`,
          { file: STDIN_NAME, line: i + 1 },
        );
      }
      fields.forEach((field, s) => columns[s].push(pyRstrip(field)));
    }
    return columns.map((col, s) => ({ name: `System ${s + 1}`, file: `${STDIN_NAME} (column ${s + 1})`, lines: col }));
  }
  const systems: System[] = [];
  for (const file of options.inputs) {
    const name = file === '-' ? STDIN_NAME : file;
    // sacrebleu: in a paired test, the baseline given again is skipped.
    if (options.significance.paired !== null && systems.length > 0 && systems[0].name === name) continue;
    if (systems.some((s) => s.name === name)) {
      throw new InputError('E_BAD_OPTION', `"${file}" is given twice to -i: each system needs its own file name`);
    }
    const lines = file === '-' ? await readStdin(io, options) : readLines(file, { encoding: options.encoding });
    systems.push({ name, file: name, lines: lines.map(pyRstrip), ...(file === '-' ? {} : { path: file }) });
  }
  return systems;
}

function checkLineCounts(systems: readonly System[], refs: { streams: string[][]; files: string[] }): void {
  for (const system of systems) {
    refs.streams.forEach((stream, j) => {
      if (stream.length === system.lines.length) return;
      throw new InputError(
        'E_LINE_COUNT_MISMATCH',
        `line-count mismatch: ${system.name} has ${system.lines.length} lines, reference ${refs.files[j]} has ` +
          `${stream.length}`,
        { file: system.name, line: Math.min(stream.length, system.lines.length) + 1 },
      );
    });
  }
}

/**
 * Prepares a metric's references; a complaint about a reference line (an `InputError` with no file, e.g. malformed
 * pre-chunked text) is located in its reference file by preparing each stream alone (only on that error path).
 */
function prepareLocated(
  m: CliMetric,
  refs: { streams: string[][]; files: string[] },
): ReturnType<CliMetric['metric']['prepareReferences']> {
  try {
    return m.metric.prepareReferences(refs.streams);
  } catch (err) {
    if (!(err instanceof InputError) || err.file !== undefined || refs.streams.length === 1) {
      throw err instanceof InputError && err.file === undefined ? locatedAtError(refs.files[0], err) : err;
    }
    refs.streams.forEach((stream, j) => locatedAt(refs.files[j], undefined, () => m.metric.prepareReferences([stream])));
    throw err;
  }
}

function locatedAtError(file: string, err: InputError): InputError {
  const located = new InputError(err.code, err.message, { file, line: err.line });
  located.cause = err;
  return located;
}

/** sacrebleu's warning (BLEU without `--force`) when a system looks tokenized. */
function warnIfTokenized(system: System, io: CliIo): void {
  let count = 0;
  for (const line of system.lines) if (line.endsWith(' .')) count++;
  if (count < 100) return;
  io.stderr.write(
    `palette: warning: ${system.name}: ${count} lines end in a tokenized period (' .'); ` +
      'it looks like the test data is not detokenized, which may hurt the BLEU score ' +
      '(--force silences this warning)\n',
  );
}

/**
 * sacrebleu's order of metrics, `sorted()` by upper-cased name (code-unit order equals code-point order for metric
 * ids), except that runs of digits compare by value, so that ROUGE-2 comes before ROUGE-10 (sacrebleu's own ids have
 * no digits, so their order is unchanged).
 */
function byUpperCase(a: string, b: string): number {
  const x = a.toUpperCase();
  const y = b.toUpperCase();
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (isDigit(x, i) && isDigit(y, j)) {
      const [p, q] = [digitsEnd(x, i), digitsEnd(y, j)];
      const d = Number(x.slice(i, p)) - Number(y.slice(j, q));
      if (d !== 0) return d;
      [i, j] = [p, q];
      continue;
    }
    if (x[i] !== y[j]) return x[i] < y[j] ? -1 : 1;
    i++;
    j++;
  }
  return x.length - i - (y.length - j);
}

function isDigit(s: string, i: number): boolean {
  return s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39;
}

function digitsEnd(s: string, i: number): number {
  while (i < s.length && isDigit(s, i)) i++;
  return i;
}

/** The canonical ids of `-m`'s names, each once, in the order first given. */
function resolveIds(options: ScoreOptions, registry: MetricRegistry): string[] {
  const ids = options.metrics.map((id) => {
    if (registry.resolve !== undefined) return registry.resolve(id, options.metricSettings);
    if (!registry.ids.includes(id)) throw unknownMetric(id, [...registry.ids, ...(registry.families ?? [])]);
    return id;
  });
  return [...new Set(ids)];
}

/** The statistics rows of system `system` under metric `k` (the index into the sorted metrics). */
type SystemRows = (system: number, k: number) => Float64Array;

/** The pool's runner, its module imported only when the engine starts one (a small run never loads piscina). */
const lazyPool: CorpusRunnerFactory = async (setup) => (await import('../pool/corpus-pool.js')).corpusWorkerPool(setup);

/**
 * Every system's rows under every metric, from the engine (src/engine/corpus/: each distinct segment hypothesis
 * scored once per metric; with `-j N`, N threads). When a metric refuses a hypothesis, the engine names the first
 * system and metric where it does; the loops that read the rows then meet that refusal where scoring system by
 * system meets it, after scoring the pairs they visit before it one by one, so they report the error they always
 * did, in their own order.
 */
async function engineRows(
  ids: readonly string[],
  metrics: readonly CliMetric[],
  prepared: readonly PreparedReferences[],
  systems: readonly System[],
  references: readonly (readonly string[])[],
  options: ScoreOptions,
  registry: MetricRegistry,
  io: CliIo,
  referencePaths: readonly (string | undefined)[],
): Promise<SystemRows> {
  if (options.queue !== undefined) {
    // Imported here: BullMQ and its Redis client load only for a queue run.
    const { queuedRows } = await import('./score-queue.js');
    const rows = await queuedRows({
      queue: options.queue,
      ids,
      settings: options.metricSettings,
      widths: metrics.map((m) => m.metric.statsWidth),
      registry,
      systems: systems.map((s) => ({ lines: s.lines, ...(s.path === undefined ? {} : { path: s.path }) })),
      references: references.map((lines, j) => ({ lines, ...(referencePaths[j] === undefined ? {} : { path: referencePaths[j] }) })),
      encoding: options.encoding,
      quiet: options.quiet,
      io,
    });
    // Undefined: a metric refused an input; scoring here reports it as the single-machine run does.
    if (rows !== undefined) return (system, k) => rows[k][system];
  }
  // node:os only where it is asked (a module more to load for every run otherwise).
  const workers = options.significance.pairedJobs === 0 ? (await import('node:os')).availableParallelism() : options.significance.pairedJobs;
  // Pool workers build the metrics with the default registry: another registry (tests) keeps the run in this thread.
  const pooled = workers > 1 && registry === (await import('../metrics/registry.js')).defaultRegistry;
  try {
    const { rows } = await scoreSystemRows(
      systems.map((s) => s.lines),
      {
        metrics: ids,
        references,
        settings: options.metricSettings,
        registry,
        built: { metrics: metrics.map((m) => m.metric), prepared },
        workers: pooled ? workers : 1,
        pool: pooled ? lazyPool : undefined,
      },
    );
    return (system, k) => rows[k][system];
  } catch (err) {
    if (!(err instanceof SystemRowsError)) throw err;
    return (system, k) => {
      if (system === err.system && k === err.metric) throw err.cause;
      return metrics[k].metric.segmentStats(systems[system].lines, prepared[k]);
    };
  }
}

/**
 * Runs `palette score` and returns what goes to stdout (final newline included).
 * @throws InputError for anything the user must fix (files, options, line counts).
 */
export async function runScore(options: ScoreOptions, io: CliIo, registry: MetricRegistry): Promise<string> {
  const t = options.testSets;
  if (t.download !== null || t.list || t.citation || t.echo !== null) {
    return (await (await import('./testsets/index.js')).testSetCommand(t, io, options.quiet)) ?? '';
  }
  if (!options.quiet) for (const notice of options.notices) io.stderr.write(`palette: warning: ${notice}\n`);
  // sacrebleu evaluates `sorted(metrics)`, keyed by upper-case name, whatever the order of -m.
  const requested = resolveIds(options, registry);
  const ids = [...requested].sort(byUpperCase);
  const metrics: CliMetric[] = ids.map((id) => registry.create(id, options.metricSettings));
  // Each metric prints with its own number of decimals unless -w says (ROUGE's fractions need more than BLEU's 1).
  const widths = metrics.map((m) => (options.widthGiven ? options.width : (m.defaultWidth ?? options.width)));

  const fromTestSet = options.testSets.testSets !== null;
  const refs = fromTestSet ? await readTestSetReferences(options, io) : { ...readReferences(options), mask: null };
  let systems = await readSystems(options, io);
  // sacreBLEU's --detail report scores every group on the whole test set, whatever --origlang/--subset kept.
  const fullSystems = systems;
  const fullRefStreams = refs.streams;
  const subsetDetail = options.detail && fromTestSet && !options.sentenceLevel && systems.length === 1 && options.significance.paired === null;
  if (subsetDetail && options.testSets.origlang !== null) {
    throw new InputError(
      'E_BAD_OPTION',
      '--detail with --origlang: sacreBLEU 2.x fails on it (it takes each character of the --origlang value for a language and finds nothing to report); ' +
        'without --origlang, --detail reports every original language of the test set',
    );
  }
  try {
    if (refs.mask !== null) systems = filterSegments(systems, refs, refs.mask, options);
    checkLineCounts(systems, refs);
  } catch (err) {
    // As sacreBLEU: with -t the fault may be a stale cache entry rather than the system output.
    if (!fromTestSet || !(err instanceof InputError) || err.code !== 'E_LINE_COUNT_MISMATCH') throw err;
    const sets = options.testSets.testSets!.join(', ');
    throw new InputError(err.code, `${err.message} (if the system output is right, the cached test set may be stale: remove ${sets} from the cache, $SACREBLEU or ~/.sacrebleu, to fetch it again)`, { file: err.file, line: err.line });
  }
  if (!options.quiet) {
    const warnings = [
      ...[...refs.read, ...systems].map(bomWarning),
      tabWarning(refs.read, options.numRefs),
      ...oneSentenceLsumWarnings(metrics, systems, refs.streams),
    ];
    for (const w of warnings) if (w !== undefined) io.stderr.write(`palette: warning: ${w}\n`);
  }
  const nRefs = refs.streams.length;
  const prepared = metrics.map((m) => prepareLocated(m, refs));
  // The rows are scored once every option has been checked.
  // Reference streams that are a file's lines, whole (-nr columns and -t sets are not).
  const referencePaths = refs.streams.map((_, j) => (!fromTestSet && options.numRefs === 1 ? options.refs[j] : undefined));
  const scoreRows = (): Promise<SystemRows> => engineRows(ids, metrics, prepared, systems, refs.streams, options, registry, io, referencePaths);

  if (options.sentenceLevel) {
    // One metric and one system: sacrebleu's lines; otherwise one row per segment and system with every metric.
    if (metrics.length === 1 && systems.length === 1 && options.format !== 'tsv' && options.format !== 'csv') {
      const rowsOf = await scoreRows();
      return sentenceLevel(metrics[0], () => rowsOf(0, 0), systems[0], nRefs, widths[0], options);
    }
    return segmentRows(metrics, scoreRows, systems, options);
  }
  const format0 = options.format;
  if (format0 === 'tsv' || format0 === 'csv') throw new Error(`-f ${format0} reached a corpus-level run`);
  const significance = options.significance;
  if (significance.paired === null && significance.confidence && systems.length > 1) {
    throw new InputError('E_BAD_OPTION', 'use paired tests (--paired-bs or --paired-ar) for multiple systems');
  }
  const rowsOf = await scoreRows();

  // The warning is about detokenized-text BLEU; the nltk and moses flavors expect tokenized text by default.
  const flavor = options.metricSettings.bleu?.flavor ?? 'sacrebleu';
  const warnBleu = ids.includes('bleu') && !options.force && (flavor === 'sacrebleu' || flavor === 'lin-och');
  // sacrebleu turns JSON into text when --detail is given (its subset report would not be JSON).
  const format = options.detail && format0 === 'json' ? 'text' : format0;
  // Palette's -d addition: the word alignments of the metrics that have them, after the scores.
  const details = (list: readonly System[]): string => {
    if (!options.detail) return '';
    const blocks: string[] = [];
    for (const system of list) {
      metrics.forEach((m, k) => {
        if (m.align === undefined) return;
        const alignments = system.lines.map((line, i) => locatedAt(system.file, i + 1, () => m.align!(line, prepared[k], i)));
        blocks.push(formatAlignments(ids[k].toUpperCase(), system.name, alignments));
      });
    }
    return blocks.map((b) => `\n${b}\n`).join('');
  };
  // sacreBLEU's --detail with -t: each group of ./testsets detailGroups scored alone, the metrics in -m order.
  const subsetReport = async (): Promise<string> => {
    if (!subsetDetail) return '';
    const groups = await (await import('./testsets/index.js')).detailGroups(options.testSets, io, options.quiet);
    if (groups === null) return 'No subset information found. Consider using --origlang argument.\n';
    const system = fullSystems[0];
    const order = requested.map((id) => ids.indexOf(id));
    const scored: { key: string; sentences: number; scores: MetricScore[] }[] = [];
    for (const group of groups) {
      const lines = system.lines.filter((_, i) => group.mask[i]);
      if (lines.length === 0) continue;
      const streams = fullRefStreams.map((stream) => stream.filter((_, i) => group.mask[i]));
      const scores = order.map((k) => {
        const m = metrics[k];
        const groupRefs = prepareLocated(m, { streams, files: refs.files });
        return locatedAt(system.file, undefined, () => m.corpusScore(m.metric.segmentStats(lines, groupRefs)));
      });
      scored.push({ key: group.key, sentences: lines.length, scores });
    }
    if (scored.length === 0) return '';
    // Python pads by code points.
    const pad = (text: string, width: number): string => text + ' '.repeat(Math.max(0, width - [...text].length));
    const keyWidth = Math.max(...scored.map((g) => [...g.key].length)) + 1;
    const nameWidth = Math.max(...scored[0].scores.map((score) => [...score.name].length));
    const out: string[] = [];
    for (const g of scored) {
      const key = color ? `\x1b[33m${pad(g.key, keyWidth)}\x1b[0m` : pad(g.key, keyWidth);
      g.scores.forEach((score, k) => {
        out.push(`${key}: sentences=${pad(String(g.sentences), 6)} ${pad(score.name, nameWidth)} = ${pyFixed(score.score, widths[order[k]])}\n`);
      });
    }
    return out.join('');
  };
  const corpus = (s: number): MetricScore[] => {
    const system = systems[s];
    if (warnBleu) warnIfTokenized(system, io);
    return metrics.map((m, k) => locatedAt(system.file, undefined, () => m.corpusScore(rowsOf(s, k))));
  };

  // --seed is SACREBLEU_SEED given on the command line: read, checked and printed the same way.
  const env = options.seed === undefined ? (io.env ?? {}) : { ...io.env, SACREBLEU_SEED: options.seed };
  const color = !options.noColor && !env.NO_COLOR && io.stdout.isTTY === true;
  if (significance.paired !== null) {
    // sacrebleu's PairedTest keeps the metrics in -m order.
    const order = requested.map((id) => ids.indexOf(id));
    if (warnBleu) systems.forEach((system) => warnIfTokenized(system, io));
    if (!options.quiet) io.stderr.write(`palette: Found ${systems.length} systems.\n`);
    const stdinNames = options.inputs === null;
    // The significance tests (and their random generators) load only for the runs that ask for them.
    const { pairedReport } = await import('./significance.js');
    return (
      pairedReport({
        test: significance.paired,
        nSamples: significance.paired === 'bs' ? significance.pairedBsN : significance.pairedArN,
        names: systems.map((s, i) =>
          i === 0 ? (stdinNames ? 'Baseline' : `Baseline: ${s.name}`) : stdinNames ? `System ${i}` : s.name,
        ),
        metrics: order.map((k) => metrics[k]),
        rows: order.map((k) =>
          systems.map((s, i) => locatedAt(s.file, undefined, () => rowsOf(i, k))),
        ),
        nRefs,
        width: Math.max(...widths),
        format,
        short: options.short,
        color,
        env,
        // Paired tests on many systems take seconds (AR on 16 systems: ~12 s): a line on a terminal after one.
        progress: createProgress(io.stderr, { label: 'palette score', unit: 'systems', quiet: options.quiet, delayMs: 1000 }),
      }) + '\n'
    );
  }
  if (systems.length === 1 && significance.confidence) {
    if (warnBleu) warnIfTokenized(systems[0], io);
    const { confidenceResults } = await import('./significance.js');
    const results = confidenceResults({
      metrics,
      rows: metrics.map((_, k) => locatedAt(systems[0].file, undefined, () => rowsOf(0, k))),
      nRefs,
      nSamples: significance.confidenceN,
      widths,
      format,
      short: options.short,
      scoreOnly: options.scoreOnly,
      color,
      env,
      fields: (k) => metrics[k].jsonFields,
    });
    return formatSingleResults(results, format) + '\n' + (await subsetReport()) + details(systems);
  }

  if (systems.length === 1) {
    const scores = corpus(0);
    const results = scores.map((score, k) =>
      formatScore(score, {
        width: widths[k],
        scoreOnly: options.scoreOnly,
        // The JSON object lists the signature's fields, so JSON always carries the long form.
        signature: metrics[k].signature(nRefs, options.short && format !== 'json'),
        json: format === 'json',
        fields: metrics[k].jsonFields,
      }),
    );
    return formatSingleResults(results, format) + '\n' + (await subsetReport()) + details(systems);
  }

  if (!options.quiet) io.stderr.write(`palette: Found ${systems.length} systems.\n`);
  // One table, one number format (tabulate re-formats every numeric column with the same floatfmt).
  const width = Math.max(...widths);
  const columns = new Map<string, { signature: string; scores: string[] }>();
  for (let s = 0; s < systems.length; s++) {
    corpus(s).forEach((score, k) => {
      let column = columns.get(score.name);
      if (column === undefined) {
        column = { signature: metrics[k].signature(nRefs, options.short), scores: [] };
        columns.set(score.name, column);
      }
      column.scores.push(pyFixed(score.score, width));
    });
  }
  const resultColumns: ResultColumn[] = [...columns].map(([name, c]) => ({ name, ...c }));
  return (
    formatResultsTable(
      systems.map((s) => s.name),
      resultColumns,
      { format, width, color },
    ) +
    '\n' +
    details(systems)
  );
}

/**
 * `-sl` with several metrics or systems (or `-f tsv`/`csv`): every system's sentence scores under every metric, as
 * ./segment-rows.ts lays them out.
 */
async function segmentRows(
  metrics: readonly CliMetric[],
  scoreRows: () => Promise<SystemRows>,
  systems: readonly System[],
  options: ScoreOptions,
): Promise<string> {
  // SACREBLEU_FORMAT names one of sacrebleu's outputs, and sacrebleu has no rows: only -f decides their format.
  const format = options.rowFormat ?? 'json';
  if (format !== 'json' && format !== 'tsv' && format !== 'csv') {
    throw new InputError(
      'E_BAD_OPTION',
      `--sentence-level with several metrics or systems writes rows: -f json (JSON lines), tsv or csv, not ${format}`,
    );
  }
  const rowsOf = await scoreRows();
  const scored = systems.map((system, s) => ({
    name: system.name,
    scores: metrics.map((cm, k) => {
      const { metric } = cm;
      const rows = locatedAt(system.file, undefined, () => rowsOf(s, k));
      const w = metric.statsWidth;
      return system.lines.map((_, i) => locatedAt(system.file, i + 1, () => metric.sentenceScoreFromStats(rows.subarray(i * w, (i + 1) * w))));
    }),
  }));
  const columns = metrics.map((cm, k) => {
    const keys = new Set((cm.jsonFields ?? []).map((f) => f.detail));
    const name = scored[0]?.scores[k][0]?.name ?? cm.metric.id.toUpperCase();
    return { name, prf: keys.has('precision') && keys.has('recall') && keys.has('fmeasure') };
  });
  return formatSegmentRows(columns, scored, format as SegmentRowFormat, options.widthGiven ? options.width : undefined);
}

function sentenceLevel(
  cm: CliMetric,
  systemRows: () => Float64Array,
  system: System,
  nRefs: number,
  width: number,
  options: ScoreOptions,
): string {
  const { metric } = cm;
  const rows = locatedAt(system.file, undefined, systemRows);
  // Palette's addition: an explicit `-f json` gives one JSON object per line; otherwise sacrebleu's text lines.
  const json = options.formatGiven && options.format === 'json';
  const signature = cm.signature(nRefs, options.short && !json);
  const rowWidth = metric.statsWidth;
  const out: string[] = [];
  for (let i = 0; i < system.lines.length; i++) {
    const row = rows.subarray(i * rowWidth, (i + 1) * rowWidth);
    const score = locatedAt(system.file, i + 1, () => metric.sentenceScoreFromStats(row));
    out.push(
      formatScore(score, { width, scoreOnly: options.scoreOnly, signature, json, compact: true, fields: cm.jsonFields }),
    );
  }
  return out.length === 0 ? '' : out.join('\n') + '\n';
}
