/**
 * Per-segment reference tables of the n-gram kernels: every n-gram of orders 1..maxOrder of a segment's references
 * in one hash-table trie (see `common/hash`, layout in `common/ngram-layout`), built once per segment and probed by
 * all of its hypotheses.
 *
 * Two kinds: the clipped table keeps each n-gram's count max-merged over the references (BLEU, mteval NIST); the
 * per-reference table keeps one count per reference in a side array, `counts[slot * k + r]` (chrF, NLTK NIST).
 * With a NIST weights table (`ngram-weights`), each new entry caches its information weight when it is inserted.
 */
import { ROOT, ngramKey, prefixCode } from './common/hash';
import {
  AUX, COUNT, KEY_SHIFT, NGRAM_SLOT_BYTES, STAMP, USED, WEIGHTS_SHIFT, WEIGHTS_WEIGHT, clearRecord,
  ngramTableCapacity, recordAddress, weightAddress,
} from './common/ngram-layout';
import { NEW_SLOT, findSlot, insertSlot, slotAddress, tableCapacity } from './common/table';

/** Number of n-grams of orders 1..maxOrder in a sequence of `length` tokens (f64: can exceed 2^31). */
// @ts-ignore: decorator
@inline
export function ngramsIn(length: i32, maxOrder: i32): f64 {
  const m = f64(min(length, maxOrder));
  return m * f64(length) - (m * (m - 1)) / 2;
}

/**
 * Sizes the reference table of every segment: `capacity[s]` (u32 slots) for segments `0 .. nSegments`, from the
 * number of n-grams in the segment's references (an upper bound of its distinct n-grams). Returns the largest
 * capacity; a segment too large for memory gets 0xFFFFFFFF (and the result 2^32 - 1), which the caller must refuse.
 */
export function planSegmentTables(
  refOffsets: usize, segRefOffsets: usize, nSegments: i32, maxOrder: i32, capacity: usize,
): f64 {
  let largest = 0.0;
  for (let s = 0; s < nSegments; s++) {
    const r0 = load<i32>(segRefOffsets + (usize(s) << 2));
    const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
    let ngrams = 0.0;
    for (let r = r0; r < r1; r++) {
      ngrams += ngramsIn(load<i32>(refOffsets + (usize(r) << 2), 4) - load<i32>(refOffsets + (usize(r) << 2)), maxOrder);
    }
    const fits = ngrams < f64(1 << 25);
    const slots = fits ? f64(ngramTableCapacity(i32(ngrams))) : 4294967295.0;
    store<u32>(capacity + (usize(s) << 2), fits ? u32(slots) : 0xFFFFFFFF);
    largest = max(largest, slots);
  }
  return largest;
}

/**
 * Slots of the global count table of references `0 .. nRefs` (`ngram-weights`): load factor at most 2/3, as it is
 * only inserted into. Returns 2^32 - 1 when it would not fit in memory.
 */
export function planCountTable(refOffsets: usize, nRefs: i32, maxOrder: i32): f64 {
  let ngrams = 0.0;
  for (let r = 0; r < nRefs; r++) {
    ngrams += ngramsIn(load<i32>(refOffsets + (usize(r) << 2), 4) - load<i32>(refOffsets + (usize(r) << 2)), maxOrder);
  }
  return ngrams < f64(1 << 27) ? f64(tableCapacity(i32(ngrams))) : 4294967295.0;
}

/** Bytes of a counting table of `slots` slots, for the TypeScript side. */
export function ngramTableBytes(slots: u32): f64 {
  return f64(slots) * f64(NGRAM_SLOT_BYTES);
}

/**
 * Gives a newly inserted segment entry its NIST weight and, in `AUX`, its own prefix code in the weights table (for
 * its extensions). `weightsParent` is the code of the entry's (n-1)-gram prefix there (0 when the prefix is absent,
 * and then so is the n-gram). Returns the entry's code (0 when absent).
 */
// @ts-ignore: decorator
@inline
function cacheWeight(
  record: usize, weightAt: usize, weightsParent: u32, token: u32, weights: usize, weightsCapacity: u32,
): u32 {
  store<f64>(weightAt, 0);
  if (weightsParent == 0) return 0;
  const g = findSlot(weights, weightsCapacity, ngramKey(weightsParent, token), WEIGHTS_SHIFT);
  if (g < 0) return 0;
  const code = prefixCode(u32(g));
  store<u32>(record, code, AUX);
  store<f64>(weightAt, load<f64>(slotAddress(weights, u32(g), WEIGHTS_SHIFT), WEIGHTS_WEIGHT));
  return code;
}

/**
 * Builds the clipped table of references `r0 .. r1`: `COUNT` = the largest count of the n-gram in any one of them.
 * Each reference is counted under its own stamp (`r - r0 + 1`) in `STAMP`/`USED`, so no per-reference clearing is
 * needed; hypothesis generations must therefore start above `r1 - r0`.
 */
// @ts-ignore: decorator
@inline
export function buildClippedTable(
  table: usize, capacity: u32, refTokens: usize, refOffsets: usize, r0: i32, r1: i32, maxOrder: i32,
  weights: usize, weightsCapacity: u32,
): void {
  memory.fill(table, 0, usize(capacity) << KEY_SHIFT);
  for (let r = r0; r < r1; r++) {
    const stamp = r - r0 + 1;
    const from = load<i32>(refOffsets + (usize(r) << 2));
    const to = load<i32>(refOffsets + (usize(r) << 2), 4);
    for (let i = from; i < to; i++) {
      let parent = ROOT;
      let weightsParent = ROOT;
      const last = min(to, i + maxOrder);
      for (let j = i; j < last; j++) {
        const token = load<u32>(refTokens + (usize(j) << 2));
        const hit = insertSlot(table, capacity, ngramKey(parent, token), KEY_SHIFT);
        const slot = hit & ~NEW_SLOT;
        const record = recordAddress(table, capacity, slot);
        if (hit & NEW_SLOT) {
          clearRecord(record);
          if (weights) {
            weightsParent = cacheWeight(
              record, weightAddress(table, capacity, slot), weightsParent, token, weights, weightsCapacity,
            );
          }
        } else if (weights) {
          weightsParent = load<u32>(record, AUX);
        }
        let used = 1;
        if (load<i32>(record, STAMP) == stamp) used = load<i32>(record, USED) + 1;
        else store<i32>(record, stamp, STAMP);
        store<i32>(record, used, USED);
        if (used > load<i32>(record, COUNT)) store<i32>(record, used, COUNT);
        parent = prefixCode(slot);
      }
    }
  }
}

/**
 * Builds the per-reference table of references `r0 .. r1`: `counts[slot * stride + (r - r0)]` (i32) = occurrences
 * of the slot's n-gram in reference `r`, with `stride` ≥ `k = r1 - r0`; lanes `k .. stride` stay 0 (a stride of 4
 * makes each entry's counts one `i32x4`). `STAMP` stays 0, so any generation above 0 is fresh.
 */
// @ts-ignore: decorator
@inline
export function buildPerReferenceTable(
  table: usize, capacity: u32, counts: usize, stride: i32, refTokens: usize, refOffsets: usize, r0: i32, r1: i32,
  maxOrder: i32, weights: usize, weightsCapacity: u32,
): void {
  memory.fill(table, 0, usize(capacity) << KEY_SHIFT);
  for (let r = r0; r < r1; r++) {
    const from = load<i32>(refOffsets + (usize(r) << 2));
    const to = load<i32>(refOffsets + (usize(r) << 2), 4);
    for (let i = from; i < to; i++) {
      let parent = ROOT;
      let weightsParent = ROOT;
      const last = min(to, i + maxOrder);
      for (let j = i; j < last; j++) {
        const token = load<u32>(refTokens + (usize(j) << 2));
        const hit = insertSlot(table, capacity, ngramKey(parent, token), KEY_SHIFT);
        const slot = hit & ~NEW_SLOT;
        const record = recordAddress(table, capacity, slot);
        const slotCounts = counts + ((usize(slot) * usize(stride)) << 2);
        if (hit & NEW_SLOT) {
          clearRecord(record);
          if (stride == 4) v128.store(slotCounts, i32x4.splat(0));
          else for (let q = 0; q < stride; q++) store<i32>(slotCounts + (usize(q) << 2), 0);
          if (weights) {
            weightsParent = cacheWeight(
              record, weightAddress(table, capacity, slot), weightsParent, token, weights, weightsCapacity,
            );
          }
        } else if (weights) {
          weightsParent = load<u32>(record, AUX);
        }
        const c = slotCounts + (usize(r - r0) << 2);
        store<i32>(c, load<i32>(c) + 1);
        parent = prefixCode(slot);
      }
    }
  }
}
