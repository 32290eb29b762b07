/**
 * What `palette orange` prints: a text table sorted by ORANGE (best, i.e. lowest, first; ties in the order the
 * metrics were named) with the bootstrap intervals, or the same rows as one JSON object with full-precision
 * numbers.
 */
import type { ConfidenceInterval } from '../../meta/orange/orange.js';
import { pyFixed } from '../../util/py-fixed.js';

/** ORANGE of one metric variant. */
export interface OrangeRow {
  /** Variant name: `BLEUS4`, `ROUGE-W-1.2`, `ROUGE-S*`, `WER`. */
  readonly name: string;
  /** The ORANGE score (lower is better). */
  readonly orange: number;
  /** Its bootstrap interval, when resampled. */
  readonly ci: ConfidenceInterval | undefined;
  /** Whether the metric's own scores are better when lower (WER, PER). */
  readonly lowerIsBetter: boolean;
}

/** Everything a report shows. */
export interface OrangeReport {
  /** One row per variant, in the order named. */
  readonly rows: readonly OrangeRow[];
  /** Sentences with candidates (S). */
  readonly sentences: number;
  /** Candidates read. */
  readonly candidates: number;
  /** References per sentence. */
  readonly references: number;
  /** Bootstrap resamples (0: no intervals). */
  readonly bootstrap: number;
  /** Seed of the resampling. */
  readonly seed: number;
}

/** Rows sorted by ORANGE, best first; stable, so equal scores keep the order named. */
export function sortedRows(rows: readonly OrangeRow[]): OrangeRow[] {
  return [...rows].sort((a, b) => a.orange - b.orange);
}

/** The text table. */
export function formatOrangeText(report: OrangeReport, width: number): string {
  const rows = sortedRows(report.rows);
  const withCi = report.bootstrap > 0;
  const head =
    `ORANGE over ${report.sentences} sentences, ${report.candidates} candidates, ${report.references} references ` +
    `per sentence (lower is better)` +
    (withCi ? `; 95% CI from ${report.bootstrap} bootstrap resamples of the sentences, seed ${report.seed}` : '');
  const nameWidth = Math.max(6, ...rows.map((r) => r.name.length));
  const cells = rows.map((r) => [
    r.name.padEnd(nameWidth),
    pyFixed(r.orange, width),
    withCi && r.ci !== undefined ? `[${pyFixed(r.ci.lower, width)}, ${pyFixed(r.ci.upper, width)}]` : '',
  ]);
  const scoreWidth = Math.max(6, ...cells.map((c) => c[1].length));
  const lines = [head, `${'metric'.padEnd(nameWidth)}  ${'ORANGE'.padStart(scoreWidth)}${withCi ? '  95% CI' : ''}`];
  for (const c of cells) lines.push(`${c[0]}  ${c[1].padStart(scoreWidth)}${withCi ? `  ${c[2]}` : ''}`);
  return `${lines.join('\n')}\n`;
}

/** The JSON object (one line). */
export function formatOrangeJson(report: OrangeReport): string {
  return `${JSON.stringify({
    sentences: report.sentences,
    candidates: report.candidates,
    references: report.references,
    bootstrap: report.bootstrap,
    seed: report.seed,
    metrics: sortedRows(report.rows).map((r) => ({
      name: r.name,
      orange: r.orange,
      ...(r.ci === undefined ? {} : { ci: [r.ci.lower, r.ci.upper] }),
      lowerIsBetter: r.lowerIsBetter,
    })),
  })}\n`;
}
