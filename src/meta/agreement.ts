/**
 * Agreement between two metrics on the grade scale of seed paper 004 (Denoual & Lepage): a score in [0, 1] is
 * recast into one of 10 grades, [0, 0.1[ → 0, [0.1, 0.2[ → 1, …, [0.9, 1] → 9, and two graded lists are compared
 * with Cohen's kappa, the agreement beyond what the two grade distributions would give by chance.
 */

/** Number of grades of the scale. */
export const GRADES = 10;

/**
 * How far above 1 a score may lie and still be graded 9: a ratio that is 1 mathematically can come out a few ulps
 * above it in floating point (sacreBLEU's sentence BLEU of a perfect match is 1.0000000000000004 on the 0–1 scale).
 */
export const GRADE_TOLERANCE = 1e-12;

/**
 * The grade of a score in [0, 1]: the largest k with `score ≥ k/10` (the boundaries are the doubles 0.1, 0.2, …,
 * so a score printed as 0.7 is grade 7 even though `0.7 · 10` is not computed), 1 itself is grade 9, and so is a
 * score at most {@link GRADE_TOLERANCE} above 1 (floating-point excess of a perfect score).
 * @throws RangeError for a score outside [0, 1 + GRADE_TOLERANCE] or NaN.
 */
export function grade(score: number): number {
  if (!(score >= 0 && score <= 1 + GRADE_TOLERANCE)) throw new RangeError(`a score to grade must be in [0, 1] (got ${score})`);
  for (let k = GRADES - 1; k > 0; k--) if (score >= k / 10) return k;
  return 0;
}

/** The grades of a list of scores in [0, 1]. @throws RangeError as {@link grade}, naming the index. */
export function grades(scores: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(scores.length);
  for (let i = 0; i < scores.length; i++) {
    try {
      out[i] = grade(scores[i]);
    } catch (err) {
      throw new RangeError(`score ${i}: ${(err as Error).message}`);
    }
  }
  return out;
}

/**
 * Cohen's kappa of two graded lists: `(p_o − p_e) / (1 − p_e)`, with `p_o` the share of equal grades and `p_e`
 * the chance agreement `Σ_k p1(k)·p2(k)` of the two marginal distributions. NaN when `p_e` is 1 (both lists give
 * one and the same grade throughout: kappa is undefined).
 * @throws RangeError for lists of different or zero length, or grades outside 0..9.
 */
export function cohenKappa(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  if (n !== b.length) throw new RangeError(`kappa needs two lists of one length (got ${n} and ${b.length})`);
  if (n === 0) throw new RangeError('kappa of empty lists');
  const countA = new Float64Array(GRADES);
  const countB = new Float64Array(GRADES);
  let agree = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= GRADES || y >= GRADES) {
      throw new RangeError(`grades must be integers 0..${GRADES - 1} (index ${i}: ${x}, ${y})`);
    }
    countA[x]++;
    countB[y]++;
    if (x === y) agree++;
  }
  const po = agree / n;
  let pe = 0;
  for (let k = 0; k < GRADES; k++) pe += (countA[k] / n) * (countB[k] / n);
  return pe === 1 ? NaN : (po - pe) / (1 - pe);
}

/** Cohen's kappa of two lists of scores in [0, 1] after grading both. */
export function gradedKappa(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return cohenKappa(grades(a), grades(b));
}
