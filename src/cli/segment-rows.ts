/**
 * `palette score -sl` with several metrics or several systems: one row per segment and system with every metric's
 * sentence score, as JSON lines or as a table (TSV, CSV) laid out like rouge-score's per-instance CSV.
 *
 * - Columns: one per metric, named by its score name (`BLEU`, `chrF2`, `TER`); a metric whose scores carry precision,
 *   recall and F-measure (ROUGE) gets three, `NAME-P`, `NAME-R`, `NAME-F`, as rouge-score writes `rouge1-P,rouge1-R,
 *   rouge1-F`. Metrics in the order `palette score` prints them.
 * - JSON lines: `{"system": NAME, "segment": N, COLUMN: value, …}`, `segment` the 1-based line number (the item id
 *   `palette correlate` gives segments), NaN as null.
 * - TSV/CSV: a header, then one line per row: `id,COLUMN,…` with `id` the 0-based segment index as rouge-score
 *   numbers its instances; with several systems a `system` column comes first. CSV quotes a field holding a comma,
 *   a quote or a line break (RFC 4180).
 * - Numbers: full precision (the shortest text that reads back as the same double) unless `-w N` asks for N
 *   decimals (`-w 6` is rouge-score's `%f`); NaN is `nan` in a table.
 */
import { InputError } from '../errors.js';
import type { MetricScore } from '../metrics/metric.js';
import { pyFixed } from './py-format.js';

/** One metric's column source: its score name and whether its scores carry precision/recall/F-measure. */
export interface SegmentMetric {
  /** Score name (`BLEU`, `ROUGE-L`). */
  readonly name: string;
  /** Whether the columns are `NAME-P`, `NAME-R`, `NAME-F` from the score's details. */
  readonly prf: boolean;
}

/** One system's sentence scores: `scores[k][i]` is metric `k`'s score of segment `i`. */
export interface SegmentSystem {
  readonly name: string;
  readonly scores: readonly (readonly MetricScore[])[];
}

/** The row formats. */
export type SegmentRowFormat = 'json' | 'tsv' | 'csv';

/** Column names and how each value is read from a metric's score. */
function columns(metrics: readonly SegmentMetric[]): { name: string; metric: number; value: (s: MetricScore) => number }[] {
  return metrics.flatMap((m, k) => {
    if (!m.prf) return [{ name: m.name, metric: k, value: (s: MetricScore) => s.score }];
    const detail = (key: string) => (s: MetricScore) => {
      const v = s.details?.[key];
      return typeof v === 'number' ? v : NaN;
    };
    return [
      { name: `${m.name}-P`, metric: k, value: detail('precision') },
      { name: `${m.name}-R`, metric: k, value: detail('recall') },
      { name: `${m.name}-F`, metric: k, value: detail('fmeasure') },
    ];
  });
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function tsvField(text: string): string {
  if (/[\t\r\n]/.test(text)) {
    throw new InputError('E_BAD_OPTION', `${JSON.stringify(text)} holds a tab or a line break and cannot be a TSV field: use -f csv or -f json`);
  }
  return text;
}

/**
 * The rows, final newline included ('' without segments).
 * @param width decimals of every value, or undefined for full precision
 * @throws InputError `E_BAD_OPTION` for a system name TSV cannot hold.
 */
export function formatSegmentRows(
  metrics: readonly SegmentMetric[],
  systems: readonly SegmentSystem[],
  format: SegmentRowFormat,
  width: number | undefined,
): string {
  const cols = columns(metrics);
  const segments = systems.length === 0 || metrics.length === 0 ? 0 : systems[0].scores[0].length;
  const out: string[] = [];
  if (format === 'json') {
    const json = (v: number): number | null => {
      if (!Number.isFinite(v)) return null;
      return width === undefined ? v : Number(pyFixed(v, width));
    };
    for (const system of systems) {
      for (let i = 0; i < segments; i++) {
        const row: Record<string, string | number | null> = { system: system.name, segment: i + 1 };
        for (const c of cols) row[c.name] = json(c.value(system.scores[c.metric][i]));
        out.push(JSON.stringify(row));
      }
    }
  } else {
    const [sep, field] = format === 'csv' ? [',', csvField] : ['\t', tsvField];
    const text = (v: number): string => {
      if (Number.isNaN(v)) return 'nan';
      if (width !== undefined) return pyFixed(v, width);
      return Number.isFinite(v) ? String(v) : v > 0 ? 'inf' : '-inf';
    };
    const several = systems.length > 1;
    out.push([...(several ? ['system'] : []), 'id', ...cols.map((c) => field(c.name))].join(sep));
    for (const system of systems) {
      const name = several ? [field(system.name)] : [];
      for (let i = 0; i < segments; i++) {
        out.push([...name, String(i), ...cols.map((c) => text(c.value(system.scores[c.metric][i])))].join(sep));
      }
    }
  }
  return out.length === 0 ? '' : out.join('\n') + '\n';
}
