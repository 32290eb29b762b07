/** Moses BLEU's reference length (`Reference::CalcClosest`, `CalcShortest`, `CalcAverage`) over token counts. */

/** Moses' `reflen` strategies, as the kernels take them. */
export const REFLEN_CLOSEST: i32 = 0;
export const REFLEN_SHORTEST: i32 = 1;
export const REFLEN_AVERAGE: i32 = 2;

/**
 * The reference length for a hypothesis of `length` tokens against references `r0 .. r1` (lengths from the CSR
 * offsets at `refOffsets`): closest to `length` (the shorter on a tie), shortest, or the average as Moses computes
 * it (`static_cast<int>(static_cast<float>(total) / size)`: the single-precision quotient, truncated). Over no
 * references: NaN (closest, average) or +Infinity (shortest), what those formulas give over no lengths.
 */
// @ts-ignore: decorator
@inline
export function mosesReferenceLength(refOffsets: usize, r0: i32, r1: i32, length: i32, strategy: i32): f64 {
  if (r1 <= r0) return strategy == REFLEN_SHORTEST ? Infinity : NaN;
  let best = load<i32>(refOffsets + (usize(r0) << 2), 4) - load<i32>(refOffsets + (usize(r0) << 2));
  if (strategy == REFLEN_AVERAGE) {
    let total = best;
    for (let r = r0 + 1; r < r1; r++) total += load<i32>(refOffsets + (usize(r) << 2), 4) - load<i32>(refOffsets + (usize(r) << 2));
    return f64(trunc<f32>(f32(total) / f32(r1 - r0)));
  }
  let distance = abs(best - length);
  for (let r = r0 + 1; r < r1; r++) {
    const l = load<i32>(refOffsets + (usize(r) << 2), 4) - load<i32>(refOffsets + (usize(r) << 2));
    if (strategy == REFLEN_SHORTEST) {
      best = min(best, l);
    } else {
      const d = abs(l - length);
      if (d < distance || (d == distance && l < best)) {
        best = l;
        distance = d;
      }
    }
  }
  return f64(best);
}
