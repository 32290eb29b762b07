/**
 * Seed paper 004's study of word BLEU against character BLEU (Denoual & Lepage 2005): for each word order N, which
 * character order M makes BLEUcM behave most like BLEUwN —
 * - the M whose per-segment scores have the best Pearson correlation with BLEUwN's;
 * - the M with the best Cohen's kappa on the 10-grade scale (agreement.ts);
 * - the smallest M for which at least 90% of the segments satisfy BLEUcM ≤ BLEUw(N−1) (the "analogical"
 *   behaviour: character BLEU of order M sits below word BLEU of the order below; none for N = 1).
 * Ties go to the smallest M. Scores are per segment, in [0, 1] (divide sacreBLEU's 0–100 scores by 100 first).
 */
import { gradedKappa } from './agreement.js';
import { pearson } from './correlation.js';

/** The share of segments the analogical rule requires. */
export const ANALOGY_SHARE = 0.9;

/** Per-segment scores of each order: `scores.get(n)` for order n (all arrays of one length). */
export type ScoresByOrder = ReadonlyMap<number, Float64Array>;

/** The study's answer for one word order N. */
export interface BleuWcRow {
  /** Word order N. */
  readonly n: number;
  /** Character order with the best Pearson r, and that r. */
  readonly bestPearson: { readonly m: number; readonly r: number };
  /** Character order with the best kappa, and that kappa. */
  readonly bestKappa: { readonly m: number; readonly kappa: number };
  /**
   * The smallest M with ≥ 90% of segments satisfying BLEUcM ≤ BLEUw(N−1), and that share; null for N = 1, when
   * BLEUw(N−1) is not given, or when no M qualifies.
   */
  readonly analogy: { readonly m: number; readonly share: number } | null;
}

function checkLengths(word: ScoresByOrder, char: ScoresByOrder): number {
  let len = -1;
  for (const [what, map] of [['word', word], ['character', char]] as const) {
    if (map.size === 0) throw new RangeError(`no ${what} BLEU orders given`);
    for (const [order, scores] of map) {
      if (len >= 0 && scores.length !== len) {
        throw new RangeError(`${what} BLEU of order ${order} has ${scores.length} segments, expected ${len}`);
      }
      len = scores.length;
    }
  }
  return len;
}

/**
 * Runs the study for every word order of `word` against every character order of `char`.
 * @throws RangeError when the score lists differ in length, an order is missing, or a score is outside [0, 1].
 */
export function bleuWcStudy(word: ScoresByOrder, char: ScoresByOrder): BleuWcRow[] {
  const len = checkLengths(word, char);
  const charOrders = [...char.keys()].sort((a, b) => a - b);
  const rows: BleuWcRow[] = [];
  for (const n of [...word.keys()].sort((a, b) => a - b)) {
    const w = word.get(n)!;
    let bestPearson = { m: charOrders[0], r: -Infinity };
    let bestKappa = { m: charOrders[0], kappa: -Infinity };
    for (const m of charOrders) {
      const c = char.get(m)!;
      const r = pearson(w, c);
      // NaN (a constant list) never wins.
      if (r > bestPearson.r) bestPearson = { m, r };
      const kappa = gradedKappa(w, c);
      if (kappa > bestKappa.kappa) bestKappa = { m, kappa };
    }
    let analogy: BleuWcRow['analogy'] = null;
    const below = word.get(n - 1);
    if (below !== undefined && len > 0) {
      for (const m of charOrders) {
        const c = char.get(m)!;
        let ok = 0;
        for (let i = 0; i < len; i++) if (c[i] <= below[i]) ok++;
        const share = ok / len;
        if (share >= ANALOGY_SHARE) {
          analogy = { m, share };
          break;
        }
      }
    }
    rows.push({ n, bestPearson, bestKappa, analogy });
  }
  return rows;
}
