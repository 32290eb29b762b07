/**
 * Moses `extractor`'s duplicate removal (mert/Data.cpp `Data::removeDuplicates`), per sentence.
 *
 * A candidate is a duplicate when an earlier kept candidate of the same sentence has equal features (compared as
 * single-precision floats, Moses' `FeatureStatsType`) and equal statistics. Moses does not delete in place: it swaps
 * the duplicate with the last not-yet-dropped candidate and shrinks the list, then looks at the swapped-in one, so
 * the surviving order differs from the input order. We reproduce that order exactly, because SCORES_TXT is compared
 * byte for byte.
 *
 * Features and statistics are compared through one key string per candidate (a Set lookup instead of Moses'
 * hash on the feature sum and pairwise scan: the same answer, since equal arrays give equal keys and, for the finite
 * values Moses writes, equal keys mean equal arrays).
 */

/**
 * The feature key of a Moses features field (`name= v v name= v`, or `name=v` sparse pairs): names ending in `=`
 * are dropped, each dense value is parsed and rounded to single precision (`atof` into a `float`), a sparse
 * `name=value` pair keeps its name. Equal keys ⇔ equal feature vectors as Moses compares them.
 */
export function mosesFeatureKey(field: string): string {
  let key = '';
  for (const token of field.split(/[ \t]+/)) {
    if (token.length === 0 || token.endsWith('=')) continue;
    const eq = token.lastIndexOf('=');
    const value = Math.fround(Number(eq >= 0 ? token.slice(eq + 1) : token));
    // String(-0) is "0": -0 and 0 compare equal in C as well.
    key += eq >= 0 ? `${token.slice(0, eq + 1)}${value} ` : `${value} `;
  }
  return key;
}

/**
 * Removes duplicates from one sentence's candidates as Moses does; returns the kept candidates' indices into the
 * input, in Moses' order.
 * @param keys one key per candidate: its feature key and its statistics (equal ⇔ duplicate)
 */
export function mosesRemoveDuplicates(keys: readonly string[]): number[] {
  const order = keys.map((_, i) => i);
  const kept = new Set<string>();
  let end = order.length - 1;
  for (let k = 0; k <= end; k++) {
    if (!kept.has(keys[order[k]])) {
      kept.add(keys[order[k]]);
      continue;
    }
    if (k < end) {
      const t = order[k];
      order[k] = order[end];
      order[end] = t;
      k--;
    }
    end--;
  }
  return order.slice(0, end + 1);
}
