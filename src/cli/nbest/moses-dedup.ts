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
  const { values, names } = parseMosesFeatures(field);
  let key = '';
  // String(-0) is "0": -0 and 0 compare equal in C as well.
  for (let k = 0; k < values.length; k++) key += `${names?.[k] ?? ''}${values[k]} `;
  return key;
}

/**
 * Removes duplicates from one sentence's candidates as Moses does (a duplicate is swapped with the last candidate
 * and dropped), without a key string per candidate: candidates `i` and `j` are duplicates when `same(i, j)`;
 * `hash(i)` must be equal for duplicates (it only narrows the candidates `same` is asked about). Returns the kept
 * indices into the input, in Moses' order (test/reference/moses-dedup.ts is the plain key-based version).
 */
export function mosesRemoveDuplicatesBy(
  count: number,
  hash: (i: number) => number,
  same: (i: number, j: number) => boolean,
): Int32Array {
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  // Kept candidates by hash; a bucket is a short list of indices (collisions are rare).
  const kept = new Map<number, number[]>();
  let end = count - 1;
  for (let k = 0; k <= end; k++) {
    const c = order[k];
    const h = hash(c);
    const bucket = kept.get(h);
    let duplicate = false;
    if (bucket !== undefined) {
      for (const j of bucket) {
        if (same(j, c)) {
          duplicate = true;
          break;
        }
      }
    }
    if (!duplicate) {
      if (bucket === undefined) kept.set(h, [c]);
      else bucket.push(c);
      continue;
    }
    if (k < end) {
      order[k] = order[end];
      order[end] = c;
      k--;
    }
    end--;
  }
  return order.subarray(0, end + 1);
}

/**
 * A features field parsed for comparison: the single-precision values in order and, for `name=value` pairs, the
 * name with its `=` (`''` for a dense value). Two fields compare equal here exactly when their
 * {@link mosesFeatureKey}s are equal, without formatting a number: the key is injective on values except that
 * -0 and 0 (equal under `===`) and every NaN (compared as such) share a text.
 */
export interface MosesFeatures {
  readonly values: number[];
  /** Undefined when every value is dense (Moses' `name= v v` form, names dropped). */
  readonly names: string[] | undefined;
}

/**
 * Parses a features field, or a {@link mosesFeatureKey} (parsing a key gives the same result as parsing its field:
 * a single-precision value prints as a double that rounds back to itself).
 */
export function parseMosesFeatures(field: string): MosesFeatures {
  const values: number[] = [];
  let names: string[] | undefined;
  const n = field.length;
  let i = 0;
  while (i < n) {
    let c = field.charCodeAt(i);
    if (c === 0x20 || c === 0x09) {
      i++;
      continue;
    }
    const start = i;
    let eq = -1;
    while (i < n) {
      c = field.charCodeAt(i);
      if (c === 0x20 || c === 0x09) break;
      if (c === 0x3d) eq = i;
      i++;
    }
    if (eq === i - 1) continue;
    if (eq >= 0 && names === undefined) names = values.map(() => '');
    names?.push(eq >= 0 ? field.slice(start, eq + 1) : '');
    values.push(Math.fround(Number(field.slice(eq >= 0 ? eq + 1 : start, i))));
  }
  return { values, names };
}

/** Whether two parsed fields have equal {@link mosesFeatureKey}s. */
export function sameMosesFeatures(a: MosesFeatures, b: MosesFeatures): boolean {
  const n = a.values.length;
  if (b.values.length !== n || (a.names === undefined) !== (b.names === undefined)) return false;
  for (let k = 0; k < n; k++) {
    const x = a.values[k];
    const y = b.values[k];
    if (x !== y && !(x !== x && y !== y)) return false;
  }
  if (a.names !== undefined) {
    for (let k = 0; k < n; k++) if (a.names[k] !== b.names![k]) return false;
  }
  return true;
}
