/**
 * Skip-bigram co-occurrence counts (ROUGE-S, ROUGE-SU) over CSR token ids: Lin & Och (2004, "Automatic Evaluation of
 * Machine Translation Quality Using Longest Common Subsequence and Skip-Bigram Statistics", §4) and ROUGE-1.5.5's
 * `createSkipBigram`.
 *
 * The units of a sequence t_0 .. t_{n-1}: every ordered pair (t_i, t_j), i < j, with at most `maxGap` tokens between
 * them (j <= i + maxGap + 1; `maxGap` < 0: any gap, ROUGE-S*), plus, for ROUGE-SU, unigrams: all n tokens (`ALL`),
 * or only t_0 .. t_{n-2} (`ROUGE155`: ROUGE-1.5.5 adds the unigram inside its pair loop, which never reaches the last
 * token). Hits = Σ over distinct units of min(hypothesis count, reference count), per reference.
 *
 * A segment's references go into one generation-stamped table (`common/stamped-table`) keyed by the exact pair
 * `(a << 32) | b` (kind 0) or the token (kind 1), with a count per reference beside each key. Hypotheses probe it
 * without a table of their own: each key keeps the hypothesis generation that last touched it and how often it
 * occurred in that hypothesis, and an occurrence is a hit for reference r while that number is at most r's count —
 * which adds up to min(hypothesis count, reference count) without clipping afterwards.
 */
import { tableCapacity } from './common/table';
import {
  STAMPED_AUX, STAMPED_NEW, STAMPED_SHIFT, stampedFind, stampedInsert, stampedSlotAddress, stampedTag,
} from './common/stamped-table';

/** No unigrams (ROUGE-S). */
const UNIGRAMS_NONE: i32 = 0;
/** Every token's unigram (ROUGE-SU as the paper defines it). */
const UNIGRAMS_ALL: i32 = 1;
/** Every token's unigram but the last one's (ROUGE-1.5.5 `-u` / `-U`). */
const UNIGRAMS_ROUGE155: i32 = 2;

/** Key of the pair (a, b). */
// @ts-ignore: decorator
@inline
function pairKey(a: u32, b: u32): u64 {
  return (u64(a) << 32) | u64(b);
}

/** Number of pairs within the gap limit in a sequence of `n` tokens (f64: exact, can exceed 2^32). */
// @ts-ignore: decorator
@inline
function pairsIn(n: i32, maxGap: i32): f64 {
  if (n < 2) return 0;
  const last = f64(n - 1);
  if (maxGap < 0 || f64(maxGap) + 1 >= last) return (f64(n) * last) / 2;
  const g = f64(maxGap) + 1;
  return (g * (g + 1)) / 2 + (last - g) * g;
}

/** Number of unigram units of a sequence of `n` tokens. */
// @ts-ignore: decorator
@inline
function unigramsIn(n: i32, unigrams: i32): f64 {
  if (unigrams == UNIGRAMS_ALL) return f64(n);
  if (unigrams == UNIGRAMS_ROUGE155) return f64(max(0, n - 1));
  return 0;
}

/** Number of units (pairs and unigrams) of a sequence of `n` tokens. */
// @ts-ignore: decorator
@inline
function unitsIn(n: i32, maxGap: i32, unigrams: i32): f64 {
  return pairsIn(n, maxGap) + unigramsIn(n, unigrams);
}

/** Index of the last partner of position i in `from .. to` (inclusive). */
// @ts-ignore: decorator
@inline
function lastPartner(i: i32, to: i32, maxGap: i32): i32 {
  return maxGap < 0 || maxGap >= to - i - 1 ? to - 1 : i + maxGap + 1;
}

/**
 * Key slots a segment's table needs: the capacity for all units of its references. Returns a value of 2^32 or more
 * (as f64) when that does not fit a u32, so that the caller can refuse the batch.
 */
// @ts-ignore: decorator
@inline
function segmentCapacity(refOffsets: usize, r0: i32, r1: i32, maxGap: i32, unigrams: i32): f64 {
  let units = 0.0;
  for (let r = r0; r < r1; r++) {
    units += unitsIn(load<i32>(refOffsets + (usize(r) << 2), 4) - load<i32>(refOffsets + (usize(r) << 2)), maxGap, unigrams);
  }
  return units < 2.0e9 ? f64(tableCapacity(i32(units))) : 4.0e9;
}

/**
 * Sizes the skip-bigram table of every segment: the largest key capacity (returned) and the largest count array
 * (capacity × (references + 1) u32, written as f64 to `countWords`). Values of 2^32 or more mean the batch is too
 * large for linear memory.
 */
export function planSkipBigramTables(
  refOffsets: usize, segRefOffsets: usize, nSegments: i32, maxGap: i32, unigrams: i32, countWords: usize,
): f64 {
  let largest = 0.0;
  let words = 0.0;
  for (let s = 0; s < nSegments; s++) {
    const r0 = load<i32>(segRefOffsets + (usize(s) << 2));
    const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
    const capacity = segmentCapacity(refOffsets, r0, r1, maxGap, unigrams);
    largest = max(largest, capacity);
    words = max(words, capacity * f64(r1 - r0 + 1));
  }
  store<f64>(countWords, words);
  return largest;
}

/** Counts one reference unit: `counts[slot][1 + r] += 1`, claiming (and clearing) the slot when new. */
// @ts-ignore: decorator
@inline
function insertUnit(keys: usize, capacity: u32, key: u64, tag: u32, counts: usize, stride: usize, r: i32): void {
  const hit = stampedInsert(keys, capacity, key, tag);
  const at = counts + usize(hit & ~STAMPED_NEW) * stride;
  if (hit & STAMPED_NEW) memory.fill(at, 0, stride);
  const c = at + (usize(1 + r) << 2);
  store<u32>(c, load<u32>(c) + 1);
}

/**
 * Counts one hypothesis unit under hypothesis `generation`: its occurrence number in the hypothesis goes up by one
 * (`counts[slot][0]`, reset when the slot's `aux` stamp is another hypothesis'), and it is a hit for every
 * reference whose count is at least that number (`row` + 24 r: the reference's `hits` f64).
 */
// @ts-ignore: decorator
@inline
function countUnit(
  keys: usize, capacity: u32, key: u64, tag: u32, counts: usize, stride: usize, k: i32, generation: u32, row: usize,
): void {
  const slot = stampedFind(keys, capacity, key, tag);
  if (slot < 0) return;
  const keyAt = stampedSlotAddress(keys, u32(slot));
  const at = counts + usize(slot) * stride;
  let used: u32 = 1;
  if (load<u32>(keyAt, STAMPED_AUX) == generation) used = load<u32>(at) + 1;
  else store<u32>(keyAt, generation, STAMPED_AUX);
  store<u32>(at, used);
  for (let r = 0; r < k; r++) {
    if (used <= load<u32>(at + (usize(1 + r) << 2))) {
      const hits = row + usize(r) * 24;
      store<f64>(hits, load<f64>(hits) + 1.0);
    }
  }
}

/**
 * Skip-bigram counts of a batch (see `skipBigramCounts` in `src/wasm/rouge.ts`). Inputs as for `lcsLengths`;
 * `maxGap` and `unigrams` as above. Scratch: `keys` = `keysCapacity` key slots and `counts` = the count words that
 * `planSkipBigramTables` gives. `out` receives, hypothesis after hypothesis, one row of 3 f64 per reference of its
 * segment: hits, hypothesis units, reference units.
 */
export function skipBigramCounts(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize, maxGap: i32, unigrams: i32,
  keys: usize, keysCapacity: u32, counts: usize, out: usize,
): void {
  memory.fill(keys, 0, usize(keysCapacity) << STAMPED_SHIFT);
  let segment = -1;
  let r0 = 0;
  let k = 0;
  let capacity: u32 = 0;
  let stride: usize = 0;
  let generation: u32 = 0;
  let row = out;
  for (let h = 0; h < nHyps; h++) {
    const s = hypSegments ? load<i32>(hypSegments + (usize(h) << 2)) : h;
    if (s != segment) {
      segment = s;
      r0 = load<i32>(segRefOffsets + (usize(s) << 2));
      const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
      k = r1 - r0;
      capacity = u32(segmentCapacity(refOffsets, r0, r1, maxGap, unigrams));
      assert(k >= 0 && capacity <= keysCapacity);
      stride = usize(k + 1) << 2;
      generation++;
      const pairTag = stampedTag(generation, 0);
      const unigramTag = stampedTag(generation, 1);
      for (let r = 0; r < k; r++) {
        const from = load<i32>(refOffsets + (usize(r0 + r) << 2));
        const to = load<i32>(refOffsets + (usize(r0 + r) << 2), 4);
        const lastUnigram = unigrams == UNIGRAMS_ALL ? to : unigrams == UNIGRAMS_ROUGE155 ? to - 1 : from;
        for (let i = from; i < to; i++) {
          const a = load<u32>(refTokens + (usize(i) << 2));
          if (i < lastUnigram) insertUnit(keys, capacity, u64(a), unigramTag, counts, stride, r);
          const last = lastPartner(i, to, maxGap);
          for (let j = i + 1; j <= last; j++) {
            insertUnit(keys, capacity, pairKey(a, load<u32>(refTokens + (usize(j) << 2))), pairTag, counts, stride, r);
          }
        }
      }
    }
    if (k == 0) continue;
    // Hypothesis generations share the `aux` stamps of the whole call, so they never repeat: the hypothesis index + 1.
    const hypGeneration = u32(h + 1);
    const pairTag = stampedTag(generation, 0);
    const unigramTag = stampedTag(generation, 1);
    const from = load<i32>(hypOffsets + (usize(h) << 2));
    const to = load<i32>(hypOffsets + (usize(h) << 2), 4);
    const hypUnits = unitsIn(to - from, maxGap, unigrams);
    for (let r = 0; r < k; r++) {
      const at = row + usize(r) * 24;
      store<f64>(at, 0);
      store<f64>(at, hypUnits, 8);
      const refFrom = load<i32>(refOffsets + (usize(r0 + r) << 2));
      store<f64>(at, unitsIn(load<i32>(refOffsets + (usize(r0 + r) << 2), 4) - refFrom, maxGap, unigrams), 16);
    }
    const lastUnigram = unigrams == UNIGRAMS_ALL ? to : unigrams == UNIGRAMS_ROUGE155 ? to - 1 : from;
    for (let i = from; i < to; i++) {
      const a = load<u32>(hypTokens + (usize(i) << 2));
      if (i < lastUnigram) countUnit(keys, capacity, u64(a), unigramTag, counts, stride, k, hypGeneration, row);
      const last = lastPartner(i, to, maxGap);
      for (let j = i + 1; j <= last; j++) {
        countUnit(keys, capacity, pairKey(a, load<u32>(hypTokens + (usize(j) << 2))), pairTag, counts, stride, k, hypGeneration, row);
      }
    }
    row += usize(k) * 24;
  }
}
