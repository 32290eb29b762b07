/**
 * Reference implementations (oracles) of `src/meta/correlation.ts`: written straight from the textbook definitions
 * on plain arrays, slow on purpose (O(n²) pair loops, ranks by counting). Property tests compare the fast versions
 * against these.
 *
 * - Pearson: covariance / (σx σy) with population moments about the means.
 * - Average ranks: rank(v) = (#values < v) + (#values = v + 1) / 2.
 * - Kendall τ-b: every pair i < j classified as concordant, discordant, tied in x, tied in y (a pair tied in both
 *   counts in both tie counts), τ_b = (P − Q) / √((n₀ − n₁)(n₀ − n₂)).
 * - WMT τ: every pair inside a group where the human scores differ by more than the threshold; concordant when the
 *   metric's difference has the same sign, discordant otherwise (metric ties included).
 */

function mean(a: readonly number[]): number {
  return a.reduce((s, v) => s + v, 0) / a.length;
}

/** Pearson's r; NaN for n < 2 or a constant input. */
export function pearsonRef(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  if (n < 2 || x.some((v) => v !== x[0]) === false || y.some((v) => v !== y[0]) === false) return NaN;
  const mx = mean(x);
  const my = mean(y);
  const cov = x.reduce((s, v, i) => s + (v - mx) * (y[i] - my), 0) / n;
  const sx = Math.sqrt(x.reduce((s, v) => s + (v - mx) ** 2, 0) / n);
  const sy = Math.sqrt(y.reduce((s, v) => s + (v - my) ** 2, 0) / n);
  return Math.max(-1, Math.min(1, cov / (sx * sy)));
}

/** Average ranks, 1-based. */
export function averageRanksRef(a: readonly number[]): number[] {
  return a.map((v) => {
    const below = a.filter((w) => w < v).length;
    const equal = a.filter((w) => w === v).length;
    return below + (equal + 1) / 2;
  });
}

/**
 * Average ranks for large inputs: sort the indices with a comparator, then give every run of equal values the mean
 * of the positions it spans (the same definition as {@link averageRanksRef}, in O(n log n)).
 */
export function averageRanksBySortRef(a: readonly number[]): number[] {
  const order = a.map((_, i) => i).sort((i, j) => (a[i] < a[j] ? -1 : a[i] > a[j] ? 1 : 0));
  const ranks = new Array<number>(a.length);
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && a[order[end]] === a[order[start]]) end++;
    for (let k = start; k < end; k++) ranks[order[k]] = (start + 1 + end) / 2;
    start = end;
  }
  return ranks;
}

/** Spearman's ρ: Pearson of the average ranks. */
export function spearmanRef(x: readonly number[], y: readonly number[]): number {
  if (x.length < 2) return NaN;
  return pearsonRef(averageRanksRef(x), averageRanksRef(y));
}

/** Kendall τ-b by enumerating every pair. */
export function kendallTauBRef(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  if (n < 2) return NaN;
  let concordant = 0;
  let discordant = 0;
  let tiedX = 0;
  let tiedY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i] - x[j]);
      const dy = Math.sign(y[i] - y[j]);
      if (x[i] === x[j]) tiedX++;
      if (y[i] === y[j]) tiedY++;
      if (x[i] !== x[j] && y[i] !== y[j]) {
        if (dx === dy) concordant++;
        else discordant++;
      }
    }
  }
  const total = (n * (n - 1)) / 2;
  if (tiedX === total || tiedY === total) return NaN;
  return Math.max(-1, Math.min(1, (concordant - discordant) / Math.sqrt((total - tiedX) * (total - tiedY))));
}

/** WMT relative-ranking τ by enumerating every pair. */
export function wmtRankTauRef(
  x: readonly number[],
  y: readonly number[],
  groups: readonly number[] | undefined,
  minHumanDelta: number,
): { tau: number; concordant: number; discordant: number } {
  let concordant = 0;
  let discordant = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      if (groups && groups[i] !== groups[j]) continue;
      if (Math.abs(y[i] - y[j]) <= minHumanDelta) continue;
      if (Math.sign(x[i] - x[j]) === Math.sign(y[i] - y[j])) concordant++;
      else discordant++;
    }
  }
  const pairs = concordant + discordant;
  return { tau: pairs === 0 ? NaN : (concordant - discordant) / pairs, concordant, discordant };
}
