/**
 * Plain oracle of Moses' duplicate removal (src/engine/nbest/moses-dedup.ts `mosesRemoveDuplicatesBy`): one key string
 * per candidate.
 */

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

