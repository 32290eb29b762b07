/**
 * The summary statistics of sacreBLEU's significance module, with the exact floating-point behaviour of the
 * library calls it makes, so that means and confidence half-widths come out as the same doubles:
 * - numpy's `ndarray.mean()` of float64 (pairwise summation in 8-way unrolled blocks of ≤ 128, over the whole
 *   contiguous array: no buffering, so no chunking at numpy's 8192-element buffer size) — used by the paired tests;
 * - Python's `statistics.mean` (the exact rational mean, rounded once) — used by `corpus_score(n_bootstrap=…)`,
 *   i.e. the CLI's `--confidence`;
 * - the 95% interval of both: half the distance between the sorted scores at `n // 40` and `n − n // 40 − 1`.
 */

/** numpy's `pairwise_sum` for float64 over `a[from, from + n)`. */
function pairwiseSum(a: Float64Array, from: number, n: number): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[from + i];
    return res;
  }
  if (n <= 128) {
    const r = [a[from], a[from + 1], a[from + 2], a[from + 3], a[from + 4], a[from + 5], a[from + 6], a[from + 7]];
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (let j = 0; j < 8; j++) r[j] += a[from + i + j];
    }
    let res = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
    for (; i < n; i++) res += a[from + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(a, from, n2) + pairwiseSum(a, from + n2, n - n2);
}

/**
 * `np.sum(a)` of a contiguous float64 vector: the identity 0 plus one pairwise sum of all elements (numpy needs no
 * buffer here, so the inner loop sees the whole array; checked beyond 8192 elements in the tests).
 */
export function numpySum(a: Float64Array): number {
  return 0 + pairwiseSum(a, 0, a.length);
}

/** `np.mean(a)` of a float64 vector. */
export function numpyMean(a: Float64Array): number {
  return numpySum(a) / a.length;
}

/** A double as `mantissa · 2^exponent` with an integer mantissa (exact). */
function decompose(x: number): { m: bigint; e: number } {
  if (x === 0) return { m: 0n, e: 0 };
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  return { m: hi >>> 31 ? -m : m, e };
}

/** The double nearest to `num / den · 2^shift` (ties to even), for `den > 0`. */
function roundRational(num: bigint, den: bigint, shift: number): number {
  if (num === 0n) return 0;
  const negative = num < 0n;
  let n = negative ? -num : num;
  // Scale so that the integer quotient has at least 55 bits: 53 kept, one to round, the remainder as sticky bit.
  const bits = (x: bigint): number => x.toString(2).length;
  let k = 55 - (bits(n) - bits(den));
  if (k > 0) n <<= BigInt(k);
  else den <<= BigInt(-k);
  shift -= k;
  let q = n / den;
  let sticky = n % den !== 0n;
  // Normalise q to exactly 55 bits.
  while (bits(q) > 55) {
    sticky ||= (q & 1n) === 1n;
    q >>= 1n;
    shift++;
  }
  // Below the normal range the kept precision shrinks; fold the extra bits into the sticky bit.
  const minShift = -1074 - 2;
  while (shift < minShift) {
    sticky ||= (q & 1n) === 1n;
    q >>= 1n;
    shift++;
  }
  const roundBit = (q >> 1n) & 1n;
  const lowBit = q & 1n;
  q >>= 2n;
  shift += 2;
  if (roundBit === 1n && (lowBit === 1n || sticky || (q & 1n) === 1n)) q += 1n;
  const value = Number(q) * 2 ** shift;
  return negative ? -value : value;
}

/** Python's `statistics.mean` of floats: the exact sum divided by the count, rounded once. */
export function pythonMean(values: ArrayLike<number>): number {
  if (values.length === 0) throw new RangeError('mean of no values');
  const parts: { m: bigint; e: number }[] = [];
  let minE = Infinity;
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) return NaN;
    const d = decompose(values[i]);
    parts.push(d);
    if (d.m !== 0n && d.e < minE) minE = d.e;
  }
  if (minE === Infinity) return 0;
  let sum = 0n;
  for (const { m, e } of parts) if (m !== 0n) sum += m << BigInt(e - minE);
  return roundRational(sum, BigInt(values.length), minE);
}

/** A bootstrap estimate: the mean of the resampled scores and the 95% half-width around it. */
export interface BootstrapEstimate {
  readonly mean: number;
  readonly ci: number;
}

/** The 95% half-width of scores already sorted ascending: `0.5 · (s[n − n//40 − 1] − s[n//40])`. */
function halfWidth(sorted: Float64Array): number {
  const n = sorted.length;
  const lower = Math.floor(n / 40);
  return 0.5 * (sorted[n - lower - 1] - sorted[lower]);
}

/**
 * sacreBLEU's `significance.estimate_ci`: numpy's mean and the 95% half-width. Sorts a copy.
 * @throws RangeError for no scores.
 */
export function estimateCiNumpy(scores: Float64Array): BootstrapEstimate {
  if (scores.length === 0) throw new RangeError('no bootstrap scores');
  const sorted = Float64Array.from(scores).sort();
  return { mean: numpyMean(sorted), ci: halfWidth(sorted) };
}

/**
 * sacreBLEU's `Score.estimate_ci` (single-system `--confidence`): Python's exact `statistics.mean` and the 95%
 * half-width. Sorts a copy.
 * @throws RangeError for no scores.
 */
export function estimateCiPython(scores: Float64Array): BootstrapEstimate {
  if (scores.length === 0) throw new RangeError('no bootstrap scores');
  const sorted = Float64Array.from(scores).sort();
  return { mean: pythonMean(sorted), ci: halfWidth(sorted) };
}

/**
 * sacreBLEU's (MultEval's) p-value: `(count(stats > observed) + 1) / (len(stats) + 1)`; the strict `>` keeps a
 * system compared with itself from looking significant.
 */
export function pValue(stats: Float64Array, observed: number): number {
  let c = 0;
  for (let i = 0; i < stats.length; i++) if (stats[i] > observed) c++;
  return (c + 1) / (stats.length + 1);
}
