/**
 * The guard every metric's score-from-statistics step starts with: a row or column-sum vector of the wrong width is a
 * caller's bug (stats of another metric, or of another setting of this one), so it fails loudly instead of scoring
 * whatever numbers happen to sit in the columns.
 */

/**
 * Throws a RangeError `NAME statistics must have WIDTH columns (got N)` unless `stats` has exactly `width` entries.
 * @param name - the metric as the message names it (`BLEU`, `chrF`, `ROUGE-1`…).
 */
export function checkStatsWidth(name: string, stats: ArrayLike<number>, width: number): void {
  if (stats.length !== width) throw new RangeError(`${name} statistics must have ${width} columns (got ${stats.length})`);
}
