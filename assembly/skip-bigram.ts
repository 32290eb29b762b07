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
 * A segment's references are counted once into a table of entries, one per unit, each holding the unit's count in
 * every reference (u32 lanes) and `used`/`stamp`: how often the unit occurred so far in hypothesis `stamp`.
 * Hypotheses probe it without a table of their own: an occurrence is a hit for reference r while `used` is at most
 * r's count — which adds up to min(hypothesis count, reference count) without clipping afterwards — four references
 * per `i32x4` comparison. Units the references lack land on entries whose counts are zero, so a unit costs the same,
 * without a branch, whether it hits or not; in the direct table, units holding a token no reference holds are not
 * visited at all (a hypothesis is first reduced to its present tokens and their positions).
 *
 * Two ways to find a unit's entry:
 * - direct (small segments): the segment's distinct reference tokens get local ids 1..D (0: a token the references
 *   lack), and the entry of pair (a, b) is `a * W + b`, of unigram a `W * W + a`, with W = D + 1 — no hashing, no
 *   probing. Counts must be zero outside the segment's own entries: the region is cleared once per call and the
 *   segment's entries again after it. Its entries keep one stride for the whole call (the largest), so that the
 *   `used`/`stamp` words hypotheses leave behind never overlap another segment's counts.
 * - hashed (segments whose W² + W entries exceed `directEntries`): a generation-stamped hash table
 *   (`common/stamped-table`) keyed by the exact pair `(a << 32) | b` (kind 0) or the token (kind 1), its entries
 *   indexed by slot, and a missing unit reading a zero dummy entry at index `capacity`.
 *
 * Entry (`stride` bytes, a multiple of 16): `used` (u32) at 0, `stamp` (u32) at 4, reference r's count at 16 + 4r.
 */
import { tableCapacity } from './common/table';
import { NEW_TOKEN, claimToken, findToken } from './common/token-table';
import { STAMPED_NEW, STAMPED_SHIFT, stampedFind, stampedInsert, stampedTag } from './common/stamped-table';

/** Unigram modes (`src/wasm/rouge.ts`): none (ROUGE-S), every token's (paper ROUGE-SU), all but the last (ROUGE-1.5.5). */
const UNIGRAMS_ALL: i32 = 1;
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

/** End (exclusive) of the positions of `from .. to` whose unigram counts. */
// @ts-ignore: decorator
@inline
function unigramEnd(from: i32, to: i32, unigrams: i32): i32 {
  return unigrams == UNIGRAMS_ALL ? to : unigrams == UNIGRAMS_ROUGE155 ? to - 1 : from;
}

/** Index of the last partner of position i in `.. to` (inclusive). */
// @ts-ignore: decorator
@inline
function lastPartner(i: i32, to: i32, maxGap: i32): i32 {
  return maxGap < 0 || maxGap >= to - i - 1 ? to - 1 : i + maxGap + 1;
}

/** Bytes of a slot's data for `k` references. */
// @ts-ignore: decorator
@inline
function dataStrideOf(k: i32): usize {
  return 16 + (usize((k + 3) >> 2) << 4);
}

/** Number of reference tokens of references `r0 .. r1` (a bound on their distinct tokens). */
// @ts-ignore: decorator
@inline
function tokensOf(refOffsets: usize, r0: i32, r1: i32): i32 {
  return load<i32>(refOffsets + (usize(r1) << 2)) - load<i32>(refOffsets + (usize(r0) << 2));
}

/** Slots of the local-id token table for `tokens` reference tokens (as `vectorCapacity` in `common/match-vectors`). */
// @ts-ignore: decorator
@inline
function tokenCapacity(tokens: i32): u32 {
  return tableCapacity(tokens);
}

/**
 * Key slots a segment's hashed table needs: the capacity for all units of its references. Returns a value of 2^32
 * or more (as f64) when that does not fit a u32, so that the caller can refuse the batch.
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
 * Sizes the scratch of `skipBigramCounts` for segments `0 .. nSegments`. Writes 5 f64 to `plan`: the largest
 * hashed key capacity (its key region needs capacity + 1 slots of 16 bytes), hashed entry bytes ((capacity + 1) ×
 * stride), local-id token capacity, reference tokens of one segment, and entry stride; values of 2^32 or more mean
 * the batch is too large for linear memory. The direct region needs `directEntries` × the largest stride.
 */
export function planSkipBigramTables(
  refOffsets: usize, segRefOffsets: usize, nSegments: i32, maxGap: i32, unigrams: i32, plan: usize,
): void {
  let capacity = 0.0;
  let bytes = 0.0;
  let tokens = 0;
  let stride: usize = 16;
  for (let s = 0; s < nSegments; s++) {
    const r0 = load<i32>(segRefOffsets + (usize(s) << 2));
    const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
    const c = segmentCapacity(refOffsets, r0, r1, maxGap, unigrams);
    capacity = max(capacity, c);
    bytes = max(bytes, (c + 1) * f64(dataStrideOf(r1 - r0)));
    tokens = max(tokens, tokensOf(refOffsets, r0, r1));
    stride = max(stride, dataStrideOf(r1 - r0));
  }
  store<f64>(plan, capacity);
  store<f64>(plan, bytes, 8);
  store<f64>(plan, f64(tokenCapacity(tokens)), 16);
  store<f64>(plan, f64(tokens), 24);
  store<f64>(plan, f64(stride), 32);
}

/** Adds one to reference lane `r` of an entry. */
// @ts-ignore: decorator
@inline
function countIn(at: usize, r: i32): void {
  const c = at + 16 + (usize(r) << 2);
  store<u32>(c, load<u32>(c) + 1);
}

/** Clears an entry. */
// @ts-ignore: decorator
@inline
function clearEntry(at: usize, stride: usize): void {
  for (let q: usize = 0; q < stride; q += 16) v128.store(at + q, i64x2.splat(0));
}

/** Entry of a unit in the direct table: pair (a, b), or the unigram of a when `b` < 0. */
// @ts-ignore: decorator
@inline
function directEntry(entries: usize, stride: usize, width: u32, a: u32, b: u32, unigram: bool): usize {
  return entries + usize(unigram ? width * width + a : a * width + b) * stride;
}

/**
 * Walks the units of references `r0 .. r1` in the direct table, their tokens' local ids in `locals` (one per
 * reference token, from the segment's first): counts them (`clear` false) or clears their entries (`clear` true).
 */
// @ts-ignore: decorator
@inline
function directReferenceUnits(
  entries: usize, stride: usize, width: u32, locals: usize, refOffsets: usize, r0: i32, r1: i32, maxGap: i32,
  unigrams: i32, clear: bool,
): void {
  const first = load<i32>(refOffsets + (usize(r0) << 2));
  for (let r = r0; r < r1; r++) {
    const from = load<i32>(refOffsets + (usize(r) << 2)) - first;
    const to = load<i32>(refOffsets + (usize(r) << 2), 4) - first;
    const lastUnigram = unigramEnd(from, to, unigrams);
    for (let i = from; i < to; i++) {
      const a = load<u32>(locals + (usize(i) << 2));
      if (i < lastUnigram) {
        const at = directEntry(entries, stride, width, a, 0, true);
        if (clear) clearEntry(at, stride);
        else countIn(at, r - r0);
      }
      const last = lastPartner(i, to, maxGap);
      for (let j = i + 1; j <= last; j++) {
        const at = directEntry(entries, stride, width, a, load<u32>(locals + (usize(j) << 2)), false);
        if (clear) clearEntry(at, stride);
        else countIn(at, r - r0);
      }
    }
  }
}

/** Counts one reference unit in the hashed table, claiming (and clearing) its entry when new. */
// @ts-ignore: decorator
@inline
function insertUnit(keys: usize, capacity: u32, key: u64, tag: u32, data: usize, stride: usize, r: i32): void {
  const hit = stampedInsert(keys, capacity, key, tag);
  const at = data + usize(hit & ~STAMPED_NEW) * stride;
  if (hit & STAMPED_NEW) clearEntry(at, stride);
  countIn(at, r);
}

/** Builds the hashed table of references `r0 .. r1` under `generation`; the dummy entry `capacity` gets zero counts. */
// @ts-ignore: decorator
@inline
function buildHashedTable(
  keys: usize, capacity: u32, data: usize, stride: usize, generation: u32,
  refTokens: usize, refOffsets: usize, r0: i32, r1: i32, maxGap: i32, unigrams: i32,
): void {
  clearEntry(data + usize(capacity) * stride, stride);
  const pairTag = stampedTag(generation, 0);
  const unigramTag = stampedTag(generation, 1);
  for (let r = r0; r < r1; r++) {
    const from = load<i32>(refOffsets + (usize(r) << 2));
    const to = load<i32>(refOffsets + (usize(r) << 2), 4);
    const lastUnigram = unigramEnd(from, to, unigrams);
    for (let i = from; i < to; i++) {
      const a = load<u32>(refTokens + (usize(i) << 2));
      if (i < lastUnigram) insertUnit(keys, capacity, u64(a), unigramTag, data, stride, r - r0);
      const last = lastPartner(i, to, maxGap);
      for (let j = i + 1; j <= last; j++) {
        insertUnit(keys, capacity, pairKey(a, load<u32>(refTokens + (usize(j) << 2))), pairTag, data, stride, r - r0);
      }
    }
  }
}

/**
 * Records one occurrence of a unit in hypothesis `stamp` in its entry: `used` becomes the occurrence number (1 when
 * the entry last saw another hypothesis). Returns the entry.
 */
// @ts-ignore: decorator
@inline
function useEntry(at: usize, stamp: u32): usize {
  const used = select<u32>(load<u32>(at) + 1, 1, load<u32>(at, 4) == stamp);
  store<u32>(at, stamp, 4);
  store<u32>(at, used);
  return at;
}

/** Adds to four references' hits (u32 lanes) the lanes whose count is at least the entry's `used`. */
// @ts-ignore: decorator
@inline
function addHits(hits: v128, at: usize, offset: usize): v128 {
  return i32x4.sub(hits, i32x4.le_u(i32x4.splat(load<u32>(at)), v128.load(at + 16 + offset)));
}

/** Entry of a hypothesis unit in the hashed table (the dummy when absent). */
// @ts-ignore: decorator
@inline
function unitEntry(
  unigram: bool, i: i32, j: i32, hypTokens: usize, keys: usize, capacity: u32, generation: u32, entries: usize,
  stride: usize,
): usize {
  const a = load<u32>(hypTokens + (usize(i) << 2));
  const key = unigram ? u64(a) : pairKey(a, load<u32>(hypTokens + (usize(j) << 2)));
  return entries + usize(stampedFind(keys, capacity, key, stampedTag(generation, unigram ? 1 : 0))) * stride;
}

/**
 * Hits of hypothesis tokens `from .. to` against up to four references in the hashed table: the hit counts stay in
 * one `i32x4` register. Returns them.
 */
// @ts-ignore: decorator
@inline
function hitsOfFour(
  hypTokens: usize, from: i32, to: i32, maxGap: i32, unigrams: i32, keys: usize, capacity: u32, generation: u32,
  entries: usize, stride: usize, stamp: u32,
): v128 {
  const lastUnigram = unigramEnd(from, to, unigrams);
  let hits = i64x2.splat(0);
  for (let i = from; i < to; i++) {
    if (i < lastUnigram) {
      const at = unitEntry(true, i, 0, hypTokens, keys, capacity, generation, entries, stride);
      hits = addHits(hits, useEntry(at, stamp), 0);
    }
    const last = lastPartner(i, to, maxGap);
    for (let j = i + 1; j <= last; j++) {
      const at = unitEntry(false, i, j, hypTokens, keys, capacity, generation, entries, stride);
      hits = addHits(hits, useEntry(at, stamp), 0);
    }
  }
  return hits;
}

/**
 * Records one occurrence of a unit in hypothesis `stamp` in its entry and returns the new `used`: `used` and `stamp`
 * are read and written as one u64 (`used` its low half), one load and one store per unit. Stamps only grow within a
 * call and a touched entry has `used` ≥ 1, so the word exceeds `stamp << 32` exactly when this hypothesis touched it
 * before: the maximum of the two, plus one, is the next word either way (one compare and select, no shift).
 */
// @ts-ignore: decorator
@inline
function useEntryWord(at: usize, stamp: u32): u32 {
  const base = u64(stamp) << 32;
  const word = load<u64>(at);
  const next = select<u64>(word, base, word > base) + 1;
  store<u64>(at, next);
  return u32(next);
}

/** Adds to four references' hits (u32 lanes) the lanes of the entry at `at` whose count is at least `used`. */
// @ts-ignore: decorator
@inline
function addHitsOf(hits: v128, used: u32, at: usize): v128 {
  return i32x4.sub(hits, i32x4.le_u(i32x4.splat(used), v128.load(at, 16)));
}

/**
 * Hits of a hypothesis in the direct table from its present tokens only: `ids[0 .. kept]` are the nonzero local ids
 * of its tokens and `positions[0 .. kept]` their positions (ascending, 0-based in the hypothesis of `length` tokens).
 * A unit holding a token the references lack (local id 0) sits on an entry whose counts are all zero, so it can add
 * no hit and its `used` word is read by no other unit: leaving it out changes no count. The partners of position
 * `p` are the kept positions up to its last partner by position, so the gap is still measured in the whole
 * hypothesis. A kept token has at most `maxGap + 1` kept partners (positions are distinct), so each visits exactly
 * that many kept tokens after it (fewer at the end): one whose position is past its last partner is paired with
 * local id 0 instead — an entry of zero counts, as above — so that the loop's trip count does not depend on the
 * tokens (no misprediction per token). Hits stay in one `i32x4` register (`k` ≤ 4) or go to the lanes at `hits`.
 */
// @ts-ignore: decorator
@inline
function directHitsOf(
  four: bool, k: i32, ids: usize, positions: usize, kept: i32, length: i32, maxGap: i32, unigrams: i32, width: u32,
  entries: usize, stride: usize, stamp: u32, hits: usize,
): v128 {
  const lastUnigram = unigramEnd(0, length, unigrams);
  const lanes = dataStrideOf(k) - 16;
  const rowBytes = usize(width) * stride;
  const unigramRow = entries + usize(width) * rowBytes;
  const windowed = maxGap >= 0 && maxGap < kept;
  let acc = i64x2.splat(0);
  if (!four) for (let q: usize = 0; q < lanes; q += 16) v128.store(hits + q, i64x2.splat(0));
  for (let x = 0; x < kept; x++) {
    const i = load<i32>(positions + (usize(x) << 2));
    const a = load<u32>(ids + (usize(x) << 2));
    if (i < lastUnigram) {
      const at = unigramRow + usize(a) * stride;
      const used = useEntryWord(at, stamp);
      if (four) acc = addHitsOf(acc, used, at);
      else addUsedHitsInMemory(hits, lanes, used, at);
    }
    const row = entries + usize(a) * rowBytes;
    if (windowed) {
      const last = i + maxGap + 1;
      const end = min(kept, x + maxGap + 2);
      for (let y = x + 1; y < end; y++) {
        const b = select<u32>(load<u32>(ids + (usize(y) << 2)), 0, load<i32>(positions + (usize(y) << 2)) <= last);
        const at = row + usize(b) * stride;
        const used = useEntryWord(at, stamp);
        if (four) acc = addHitsOf(acc, used, at);
        else addUsedHitsInMemory(hits, lanes, used, at);
      }
    } else {
      const last = lastPartner(i, length, maxGap);
      for (let y = x + 1; y < kept && load<i32>(positions + (usize(y) << 2)) <= last; y++) {
        const at = row + usize(load<u32>(ids + (usize(y) << 2))) * stride;
        const used = useEntryWord(at, stamp);
        if (four) acc = addHitsOf(acc, used, at);
        else addUsedHitsInMemory(hits, lanes, used, at);
      }
    }
  }
  return acc;
}

/**
 * Local ids of the tokens of hypothesis tokens `from .. to` that the references hold (`ids`), and their positions
 * from `from` on (`positions`), in order; returns how many. Ids come from the segment's id-indexed local ids
 * (`tokenLocals`, 0 for a token the references lack) when the call has them, else from its token table.
 */
// @ts-ignore: decorator
@inline
function presentTokens(
  hypTokens: usize, from: i32, to: i32, tokenLocals: usize, tokenKeys: usize, tokenSlots: u32, generation: u32,
  localIds: usize, ids: usize, positions: usize,
): i32 {
  let kept = 0;
  if (tokenLocals) {
    for (let j = from; j < to; j++) {
      const a = load<u32>(tokenLocals + (usize(load<u32>(hypTokens + (usize(j) << 2))) << 2));
      // Written unconditionally, kept only when the token is present (no branch on it).
      store<u32>(ids + (usize(kept) << 2), a);
      store<i32>(positions + (usize(kept) << 2), j - from);
      kept += i32(a != 0);
    }
  } else {
    for (let j = from; j < to; j++) {
      const slot = findToken(tokenKeys, tokenSlots, generation, load<u32>(hypTokens + (usize(j) << 2)));
      const a = load<u32>(localIds + (usize(slot) << 2));
      store<u32>(ids + (usize(kept) << 2), a);
      store<i32>(positions + (usize(kept) << 2), j - from);
      kept += i32(a != 0);
    }
  }
  return kept;
}

/**
 * Hits of hypothesis tokens `from .. to` against the `k` references in the direct table, into the u32 lanes at
 * `hits` (`ids` and `positions`: scratch for its present tokens). A function of its own, so that its loops get the
 * registers to themselves rather than share them with the whole call's state.
 */
function directHypothesis(
  k: i32, hypTokens: usize, from: i32, to: i32, tokenLocals: usize, tokenKeys: usize, tokenSlots: u32,
  generation: u32, localIds: usize, ids: usize, positions: usize, maxGap: i32, unigrams: i32, width: u32,
  entries: usize, stride: usize, stamp: u32, hits: usize,
): void {
  const kept = presentTokens(hypTokens, from, to, tokenLocals, tokenKeys, tokenSlots, generation, localIds, ids, positions);
  if (k <= 4) {
    v128.store(hits, directHitsOf(true, 4, ids, positions, kept, to - from, maxGap, unigrams, width, entries, stride, stamp, 0));
  } else {
    directHitsOf(false, k, ids, positions, kept, to - from, maxGap, unigrams, width, entries, stride, stamp, hits);
  }
}

/** Adds a unit's hits (its entry at `at`, `used` its new occurrence number) to the u32 lanes at `hits`. */
// @ts-ignore: decorator
@inline
function addUsedHitsInMemory(hits: usize, lanes: usize, used: u32, at: usize): void {
  for (let q: usize = 0; q < lanes; q += 16) {
    v128.store(hits + q, i32x4.sub(v128.load(hits + q), i32x4.le_u(i32x4.splat(used), v128.load(at + 16 + q))));
  }
}

/** Adds a unit's hits to the u32 hit lanes of any number of references at `hits` (`lanes` bytes). */
// @ts-ignore: decorator
@inline
function addHitsInMemory(hits: usize, lanes: usize, at: usize): void {
  for (let q: usize = 0; q < lanes; q += 16) v128.store(hits + q, addHits(v128.load(hits + q), at, q));
}

/** Hits of a hypothesis against `k` references (any number) in the hashed table: u32 hit lanes in `hits`. */
// @ts-ignore: decorator
@inline
function hitsOfMany(
  k: i32, hypTokens: usize, from: i32, to: i32, maxGap: i32, unigrams: i32, keys: usize, capacity: u32,
  generation: u32, entries: usize, stride: usize, stamp: u32, hits: usize,
): void {
  const lastUnigram = unigramEnd(from, to, unigrams);
  const lanes = dataStrideOf(k) - 16;
  for (let q: usize = 0; q < lanes; q += 16) v128.store(hits + q, i64x2.splat(0));
  for (let i = from; i < to; i++) {
    if (i < lastUnigram) {
      const at = unitEntry(true, i, 0, hypTokens, keys, capacity, generation, entries, stride);
      addHitsInMemory(hits, lanes, useEntry(at, stamp));
    }
    const last = lastPartner(i, to, maxGap);
    for (let j = i + 1; j <= last; j++) {
      const at = unitEntry(false, i, j, hypTokens, keys, capacity, generation, entries, stride);
      addHitsInMemory(hits, lanes, useEntry(at, stamp));
    }
  }
}

/** Hits of one hypothesis in the hashed table into `hits` (u32 per reference). */
// @ts-ignore: decorator
@inline
function hashedHits(
  k: i32, hypTokens: usize, from: i32, to: i32, maxGap: i32, unigrams: i32, keys: usize, capacity: u32,
  generation: u32, entries: usize, stride: usize, stamp: u32, hits: usize,
): void {
  if (k <= 4) {
    v128.store(hits, hitsOfFour(hypTokens, from, to, maxGap, unigrams, keys, capacity, generation, entries, stride, stamp));
  } else {
    hitsOfMany(k, hypTokens, from, to, maxGap, unigrams, keys, capacity, generation, entries, stride, stamp, hits);
  }
}

/**
 * Skip-bigram counts of a batch (see `skipBigramCounts` in `src/wasm/rouge.ts`). Inputs as for `lcsLengths`;
 * `maxGap` and `unigrams` as above. Scratch, as `planSkipBigramTables` sizes it: `tokenKeys` (u64 × the token
 * capacity) and `localIds` (u32 × (token capacity + 1)) for local ids — or, when the batch's ids are small
 * non-negative integers, `tokenLocals` (u32 × `tokenLocalSlots`, more than the largest id; 0: none), the local id
 * of each token id, which replaces that table (one load per token, no hashing) — `locals` (u32 × (reference tokens
 * of a segment + 2 × longest hypothesis)) — the direct region `direct` (`directEntries` entries of the largest stride, 0
 * entries: never direct) — the hashed `keys` (`keysCapacity` + 1 slots) and `data` — and `hits` (one stride).
 * `out` receives, hypothesis after hypothesis, one row of 3 f64 per reference of its segment: hits, hypothesis
 * units, reference units — or, with `pairRows` set, one pair row of 4 f64 (those three and a select of 0: the
 * layout of `assembly/rouge-rows.ts`, which then reads them where they are).
 */
export function skipBigramCounts(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize, maxGap: i32, unigrams: i32,
  tokenKeys: usize, tokenKeysCapacity: u32, localIds: usize, locals: usize, tokenLocals: usize, tokenLocalSlots: u32,
  direct: usize, directEntries: u32, directStride: usize,
  keys: usize, keysCapacity: u32, data: usize, hits: usize, out: usize, pairRows: bool,
): void {
  const rowBytes: usize = pairRows ? 32 : 24;
  if (tokenLocals) memory.fill(tokenLocals, 0, usize(tokenLocalSlots) << 2);
  else memory.fill(tokenKeys, 0, usize(tokenKeysCapacity) << 3);
  // The direct region and the hashed keys are zero-filled as segments first need them, not up front: a call's
  // segments often use a small part of what the plan must allow for (W² + W entries for W - 1 distinct reference
  // tokens, W sized by reference tokens), or no hashed table at all. Past the filled part nothing is read: a
  // segment's entries lie below its W² + W, and counts left there by earlier segments are cleared after each.
  let directCleared: usize = 0;
  let keysCleared = false;
  let segment = -1;
  let r0 = 0;
  let r1 = 0;
  let k = 0;
  let stride: usize = 0;
  let generation: u32 = 0;
  let tokenSlots: u32 = 0;
  let width: u32 = 0;
  let isDirect = false;
  let capacity: u32 = 0;
  let row = out;
  for (let h = 0; h < nHyps; h++) {
    const s = hypSegments ? load<i32>(hypSegments + (usize(h) << 2)) : h;
    if (s != segment) {
      if (isDirect) directReferenceUnits(direct, directStride, width, locals, refOffsets, r0, r1, maxGap, unigrams, true);
      // The id-indexed local ids are cleared token by token: the previous segment's reference tokens.
      if (tokenLocals && segment >= 0) {
        const end = load<i32>(refOffsets + (usize(r1) << 2));
        for (let p = load<i32>(refOffsets + (usize(r0) << 2)); p < end; p++) {
          store<u32>(tokenLocals + (usize(load<u32>(refTokens + (usize(p) << 2))) << 2), 0);
        }
      }
      segment = s;
      r0 = load<i32>(segRefOffsets + (usize(s) << 2));
      r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
      k = r1 - r0;
      stride = dataStrideOf(k);
      generation++;
      // Local ids of the references' distinct tokens, in the order they first occur.
      const first = load<i32>(refOffsets + (usize(r0) << 2));
      const tokens = tokensOf(refOffsets, r0, r1);
      let distinct: u32 = 0;
      if (tokenLocals) {
        for (let p = 0; p < tokens; p++) {
          const at = tokenLocals + (usize(load<u32>(refTokens + (usize(first + p) << 2))) << 2);
          let a = load<u32>(at);
          if (a == 0) store<u32>(at, a = ++distinct);
          store<u32>(locals + (usize(p) << 2), a);
        }
      } else {
        tokenSlots = tokenCapacity(tokens);
        assert(tokenSlots <= tokenKeysCapacity);
        for (let p = 0; p < tokens; p++) {
          const slot = claimToken(tokenKeys, tokenSlots, generation, load<u32>(refTokens + (usize(first + p) << 2)));
          const at = localIds + (usize(slot & ~NEW_TOKEN) << 2);
          if (slot & NEW_TOKEN) store<u32>(at, ++distinct);
          store<u32>(locals + (usize(p) << 2), load<u32>(at));
        }
        store<u32>(localIds + (usize(tokenSlots) << 2), 0);
      }
      width = distinct + 1;
      isDirect = k > 0 && f64(width) * f64(width) + f64(width) <= f64(directEntries);
      if (isDirect) {
        assert(stride <= directStride);
        const bytes = (usize(width) * usize(width) + usize(width)) * directStride;
        if (bytes > directCleared) {
          memory.fill(direct + directCleared, 0, bytes - directCleared);
          directCleared = bytes;
        }
        directReferenceUnits(direct, directStride, width, locals, refOffsets, r0, r1, maxGap, unigrams, false);
      } else {
        capacity = u32(segmentCapacity(refOffsets, r0, r1, maxGap, unigrams));
        assert(k >= 0 && capacity <= keysCapacity);
        if (!keysCleared) {
          memory.fill(keys, 0, usize(keysCapacity) << STAMPED_SHIFT);
          keysCleared = true;
        }
        buildHashedTable(keys, capacity, data, stride, generation, refTokens, refOffsets, r0, r1, maxGap, unigrams);
      }
    }
    if (k == 0) continue;
    // Hypothesis stamps are shared by every entry of the call, so they never repeat: the hypothesis index + 1.
    const stamp = u32(h + 1);
    const from = load<i32>(hypOffsets + (usize(h) << 2));
    const to = load<i32>(hypOffsets + (usize(h) << 2), 4);
    if (isDirect) {
      // The local ids of the hypothesis' tokens the references hold, and their positions, go after the references'
      // local ids (which clearing the segment still needs).
      const hypIds = locals + (usize(tokensOf(refOffsets, r0, r1)) << 2);
      const hypPositions = hypIds + (usize(to - from) << 2);
      directHypothesis(
        k, hypTokens, from, to, tokenLocals, tokenKeys, tokenSlots, generation, localIds, hypIds, hypPositions,
        maxGap, unigrams, width, direct, directStride, stamp, hits,
      );
    } else {
      hashedHits(k, hypTokens, from, to, maxGap, unigrams, keys, capacity, generation, data, stride, stamp, hits);
    }
    const hypUnits = unitsIn(to - from, maxGap, unigrams);
    for (let r = 0; r < k; r++) {
      const at = row + usize(r) * rowBytes;
      store<f64>(at, f64(load<u32>(hits + (usize(r) << 2))));
      store<f64>(at, hypUnits, 8);
      const refFrom = load<i32>(refOffsets + (usize(r0 + r) << 2));
      store<f64>(at, unitsIn(load<i32>(refOffsets + (usize(r0 + r) << 2), 4) - refFrom, maxGap, unigrams), 16);
      if (pairRows) store<f64>(at, 0, 24);
    }
    row += usize(k) * rowBytes;
  }
}
