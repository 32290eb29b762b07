/**
 * A table from token ids to slots, over caller-provided memory: `capacity` u64 keys `(generation << 32) | token`,
 * linear probing. A key of an older generation reads as empty, so the table is cleared (zero-filled) once per kernel
 * call, not per segment; generations start at 1. Callers keep their data per slot in arrays of their own, indexed by
 * slot, and read slot `capacity` — a dummy they keep neutral — for a token the table does not have.
 */

/** Home slot of a token: Knuth's multiplicative hash, reduced to `[0, capacity)` by multiply-shift. */
// @ts-ignore: decorator
@inline
function tokenHome(token: u32, capacity: u32): u32 {
  return u32((u64(token * 0x9E3779B1) * u64(capacity)) >> 32);
}

/**
 * Slot of `token` under `generation`, or `capacity` (the caller's dummy slot) when the table does not have it. The
 * probe loop ends on the same branch for hits and misses, so absent tokens cost no misprediction.
 */
// @ts-ignore: decorator
@inline
export function findToken(keys: usize, capacity: u32, generation: u32, token: u32): u32 {
  const key = (u64(generation) << 32) | u64(token);
  let slot = tokenHome(token, capacity);
  let k = load<u64>(keys + (usize(slot) << 3));
  while (k != key && u32(k >> 32) == generation) {
    if (++slot == capacity) slot = 0;
    k = load<u64>(keys + (usize(slot) << 3));
  }
  return select<u32>(slot, capacity, k == key);
}

/** Set on the result of {@link claimToken} when the token was not in the table. */
export const NEW_TOKEN: u32 = 0x80000000;

/** Slot of `token` under `generation`, claimed (key written) when new, which sets {@link NEW_TOKEN} in the result. */
// @ts-ignore: decorator
@inline
export function claimToken(keys: usize, capacity: u32, generation: u32, token: u32): u32 {
  const key = (u64(generation) << 32) | u64(token);
  let slot = tokenHome(token, capacity);
  let k = load<u64>(keys + (usize(slot) << 3));
  while (k != key && u32(k >> 32) == generation) {
    if (++slot == capacity) slot = 0;
    k = load<u64>(keys + (usize(slot) << 3));
  }
  if (k == key) return slot;
  store<u64>(keys + (usize(slot) << 3), key);
  return slot | NEW_TOKEN;
}
