/**
 * What `palette score` prints, byte for byte as sacrebleu 2.6.0's CLI prints it:
 * - one score: `Score.format` — text `NAME|SIGNATURE = 22.67 VERBOSE`, or a JSON object (`indent=1`, non-ASCII kept)
 *   with `name`, `score` (the rounded score as a float), `signature`, `verbose_score` (when there is one) and every
 *   signature field; Palette adds `precision`, `recall`, `fmeasure` (rounded likewise) after `verbose_score` for the
 *   metrics that have them (ROUGE, GTM) and WER's counts `hits`, `substitutions`, `deletions`, `insertions`, none
 *   for sacrebleu's metrics;
 * - one system, several metrics (`print_single_results`): JSON objects joined into a list, or text lines
 *   right-aligned on their `=`;
 * - several systems (`print_results_table`): a JSON list (`indent=4`, ASCII-escaped) of `{system, NAME: score}`, or a
 *   tabulate table (`fancy_grid` for text, `latex_booktabs` for latex) followed by the metric signatures.
 * Every function returns the text without the final newline that `print` adds.
 */
import type { MetricScore } from '../metrics/metric.js';
import type { JsonScoreField } from '../metrics/registry.js';
import { pyFixed, pyJsonDumps, pyParseFloat, type PyJson } from './py-format.js';
import { renderTable, type TableColumn } from './table.js';

/** Output formats of `-f`. */
export const OUTPUT_FORMATS = ['json', 'text', 'latex'] as const;
/** An output format: `json` (the default), `text`, or `latex` (a table; text for a single system, as sacrebleu). */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** sacrebleu's `Score.format` options. */
export interface ScoreFormat {
  /** Decimals. */
  readonly width: number;
  /** Only the number. */
  readonly scoreOnly: boolean;
  /** The signature to print ('' for none). */
  readonly signature: string;
  /** JSON instead of text. */
  readonly json: boolean;
  /** With `json`: one line (Palette's JSON-lines form for `-sl -f json`) instead of sacrebleu's `indent=1`. */
  readonly compact?: boolean;
  /** JSON fields beyond sacrebleu's. @default precision, recall, fmeasure where `details` has them */
  readonly fields?: readonly JsonScoreField[];
}

/** Details a JSON score carries when the metric has them and names no fields of its own, in this order. */
const PRF_FIELDS: readonly JsonScoreField[] = ['precision', 'recall', 'fmeasure'].map((key) => ({
  key,
  detail: key,
  kind: 'rounded',
}));

/** The score as sacrebleu's `Score.format(width, score_only, signature, is_json)` returns it. */
export function formatScore(score: MetricScore, format: ScoreFormat): string {
  const sc = pyFixed(score.score, format.width);
  if (format.scoreOnly) return sc;
  if (format.json) {
    const d: Record<string, PyJson> = {
      name: score.name,
      score: pyParseFloat(sc) as number,
      signature: format.signature,
    };
    if (score.verboseScore) d.verbose_score = score.verboseScore;
    for (const field of format.fields ?? PRF_FIELDS) {
      const value = score.details?.[field.detail];
      if (typeof value !== 'number') continue;
      d[field.key] = field.kind === 'count' && Number.isSafeInteger(value) ? BigInt(value) : (pyParseFloat(pyFixed(value, format.width)) as number);
    }
    for (const part of format.signature.split('|')) {
      const at = part.indexOf(':');
      if (at > 0) d[part.slice(0, at)] = part.slice(at + 1);
    }
    return pyJsonDumps(d, { indent: format.compact ? undefined : 1, ensureAscii: false });
  }
  const head = format.signature ? `${score.name}|${format.signature}` : score.name;
  const line = `${head} = ${sc}`;
  return score.verboseScore ? `${line} ${score.verboseScore}` : line;
}

/** Python's `f'{s:>{w}}'` (pads by code points). */
function padLeft(s: string, w: number): string {
  const n = [...s].length;
  return n >= w ? s : ' '.repeat(w - n) + s;
}

/** sacrebleu's `print_single_results`: the formatted scores of one system. */
export function formatSingleResults(results: readonly string[], format: OutputFormat): string {
  if (format === 'json') return results.length > 1 ? `[\n${results.join(',\n')}\n]` : results[0];
  if (results.length === 1) return results[0];
  // Lines without '=' (score-only) print as they are; the others are right-aligned on their '='.
  const plain: string[] = [];
  const aligned: { left: string; right: string }[] = [];
  for (const line of results) {
    const at = line.indexOf('=');
    if (at < 0) plain.push(line);
    else aligned.push({ left: line.slice(0, at - 1), right: line.slice(at - 1) });
  }
  const w = Math.max(0, ...aligned.map((a) => [...a.left].length));
  return [...plain, ...aligned.map((a) => padLeft(a.left, w) + a.right)].join('\n');
}

/** One metric's column of the multi-system table. */
export interface ResultColumn {
  /** Score name (`BLEU`, `chrF2`). */
  readonly name: string;
  /** Signature as printed under the table. */
  readonly signature: string;
  /** Formatted score of every system (`Score.format(width, True)`). */
  readonly scores: readonly string[];
}

/** Options of {@link formatResultsTable}. */
export interface TableFormat {
  readonly format: OutputFormat;
  readonly width: number;
  /** ANSI colours (sacrebleu colours headers cyan on a terminal). */
  readonly color: boolean;
}

const CYAN = '\x1b[36m';
const RESET = '\x1b[0m';

/** sacrebleu's `print_results_table` for several systems (non-paired mode). */
export function formatResultsTable(
  systems: readonly string[],
  columns: readonly ResultColumn[],
  options: TableFormat,
): string {
  if (options.format === 'json') {
    const rows = systems.map((system, i) => {
      const row: Record<string, PyJson> = { system };
      for (const col of columns) row[col.name] = col.scores[i];
      return row;
    });
    return pyJsonDumps(rows, { indent: 4, ensureAscii: true });
  }
  const paint = (s: string): string => (options.color ? `${CYAN}${s}${RESET}` : s);
  const table: TableColumn[] = [
    { header: paint('System'), cells: systems },
    ...columns.map((col) => ({ header: paint(col.name), cells: col.scores })),
  ];
  const style = options.format === 'latex' ? 'latex_booktabs' : 'fancy_grid';
  const lines = [renderTable(table, style, options.width), '', '-----------------', 'Metric signatures', '-----------------'];
  for (const col of columns) lines.push(` - ${col.name.padEnd(10)} ${col.signature}`);
  return lines.join('\n');
}
