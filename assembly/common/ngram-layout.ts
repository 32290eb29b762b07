/**
 * Memory layout of the n-gram tables.
 *
 * Counting tables (segment tables and the global NIST count table) keep their keys apart from the data, so that a
 * probe walks a dense array of 8-byte keys and touches a record only on a hit: `capacity` u64 keys, then
 * `capacity` 16-byte records `{count, stamp, used, aux}` (i32 each), then `capacity` f64 weights (read only by
 * tables built with NIST weights). Only the keys are cleared; a record (and weight) is initialised when its slot
 * is claimed. The compact NIST weights table is an array of 16-byte slots `{key u64, weight f64}`.
 */
import { tableCapacity } from './table';

/** log2 of the bytes of a key. */
export const KEY_SHIFT: u32 = 3;
/** log2 of the bytes of a record. */
export const RECORD_SHIFT: u32 = 4;
/** Bytes per slot of a counting table: key, record and weight. */
export const NGRAM_SLOT_BYTES: u32 = 32;

/** i32: clipped tables: the count max-merged over references; global table: the count over all references. */
export const COUNT: u32 = 0;
/** i32: while building, the stamp of the reference being counted; while scoring, the generation of a hypothesis. */
export const STAMP: u32 = 4;
/** i32: occurrences in the stamped reference (build) or hypothesis (scoring). */
export const USED: u32 = 8;
/** i32: segment tables with weights: prefix code of the same n-gram in the weights table (0 = absent). */
export const AUX: u32 = 12;

/** log2 of the bytes of a weights-table slot. */
export const WEIGHTS_SHIFT: u32 = 4;
/** Offset of the f64 weight in a weights-table slot (the key is at 0). */
export const WEIGHTS_WEIGHT: u32 = 8;

/**
 * Slots of a segment table for at most `ngrams` distinct n-grams: load factor at most 2/9. Hypothesis probes mostly
 * end on an absent n-gram, which costs about `(1 + 1/(1-α)^2) / 2` slots under linear probing, and only the keys
 * (a quarter of a slot's bytes) are ever cleared, so a sparse table is the faster one (measured: 4.5 slots per
 * n-gram scores n-best lists 1.35× faster than 1.5).
 */
// @ts-ignore: decorator
@inline
export function ngramTableCapacity(ngrams: i32): u32 {
  return tableCapacity(ngrams * 3);
}

/** Address of the record of `slot` in a counting table of `capacity` slots at `table`. */
// @ts-ignore: decorator
@inline
export function recordAddress(table: usize, capacity: u32, slot: u32): usize {
  return table + (usize(capacity) << KEY_SHIFT) + (usize(slot) << RECORD_SHIFT);
}

/** Address of the weight of `slot` in a counting table of `capacity` slots at `table`. */
// @ts-ignore: decorator
@inline
export function weightAddress(table: usize, capacity: u32, slot: u32): usize {
  return table + usize(capacity) * 24 + (usize(slot) << 3);
}

/** Claims a new slot's record: count, stamp, used and aux 0. */
// @ts-ignore: decorator
@inline
export function clearRecord(record: usize): void {
  store<u64>(record, 0);
  store<u64>(record, 0, 8);
}
