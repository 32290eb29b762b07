/**
 * NIST information weights (Doddington 2002): info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)) over every
 * reference of a test set, the numerator of a unigram being the number of reference tokens.
 *
 * Two steps: `countReferenceNgrams` counts all n-grams of all references in one counting table (a hash-table trie,
 * see `common/hash`); `compactNgramWeights` then turns it into the compact weights table the scoring kernels and
 * `ngramWeight` probe: 16-byte slots `{key u64, weight f64}`, sized to the distinct n-grams actually seen.
 */
import { ROOT, keyParent, keyToken, ngramKey, prefixCode, slotOfCode } from './common/hash';
import {
  AUX, COUNT, KEY_SHIFT, WEIGHTS_SHIFT, WEIGHTS_WEIGHT, clearRecord, recordAddress,
} from './common/ngram-layout';
import { NEW_SLOT, findSlot, insertSlot, slotAddress } from './common/table';

/**
 * `log2(numerator / denominator)` computed as Python's `math.log(x, 2)` does, i.e. `log(x) / log(2)` after the
 * division, the way NLTK's `nist_score` writes it. AssemblyScript's `Math.log` is musl's table-driven log (Szabolcs
 * Nagy, ARM optimized-routines), the algorithm of glibc ≥ 2.28's `log` that CPython calls. Measured against CPython
 * 3.11 on glibc 2.36 (x86-64) over 280,200 count ratios: bit-identical on all but 6, which differ by one ulp where
 * glibc's FMA variant rounds differently; `Math.log(x) / Math.LN2` in V8 (fdlibm) differed on 7,866 and
 * `Math.log2(x)` on 79,948 (see test/fixtures/nist-log2).
 */
export function log2Ratio(numerator: f64, denominator: f64): f64 {
  return Math.log(numerator / denominator) / Math.LN2;
}

/**
 * Counts every n-gram of orders 1..maxOrder of references `0 .. nRefs` into a zero-filled counting table of
 * `capacity` slots (`COUNT` = total occurrences) and lists the slots in insertion order in `order` (i32), which puts
 * every prefix before its extensions. Returns the number of distinct n-grams.
 */
export function countReferenceNgrams(
  refTokens: usize, refOffsets: usize, nRefs: i32, maxOrder: i32, table: usize, capacity: u32, order: usize,
): i32 {
  memory.fill(table, 0, usize(capacity) << KEY_SHIFT);
  let distinct = 0;
  for (let r = 0; r < nRefs; r++) {
    const from = load<i32>(refOffsets + (usize(r) << 2));
    const to = load<i32>(refOffsets + (usize(r) << 2), 4);
    for (let i = from; i < to; i++) {
      let parent = ROOT;
      const last = min(to, i + maxOrder);
      for (let j = i; j < last; j++) {
        const hit = insertSlot(table, capacity, ngramKey(parent, load<u32>(refTokens + (usize(j) << 2))), KEY_SHIFT);
        const slot = hit & ~NEW_SLOT;
        const record = recordAddress(table, capacity, slot);
        if (hit & NEW_SLOT) {
          clearRecord(record);
          store<u32>(order + (usize(distinct++) << 2), slot);
        }
        store<i32>(record, load<i32>(record, COUNT) + 1, COUNT);
        parent = prefixCode(slot);
      }
    }
  }
  return distinct;
}

/**
 * Writes the weights table (`weightsCapacity` slots, cleared here) from a counting table filled by
 * `countReferenceNgrams`. Entries move to new slots, so prefix codes are re-mapped on the way: walking `order`
 * meets every prefix before its extensions, and each counting slot remembers its new code in `AUX`.
 * `totalTokens` is the numerator of unigram weights.
 */
export function compactNgramWeights(
  table: usize, capacity: u32, order: usize, distinct: i32, totalTokens: f64, weights: usize, weightsCapacity: u32,
): void {
  memory.fill(weights, 0, usize(weightsCapacity) << WEIGHTS_SHIFT);
  for (let e = 0; e < distinct; e++) {
    const slot = load<u32>(order + (usize(e) << 2));
    const record = recordAddress(table, capacity, slot);
    const key = load<u64>(slotAddress(table, slot, KEY_SHIFT));
    const parent = keyParent(key);
    let prefixCount = totalTokens;
    let newParent = ROOT;
    if (parent != ROOT) {
      const parentRecord = recordAddress(table, capacity, slotOfCode(parent));
      prefixCount = f64(load<i32>(parentRecord, COUNT));
      newParent = load<u32>(parentRecord, AUX);
    }
    const g = insertSlot(weights, weightsCapacity, ngramKey(newParent, keyToken(key)), WEIGHTS_SHIFT) & ~NEW_SLOT;
    store<f64>(slotAddress(weights, g, WEIGHTS_SHIFT), log2Ratio(prefixCount, f64(load<i32>(record, COUNT))), WEIGHTS_WEIGHT);
    store<u32>(record, prefixCode(g), AUX);
  }
}

/** Weight of the n-gram `tokens[0 .. n]` (i32 ids) in a weights table, or 0 when it never occurs there. */
export function ngramWeight(tokens: usize, n: i32, weights: usize, weightsCapacity: u32): f64 {
  let parent = ROOT;
  let g = -1;
  for (let j = 0; j < n; j++) {
    g = findSlot(weights, weightsCapacity, ngramKey(parent, load<u32>(tokens + (usize(j) << 2))), WEIGHTS_SHIFT);
    if (g < 0) return 0;
    parent = prefixCode(u32(g));
  }
  return g < 0 ? 0 : load<f64>(slotAddress(weights, u32(g), WEIGHTS_SHIFT), WEIGHTS_WEIGHT);
}
