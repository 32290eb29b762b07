/**
 * Open-addressing hash table (linear probing) whose slots are claimed under a generation stamp, so that a table
 * is never cleared between the segments (or sentences) of one kernel call: a slot stamped with an older generation
 * reads as empty. Only the key slots are stamped; the data a kernel keeps per slot lives in a side array indexed
 * by slot, and a kernel clears a slot's data when it claims the slot.
 *
 * A key slot is 16 bytes: `{ key: u64, tag: u32, aux: u32 }` with `tag = generation << 1 | kind` (`kind` lets two
 * key spaces share a table: skip-bigram pairs and unigrams) and `aux` free for the caller (claimed as 0).
 * Generations start at 1, so zero-filling the key slots once per call empties the table for every generation of
 * that call. Every generation must use fewer keys than slots, which leaves a stale slot to end each probe.
 */
import { homeSlot } from './hash';

/** log2 of the bytes of a key slot. */
export const STAMPED_SHIFT: u32 = 4;
/** Offset of the `tag` word in a key slot. */
export const STAMPED_TAG: u32 = 8;
/** Offset of the caller's `aux` word in a key slot. */
export const STAMPED_AUX: u32 = 12;
/** Set on the result of {@link stampedInsert} when the key was not in the table. */
export const STAMPED_NEW: u32 = 0x80000000;

/** The tag of keys of `kind` (0 or 1) under `generation` (≥ 1). */
// @ts-ignore: decorator
@inline
export function stampedTag(generation: u32, kind: u32): u32 {
  return (generation << 1) | kind;
}

/** Address of key slot `slot`. */
// @ts-ignore: decorator
@inline
export function stampedSlotAddress(keys: usize, slot: u32): usize {
  return keys + (usize(slot) << STAMPED_SHIFT);
}

/**
 * Slot holding `key` under `tag`, or `capacity` when the current generation of the table does not have it (a
 * caller can keep a dummy slot there instead of branching). The probe loop ends on the same branch for hits and
 * misses, so a miss costs no misprediction.
 */
// @ts-ignore: decorator
@inline
export function stampedFind(keys: usize, capacity: u32, key: u64, tag: u32): u32 {
  const generation = tag >> 1;
  let slot = homeSlot(key, capacity);
  let at = keys + (usize(slot) << STAMPED_SHIFT);
  let t = load<u32>(at, STAMPED_TAG);
  let k = load<u64>(at);
  while ((t != tag || k != key) && (t >> 1) == generation) {
    if (++slot == capacity) slot = 0;
    at = keys + (usize(slot) << STAMPED_SHIFT);
    t = load<u32>(at, STAMPED_TAG);
    k = load<u64>(at);
  }
  return select<u32>(slot, capacity, t == tag && k == key);
}

/**
 * Slot holding `key` under `tag`, claiming the first stale slot of its probe sequence when absent (its `aux` is
 * then 0 and the result has {@link STAMPED_NEW} set).
 */
// @ts-ignore: decorator
@inline
export function stampedInsert(keys: usize, capacity: u32, key: u64, tag: u32): u32 {
  const generation = tag >> 1;
  let slot = homeSlot(key, capacity);
  while (true) {
    const at = keys + (usize(slot) << STAMPED_SHIFT);
    const t = load<u32>(at, STAMPED_TAG);
    if ((t >> 1) != generation) {
      store<u64>(at, key);
      store<u32>(at, tag, STAMPED_TAG);
      store<u32>(at, 0, STAMPED_AUX);
      return slot | STAMPED_NEW;
    }
    if (t == tag && load<u64>(at) == key) return slot;
    if (++slot == capacity) slot = 0;
  }
}
