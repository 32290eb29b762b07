/**
 * Exact 64-bit n-gram keys, built by extending the key of the (n-1)-gram prefix.
 *
 * An n-gram table here is a trie stored in an open-addressing hash table: the key of an n-gram is the pair
 * (slot of its prefix in the same table, last token). Prefixes are always inserted before their extensions, so
 * the pair names exactly one n-gram and two different n-grams can never share a key: a key match is an exact
 * match, with no token-by-token verification and no collision risk. The "prefix hash" that the key extends is the
 * prefix's own slot, which a left-to-right walk over a sequence already holds.
 *
 * High word of a key: 0 = empty slot, `ROOT` = the empty prefix (unigrams), `slot + 2` = an n-gram's prefix.
 * Low word: the token id's 32 bits, any i32 (negative ids are fine).
 *
 * Token ids are read from memory as `u32`: `u64(u32(load<i32>(…)))` is miscompiled at -O3 by this toolchain
 * (AssemblyScript 0.28.20, Binaryen 131) into a sign-extending `i64.load32_s`, which corrupts negative ids' keys.
 */

/** Key of an empty slot; zero so that `memory.fill(…, 0, …)` clears a table. */
export const EMPTY_KEY: u64 = 0;

/** Prefix code of the empty prefix, the parent of every unigram. */
export const ROOT: u32 = 1;

/** Prefix code a child n-gram stores for the parent living in `slot`. */
// @ts-ignore: decorator
@inline
export function prefixCode(slot: u32): u32 {
  return slot + 2;
}

/** Slot of the parent named by a prefix code (not `ROOT`). */
// @ts-ignore: decorator
@inline
export function slotOfCode(code: u32): u32 {
  return code - 2;
}

/** Key of the n-gram made of the prefix coded `parent` extended by `token`. */
// @ts-ignore: decorator
@inline
export function ngramKey(parent: u32, token: u32): u64 {
  return (u64(parent) << 32) | u64(token);
}

/** Prefix code stored in a key. */
// @ts-ignore: decorator
@inline
export function keyParent(key: u64): u32 {
  return u32(key >> 32);
}

/** Last token stored in a key. */
// @ts-ignore: decorator
@inline
export function keyToken(key: u64): u32 {
  return u32(key);
}

/**
 * Home slot of a key in a table of `capacity` slots (any capacity, not only powers of two).
 * Fibonacci hashing (Knuth): the high 32 bits of `key * 2^64/φ` depend on every bit of both words of the key;
 * they are reduced to `[0, capacity)` by Lemire's multiply-shift instead of a modulo (one multiplication, no
 * division), which lets every table be sized to its contents instead of the next power of two.
 */
// @ts-ignore: decorator
@inline
export function homeSlot(key: u64, capacity: u32): u32 {
  const h = (key * 0x9E3779B97F4A7C15) >> 32;
  return u32((h * u64(capacity)) >> 32);
}
