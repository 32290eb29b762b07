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

/**
 * Smallest and largest of the `count` i32 at `tokens`, written as two i32 to `out` (`i32.MAX_VALUE` and
 * `i32.MIN_VALUE` when `count` is 0): whether token ids are small enough to index tables directly. Four ids per
 * `i32x4` step.
 */
export function idRange(tokens: usize, count: i32, out: usize): void {
  let low = i32x4.splat(i32.MAX_VALUE);
  let high = i32x4.splat(i32.MIN_VALUE);
  let i = 0;
  for (; i + 4 <= count; i += 4) {
    const v = v128.load(tokens + (usize(i) << 2));
    low = i32x4.min_s(low, v);
    high = i32x4.max_s(high, v);
  }
  let lo = min(min(i32x4.extract_lane(low, 0), i32x4.extract_lane(low, 1)), min(i32x4.extract_lane(low, 2), i32x4.extract_lane(low, 3)));
  let hi = max(max(i32x4.extract_lane(high, 0), i32x4.extract_lane(high, 1)), max(i32x4.extract_lane(high, 2), i32x4.extract_lane(high, 3)));
  for (; i < count; i++) {
    const t = load<i32>(tokens + (usize(i) << 2));
    lo = min(lo, t);
    hi = max(hi, t);
  }
  store<i32>(out, lo);
  store<i32>(out, hi, 4);
}
