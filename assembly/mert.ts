/**
 * MERT's model scores and envelope walks (src/tuning/mert/line-search.ts). Model scores: every candidate's dot
 * product with one or two weight vectors in Moses' arithmetic (mert/Types.h, `Point * FeatureStats`): each product
 * of a single-precision weight and feature rounded to single precision, the products summed in double in term order
 * from +0, the sum stored as a float. Walks: line-search.ts `envelope` operation for operation, a sentence at a time
 * right after its slopes and intercepts are computed ({@link mertEnvelopes}).
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
  if (w2 === 0) dotRows(cols, columnBytes, idx, terms, w1, out1, count);
  else dotRows2(cols, columnBytes, idx, terms, w1, out1, w2, out2, count);
}

/** Largest single-precision float (Moses' MAX_FLOAT). */
const FLT_MAX: f64 = 3.4028234663852886e38;
/** The envelope walk's skip margin, 2^-20 (src/tuning/mert/line-search.ts SKIP_MARGIN, whose reasoning this is). */
const SKIP_MARGIN: f64 = 9.5367431640625e-7;
/** The prefilter's margin, 2^-12 (line-search.ts FILTER_MARGIN). */
const FILTER_MARGIN: f64 = 0.000244140625;
/** The prefilter's known lines (at most 5), their bends and the limit at each bend. */
const KNOWN = memory.data(5 << 2, 16);
const BEND_X = memory.data(5 << 3, 16);
const BEND_LIMIT = memory.data(5 << 3, 16);

// @ts-ignore: decorator
@inline function at32(p: usize, j: i32): f64 {
  return <f64>load<f32>(p + (usize(j) << 2));
}
// @ts-ignore: decorator
@inline function knownAt(i: i32): i32 {
  return load<i32>(KNOWN + (usize(i) << 2));
}
// @ts-ignore: decorator
@inline function setKnown(i: i32, j: i32): void {
  store<i32>(KNOWN + (usize(i) << 2), j);
}

/** line-search.ts `knownHull`, the same double arithmetic: the known lines that are the maximum somewhere. */
function knownHull(slope: usize, f0: usize, count: i32): i32 {
  let h = 0;
  for (let i = 0; i < count; i++) {
    const j = knownAt(i);
    const mj = at32(slope, j);
    const bj = at32(f0, j);
    if (h > 0 && at32(slope, knownAt(h - 1)) == mj) {
      if (at32(f0, knownAt(h - 1)) >= bj) continue;
      h--;
    }
    while (h >= 2) {
      const a = knownAt(h - 2);
      const b = knownAt(h - 1);
      const fa = at32(f0, a);
      const sa = at32(slope, a);
      if ((at32(f0, b) - fa) * (mj - sa) <= (bj - fa) * (at32(slope, b) - sa)) h--;
      else break;
    }
    setKnown(h++, j);
  }
  return h;
}

/**
 * Per 4-bit mask of lanes, the byte shuffle that packs those i32 lanes of a vector to its front (the rest 0): a
 * group of four lines' survivors of the prefilter appended in order with one store.
 */
const PACK = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0,
  8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0,
  4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0,
  12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0,
  4, 5, 6, 7, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 0, 0, 0, 0,
  8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0,
  4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
]);

/** Horizontal minimum and maximum of four floats (none NaN: then either zero may stand for a ±0 extreme). */
// @ts-ignore: decorator
@inline function hmin(v: v128): f32 {
  const h = f32x4.pmin(v, v128.shuffle<f32>(v, v, 2, 3, 0, 1));
  const a = f32x4.extract_lane(h, 0);
  const b = f32x4.extract_lane(h, 1);
  return b < a ? b : a;
}
// @ts-ignore: decorator
@inline function hmax(v: v128): f32 {
  const h = f32x4.pmax(v, v128.shuffle<f32>(v, v, 2, 3, 0, 1));
  const a = f32x4.extract_lane(h, 0);
  const b = f32x4.extract_lane(h, 1);
  return a < b ? b : a;
}

/**
 * line-search.ts `envelope` over the `n` lines of one sentence (slopes at `slope`, intercepts at `f0`, f32), in the
 * same arithmetic, comparisons and order, so the same breakpoints and lines: the first 1-best at `stepRow[0]` and
 * each later change at `stepX[k]` (f32), `stepRow[k]`, rows numbered from `rowBase`. Returns the entries. `active`
 * holds `n` i32.
 *
 * The two passes over every line are SIMD, four lines a step: the extremes (values first, then the first line that
 * has each, which is what the scalar pass's strict comparisons keep), and the prefilter's test at its two bends,
 * whose survivors are appended in order. A sentence with a NaN takes the scalar first pass (its comparisons are
 * then order-dependent) and no prefilter, as in TypeScript.
 */
export function mertEnvelope(slope: usize, f0: usize, n: i32, active: usize, stepX: usize, stepRow: usize, rowBase: i32): i32 {
  const n4 = n & ~3;
  let vmMin = f32x4.splat(load<f32>(slope));
  let vmMax = vmMin;
  let vbMin = f32x4.splat(load<f32>(f0));
  let vbMax = vbMin;
  let vSmall = f32x4.splat(Infinity);
  let vNaN = i32x4.splat(0);
  const inf = f32x4.splat(Infinity);
  const zero = f32x4.splat(0);
  for (let j = 0; j < n4; j += 4) {
    const m = v128.load(slope + (usize(j) << 2));
    const b = v128.load(f0 + (usize(j) << 2));
    vmMin = f32x4.pmin(vmMin, m);
    vmMax = f32x4.pmax(vmMax, m);
    vbMin = f32x4.pmin(vbMin, b);
    vbMax = f32x4.pmax(vbMax, b);
    const am = f32x4.abs(m);
    vSmall = f32x4.pmin(vSmall, v128.bitselect(am, inf, f32x4.ne(am, zero)));
    vNaN = v128.or(vNaN, v128.or(f32x4.ne(m, m), f32x4.ne(b, b)));
  }
  let mMin = hmin(vmMin);
  let mMax = hmax(vmMax);
  let bMin = hmin(vbMin);
  let bMax = hmax(vbMax);
  let smallM = hmin(vSmall);
  let nan = v128.any_true(vNaN);
  for (let j = n4; j < n; j++) {
    const mj = load<f32>(slope + (usize(j) << 2));
    const bj = load<f32>(f0 + (usize(j) << 2));
    mMin = min(mMin, mj);
    mMax = max(mMax, mj);
    bMin = min(bMin, bj);
    bMax = max(bMax, bj);
    const am = abs(mj);
    if (am != 0) smallM = min(smallM, am);
    if (mj != mj || bj != bj) nan = true;
  }
  let cur = 0;
  let top = 0;
  let high = 0;
  if (nan) {
    // The scalar pass: with a NaN, which line each strict comparison keeps depends on the order.
    let fm = load<f32>(slope);
    let fM = fm;
    let fb = load<f32>(f0);
    let fB = fb;
    let bCur = fB;
    let bTop = fB;
    for (let j = 0; j < n; j++) {
      const mj = load<f32>(slope + (usize(j) << 2));
      const bj = load<f32>(f0 + (usize(j) << 2));
      if (mj < fm || (mj == fm && bj > bCur)) {
        cur = j;
        fm = mj;
        bCur = bj;
      }
      if (mj > fM || (mj == fM && bj > bTop)) {
        top = j;
        fM = mj;
        bTop = bj;
      }
      if (bj > fB) {
        high = j;
        fB = bj;
      }
    }
    mMin = fm;
    mMax = fM;
  } else {
    // Without NaN, the scalar pass keeps: of the lines of lowest slope the first of highest intercept (cur), of
    // highest slope likewise (top), the first line of highest intercept (high). Lines that reach an extreme are
    // few: found four at a time, looked at one by one.
    const sMin = f32x4.splat(mMin);
    const sMax = f32x4.splat(mMax);
    const sB = f32x4.splat(bMax);
    let bCur: f32 = -Infinity;
    let bTop: f32 = -Infinity;
    high = -1;
    cur = -1;
    top = -1;
    for (let j = 0; j < n; j += 4) {
      if (j < n4) {
        const m = v128.load(slope + (usize(j) << 2));
        const b = v128.load(f0 + (usize(j) << 2));
        if (!v128.any_true(v128.or(v128.or(f32x4.eq(m, sMin), f32x4.eq(m, sMax)), f32x4.eq(b, sB)))) continue;
      }
      const e = min(j + 4, n);
      for (let i = j; i < e; i++) {
        const mi = load<f32>(slope + (usize(i) << 2));
        const bi = load<f32>(f0 + (usize(i) << 2));
        if (mi == mMin && (cur < 0 || bi > bCur)) {
          cur = i;
          bCur = bi;
        }
        if (mi == mMax && (top < 0 || bi > bTop)) {
          top = i;
          bTop = bi;
        }
        if (bi == bMax && high < 0) high = i;
      }
    }
    // The values of the lines kept (the vector extremes may differ from them in the sign of a zero).
    mMin = load<f32>(slope + (usize(cur) << 2));
    mMax = load<f32>(slope + (usize(top) << 2));
    bMax = load<f32>(f0 + (usize(high) << 2));
  }
  store<i32>(stepRow, cur + rowBase);
  if (!(mMax > mMin)) return 1;

  let ahead = 0;
  // The magnitudes (a zero's sign does not matter to them: see line-search.ts).
  const sm = Math.max(-<f64>mMin, <f64>mMax);
  const sb = Math.max(-<f64>bMin, <f64>bMax);
  const inRange = !nan && sm < FLT_MAX / 4 && sb < FLT_MAX / 4;
  const closest = Math.max(<f64>smallM * 5.9604644775390625e-8, 1.401298464324817e-45);
  if (inRange && 2 * sb < (FLT_MAX / 2) * closest) {
    const d0 = FILTER_MARGIN * sb;
    const dx = FILTER_MARGIN * sm;
    setKnown(0, cur);
    setKnown(1, high);
    setKnown(2, top);
    let count = at32(slope, high) > <f64>mMin && at32(slope, high) < <f64>mMax ? 3 : 2;
    if (count == 2) setKnown(1, top);
    count = knownHull(slope, f0, count);
    const u0 = knownAt(0);
    const u1 = knownAt(1);
    const u2 = count == 3 ? knownAt(2) : u1;
    const m0 = at32(slope, u0);
    const b0 = at32(f0, u0);
    const m1 = at32(slope, u1);
    const b1 = at32(f0, u1);
    const m2 = at32(slope, u2);
    const b2 = at32(f0, u2);
    const x1 = (b0 - b1) / (m1 - m0);
    const lim1 = Math.min(m0 * x1 + b0, m1 * x1 + b1) - (d0 + Math.abs(x1) * dx);
    const x2 = count == 3 ? (b1 - b2) / (m2 - m1) : x1;
    const lim2 = count == 3 ? Math.min(m1 * x2 + b1, m2 * x2 + b2) - (d0 + Math.abs(x2) * dx) : lim1;
    // A line survives when it reaches the limit at either bend (y = m · x + b in double, as in TypeScript).
    const X1 = f64x2.splat(x1);
    const X2 = f64x2.splat(x2);
    const L1 = f64x2.splat(lim1);
    const L2 = f64x2.splat(lim2);
    const iota = i32x4(0, 1, 2, 3);
    for (let j = 0; j < n4; j += 4) {
      const m = v128.load(slope + (usize(j) << 2));
      const b = v128.load(f0 + (usize(j) << 2));
      const ml = f64x2.promote_low_f32x4(m);
      const mh = f64x2.promote_low_f32x4(v128.shuffle<f32>(m, m, 2, 3, 0, 1));
      const bl = f64x2.promote_low_f32x4(b);
      const bh = f64x2.promote_low_f32x4(v128.shuffle<f32>(b, b, 2, 3, 0, 1));
      const cl = v128.or(f64x2.ge(f64x2.add(f64x2.mul(ml, X1), bl), L1), f64x2.ge(f64x2.add(f64x2.mul(ml, X2), bl), L2));
      const ch = v128.or(f64x2.ge(f64x2.add(f64x2.mul(mh, X1), bh), L1), f64x2.ge(f64x2.add(f64x2.mul(mh, X2), bh), L2));
      const mask = i32x4.bitmask(v128.shuffle<i32>(cl, ch, 0, 2, 4, 6));
      const lines = i32x4.add(i32x4.splat(j), iota);
      // At most j lines kept so far: the store stays within the lines seen.
      v128.store(active + (usize(ahead) << 2), i8x16.swizzle(lines, v128.load(PACK + (usize(mask) << 4))));
      ahead += i32(popcnt(mask));
    }
    for (let j = n4; j < n; j++) {
      const mj = at32(slope, j);
      const bj = at32(f0, j);
      store<i32>(active + (usize(ahead) << 2), j);
      ahead += i32(mj * x1 + bj >= lim1) | i32(mj * x2 + bj >= lim2);
    }
    if (ahead > 2 * count) {
      // The highest line at each bend (the first of the highest): it reaches the limit there, so it is among the
      // survivors, which are in order.
      let best1 = -1;
      let best1Y = -Infinity;
      let best2 = -1;
      let best2Y = -Infinity;
      for (let t = 0; t < ahead; t++) {
        const j = load<i32>(active + (usize(t) << 2));
        const mj = at32(slope, j);
        const bj = at32(f0, j);
        const y1 = mj * x1 + bj;
        const y2 = mj * x2 + bj;
        if (y1 > best1Y) {
          best1Y = y1;
          best1 = j;
        }
        if (y2 > best2Y) {
          best2Y = y2;
          best2 = j;
        }
      }
      let added = 0;
      if (best1 >= 0 && best1Y > lim1 + (d0 + Math.abs(x1) * dx)) setKnown(count + added++, best1);
      if (count == 3 && best2 >= 0 && best2 != best1 && best2Y > lim2 + (d0 + Math.abs(x2) * dx)) setKnown(count + added++, best2);
      if (added > 0) {
        for (let i = count; i < count + added; i++) {
          const j = knownAt(i);
          const mj = at32(slope, j);
          let q = i - 1;
          while (q >= 0 && at32(slope, knownAt(q)) > mj) {
            setKnown(q + 1, knownAt(q));
            q--;
          }
          setKnown(q + 1, j);
        }
        count = knownHull(slope, f0, count + added);
        const bends = count - 1;
        // Up to four bends, as two pairs; a bend not there has the limit +∞, which no (finite) line reaches.
        for (let k = 0; k < 4; k++) {
          store<f64>(BEND_X + (usize(k) << 3), 0);
          store<f64>(BEND_LIMIT + (usize(k) << 3), Infinity);
        }
        for (let k = 0; k < bends; k++) {
          const u = knownAt(k);
          const v = knownAt(k + 1);
          const mu = at32(slope, u);
          const bu = at32(f0, u);
          const mv = at32(slope, v);
          const bv = at32(f0, v);
          const x = (bu - bv) / (mv - mu);
          store<f64>(BEND_X + (usize(k) << 3), x);
          store<f64>(BEND_LIMIT + (usize(k) << 3), Math.min(mu * x + bu, mv * x + bv) - (d0 + Math.abs(x) * dx));
        }
        const bx01 = v128.load(BEND_X);
        const bx23 = v128.load(BEND_X, 16);
        const bl01 = v128.load(BEND_LIMIT);
        const bl23 = v128.load(BEND_LIMIT, 16);
        let kept = 0;
        for (let t = 0; t < ahead; t++) {
          const j = load<i32>(active + (usize(t) << 2));
          const mj = f64x2.splat(at32(slope, j));
          const bj = f64x2.splat(at32(f0, j));
          const reach = v128.or(f64x2.ge(f64x2.add(f64x2.mul(mj, bx01), bj), bl01), f64x2.ge(f64x2.add(f64x2.mul(mj, bx23), bj), bl23));
          store<i32>(active + (usize(kept) << 2), j);
          kept += i32(v128.any_true(reach));
        }
        ahead = kept;
      }
    }
  } else {
    for (let j = 0; j < n; j++) store<i32>(active + (usize(j) << 2), j);
    ahead = n;
  }

  let steps = 1;
  while (true) {
    const mf = load<f32>(slope + (usize(cur) << 2));
    const bf = load<f32>(f0 + (usize(cur) << 2));
    const m = <f64>mf;
    const b = <f64>bf;
    let next = -1;
    let nextX: f32 = <f32>FLT_MAX;
    let nextM: f32 = 0;
    let bound: f64 = Infinity;
    const scan = ahead;
    ahead = 0;
    for (let t = 0; t < scan; t++) {
      const j = load<i32>(active + (usize(t) << 2));
      const mjf = load<f32>(slope + (usize(j) << 2));
      if (!(mjf > mf)) continue;
      store<i32>(active + (usize(ahead) << 2), j);
      ahead++;
      const bjf = load<f32>(f0 + (usize(j) << 2));
      const mj = <f64>mjf;
      if (<f64>bjf - b < bound * (m - mj)) continue;
      // Float differences and quotient: each the float rounding of the exact value, as f32(f32(a − b) / f32(c − d))
      // of doubles holding floats.
      let x = (bjf - bf) / (mf - mjf);
      if (!(Math.abs(x) <= <f32>FLT_MAX)) x = <f32>FLT_MAX;
      if (x < nextX || (x == nextX && (next < 0 || mjf >= nextM))) {
        next = j;
        nextX = x;
        nextM = mjf;
        if (x < <f32>FLT_MAX && inRange) bound = <f64>x + Math.abs(<f64>x) * SKIP_MARGIN + 1e-30;
      }
    }
    if (next < 0) break;
    store<f32>(stepX + (usize(steps) << 2), nextX);
    store<i32>(stepRow + (usize(steps) << 2), next + rowBase);
    steps++;
    cur = next;
  }
  return steps;
}

/**
 * Scores of rows `0 .. count` (a multiple of 4) of the columns at `at` (`columnBytes` apart) under one weight
 * vector, into `out`, in the arithmetic of the file comment: eight candidates a step (four independent chains of
 * additions), then four.
 */
function dotRows(at: usize, columnBytes: usize, idx: usize, terms: i32, w: usize, out: usize, count: i32): void {
  let r: usize = 0;
  for (; r + 8 <= usize(count); r += 8) {
    const p = at + (r << 2);
    let lo = f64x2.splat(0);
    let hi = f64x2.splat(0);
    let lo2 = f64x2.splat(0);
    let hi2 = f64x2.splat(0);
    for (let t = 0; t < terms; t++) {
      const c = p + usize(load<i32>(idx + (usize(t) << 2))) * columnBytes;
      const ws = f32x4.splat(load<f32>(w + (usize(t) << 2)));
      const a = f32x4.mul(v128.load(c), ws);
      const b = f32x4.mul(v128.load(c, 16), ws);
      lo = f64x2.add(lo, f64x2.promote_low_f32x4(a));
      hi = f64x2.add(hi, f64x2.promote_low_f32x4(v128.shuffle<f32>(a, a, 2, 3, 0, 1)));
      lo2 = f64x2.add(lo2, f64x2.promote_low_f32x4(b));
      hi2 = f64x2.add(hi2, f64x2.promote_low_f32x4(v128.shuffle<f32>(b, b, 2, 3, 0, 1)));
    }
    v128.store(out + (r << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5));
    v128.store(out + (r << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo2), f32x4.demote_f64x2_zero(hi2), 0, 1, 4, 5), 16);
  }
  if (r < usize(count)) {
    const p = at + (r << 2);
    let lo = f64x2.splat(0);
    let hi = f64x2.splat(0);
    for (let t = 0; t < terms; t++) {
      const f = v128.load(p + usize(load<i32>(idx + (usize(t) << 2))) * columnBytes);
      const a = f32x4.mul(f, f32x4.splat(load<f32>(w + (usize(t) << 2))));
      lo = f64x2.add(lo, f64x2.promote_low_f32x4(a));
      hi = f64x2.add(hi, f64x2.promote_low_f32x4(v128.shuffle<f32>(a, a, 2, 3, 0, 1)));
    }
    v128.store(out + (r << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5));
  }
}

/** {@link dotRows} under two weight vectors in one pass over the columns, eight candidates a step. */
function dotRows2(at: usize, columnBytes: usize, idx: usize, terms: i32, w1: usize, out1: usize, w2: usize, out2: usize, count: i32): void {
  let r: usize = 0;
  for (; r + 8 <= usize(count); r += 8) {
    const p = at + (r << 2);
    let lo = f64x2.splat(0);
    let hi = f64x2.splat(0);
    let lo2 = f64x2.splat(0);
    let hi2 = f64x2.splat(0);
    let lo3 = f64x2.splat(0);
    let hi3 = f64x2.splat(0);
    let lo4 = f64x2.splat(0);
    let hi4 = f64x2.splat(0);
    for (let t = 0; t < terms; t++) {
      const c = p + usize(load<i32>(idx + (usize(t) << 2))) * columnBytes;
      const f = v128.load(c);
      const g = v128.load(c, 16);
      const ws = f32x4.splat(load<f32>(w1 + (usize(t) << 2)));
      const vs = f32x4.splat(load<f32>(w2 + (usize(t) << 2)));
      const a = f32x4.mul(f, ws);
      const b = f32x4.mul(g, ws);
      lo = f64x2.add(lo, f64x2.promote_low_f32x4(a));
      hi = f64x2.add(hi, f64x2.promote_low_f32x4(v128.shuffle<f32>(a, a, 2, 3, 0, 1)));
      lo2 = f64x2.add(lo2, f64x2.promote_low_f32x4(b));
      hi2 = f64x2.add(hi2, f64x2.promote_low_f32x4(v128.shuffle<f32>(b, b, 2, 3, 0, 1)));
      const d = f32x4.mul(f, vs);
      const e = f32x4.mul(g, vs);
      lo3 = f64x2.add(lo3, f64x2.promote_low_f32x4(d));
      hi3 = f64x2.add(hi3, f64x2.promote_low_f32x4(v128.shuffle<f32>(d, d, 2, 3, 0, 1)));
      lo4 = f64x2.add(lo4, f64x2.promote_low_f32x4(e));
      hi4 = f64x2.add(hi4, f64x2.promote_low_f32x4(v128.shuffle<f32>(e, e, 2, 3, 0, 1)));
    }
    v128.store(out1 + (r << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5));
    v128.store(out1 + (r << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo2), f32x4.demote_f64x2_zero(hi2), 0, 1, 4, 5), 16);
    v128.store(out2 + (r << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo3), f32x4.demote_f64x2_zero(hi3), 0, 1, 4, 5));
    v128.store(out2 + (r << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo4), f32x4.demote_f64x2_zero(hi4), 0, 1, 4, 5), 16);
  }
  if (r < usize(count)) {
    const p = at + (r << 2);
    let lo = f64x2.splat(0);
    let hi = f64x2.splat(0);
    let lo2 = f64x2.splat(0);
    let hi2 = f64x2.splat(0);
    for (let t = 0; t < terms; t++) {
      const f = v128.load(p + usize(load<i32>(idx + (usize(t) << 2))) * columnBytes);
      const a = f32x4.mul(f, f32x4.splat(load<f32>(w1 + (usize(t) << 2))));
      lo = f64x2.add(lo, f64x2.promote_low_f32x4(a));
      hi = f64x2.add(hi, f64x2.promote_low_f32x4(v128.shuffle<f32>(a, a, 2, 3, 0, 1)));
      const b = f32x4.mul(f, f32x4.splat(load<f32>(w2 + (usize(t) << 2))));
      lo2 = f64x2.add(lo2, f64x2.promote_low_f32x4(b));
      hi2 = f64x2.add(hi2, f64x2.promote_low_f32x4(v128.shuffle<f32>(b, b, 2, 3, 0, 1)));
    }
    v128.store(out1 + (r << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5));
    v128.store(out2 + (r << 2), v128.shuffle<f32>(f32x4.demote_f64x2_zero(lo2), f32x4.demote_f64x2_zero(hi2), 0, 1, 4, 5));
  }
}

/**
 * Every sentence's envelope walk of a line search, its lines' slopes and intercepts computed a sentence at a time
 * (while its features are in cache, into the sentence buffers `sentenceSlope` and `sentenceF0`):
 * - slopes: the column `unit` when it is ≥ 0, else the scores under the weights `w2` (terms as in {@link mertDots});
 * - intercepts: the floats at `intercepts` when it is not 0, else the scores under the weights `w1`.
 * Sentence s is rows `offsets[s] .. offsets[s + 1]`. Its walk ({@link mertEnvelope}, rows numbered from 0) goes to
 * `stepX`/`stepRow` after the earlier sentences' entries, its number of entries to `counts[s]`. Returns all entries.
 * The sentence buffers hold the largest sentence + 7 floats, `active` its candidates.
 */
export function mertEnvelopes(
  cols: usize, stride: i32, idx: usize, terms: i32, w1: usize, w2: usize, unit: i32, intercepts: usize,
  offsets: usize, sentences: i32, sentenceSlope: usize, sentenceF0: usize, active: usize,
  counts: usize, stepX: usize, stepRow: usize,
): i32 {
  const columnBytes = usize(stride) << 2;
  let total = 0;
  for (let s = 0; s < sentences; s++) {
    const begin = load<i32>(offsets + (usize(s) << 2));
    const end = load<i32>(offsets + (usize(s) << 2), 4);
    // The rows of whole blocks of four around the sentence (the columns are padded to a multiple of 4).
    const first = begin & ~3;
    const rows = ((end + 3) & ~3) - first;
    const from = cols + (usize(first) << 2);
    const skip = usize(begin - first) << 2;
    let slope: usize;
    let f0: usize;
    if (unit >= 0) {
      slope = cols + usize(unit) * columnBytes + (usize(begin) << 2);
      if (intercepts !== 0) f0 = intercepts + (usize(begin) << 2);
      else {
        dotRows(from, columnBytes, idx, terms, w1, sentenceF0, rows);
        f0 = sentenceF0 + skip;
      }
    } else {
      slope = sentenceSlope + skip;
      if (intercepts !== 0) {
        f0 = intercepts + (usize(begin) << 2);
        dotRows(from, columnBytes, idx, terms, w2, sentenceSlope, rows);
      } else {
        f0 = sentenceF0 + skip;
        dotRows2(from, columnBytes, idx, terms, w1, sentenceF0, w2, sentenceSlope, rows);
      }
    }
    const steps = mertEnvelope(slope, f0, end - begin, active, stepX + (usize(total) << 2), stepRow + (usize(total) << 2), begin);
    store<i32>(counts + (usize(s) << 2), steps);
    total += steps;
  }
  return total;
}
