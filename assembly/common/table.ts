/**
 * Open-addressing hash tables with linear probing over caller-provided linear memory.
 *
 * Two slot layouts share the probing code: the 32-byte counting slot of segment and global tables (below) and the
 * 16-byte `{key, weight}` slot of the compact NIST weights table. Keys come from `./hash`; key 0 marks an empty
 * slot, so zero-filling a table clears it. A table always keeps at least one empty slot, which ends every probe.
 */
import { EMPTY_KEY, homeSlot } from './hash';

/** log2 of the size of a counting slot. */
export const SLOT_SHIFT: u32 = 5;
/** Bytes of a counting slot. */
export const SLOT_BYTES: u32 = 1 << SLOT_SHIFT;

/** u64: the n-gram key. */
export const KEY: u32 = 0;
/** i32: clipped tables: the count max-merged over references; global table: the count over all references. */
export const COUNT: u32 = 8;
/** i32: while building, the stamp of the reference being counted; while scoring, the generation of the hypothesis. */
export const STAMP: u32 = 12;
/** i32: occurrences in the stamped reference (build) or hypothesis (scoring). */
export const USED: u32 = 16;
/** i32: segment tables with weights: prefix code of the same n-gram in the weights table (0 = absent). */
export const AUX: u32 = 20;
/** f64: NIST information weight of the n-gram (segment tables built with weights). */
export const WEIGHT: u32 = 24;

/** Flag set by `insertSlot` on the slot it returns when the key was not there before. */
export const NEW_SLOT: u32 = 0x80000000;

/**
 * Slots for a table that will receive at most `entries` distinct keys: load factor at most 2/3 and at least one
 * empty slot, so probes stay short and always terminate.
 */
// @ts-ignore: decorator
@inline
export function tableCapacity(entries: i32): u32 {
  return u32(entries) + (u32(entries) >> 1) + 1;
}

/** Address of slot `slot` of a table whose slots are `1 << shift` bytes. */
// @ts-ignore: decorator
@inline
export function slotAddress(table: usize, slot: u32, shift: u32): usize {
  return table + (usize(slot) << shift);
}

/** Slot holding `key`, or -1 when it is absent. */
// @ts-ignore: decorator
@inline
export function findSlot(table: usize, capacity: u32, key: u64, shift: u32): i32 {
  let slot = homeSlot(key, capacity);
  while (true) {
    const k = load<u64>(table + (usize(slot) << shift));
    if (k == key) return i32(slot);
    if (k == EMPTY_KEY) return -1;
    if (++slot == capacity) slot = 0;
  }
}

/**
 * Slot holding `key`, writing the key into the first empty slot of its probe sequence when absent (the rest of a
 * new slot is whatever the caller cleared it to). The result has `NEW_SLOT` set when the key was inserted.
 */
// @ts-ignore: decorator
@inline
export function insertSlot(table: usize, capacity: u32, key: u64, shift: u32): u32 {
  let slot = homeSlot(key, capacity);
  while (true) {
    const at = table + (usize(slot) << shift);
    const k = load<u64>(at);
    if (k == key) return slot;
    if (k == EMPTY_KEY) {
      store<u64>(at, key);
      return slot | NEW_SLOT;
    }
    if (++slot == capacity) slot = 0;
  }
}

/** {@link tableCapacity} for the TypeScript side, which lays out the tables it passes to kernels. */
export function tableSlots(entries: i32): u32 {
  return tableCapacity(entries);
}
