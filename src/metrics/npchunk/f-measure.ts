/**
 * The F-measure of seed 003's eqs. 5, 8 and 11, also used for the noun-phrase similarity of §2.1:
 *   F = (1 + γ²) R P / (R + γ² P), γ = P / R.
 * (The paper's Figure 1 similarities 0.7429 and 0.3714 are this F of the two PER ratios; the plain F1 would give
 * 0.8 and 0.4.) F is 0 when R or P is 0.
 */

/** Eq. 5's F-measure with γ = P/R. */
export function gammaF(recall: number, precision: number): number {
  if (recall === 0 || precision === 0) return 0;
  const g2 = (precision / recall) ** 2;
  return ((1 + g2) * recall * precision) / (recall + g2 * precision);
}
