/**
 * The chrF F-score from sufficient statistics, with sacrebleu 2.6.0's arithmetic (`CHRF._compute_f_score`) in the
 * same operation order, so the same doubles come out.
 */

/** sacrebleu's smoothing constant for an order without hypothesis or reference n-grams. */
const EPS = 1e-16;

/**
 * chrF on the 0–100 scale from a statistics vector laid out as sacrebleu's: for each order (character orders
 * first, then word orders) `[hyp n-grams, ref n-grams, matches]`, read from `stats[at .. at + 3 * order)`.
 *
 * Without `epsSmoothing` (sacrebleu's default, "effective order"): precision and recall are averaged over the
 * orders where both sides have n-grams, then combined into F-beta. With it (chrF++.py, NLTK, Moses): F-beta per
 * order, orders without n-grams counting as `1e-16`, averaged over all orders.
 *
 * `float32Ratios` rounds each order's precision and recall to float32, as sacrebleu's bootstrap resampling gets them
 * from float32 sums (src/meta/significance-float32.ts); the rest stays in double either way.
 */
export function chrfScore(
  stats: ArrayLike<number>,
  at: number,
  order: number,
  beta: number,
  epsSmoothing: boolean,
  float32Ratios = false,
): number {
  const factor = beta ** 2;
  let score = 0;
  let avgPrec = 0;
  let avgRec = 0;
  let effectiveOrder = 0;
  for (let i = 0; i < order; i++) {
    const nHyp = stats[at + 3 * i];
    const nRef = stats[at + 3 * i + 1];
    const nMatch = stats[at + 3 * i + 2];
    // float32 / float32 → float32; rounding the double quotient is the same (53 ≥ 2·24 + 2 bits).
    const prec = nHyp > 0 ? (float32Ratios ? Math.fround(nMatch / nHyp) : nMatch / nHyp) : EPS;
    const rec = nRef > 0 ? (float32Ratios ? Math.fround(nMatch / nRef) : nMatch / nRef) : EPS;
    const denom = factor * prec + rec;
    score += denom > 0 ? ((1 + factor) * prec * rec) / denom : EPS;
    if (nHyp > 0 && nRef > 0) {
      avgPrec += prec;
      avgRec += rec;
      effectiveOrder++;
    }
  }
  if (epsSmoothing) return (100 * score) / order;
  if (effectiveOrder === 0) {
    avgPrec = 0;
    avgRec = 0;
  } else {
    avgPrec /= effectiveOrder;
    avgRec /= effectiveOrder;
  }
  if (avgPrec + avgRec === 0) return 0;
  const f = ((1 + factor) * avgPrec * avgRec) / (factor * avgPrec + avgRec);
  return 100 * f;
}
