/**
 * Markdown for docs/EXPERIMENTS.md: pipe tables, correlation cells `0.912 [0.850, 0.970]`, the best value of each
 * column in bold. Numbers are fixed-point with three decimals (the seed papers print two).
 */
import type { CorrelationEstimate, CorrelationMethod } from '../../src/meta/correlation-bootstrap.js';
import type { CorrelationRow } from './correlations.js';

/** A number with `digits` decimals, `n/a` for NaN. */
export function fixed(v: number, digits = 3): string {
  return Number.isFinite(v) ? v.toFixed(digits) : 'n/a';
}

/** A pipe table; cells must not contain `|`. */
export function table(header: readonly string[], rows: readonly (readonly string[])[], align?: readonly ('l' | 'r')[]): string {
  const rule = header.map((_, c) => ((align?.[c] ?? 'r') === 'l' ? ':--' : '--:'));
  return [header, rule, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

/**
 * The estimate as a higher-is-better reader expects it: for an error rate (lower is better) the correlation of the
 * negated score, i.e. the value and the interval mirrored (exact for Pearson, Spearman and Kendall).
 */
export function oriented(e: CorrelationEstimate, lowerIsBetter: boolean): CorrelationEstimate {
  return lowerIsBetter ? { ...e, value: -e.value, low: -e.high, high: -e.low } : e;
}

/** A correlation cell: value and 95% interval. */
export function estimateCell(e: CorrelationEstimate, bold = false): string {
  const value = bold ? `**${fixed(e.value)}**` : fixed(e.value);
  if (e.resamples === 0) return value;
  const note = e.undefinedResamples > 0 ? ` (${e.undefinedResamples} undef.)` : '';
  return `${value} [${fixed(e.low)}, ${fixed(e.high)}]${note}`;
}

const METHOD_TITLES: Record<CorrelationMethod, string> = {
  pearson: 'Pearson r',
  spearman: 'Spearman ρ',
  kendall: 'Kendall τ-b',
  wmt: 'WMT τ',
};

/** A correlation table: metric, set, one column per method; error rates oriented; the best of each column bold. */
export function correlationTable(rows: readonly CorrelationRow[], methods: readonly CorrelationMethod[]): string {
  const oriented2 = rows.map((r) => r.estimates.map((e) => oriented(e, r.lowerIsBetter)));
  const best = methods.map((_, m) => Math.max(...oriented2.map((es) => (Number.isFinite(es[m].value) ? es[m].value : -Infinity))));
  const body = rows.map((r, i) => [
    r.lowerIsBetter ? `−${r.metric}` : r.metric,
    r.set,
    ...methods.map((_, m) => estimateCell(oriented2[i][m], oriented2[i][m].value === best[m])),
  ]);
  return table(['Metric', 'Set', ...methods.map((m) => METHOD_TITLES[m])], body, ['l', 'l', ...methods.map(() => 'r' as const)]);
}

/** Seconds with one decimal. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
