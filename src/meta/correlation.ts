/**
 * Correlation coefficients between a metric's scores and human judgments (seed papers 000 and 001): Pearson r,
 * Spearman ρ, Kendall τ-b (as `scipy.stats.kendalltau`'s default) and the WMT relative-ranking τ.
 *
 * Every function takes two equally long `Float64Array`s (pairs `(x[i], y[i])`) and returns a number in [-1, 1], or
 * `NaN` where the coefficient is undefined: fewer than 2 pairs, a constant input (zero variance, or every pair tied),
 * or a `NaN` anywhere in the input (propagated, as numpy does, rather than silently dropped). Lengths that differ
 * are a caller bug and throw `RangeError`.
 *
 * Kendall τ-b runs in O(n log n) (sorts, then count discordant pairs as inversions with a merge sort), because
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

/*
 * Rank-based coefficients work on dense ranks (0 .. d−1, equal values sharing one): the values are sorted once
 * (a native typed-array sort, no comparator callback), and everything after that is counting sorts over the ranks,
 * O(n + d). A bootstrap ranks the data once and resamples the ranks (a resample keeps the order of the values, so
 * the global dense ranks order it exactly as its own would): see {@link DenseRanks}.
 */

/** Dense ranks of a sample: `ranks[i]` in 0 .. `count`−1, equal values sharing one, order kept. */
export interface DenseRanks {
  readonly ranks: Uint32Array;
  /** Number of distinct values. */
  readonly count: number;
}

/** Number of elements of ascending `sorted[0 .. length)` that are < `v`. */
function lowerBound(sorted: Float64Array, length: number, v: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Dense ranks of `a` (equal under `===`, so −0 and +0 share a rank).
 * @throws RangeError when `a` holds a `NaN` (it has no place in an order).
 */
export function denseRanks(a: Float64Array): DenseRanks {
  if (hasNaN(a)) throw new RangeError('cannot rank NaN');
  return a.length >= RADIX_MIN ? denseRanksRadix(a) : denseRanksSorted(a);
}

/** Below this size a native sort plus binary searches beats the radix sort's fixed cost (4 × 65536 counters). */
const RADIX_MIN = 1 << 14;

/** Dense ranks by a native sort of the values and a binary search per value: O(n log n). */
function denseRanksSorted(a: Float64Array): DenseRanks {
  const sorted = Float64Array.from(a).sort();
  let count = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[count++] = sorted[i];
  const ranks = new Uint32Array(a.length);
  for (let i = 0; i < a.length; i++) ranks[i] = lowerBound(sorted, count, a[i]);
  return { ranks, count };
}

/**
 * Dense ranks by an LSD radix sort of the indices on the values' IEEE-754 bits, made order-preserving (negative:
 * every bit flipped; positive: the sign bit set): four stable passes of 16 bits, a pass skipped when every value
 * has the same digit there (integer-valued scores leave the low word constant). O(n).
 */
function denseRanksRadix(a: Float64Array): DenseRanks {
  const n = a.length;
  const values = new Float64Array(n);
  // −0 + 0 = +0: one bit pattern for the two zeros, which are equal.
  for (let i = 0; i < n; i++) values[i] = a[i] + 0;
  const words = new Uint32Array(values.buffer);
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  // Typed arrays use the platform's byte order; every platform Node runs on is little-endian (low word first).
  for (let i = 0; i < n; i++) {
    const h = words[2 * i + 1];
    const l = words[2 * i];
    if (h & 0x80000000) {
      hi[i] = ~h >>> 0;
      lo[i] = ~l >>> 0;
    } else {
      hi[i] = (h | 0x80000000) >>> 0;
      lo[i] = l;
    }
  }
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let next = new Uint32Array(n);
  const counts = new Uint32Array(1 << 16);
  for (const [word, shift] of [[lo, 0], [lo, 16], [hi, 0], [hi, 16]] as const) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(word[i] >>> shift) & 0xffff]++;
    if (counts[(word[0] >>> shift) & 0xffff] === n) continue;
    let sum = 0;
    for (let d = 0; d < counts.length; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let k = 0; k < n; k++) {
      const i = order[k];
      next[counts[(word[i] >>> shift) & 0xffff]++] = i;
    }
    const swap = order;
    order = next;
    next = swap;
  }
  const ranks = new Uint32Array(n);
  let count = 0;
  for (let k = 0; k < n; k++) {
    if (k > 0 && values[order[k]] !== values[order[k - 1]]) count++;
    ranks[order[k]] = count;
  }
  return { ranks, count: n === 0 ? 0 : count + 1 };
}

/** How many times each rank occurs. */
function rankCounts(ranks: Uint32Array, count: number): Uint32Array {
  const counts = new Uint32Array(count);
  for (let i = 0; i < ranks.length; i++) counts[ranks[i]]++;
  return counts;
}

/** Average ranks (1-based, ties sharing the mean of the ranks they span) from dense ranks. */
function averageFromDense(ranks: Uint32Array, count: number): Float64Array {
  const counts = rankCounts(ranks, count);
  // The values of dense rank v occupy positions before+1 .. before+c, whose mean is before + (c + 1) / 2.
  const mean = new Float64Array(count);
  let before = 0;
  for (let v = 0; v < count; v++) {
    mean[v] = before + (counts[v] + 1) / 2;
    before += counts[v];
  }
  const out = new Float64Array(ranks.length);
  for (let i = 0; i < ranks.length; i++) out[i] = mean[ranks[i]];
  return out;
}

/**
 * Ranks 1..n of `a`, tied values getting the average of the ranks they span (`scipy.stats.rankdata`'s default
 * `'average'` method).
 * @throws RangeError when `a` holds a `NaN`.
 */
export function averageRanks(a: Float64Array): Float64Array {
  const { ranks, count } = denseRanks(a);
  return averageFromDense(ranks, count);
}

/**
 * Spearman's ρ from dense ranks (as {@link spearman} on the values they rank).
 * @param countX the number of distinct ranks `rx` may hold (ranks are < countX); likewise `countY`
 * @throws RangeError when the lengths differ.
 */
export function spearmanFromRanks(rx: Uint32Array, countX: number, ry: Uint32Array, countY: number): number {
  if (rx.length !== ry.length) throw new RangeError(`x and y must have the same length (got ${rx.length} and ${ry.length})`);
  if (rx.length < 2) return NaN;
  return pearson(averageFromDense(rx, countX), averageFromDense(ry, countY));
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
  const dx = denseRanks(x);
  const dy = denseRanks(y);
  return spearmanFromRanks(dx.ranks, dx.count, dy.ranks, dy.count);
}

/** Σ c(c−1)/2 over the counts. */
function pairsWithin(counts: Uint32Array): number {
  let ties = 0;
  for (let v = 0; v < counts.length; v++) ties += (counts[v] * (counts[v] - 1)) / 2;
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
 * Strict inversions of the integer sequence `a` (values < `count`) with a Fenwick tree of counts: O(n log count),
 * cheaper than a merge sort when the values have few distinct ranks (human scores: MQM, DA, Likert grades).
 */
function inversionsFenwick(a: Float64Array, count: number): number {
  const tree = new Uint32Array(count + 1);
  let inversions = 0;
  for (let k = 0; k < a.length; k++) {
    // Earlier values <= a[k]: prefix count up to rank a[k] (1-based index a[k] + 1).
    let atMost = 0;
    for (let i = a[k] + 1; i > 0; i -= i & -i) atMost += tree[i];
    inversions += k - atMost;
    for (let i = a[k] + 1; i <= count; i += i & -i) tree[i]++;
  }
  return inversions;
}

/** Stable counting sort of the indices `order` by `key[order[k]]` (keys < `count`). */
function countingSortBy(order: Uint32Array, key: Uint32Array, count: number): Uint32Array {
  const start = new Uint32Array(count + 1);
  for (let k = 0; k < order.length; k++) start[key[order[k]] + 1]++;
  for (let v = 0; v < count; v++) start[v + 1] += start[v];
  const out = new Uint32Array(order.length);
  for (let k = 0; k < order.length; k++) out[start[key[order[k]]]++] = order[k];
  return out;
}

/**
 * Kendall's τ-b from dense ranks (as {@link kendallTauB} on the values they rank). O(n + countX + countY) to order
 * the pairs by (x, y) (two stable counting sorts), then O(n log n) to count the discordant pairs as the strict
 * inversions of the y ranks in that order.
 * @throws RangeError when the lengths differ.
 */
export function kendallTauBFromRanks(rx: Uint32Array, countX: number, ry: Uint32Array, countY: number): number {
  if (rx.length !== ry.length) throw new RangeError(`x and y must have the same length (got ${rx.length} and ${ry.length})`);
  const n = rx.length;
  if (n < 2) return NaN;
  // τ-b is symmetric in x and y: count inversions in the variable with fewer distinct values (cheaper below).
  if (countX < countY) return kendallTauBFromRanks(ry, countY, rx, countX);
  const identity = new Uint32Array(n);
  for (let i = 0; i < n; i++) identity[i] = i;
  const order = countingSortBy(countingSortBy(identity, ry, countY), rx, countX);
  const ys = new Float64Array(n);
  let jointTies = 0;
  let run = 1;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    ys[k] = ry[i];
    if (k === 0) continue;
    const p = order[k - 1];
    if (rx[i] === rx[p] && ry[i] === ry[p]) {
      run++;
    } else {
      jointTies += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  jointTies += (run * (run - 1)) / 2;
  const xTies = pairsWithin(rankCounts(rx, countX));
  const yTies = pairsWithin(rankCounts(ry, countY));
  // Few distinct y ranks (tie-heavy human scores): a Fenwick tree; otherwise a merge sort.
  const discordant = countY * 16 < n ? inversionsFenwick(ys, countY) : sortCountingInversions(ys);
  const total = (n * (n - 1)) / 2;
  if (xTies === total || yTies === total) return NaN;
  // Same grouping of operations as scipy, so that results agree to the last bit where the counts do.
  const concordantMinusDiscordant = total - xTies - yTies + jointTies - 2 * discordant;
  return clip(concordantMinusDiscordant / Math.sqrt(total - xTies) / Math.sqrt(total - yTies));
}

/**
 * Kendall's τ-b, as `scipy.stats.kendalltau(x, y)` (default `variant='b'`):
 * τ_b = (P − Q) / √((n₀ − n₁)(n₀ − n₂)), with P/Q the concordant/discordant pairs, n₀ = n(n−1)/2, n₁ and n₂ the
 * pairs tied in x and in y (pairs tied in both count in n₁ and n₂ and in neither P nor Q). O(n log n): the pairs
 * are ordered by (x, y), after which the discordant pairs are exactly the strict inversions of the y sequence.
 * @returns τ_b in [-1, 1]; `NaN` for n < 2, an input with every value equal, or any `NaN`.
 * @throws RangeError when the lengths differ.
 */
export function kendallTauB(x: Float64Array, y: Float64Array): number {
  checkPair(x, y);
  if (x.length < 2 || hasNaN(x) || hasNaN(y)) return NaN;
  const dx = denseRanks(x);
  const dy = denseRanks(y);
  return kendallTauBFromRanks(dx.ranks, dx.count, dy.ranks, dy.count);
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
  let grouped = true;
  if (groups !== undefined) for (let i = 1; i < n && grouped; i++) grouped = groups[i - 1] <= groups[i];
  // Already grouped (as the bootstrap builds its resamples): no sort needed.
  if (groups !== undefined && !grouped) order.sort((i, j) => groups[i] - groups[j] || i - j);
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
