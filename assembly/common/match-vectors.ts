/**
 * Match vectors of references for the bit-parallel LCS kernels: for every distinct token of a set of references,
 * one bit vector per reference with bit `p` set where the reference has that token at position `p` (the `PM`
 * table of Allison–Dix / Hyyrö). The vectors of all references of a set share one slot of a generation-stamped
 * token table (`stamped-table`), so a single probe per hypothesis token yields the vectors of every reference.
 *
 * Layout: reference `r` of a set owns words `word_r .. word_r + words_r` of every slot (u64 each, position `p` in
 * word `p >> 6`, bit `p & 63`), `words_r = max(1, ceil(m_r / 64))`; slots are `stride` words apart, `stride` = the
 * sum of the `words_r` rounded up to even so that every slot starts 16-byte aligned for `v128` loads. An empty
 * reference keeps one all-zero word, which keeps every reference of at most 64 tokens in a lane of its own.
 */
import { tableCapacity } from './table';
import { STAMPED_NEW, stampedInsert, stampedTag } from './stamped-table';

/** Bytes of one reference's entry in the `info` array: `{ word: i32, words: i32, length: i32 }`. */
export const INFO_BYTES: usize = 12;
/** Offset of the first word of the reference in a slot. */
export const INFO_WORD: usize = 0;
/** Offset of the number of words of the reference. */
export const INFO_WORDS: usize = 4;
/** Offset of the reference's length in tokens. */
export const INFO_LENGTH: usize = 8;

/** Words of the match vectors of a reference of `length` tokens (at least one). */
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

/** Number of zero bits of a vector among the first `length` positions: the LCS length once a text was read. */
// @ts-ignore: decorator
@inline
export function zeroBits(vector: usize, length: i32): i32 {
  const words = vectorWords(length);
  let zeros = 0;
  for (let q = 0; q < words - 1; q++) zeros += i32(popcnt<u64>(~load<u64>(vector + (usize(q) << 3))));
  const last = load<u64>(vector + (usize(words - 1) << 3));
  return zeros + i32(popcnt<u64>(~last & lowBits(length - ((words - 1) << 6))));
}

/** Words per slot for references `r0 .. r1` (the layout above); 0 when there are none. */
// @ts-ignore: decorator
@inline
export function vectorStride(refOffsets: usize, r0: i32, r1: i32): i32 {
  let words = 0;
  for (let r = r0; r < r1; r++) {
    words += vectorWords(load<i32>(refOffsets + (usize(r) << 2), 4) - load<i32>(refOffsets + (usize(r) << 2)));
  }
  return (words + 1) & ~1;
}

/** Token slots for references `r0 .. r1`: the capacity for all of their tokens (a bound on the distinct ones). */
// @ts-ignore: decorator
@inline
export function vectorCapacity(refOffsets: usize, r0: i32, r1: i32): u32 {
  return tableCapacity(load<i32>(refOffsets + (usize(r1) << 2)) - load<i32>(refOffsets + (usize(r0) << 2)));
}

/**
 * Builds the match vectors of references `r0 .. r1` under `generation` in a table of `capacity` key slots at
 * `keys` and `stride`-word vector slots at `vectors`, and writes each reference's `{word, words, length}` to
 * `info`. Returns true when every reference fits one word (`stride` then holds one word per reference, in order).
 */
// @ts-ignore: decorator
@inline
export function buildMatchVectors(
  keys: usize, capacity: u32, vectors: usize, stride: i32, generation: u32,
  refTokens: usize, refOffsets: usize, r0: i32, r1: i32, info: usize,
): bool {
  const tag = stampedTag(generation, 0);
  const strideBytes = usize(stride) << 3;
  let word = 0;
  for (let r = r0; r < r1; r++) {
    const from = load<i32>(refOffsets + (usize(r) << 2));
    const to = load<i32>(refOffsets + (usize(r) << 2), 4);
    const entry = info + usize(r - r0) * INFO_BYTES;
    const words = vectorWords(to - from);
    store<i32>(entry, word, INFO_WORD);
    store<i32>(entry, words, INFO_WORDS);
    store<i32>(entry, to - from, INFO_LENGTH);
    const base = usize(word) << 3;
    for (let p = from; p < to; p++) {
      const hit = stampedInsert(keys, capacity, u64(load<u32>(refTokens + (usize(p) << 2))), tag);
      const slot = vectors + usize(hit & ~STAMPED_NEW) * strideBytes;
      if (hit & STAMPED_NEW) {
        for (let q: usize = 0; q < strideBytes; q += 8) store<u64>(slot + q, 0);
      }
      const i = p - from;
      const at = slot + base + (usize(i >> 6) << 3);
      store<u64>(at, load<u64>(at) | (u64(1) << u64(i & 63)));
    }
    word += words;
  }
  return word == r1 - r0;
}
