/**
 * Match vectors of references for the bit-parallel LCS kernels: for every distinct token of a set of references,
 * one bit vector per reference with bit `p` set where the reference has that token at position `p` (the `PM`
 * table of Allison–Dix / Hyyrö). The vectors of all references of a set share one slot, so a single probe per
 * hypothesis token yields the vectors of every reference.
 *
 * The slots belong to a token table (`token-table`): `vectors` holds `strideBytes` per slot, plus one all-zero
 * slot at index `capacity` that a probe for an absent token reads instead of branching.
 *
 * Three layouts of a slot, by the longest reference of the set:
 * - `LANES32` (every reference ≤ 32 tokens): reference r is the u32 at byte 4r, four references per `v128`;
 * - `LANES64` (every reference ≤ 64 tokens): reference r is the u64 at byte 8r, two per `v128`;
 * - `WORDS` (any length): reference r owns u64 words `word_r .. word_r + words_r`, `words_r = max(1, ceil(m_r/64))`,
 *   position p in word `p >> 6`, bit `p & 63`; `info` records `{word, words, length}` per reference.
 * Slots are a multiple of 16 bytes, so every slot is `v128`-aligned.
 *
 * Direct addressing: when token ids are small dense integers (interned ids of a vocabulary of V words), the slots
 * can instead be indexed by the token id itself, `vectors + token * strideBytes` over V slots, with no token table:
 * a probe is one load, and an absent token's slot is all zero. The region is cleared once per call and each set's
 * slots are cleared again (`clearMatchVectors`) before the next set is built.
 */
import { rowLength, tokenAt } from './rows';
import { NEW_TOKEN, claimToken } from './token-table';

/** Slot layout for references of any length: u64 words per reference (see the file comment). */
export const WORDS: i32 = 0;
/** Slot layout for references of at most 32 tokens: one u32 lane each. */
export const LANES32: i32 = 1;
/** Slot layout for references of at most 64 tokens: one u64 lane each. */
export const LANES64: i32 = 2;

/** Bytes of one reference's entry in the `info` array: `{ word: i32, words: i32, length: i32 }`. */
export const INFO_BYTES: usize = 12;
/** Offset of the first word of the reference in a slot. */
export const INFO_WORD: usize = 0;
/** Offset of the number of words of the reference. */
export const INFO_WORDS: usize = 4;
/** Offset of the reference's length in tokens. */
export const INFO_LENGTH: usize = 8;

/** Words of the match vectors of a reference of `length` tokens in the `WORDS` layout (at least one). */
// @ts-ignore: decorator
@inline
export function vectorWords(length: i32): i32 {
  return max(1, (length + 63) >> 6);
}

/** Mask of bits `0 .. bits` (bits in 0..64). */
// @ts-ignore: decorator
@inline
export function lowBits(bits: i32): u64 {
  return bits >= 64 ? u64.MAX_VALUE : (u64(1) << u64(bits)) - 1;
}

/** Number of zero bits among the first `length` positions of a `WORDS` vector: the LCS length once a text was read. */
// @ts-ignore: decorator
@inline
export function zeroBits(vector: usize, length: i32): i32 {
  const words = vectorWords(length);
  let zeros = 0;
  for (let q = 0; q < words - 1; q++) zeros += i32(popcnt<u64>(~load<u64>(vector + (usize(q) << 3))));
  const last = load<u64>(vector + (usize(words - 1) << 3));
  return zeros + i32(popcnt<u64>(~last & lowBits(length - ((words - 1) << 6))));
}

/** Layout of the slots of references `r0 .. r1` (`WORDS` when `words` is set: the mask kernels need words). */
// @ts-ignore: decorator
@inline
export function vectorLayout(refOffsets: usize, r0: i32, r1: i32, words: bool): i32 {
  if (words) return WORDS;
  let longest = 0;
  for (let r = r0; r < r1; r++) longest = max(longest, rowLength(refOffsets, r));
  return longest <= 32 ? LANES32 : longest <= 64 ? LANES64 : WORDS;
}

/** Bytes of a slot for references `r0 .. r1` in `layout` (a multiple of 16; 0 when there are none). */
// @ts-ignore: decorator
@inline
export function vectorStrideBytes(layout: i32, refOffsets: usize, r0: i32, r1: i32): usize {
  const k = r1 - r0;
  if (layout == LANES32) return usize((k + 3) >> 2) << 4;
  if (layout == LANES64) return usize((k + 1) >> 1) << 4;
  let words = 0;
  for (let r = r0; r < r1; r++) words += vectorWords(rowLength(refOffsets, r));
  return usize((words + 1) >> 1) << 4;
}

/** Token slots for references `r0 .. r1`: the capacity for all of their tokens (a bound on the distinct ones). */
// @ts-ignore: decorator
@inline
export function vectorCapacity(refOffsets: usize, r0: i32, r1: i32): u32 {
  const tokens = u32(load<i32>(refOffsets + (usize(r1) << 2)) - load<i32>(refOffsets + (usize(r0) << 2)));
  return tokens + (tokens >> 1) + 1;
}

/** Slot of `token` under `generation`, claimed (key written, vectors cleared) when new. */
// @ts-ignore: decorator
@inline
function insertToken(keys: usize, capacity: u32, generation: u32, token: u32, vectors: usize, strideBytes: usize): usize {
  const slot = claimToken(keys, capacity, generation, token);
  const at = vectors + usize(slot & ~NEW_TOKEN) * strideBytes;
  if (slot & NEW_TOKEN) {
    for (let q: usize = 0; q < strideBytes; q += 16) v128.store(at + q, i64x2.splat(0));
  }
  return at;
}

/** Address of the slot of `token`: directly indexed, or claimed in the token table (see the file comment). */
// @ts-ignore: decorator
@inline
function slotFor(
  direct: bool, keys: usize, capacity: u32, generation: u32, token: u32, vectors: usize, strideBytes: usize,
): usize {
  return direct
    ? vectors + usize(token) * strideBytes
    : insertToken(keys, capacity, generation, token, vectors, strideBytes);
}

/**
 * Builds the match vectors of references `r0 .. r1` in `layout`: directly indexed (`direct`; slots must be zero), or
 * under `generation` (≥ 1) in a token table of `capacity` keys and `capacity + 1` vector slots of `strideBytes`.
 * With `WORDS`, writes each reference's `{word, words, length}` to `info`.
 */
// @ts-ignore: decorator
@inline
export function buildMatchVectors(
  direct: bool, keys: usize, capacity: u32, vectors: usize, strideBytes: usize, layout: i32, generation: u32,
  refTokens: usize, refOffsets: usize, r0: i32, r1: i32, info: usize,
): void {
  if (!direct) {
    const zero = vectors + usize(capacity) * strideBytes;
    for (let q: usize = 0; q < strideBytes; q += 16) v128.store(zero + q, i64x2.splat(0));
  }
  let word = 0;
  for (let r = r0; r < r1; r++) {
    const from = load<i32>(refOffsets + (usize(r) << 2));
    const to = load<i32>(refOffsets + (usize(r) << 2), 4);
    if (layout == LANES32) {
      const lane = usize(r - r0) << 2;
      for (let p = from; p < to; p++) {
        const at = slotFor(direct, keys, capacity, generation, tokenAt(refTokens, p), vectors, strideBytes) + lane;
        store<u32>(at, load<u32>(at) | (u32(1) << u32(p - from)));
      }
    } else if (layout == LANES64) {
      const lane = usize(r - r0) << 3;
      for (let p = from; p < to; p++) {
        const at = slotFor(direct, keys, capacity, generation, tokenAt(refTokens, p), vectors, strideBytes) + lane;
        store<u64>(at, load<u64>(at) | (u64(1) << u64(p - from)));
      }
    } else {
      const entry = info + usize(r - r0) * INFO_BYTES;
      const words = vectorWords(to - from);
      store<i32>(entry, word, INFO_WORD);
      store<i32>(entry, words, INFO_WORDS);
      store<i32>(entry, to - from, INFO_LENGTH);
      const base = usize(word) << 3;
      for (let p = from; p < to; p++) {
        const i = p - from;
        const at = slotFor(direct, keys, capacity, generation, tokenAt(refTokens, p), vectors, strideBytes) + base + (usize(i >> 6) << 3);
        store<u64>(at, load<u64>(at) | (u64(1) << u64(i & 63)));
      }
      word += words;
    }
  }
}

/** Clears the directly indexed slots of the tokens of references `r0 .. r1` (undoes `buildMatchVectors`). */
// @ts-ignore: decorator
@inline
export function clearMatchVectors(vectors: usize, strideBytes: usize, refTokens: usize, refOffsets: usize, r0: i32, r1: i32): void {
  const from = load<i32>(refOffsets + (usize(r0) << 2));
  const to = load<i32>(refOffsets + (usize(r1) << 2));
  for (let p = from; p < to; p++) {
    const at = vectors + usize(tokenAt(refTokens, p)) * strideBytes;
    for (let q: usize = 0; q < strideBytes; q += 16) v128.store(at + q, i64x2.splat(0));
  }
}
