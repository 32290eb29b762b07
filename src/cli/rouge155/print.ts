/**
 * ROUGE-1.5.5's printed results (its `printResults` and `printPerEvalData`), byte for byte: per peer and statistic a
 * dashed line, then three `Average_R/P/F` lines with the confidence interval (`-t 0`, `-t 1`) or one
 * `M_count/P_count/H_count` line (`-t 2`), then with `-d` a dotted line and one line per unit, units in ROUGE's
 * `by_evalID` order (numerically by the digits an id starts with, else as strings).
 */
import type { Rouge155Estimate } from '../../meta/rouge155-bootstrap.js';
import { perlStringCompare } from '../../meta/rouge155-bootstrap.js';
import { perlFixed5, perlNumber } from '../../metrics/rouge155/perl-format.js';

const DASHES = '---------------------------------------------\n';
const DOTS = '.............................................\n';

/** The averages block of one statistic (`-t 0` and `-t 1`). */
export function formatAverages(
  peerId: string,
  name: string,
  estimate: Rouge155Estimate,
  confidenceText: string,
): string {
  let out = DASHES;
  const labels = ['R', 'P', 'F'];
  for (let j = 0; j < 3; j++) {
    out +=
      `${peerId} ${name} Average_${labels[j]}: ${perlFixed5(estimate.average[j])} ` +
      `(${confidenceText}%-conf.int. ${perlFixed5(estimate.low[j])} - ${perlFixed5(estimate.high[j])})\n`;
  }
  return out;
}

/** Perl `print int(x)`: truncated toward zero, printed as an integer (`%.15g` beyond 64-bit integers). */
export function perlInt(x: number): string {
  const t = Math.trunc(x);
  if (t === 0 || !Number.isFinite(t)) return perlNumber(t === 0 ? 0 : t);
  return Math.abs(t) < 2 ** 63 ? BigInt(t).toString() : perlNumber(t);
}

/** The counts line of one statistic (`-t 2`): totals of model, peer and hit counts, truncated to integers. */
export function formatCounts(peerId: string, name: string, totals: ArrayLike<number>): string {
  const [model, peer, hits] = [perlInt(totals[0]), perlInt(totals[1]), perlInt(totals[2])];
  return `${DASHES}${peerId} ${name} M_count: ${model} P_count: ${peer} H_count: ${hits}\n`;
}

/** ROUGE's `by_evalID` comparison of unit ids (`<eval>.<peer>`). */
export function compareEvalIds(a: string, b: string): number {
  const da = /^[0-9]+/.exec(a);
  const db = /^[0-9]+/.exec(b);
  if (da !== null && db !== null) {
    const diff = Number(da[0]) - Number(db[0]);
    // Equal leading numbers tie in the Perl (and keep hash order, which is random); the ids decide here.
    if (diff !== 0) return diff < 0 ? -1 : 1;
  }
  return perlStringCompare(a, b);
}

/**
 * One unit's values for the `-d` listing as ROUGE prints them: R, P, F (`-t 0`) or the model, peer and hit counts
 * (`-t 1`, `-t 2`).
 */
export interface PerUnitRow {
  readonly id: string;
  readonly printed: readonly [string, string, string];
}

/** The `-d` listing of one statistic: the dotted line and `<peer> <name> Eval <id> R:… P:… F:…` per unit. */
export function formatPerUnit(peerId: string, name: string, rows: readonly PerUnitRow[]): string {
  const sorted = [...rows].sort((x, y) => compareEvalIds(x.id, y.id));
  let out = DOTS;
  for (const { id, printed } of sorted) {
    out += `${peerId} ${name} Eval ${id} R:${printed[0]} P:${printed[1]} F:${printed[2]}\n`;
  }
  return out;
}
