/**
 * Open-addressing hash tables with linear probing over caller-provided linear memory: the probing shared by the
 * kernels' tables. A table here is an array of slots of `1 << shift` bytes whose first 8 bytes are a key from
 * `./hash`; key 0 marks an empty slot, so zero-filling the slots clears a table. A table always keeps at least one
 * empty slot, which ends every probe.
 */
import { EMPTY_KEY, homeSlot } from './hash';

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

/** {@link tableCapacity} for the TypeScript side, which lays out the tables it passes to kernels. */
export function tableSlots(entries: i32): u32 {
  return tableCapacity(entries);
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
