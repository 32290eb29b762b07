/** Reading CSR rows (token ids and offsets) in linear memory. */

/** Token `i` of a CSR token array, read as u32 (see `common/hash` on sign extension). */
// @ts-ignore: decorator
@inline
export function tokenAt(tokens: usize, i: i32): u32 {
  return load<u32>(tokens + (usize(i) << 2));
}

/** Length of CSR row `r`. */
// @ts-ignore: decorator
@inline
export function rowLength(offsets: usize, r: i32): i32 {
  return load<i32>(offsets + (usize(r) << 2), 4) - load<i32>(offsets + (usize(r) << 2));
}
