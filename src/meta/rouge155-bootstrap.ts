/**
 * ROUGE-1.5.5's averages and confidence intervals (its `computeAverages` and `bootstrapResampling`), exactly.
 *
 * What ROUGE-1.5.5 prints as `Average_R` is not the mean of the units: it is the mean of B bootstrap-resample means.
 * Resample i (i = 0 … B−1) seeds Perl's generator with `srand(i)` and draws N units with `int(rand(N))`, N = the
 * number of units, taken in Perl's string order of their ids (`"<eval>.<peer>"`, see {@link rouge155UnitOrder}).
 * The B resample values of each of R, P, F are sorted, summed in ascending order and divided by B; the interval
 * ends are interpolated in the sorted values at `delta = B·((100 − cf)/2)/100`:
 * `ciUa = int(B − delta − 1)`, `ciLa = int(delta)`, ratio `r = B − delta − 1 − ciUa`, and
 * `low = s[ciLa] + (s[ciLa+1] − s[ciLa])·r`, `high = s[ciUa] + (s[ciUa+1] − s[ciUa])·r` — the same ratio for both
 * ends, as the Perl has it. Indexes follow Perl's array rules: one past the end reads 0, a negative one counts
 * from the end.
 *
 * Two counting modes (`-t`): `unit` (-t 0) resamples the per-unit [R, P, F] (ROUGE's 5-decimal values) and averages
 * them; `token` (-t 1) resamples per-unit [model count, peer count, hits], sums them and turns each resample's sums
 * into R = hits/model, P = hits/peer, F = R·P/((1−α)·P + α·R) (0 where a denominator is 0). With -t 2 ROUGE prints
 * only the totals of the counts ({@link rouge155Totals}); there is no resampling.
 *
 * Every arithmetic step is the Perl's, in the Perl's order, so the doubles are the same ones; formatting them
 * (`%7.5f`) is the printer's business. One index stream serves every statistic of a peer: resample i draws the same
 * units for ROUGE-1, ROUGE-L, … (same N, same seed), so all of them are accumulated in one pass.
 */
import { PerlRand } from './perl-rand.js';

/** How units are combined: `unit` = ROUGE-1.5.5 `-t 0` (mean of unit scores), `token` = `-t 1` (pooled counts). */
export type Rouge155Counting = 'unit' | 'token';

/** Options of {@link rouge155Bootstrap}: ROUGE-1.5.5's `-r`, `-c`, `-t` and `-p`. */
export interface Rouge155BootstrapOptions {
  /** `-r`: the number of resamples B (a fractional B runs ⌈B⌉ resamples but enters `delta` as given). @default 1000 */
  readonly resamples?: number;
  /** `-c`: the confidence level in percent, 0–100. @default 95 */
  readonly confidence?: number;
  /** `-t 0` or `-t 1`. @default 'unit' */
  readonly counting?: Rouge155Counting;
  /** `-p`: α of F = R·P/((1−α)·P + α·R), used by `token` counting. @default 0.5 */
  readonly alpha?: number;
}

/** One statistic's estimate: [R, P, F] resample means and interval ends, before ROUGE's `%7.5f`. */
export interface Rouge155Estimate {
  /** Mean over the resamples of R, P, F (ROUGE's `Average_R/P/F`). */
  readonly average: readonly [number, number, number];
  /** Lower interval ends of R, P, F. */
  readonly low: readonly [number, number, number];
  /** Upper interval ends of R, P, F. */
  readonly high: readonly [number, number, number];
}

/** Perl's `cmp` on strings: code point order (JavaScript's `<` compares UTF-16 units, which differs above U+FFFF). */
export function perlStringCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only a surrogate against a unit in U+E000–U+FFFF compares differently by code point than by code unit.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && (xs ? y >= 0xe000 : x >= 0xe000)) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * The order ROUGE-1.5.5 resamples units in (`sort keys %scores`: string order of the unit ids): `order[k]` is the
 * position in `ids` of the k-th unit.
 */
export function rouge155UnitOrder(ids: readonly string[]): number[] {
  const order = ids.map((_, i) => i);
  order.sort((i, j) => perlStringCompare(ids[i], ids[j]) || i - j);
  return order;
}

/** Number of resamples ROUGE-1.5.5's `for ($i = 0; $i < B; $i++)` runs. */
function resampleCount(resamples: number): number {
  return resamples > 0 ? Math.ceil(resamples) : 0;
}

// The unit draws of every resample for the last (B, N) asked, kept while small: every peer and every statistic of a
// run with the same number of units reuses them.
const TABLE_LIMIT = 1 << 22;
let cachedTable: { count: number; n: number; draws: Int32Array } | undefined;

/** Resample draws `draws[i·n + k]` for (count, n), or undefined when the table would be too large to keep. */
function drawTable(count: number, n: number): Int32Array | undefined {
  if (count * n > TABLE_LIMIT) return undefined;
  if (cachedTable !== undefined && cachedTable.count === count && cachedTable.n === n) return cachedTable.draws;
  const draws = new Int32Array(count * n);
  const rng = new PerlRand();
  for (let i = 0; i < count; i++) {
    rng.srand(i);
    for (let k = 0; k < n; k++) draws[i * n + k] = rng.index(n);
  }
  cachedTable = { count, n, draws };
  return draws;
}

/** Perl `$a[$i]` read as a number: out-of-range elements are undef (0); negative indexes count from the end. */
function perlElement(sorted: Float64Array, index: number): number {
  const i = index < 0 ? index + sorted.length : index;
  return i >= 0 && i < sorted.length ? sorted[i] : 0;
}

/** Perl `int()`: truncation toward zero. */
function perlInt(x: number): number {
  return Math.trunc(x);
}

/**
 * ROUGE-1.5.5's bootstrap estimates for several statistics of one peer at once.
 * @param rows `n` units × `width` values, row-major, units in ROUGE's resampling order ({@link rouge155UnitOrder});
 *   each consecutive triple of columns is one statistic: [R, P, F] (`unit`) or [model, peer, hit] counts (`token`)
 * @param width values per unit, a multiple of 3
 * @returns one estimate per triple of columns
 * @throws RangeError for a width that is not a positive multiple of 3, rows that are not whole units, or no
 *   resample at all (ROUGE-1.5.5 dies dividing by zero there)
 */
export function rouge155Bootstrap(
  rows: Float64Array,
  width: number,
  options: Rouge155BootstrapOptions = {},
): Rouge155Estimate[] {
  if (!Number.isInteger(width) || width <= 0 || width % 3 !== 0) {
    throw new RangeError(`width must be a positive multiple of 3 (got ${width})`);
  }
  if (rows.length % width !== 0) throw new RangeError(`rows must hold whole units of ${width} values`);
  const resamples = options.resamples ?? 1000;
  const confidence = options.confidence ?? 95;
  const counting = options.counting ?? 'unit';
  const alpha = options.alpha ?? 0.5;
  const count = resampleCount(resamples);
  if (count === 0) throw new RangeError(`resamples must be positive (got ${resamples})`);
  const n = rows.length / width;

  // samples[c·count + i] = resample i's value of column c.
  const samples = new Float64Array(width * count);
  const sums = new Float64Array(width);
  const table = drawTable(count, n);
  const rng = table === undefined ? new PerlRand() : undefined;
  for (let i = 0; i < count; i++) {
    sums.fill(0);
    rng?.srand(i);
    for (let k = 0; k < n; k++) {
      const base = (table === undefined ? rng!.index(n) : table[i * n + k]) * width;
      for (let c = 0; c < width; c++) sums[c] += rows[base + c];
    }
    if (counting === 'unit') {
      // ROUGE divides by N only when there are units; an empty peer gives 0s.
      for (let c = 0; c < width; c++) samples[c * count + i] = n > 0 ? sums[c] / n : 0;
    } else {
      for (let c = 0; c < width; c += 3) {
        const model = sums[c];
        const peer = sums[c + 1];
        const hits = sums[c + 2];
        const r = model > 0 ? hits / model : 0;
        const p = peer > 0 ? hits / peer : 0;
        const denominator = (1 - alpha) * p + alpha * r;
        samples[c * count + i] = r;
        samples[(c + 1) * count + i] = p;
        samples[(c + 2) * count + i] = denominator > 0 ? (r * p) / denominator : 0;
      }
    }
  }

  const delta = (resamples * ((100 - confidence) / 2.0)) / 100.0;
  const ciUa = perlInt(resamples - delta - 1);
  const ciLa = perlInt(delta);
  const ratio = resamples - delta - 1 - ciUa;
  const estimates: Rouge155Estimate[] = [];
  for (let c = 0; c < width; c += 3) {
    const average: number[] = [];
    const low: number[] = [];
    const high: number[] = [];
    for (let j = c; j < c + 3; j++) {
      const sorted = samples.subarray(j * count, (j + 1) * count).sort();
      let total = 0;
      for (let i = 0; i < count; i++) total += sorted[i];
      average.push(total / count);
      const la = perlElement(sorted, ciLa);
      const ua = perlElement(sorted, ciUa);
      low.push(la + (perlElement(sorted, ciLa + 1) - la) * ratio);
      high.push(ua + (perlElement(sorted, ciUa + 1) - ua) * ratio);
    }
    estimates.push({
      average: [average[0], average[1], average[2]],
      low: [low[0], low[1], low[2]],
      high: [high[0], high[1], high[2]],
    });
  }
  return estimates;
}

/**
 * ROUGE-1.5.5's `-t 2` totals: each column summed over the units in the given order (its `M_count`, `P_count`,
 * `H_count` before `int()`).
 * @param rows `n` units × `width` values, row-major
 */
export function rouge155Totals(rows: Float64Array, width: number): Float64Array {
  if (!Number.isInteger(width) || width <= 0) throw new RangeError(`width must be a positive integer (got ${width})`);
  if (rows.length % width !== 0) throw new RangeError(`rows must hold whole units of ${width} values`);
  const totals = new Float64Array(width);
  for (let i = 0; i < rows.length; i += width) for (let c = 0; c < width; c++) totals[c] += rows[i + c];
  return totals;
}
