/**
 * MERT's model scores (src/tuning/mert/line-search.ts) four candidates at a time: every candidate's dot product
 * with one or two weight vectors in Moses' arithmetic (mert/Types.h, `Point * FeatureStats`): each product of a
 * single-precision weight and feature rounded to single precision, the products summed in double in term order
 * from +0, the sum stored as a float.
 *
 * Features are stored by column (`stride` floats per feature, `stride` a multiple of 4, the padding 0) so that one
 * v128 load gives a feature of four candidates. A product of two floats is exact in double, so `f32x4.mul` rounds
 * it exactly as the scalar `fround(w * f)` does; f64x2 adds and the demotion to float round as scalar ones.
 */

/**
 * Model scores of the candidates `0 .. count` (a multiple of 4, at most `stride`): term t multiplies weight
 * `w1[t]` (f32) by the feature column `idx[t]` (i32); `terms` terms, summed in order. Writes `count` f32 at `out1`;
 * when `w2` is not 0, also the scores of the weights at `w2` at `out2` (one pass over the columns for both).
 */
export function mertDots(
  cols: usize, stride: i32, idx: usize, terms: i32, w1: usize, out1: usize, w2: usize, out2: usize, count: i32,
): void {
  const columnBytes = usize(stride) << 2;
  if (w2 === 0) {
    for (let r: usize = 0; r < usize(count); r += 4) {
      const at = cols + (r << 2);
      let lo = f64x2.splat(0);
      let hi = f64x2.splat(0);
      for (let t = 0; t < terms; t++) {
        const f = v128.load(at + usize(load<i32>(idx + (usize(t) << 2))) * columnBytes);
        const p = f32x4.mul(f, f32x4.splat(load<f32>(w1 + (usize(t) << 2))));
        lo = f64x2.add(lo, f64x2.promote_low_f32x4(p));
        hi = f64x2.add(hi, f64x2.promote_low_f32x4(v128.shuffle<f32>(p, p, 2, 3, 0, 1)));
      }
      v128.store(out1 + (r << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5));
    }
    return;
  }
  for (let r: usize = 0; r < usize(count); r += 4) {
    const at = cols + (r << 2);
    let lo = f64x2.splat(0);
    let hi = f64x2.splat(0);
    let lo2 = f64x2.splat(0);
    let hi2 = f64x2.splat(0);
    for (let t = 0; t < terms; t++) {
      const f = v128.load(at + usize(load<i32>(idx + (usize(t) << 2))) * columnBytes);
      const p = f32x4.mul(f, f32x4.splat(load<f32>(w1 + (usize(t) << 2))));
      lo = f64x2.add(lo, f64x2.promote_low_f32x4(p));
      hi = f64x2.add(hi, f64x2.promote_low_f32x4(v128.shuffle<f32>(p, p, 2, 3, 0, 1)));
      const q = f32x4.mul(f, f32x4.splat(load<f32>(w2 + (usize(t) << 2))));
      lo2 = f64x2.add(lo2, f64x2.promote_low_f32x4(q));
      hi2 = f64x2.add(hi2, f64x2.promote_low_f32x4(v128.shuffle<f32>(q, q, 2, 3, 0, 1)));
    }
    v128.store(out1 + (r << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5));
    v128.store(out2 + (r << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo2), f32x4.demote_f64x2_zero(hi2), 0, 1, 4, 5));
  }
}
