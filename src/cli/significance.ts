/**
 * `palette score --confidence` and `--paired-bs` / `--paired-ar`, printed byte for byte as sacrebleu 2.6.0 prints
 * them:
 * - `--confidence` (one system): `Score.format` with ` (μ = MEAN ± HALF)` after the score (JSON: `confidence_mean`,
 *   `confidence_var`, `confidence`), the signature carrying `bs:N|seed:S` after `nrefs` (S as `SACREBLEU_SEED` was
 *   written, lowercased);
 * - paired tests (several systems, the first the baseline, metrics in `-m` order): `print_results_table` — a JSON
 *   list (`indent=4`) of `{system, NAME: {score, p_value, mean, ci}}`, or a table whose cells hold
 *   `SCORE (MEAN ± HALF)` and, on a second line (text) or after a space (latex), `(p = P)` with `*` below 0.05,
 *   followed by sacrebleu's explanation of the test and the signatures (`bs:N|seed:S` or `ar:N|seed:S`).
 * The numbers come from src/meta/significance.ts (numpy's PCG64 stream, sacreBLEU's float32 resample sums).
 */
import { InputError } from '../errors.js';
import type { MetricScore } from '../metrics/metric.js';
import type { CliMetric, JsonScoreField } from '../metrics/registry.js';
import type { Progress } from './progress.js';
import { bootstrapScores, pairedTest, seedFromEnv, seedLabel, testedMetric, type PairedResult } from '../meta/significance.js';
import { estimateCiPython } from '../meta/significance-stats.js';
import { pyFixed, pyJsonDumps, pyParseFloat, type PyJson } from './py-format.js';
import type { OutputFormat } from './report.js';
import { renderMultilineGrid } from './significance-table.js';
import { renderTable } from './table.js';

const COLORS = { cyan: '\x1b[36m', yellow: '\x1b[33m', green: '\x1b[32m', red: '\x1b[31m' } as const;
const RESET = '\x1b[0m';

/** sacrebleu's `Color.format`: ANSI colour only when colours are on. */
function paint(s: string, color: keyof typeof COLORS, on: boolean): string {
  return on ? `${COLORS[color]}${s}${RESET}` : s;
}

/**
 * A signature with test fields inserted where sacrebleu's `Signature` keeps them, right after `nrefs`
 * (`nrefs:1|bs:1000|seed:12345|case:…`; short: `#:1|bs:1000|rs:12345|c:…`).
 */
export function signatureWithTest(signature: string, short: boolean, fields: readonly [string, string][]): string {
  const parts = signature.split('|');
  const abbr: Record<string, string> = { bs: 'bs', ar: 'ar', seed: 'rs' };
  const inserted = fields.map(([key, value]) => `${short ? (abbr[key] ?? key) : key}:${value}`);
  return [parts[0], ...inserted, ...parts.slice(1)].join('|');
}

/** What the confidence printer needs of `palette score`'s options. */
export interface ConfidenceRun {
  readonly metrics: readonly CliMetric[];
  /** Statistics rows of the one system, per metric. */
  readonly rows: readonly Float64Array[];
  readonly nRefs: number;
  readonly nSamples: number;
  readonly widths: readonly number[];
  readonly format: OutputFormat;
  readonly short: boolean;
  readonly scoreOnly: boolean;
  readonly color: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Formats an ordinary score (report.ts's `formatScore`), for the JSON fields Palette adds. */
  readonly fields: (k: number) => readonly JsonScoreField[] | undefined;
}

/**
 * The formatted score lines of one system with `--confidence` (before `print_single_results` joins them).
 * @throws InputError `E_BAD_OPTION` for a malformed `SACREBLEU_SEED`.
 */
export function confidenceResults(run: ConfidenceRun): string[] {
  const seed = seedFromEnv(run.env);
  // sacrebleu prints the environment string itself, lowercased (`str(seed).lower()`).
  const label = (run.env.SACREBLEU_SEED ?? '12345').toLowerCase();
  return run.metrics.map((cm, k) => {
    const score = cm.corpusScore(run.rows[k]);
    const tested = testedMetric(cm.metric, (rows) => cm.corpusScore(rows).score);
    const scores = bootstrapScores({ rows: run.rows[k], width: cm.metric.statsWidth }, tested, run.nSamples, seed);
    const { mean, ci } = estimateCiPython(scores);
    const json = run.format === 'json';
    const signature = signatureWithTest(cm.signature(run.nRefs, run.short && !json), run.short && !json, [
      ['bs', String(run.nSamples)],
      ['seed', label],
    ]);
    return formatWithConfidence(score, mean, ci, {
      width: run.widths[k],
      scoreOnly: run.scoreOnly,
      signature,
      json,
      color: run.color,
      fields: run.fields(k),
    });
  });
}

/** sacrebleu's `Score.format` of a score that carries a bootstrap mean and half-width. */
function formatWithConfidence(
  score: MetricScore,
  mean: number,
  ci: number,
  f: {
    width: number;
    scoreOnly: boolean;
    signature: string;
    json: boolean;
    color: boolean;
    fields: readonly JsonScoreField[] | undefined;
  },
): string {
  let sc = pyFixed(score.score, f.width);
  const d: Record<string, PyJson> = { name: score.name, score: pyParseFloat(sc) as number, signature: f.signature };
  // sacrebleu shows the interval only for a positive mean (`if self._mean > 0`).
  let shown = '';
  if (mean > 0) {
    const m = pyFixed(mean, f.width);
    const v = pyFixed(ci, f.width);
    const confidence = `μ = ${m} ± ${v}`;
    shown = `(${confidence})`;
    sc += ` ${shown}`;
    d.confidence_mean = pyParseFloat(m) as number;
    d.confidence_var = pyParseFloat(v) as number;
    d.confidence = confidence;
  }
  if (f.scoreOnly) return sc;
  if (score.verboseScore) d.verbose_score = score.verboseScore;
  if (f.json) {
    for (const field of f.fields ?? []) {
      const value = score.details?.[field.detail];
      if (typeof value !== 'number') continue;
      d[field.key] =
        field.kind === 'count' && Number.isSafeInteger(value) ? BigInt(value) : (pyParseFloat(pyFixed(value, f.width)) as number);
    }
    for (const part of f.signature.split('|')) {
      const at = part.indexOf(':');
      if (at > 0) d[part.slice(0, at)] = part.slice(at + 1);
    }
    return pyJsonDumps(d, { indent: 1, ensureAscii: false });
  }
  let line = `${score.name}|${f.signature} = ${sc}`;
  if (score.verboseScore) line += ` ${score.verboseScore}`;
  // print_single_results colours the interval cyan.
  return shown && f.color ? line.replace(shown, paint(shown, 'cyan', true)) : line;
}

/** A paired run: systems (baseline first), metrics in `-m` order with their statistics rows per system. */
export interface PairedRun {
  readonly test: 'bs' | 'ar';
  readonly nSamples: number;
  /** System names as printed (`Baseline: FILE`, then the files; or `Baseline`, `System 1`, … from stdin). */
  readonly names: readonly string[];
  readonly metrics: readonly CliMetric[];
  /** `rows[k][s]`: metric `k`, system `s`. */
  readonly rows: readonly (readonly Float64Array[])[];
  readonly nRefs: number;
  readonly width: number;
  readonly format: OutputFormat;
  readonly short: boolean;
  readonly color: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Systems compared so far, shown on a terminal (rate, ETA). */
  readonly progress?: Progress;
}

/** Runs `f` with `progress` ended: its summary line on success, erased before an error is reported. */
function withProgress<T>(progress: Progress | undefined, f: () => T): T {
  try {
    const out = f();
    progress?.done();
    return out;
  } catch (err) {
    progress?.clear();
    throw err;
  }
}

/**
 * sacrebleu's paired-test report (`print_results_table` after `PairedTest`), without the final newline.
 * @throws InputError `E_BAD_OPTION` for a malformed `SACREBLEU_SEED`.
 */
export function pairedReport(run: PairedRun): string {
  if (run.names.length < 2) {
    throw new InputError('E_BAD_OPTION', 'paired tests require multiple input systems given to --input (-i)');
  }
  const seed = seedFromEnv(run.env);
  const outcome = withProgress(run.progress, () => pairedTest(
    run.metrics.map((cm, k) => ({
      metric: testedMetric(cm.metric, (rows) => cm.corpusScore(rows).score),
      systems: run.rows[k],
    })),
    { test: run.test, nSamples: run.nSamples, seed, onProgress: (done, total) => run.progress?.update(done, done / total) },
  ));
  const names = run.metrics.map((cm, k) => cm.corpusScore(run.rows[k][0]).name);

  if (run.format === 'json') {
    const rows = run.names.map((system, s) => {
      const row: Record<string, PyJson> = { system };
      names.forEach((name, k) => {
        const r = outcome.results[k][s];
        row[name] = { score: r.score, p_value: r.pValue, mean: r.mean, ci: r.ci };
      });
      return row;
    });
    return pyJsonDumps(rows, { indent: 4, ensureAscii: true });
  }

  const multiline = run.format === 'text';
  const cells = formatScoreLines(outcome.results, run.width, multiline, run.color);
  const baseline = run.names[0].startsWith('Baseline:') ? run.names[0] : '';
  // sacrebleu colours the first row yellow from the first column whose first cell starts with "Baseline:" on.
  const system = baseline ? [paint(run.names[0], 'yellow', run.color), ...run.names.slice(1)] : [...run.names];
  const columns = [
    { header: paint('System', 'cyan', run.color), cells: system },
    ...cells.map((c, k) => ({
      header: paint(c.bootstrap ? `${names[k]} (μ ± 95% CI)` : names[k], 'cyan', run.color),
      cells: baseline ? [paint(c.cells[0], 'yellow', run.color), ...c.cells.slice(1)] : c.cells,
    })),
  ];
  const table = multiline ? renderMultilineGrid(columns) : renderTable(columns, 'latex_booktabs', run.width);
  const lines = [table, ''];
  const testName = run.test === 'bs' ? 'bootstrap resampling' : 'approximate randomization';
  const sampleName = run.test === 'bs' ? 'resampling trials' : 'trials';
  const msg = `Paired ${testName} test with ${run.nSamples} ${sampleName}`;
  const bline = paint('baseline', 'yellow', run.color);
  const nullHyp = paint('Null hypothesis', 'green', run.color);
  lines.push(
    '-'.repeat(msg.length),
    msg,
    '-'.repeat(msg.length),
    // The table and the signatures follow sacreBLEU's layout; the explanation below is Palette's own wording.
    ` - Every system is compared with the ${paint(baseline, 'yellow', run.color)} on the same segments.`,
    run.test === 'bs'
      ? '   Each cell: corpus score (bootstrap mean ± half-width of the 95% interval), then the p-value.'
      : '   Each cell: corpus score, then the p-value.',
    '',
    ` - ${nullHyp}: the system's and the ${bline}'s outputs come from the same process, so the`,
    '   score difference between them is noise. The p-value estimates how often a difference at least',
    `   as large as the observed one arises under the ${nullHyp.toLowerCase()}.`,
    '',
    ` - A p-value below 0.05 (marked "*") rejects the ${nullHyp.toLowerCase()} at that threshold: the two`,
    `   systems differ by more than chance explains. Larger p-values are ${paint('highlighted in red', 'red', run.color)}.`,
    '',
    ` - A significant difference says the systems differ reliably, not which one is better than the ${bline}.`,
    '',
    '-----------------',
    'Metric signatures',
    '-----------------',
  );
  const testFields: [string, string][] = [
    [run.test, String(outcome.nSamples)],
    ['seed', seedLabel(seed)],
  ];
  run.metrics.forEach((cm, k) => {
    lines.push(` - ${names[k].padEnd(10)} ${signatureWithTest(cm.signature(run.nRefs, run.short), run.short, testFields)}`);
  });
  return lines.join('\n');
}

/** sacrebleu's `_format_score_lines`: `SCORE (MEAN ± HALF)` and the p-value, per metric column. */
function formatScoreLines(
  results: readonly (readonly PairedResult[])[],
  width: number,
  multiline: boolean,
  color: boolean,
): { cells: string[]; bootstrap: boolean }[] {
  // sacrebleu's flag is set by the first result with a mean and never reset: later columns keep the CI header.
  let bootstrap = false;
  return results.map((column) => {
    const cells = column.map((r) => {
      let s = pyFixed(r.score, width);
      if (r.mean !== null && r.ci !== null) {
        bootstrap = true;
        s += ` (${pyFixed(r.mean, width)} ± ${pyFixed(r.ci, width)})`;
      }
      if (r.pValue !== null) {
        const msg = `(p = ${pyFixed(r.pValue, 4)})`;
        s += (multiline ? '\n' : ' ') + (r.pValue > 0.05 ? paint(msg, 'red', color) : `${msg}*`);
      }
      return s;
    });
    return { cells, bootstrap };
  });
}
