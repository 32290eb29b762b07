/**
 * Correlation coefficients between a metric's scores and human judgments (seed papers 000 and 001): Pearson r,
 * Spearman ρ, Kendall τ-b (as `scipy.stats.kendalltau`'s default) and the WMT relative-ranking τ.
 *
 * Every function takes two equally long `Float64Array`s (pairs `(x[i], y[i])`) and returns a number in [-1, 1], or
 * `NaN` where the coefficient is undefined: fewer than 2 pairs, a constant input (zero variance, or every pair tied),
 * or a `NaN` anywhere in the input (propagated, as numpy does, rather than silently dropped). Lengths that differ
 * are a caller bug and throw `RangeError`.
 *
 * Kendall τ-b runs in O(n log n) (sort, then count discordant pairs as inversions with a merge sort), because
 * segment-level inputs reach 10^5–10^6 pairs where the O(n²) definition would take minutes.
 */

function checkPair(x: Float64Array, y: Float64Array): void {
  if (x.length !== y.length) throw new RangeError(`x and y must have the same length (got ${x.length} and ${y.length})`);
}

function hasNaN(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (Number.isNaN(a[i])) return true;
  return false;
}

function isConstant(a: Float64Array): boolean {
  const first = a[0];
  for (let i = 1; i < a.length; i++) if (a[i] !== first) return false;
  return true;
}

function clip(r: number): number {
  return r > 1 ? 1 : r < -1 ? -1 : r;
}

/**
 * Pearson's product-moment correlation r, computed in two passes (means first, then centred sums) so that large
 * offsets such as BLEU scores near 30 lose no precision.
 * @returns r in [-1, 1]; `NaN` for n < 2, a constant `x` or `y` (checked exactly: a floating-point mean of equal
 *   values need not equal them, which would leave tiny non-zero deviations and a meaningless r), or any `NaN`.
 * @throws RangeError when the lengths differ.
 */
export function pearson(x: Float64Array, y: Float64Array): number {
  checkPair(x, y);
  const n = x.length;
  if (n < 2 || hasNaN(x) || hasNaN(y) || isConstant(x) || isConstant(y)) return NaN;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += x[i];
    sy += y[i];
  }
  const mx = sx / n;
  const my = sy / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return NaN;
  return clip(sxy / (Math.sqrt(sxx) * Math.sqrt(syy)));
}

/** Indices 0..n-1 sorted by `a` ascending (ties keep index order). `a` must hold no `NaN`. */
function argsort(a: Float64Array): Uint32Array {
  const order = new Uint32Array(a.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((i, j) => a[i] - a[j] || i - j);
  return order;
}

/**
 * Ranks 1..n of `a`, tied values getting the average of the ranks they span (`scipy.stats.rankdata`'s default
 * `'average'` method). `a` must hold no `NaN` (it has no place in an order).
 * @throws RangeError when `a` holds a `NaN`.
 */
export function averageRanks(a: Float64Array): Float64Array {
  if (hasNaN(a)) throw new RangeError('cannot rank NaN');
  const n = a.length;
  const order = argsort(a);
  const ranks = new Float64Array(n);
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && a[order[end]] === a[order[start]]) end++;
    // Ranks start+1 .. end share their mean.
    const rank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k]] = rank;
    start = end;
  }
  return ranks;
}

/**
 * Spearman's rank correlation ρ: Pearson's r of the average ranks (ties share the mean of their ranks), which is
 * what `scipy.stats.spearmanr` computes.
 * @returns ρ in [-1, 1]; `NaN` for n < 2, a constant input or any `NaN`.
 * @throws RangeError when the lengths differ.
 */
export function spearman(x: Float64Array, y: Float64Array): number {
  checkPair(x, y);
  if (x.length < 2 || hasNaN(x) || hasNaN(y)) return NaN;
  return pearson(averageRanks(x), averageRanks(y));
}

/** Σ t(t−1)/2 over the runs of equal values of `a` read in the order `order` (runs must be contiguous there). */
function tiedPairs(a: Float64Array, order: Uint32Array | undefined): number {
  let ties = 0;
  let run = 1;
  for (let k = 1; k <= a.length; k++) {
    const same = k < a.length && (order ? a[order[k]] === a[order[k - 1]] : a[k] === a[k - 1]);
    if (same) {
      run++;
    } else {
      ties += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  return ties;
}

/**
 * Sorts `a` ascending in place (stable bottom-up merge sort) and returns the number of inversions: pairs i < j with
 * a[i] > a[j] strictly (equal values are not inversions).
 */
function sortCountingInversions(a: Float64Array): number {
  const n = a.length;
  let src: Float64Array = a;
  let dst: Float64Array = new Float64Array(n);
  let inversions = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (src[j] < src[i]) {
          // src[j] is smaller than every element left in the left run.
          inversions += mid - i;
          dst[k++] = src[j++];
        } else {
          dst[k++] = src[i++];
        }
      }
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    const swap = src;
    src = dst;
    dst = swap;
  }
  if (src !== a) a.set(src);
  return inversions;
}

/**
 * Kendall's τ-b, as `scipy.stats.kendalltau(x, y)` (default `variant='b'`):
 * τ_b = (P − Q) / √((n₀ − n₁)(n₀ − n₂)), with P/Q the concordant/discordant pairs, n₀ = n(n−1)/2, n₁ and n₂ the
 * pairs tied in x and in y (pairs tied in both count in n₁ and n₂ and in neither P nor Q). O(n log n): the pairs
 * are sorted by (x, y), after which the discordant pairs are exactly the strict inversions of the y sequence.
 * @returns τ_b in [-1, 1]; `NaN` for n < 2, an input with every value equal, or any `NaN`.
 * @throws RangeError when the lengths differ.
 */
export function kendallTauB(x: Float64Array, y: Float64Array): number {
  checkPair(x, y);
  const n = x.length;
  if (n < 2 || hasNaN(x) || hasNaN(y)) return NaN;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((i, j) => x[i] - x[j] || y[i] - y[j] || i - j);
  // Infinite values compare equal to themselves but x[i] - x[j] is NaN for two equal infinities: the sort above
  // treats NaN as 0 (equal), which is what is wanted.
  const xTies = tiedPairs(x, order);
  let jointTies = 0;
  let run = 1;
  for (let k = 1; k <= n; k++) {
    const same = k < n && x[order[k]] === x[order[k - 1]] && y[order[k]] === y[order[k - 1]];
    if (same) {
      run++;
    } else {
      jointTies += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  const ys = new Float64Array(n);
  for (let k = 0; k < n; k++) ys[k] = y[order[k]];
  const discordant = sortCountingInversions(ys);
  const yTies = tiedPairs(ys, undefined);
  const total = (n * (n - 1)) / 2;
  if (xTies === total || yTies === total) return NaN;
  // Same grouping of operations as scipy, so that results agree to the last bit where the counts do.
  const concordantMinusDiscordant = total - xTies - yTies + jointTies - 2 * discordant;
  return clip(concordantMinusDiscordant / Math.sqrt(total - xTies) / Math.sqrt(total - yTies));
}

/** Counts of {@link wmtRankPairs}. */
export interface WmtRankCounts {
  /** Pairs the metric orders as the humans do. */
  readonly concordant: number;
  /** Pairs the metric orders the other way round or ties (ties are penalised). */
  readonly discordant: number;
}

/**
 * Concordant and discordant pairs of the WMT relative-ranking τ (the "Kendall's tau-like formulation" of the WMT
 * metrics tasks 2017–2020, DARR; Unbabel's COMET `WMTKendall` counts the same way). Pairs are formed only between
 * items of the same group (the translations of one source segment; `groups` undefined = one group), and only where
 * the humans prefer one item: |y[i] − y[j]| > `minHumanDelta` (WMT's DARR uses DA scores and 25 points; 0 keeps
 * every pair the humans do not tie). A pair is concordant when the metric prefers the same item (higher is better
 * on both scales) and discordant otherwise — a metric tie is discordant, as WMT has penalised ties since 2014.
 * O(Σ group size²): meant for groups of a few dozen systems.
 * @param x metric scores; @param y human scores
 * @param groups group id of each item; items of a group need not be contiguous
 * @throws RangeError when the lengths differ or `minHumanDelta` is negative or NaN.
 */
export function wmtRankPairs(
  x: Float64Array,
  y: Float64Array,
  groups?: ArrayLike<number>,
  minHumanDelta = 0,
): WmtRankCounts {
  checkPair(x, y);
  if (groups !== undefined && groups.length !== x.length) {
    throw new RangeError(`groups must have the length of x (got ${groups.length} and ${x.length})`);
  }
  if (!(minHumanDelta >= 0)) throw new RangeError(`minHumanDelta must be >= 0 (got ${minHumanDelta})`);
  // Visit items group by group (stable order by group id).
  const n = x.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (groups !== undefined) order.sort((i, j) => groups[i] - groups[j] || i - j);
  let concordant = 0;
  let discordant = 0;
  let start = 0;
  while (start < n) {
    let end = start + 1;
    if (groups === undefined) end = n;
    else while (end < n && groups[order[end]] === groups[order[start]]) end++;
    for (let a = start; a < end; a++) {
      const i = order[a];
      for (let b = a + 1; b < end; b++) {
        const j = order[b];
        const dh = y[i] - y[j];
        if (!(Math.abs(dh) > minHumanDelta)) continue;
        const dm = x[i] - x[j];
        if ((dh > 0 && dm > 0) || (dh < 0 && dm < 0)) concordant++;
        else discordant++;
      }
    }
    start = end;
  }
  return { concordant, discordant };
}

/**
 * The WMT relative-ranking τ = (Concordant − Discordant) / (Concordant + Discordant) over the pairs of
 * {@link wmtRankPairs} (metric ties discordant).
 * @returns τ in [-1, 1]; `NaN` when no pair qualifies or any input is `NaN`.
 * @throws RangeError as {@link wmtRankPairs}.
 */
export function wmtRankTau(x: Float64Array, y: Float64Array, groups?: ArrayLike<number>, minHumanDelta = 0): number {
  checkPair(x, y);
  if (hasNaN(x) || hasNaN(y)) return NaN;
  const { concordant, discordant } = wmtRankPairs(x, y, groups, minHumanDelta);
  const pairs = concordant + discordant;
  return pairs === 0 ? NaN : (concordant - discordant) / pairs;
}
