/**
 * numpy's PCG64 (XSL-RR 128/64, default multiplier) with native u64 arithmetic, and the two draws sacreBLEU makes
 * from it: bounded integers in [0, n) (numpy's 32-bit Lemire path, `choice(n, size, replace=True)`) and bools
 * (`integers(2, size, dtype=bool)`, one bit per draw out of a buffered 32-bit word). The same streams as the
 * TypeScript generator of `src/meta/numpy-random.ts` (which seeds it and is checked against numpy's own output);
 * property tests check that both give the same draws and leave the same state.
 *
 * The generator state lives in the caller's memory, so that a stream can move between TypeScript and the kernels
 * (sacreBLEU draws the approximate-randomization swaps and then, from the same generator, the confidence resamples).
 * Layout of the 48-byte state block (little-endian):
 *   0: state low 64 bits   8: state high 64 bits   16: increment low   24: increment high
 *   32: u32 has-spare flag (numpy's `has_uint32`)  36: u32 spare half-word (`uinteger`)
 *   40: u32 bool buffer    44: u32 bits left in it (the buffer of one `integers(2, dtype=bool)` call)
 * Kernels load the block into globals on entry and store it back on exit.
 */

// PCG's default 128-bit multiplier 0x2360ED051FC65DA4_4385DF649FCCF645.
const MUL_HI: u64 = 0x2360ed051fc65da4;
const MUL_LO: u64 = 0x4385df649fccf645;

let stateLo: u64 = 0;
let stateHi: u64 = 0;
let incLo: u64 = 0;
let incHi: u64 = 0;
let hasSpare: bool = false;
let spare: u32 = 0;

function loadState(block: usize): void {
  stateLo = load<u64>(block);
  stateHi = load<u64>(block, 8);
  incLo = load<u64>(block, 16);
  incHi = load<u64>(block, 24);
  hasSpare = load<u32>(block, 32) != 0;
  spare = load<u32>(block, 36);
}

function storeState(block: usize): void {
  store<u64>(block, stateLo);
  store<u64>(block, stateHi, 8);
  store<u32>(block, hasSpare ? 1 : 0, 32);
  store<u32>(block, spare, 36);
}

/** High 64 bits of the 128-bit product `a · b`, from four 32×32 → 64 partial products. */
// @ts-ignore: decorator
@inline
function mulHigh(a: u64, b: u64): u64 {
  const aLo = a & 0xffffffff;
  const aHi = a >> 32;
  const bLo = b & 0xffffffff;
  const bHi = b >> 32;
  const ll = aLo * bLo;
  const lh = aLo * bHi;
  const hl = aHi * bLo;
  const mid = (ll >> 32) + (lh & 0xffffffff) + (hl & 0xffffffff);
  return aHi * bHi + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/** One LCG step (state ← state · M + inc mod 2^128) and the XSL-RR output of the new state. */
// @ts-ignore: decorator
@inline
function next64(): u64 {
  const lo = stateLo;
  const hi = stateHi;
  const productLo = lo * MUL_LO;
  const newLo = productLo + incLo;
  const carry: u64 = newLo < productLo ? 1 : 0;
  stateHi = mulHigh(lo, MUL_LO) + lo * MUL_HI + hi * MUL_LO + incHi + carry;
  stateLo = newLo;
  return rotr<u64>(stateHi ^ newLo, stateHi >> 58);
}

/** numpy's `next_uint32` for PCG64: the low half of a fresh output, its high half on the following call. */
// @ts-ignore: decorator
@inline
function nextUint32(): u32 {
  if (hasSpare) {
    hasSpare = false;
    return spare;
  }
  const x = next64();
  hasSpare = true;
  spare = u32(x >> 32);
  return u32(x);
}

/** One bounded draw in [0, n) for n ≥ 2: Lemire's multiply, rejecting low words below numpy's threshold. */
// @ts-ignore: decorator
@inline
function bounded(n: u32, threshold: u32): u32 {
  let m = u64(nextUint32()) * u64(n);
  while (u32(m) < threshold) m = u64(nextUint32()) * u64(n);
  return u32(m >> 32);
}

/**
 * `count` bounded draws in [0, n) (n ≥ 1; `threshold` = (2^32 − n) mod n, as numpy computes it) as u32 at `out`;
 * n = 1 draws nothing and writes zeros, as numpy does.
 */
export function pcg64Bounded(block: usize, n: u32, threshold: u32, out: usize, count: i32): void {
  loadState(block);
  if (n <= 1) {
    memory.fill(out, 0, usize(count) << 2);
  } else {
    for (let i = 0; i < count; i++) store<u32>(out + (usize(i) << 2), bounded(n, threshold));
  }
  storeState(block);
}

/** `count` bool draws (0 or 1) as bytes at `out`, continuing the bool buffer of the state block. */
export function pcg64Bools(block: usize, out: usize, count: i32): void {
  loadState(block);
  let buf = load<u32>(block, 40);
  let left = load<u32>(block, 44);
  for (let i = 0; i < count; i++) {
    if (left == 0) {
      buf = nextUint32();
      left = 31;
    } else {
      buf >>>= 1;
      left--;
    }
    store<u8>(out + usize(i), u8(buf & 1));
  }
  store<u32>(block, buf, 40);
  store<u32>(block, left, 44);
  storeState(block);
}

/**
 * Bootstrap resample sums: `nSamples` resamples of `n` rows drawn with replacement (bounded draws in [0, n), n ≥ 1,
 * one resample after the other from the same stream); for each, the column sums of the drawn rows of the f32 matrix
 * `rows` (n × width), accumulated in float32 row after row as numpy's `stats[idx].sum(0)` does (lane-wise f32x4
 * adds round exactly as scalar ones). `width` is a multiple of 4 (the caller pads with zero columns). Writes
 * nSamples × width f32 at `out`.
 */
export function bootstrapSums(
  block: usize, n: u32, threshold: u32, rows: usize, width: i32, nSamples: i32, out: usize,
): void {
  loadState(block);
  const rowBytes = usize(width) << 2;
  for (let s = 0; s < nSamples; s++) {
    const sums = out + usize(s) * rowBytes;
    memory.fill(sums, 0, rowBytes);
    for (let i: u32 = 0; i < n; i++) {
      const pick = n > 1 ? bounded(n, threshold) : 0;
      const row = rows + usize(pick) * rowBytes;
      for (let at: usize = 0; at < rowBytes; at += 16) {
        v128.store(sums + at, f32x4.add(v128.load(sums + at), v128.load(row + at)));
      }
    }
  }
  storeState(block);
}

/** Adds the f64 row at `row` to the sums at `sums` (`rowBytes` a multiple of 16; f64x2 adds round as scalar ones). */
// @ts-ignore: decorator
@inline
function addRow(sums: usize, row: usize, rowBytes: usize): void {
  for (let at: usize = 0; at < rowBytes; at += 16) {
    v128.store(sums + at, f64x2.add(v128.load(sums + at), v128.load(row + at)));
  }
}

/** Adds the i32 row at `row` to the sums at `sums` (`rowBytes` a multiple of 16). */
// @ts-ignore: decorator
@inline
function addRowI32(sums: usize, row: usize, rowBytes: usize): void {
  for (let at: usize = 0; at < rowBytes; at += 16) {
    v128.store(sums + at, i32x4.add(v128.load(sums + at), v128.load(row + at)));
  }
}

/** The bool buffer while {@link addSwappedRows} runs (globals: a function returns one value). */
let trialBuf: u32 = 0;
let trialLeft: u32 = 0;

/**
 * Draws the `n` swap bools of one trial from the bool buffer (`trialBuf`/`trialLeft`, updated) and adds row `i`
 * of `delta` to `sums` for every swapped segment `i`: i32 rows when `asI32`, f64 rows otherwise. The next k bits
 * (k ≤ 31) of a buffered word decide segments i … i + k − 1 at once; only the set ones cost anything.
 */
// @ts-ignore: decorator
@inline
function addSwappedRows(n: i32, sums: usize, delta: usize, rowBytes: usize, asI32: bool): void {
  let buf = trialBuf;
  let left = trialLeft;
  let i = 0;
  while (i < n) {
    if (left == 0) {
      buf = nextUint32();
      left = 31;
      if ((buf & 1) != 0) {
        if (asI32) addRowI32(sums, delta + usize(i) * rowBytes, rowBytes);
        else addRow(sums, delta + usize(i) * rowBytes, rowBytes);
      }
      i++;
      continue;
    }
    const k = min<u32>(left, u32(n - i));
    let bits = (buf >>> 1) & ((u32(1) << k) - 1);
    while (bits != 0) {
      const row = delta + usize(i + i32(ctz(bits))) * rowBytes;
      if (asI32) addRowI32(sums, row, rowBytes);
      else addRow(sums, row, rowBytes);
      bits &= bits - 1;
    }
    buf >>>= k;
    left -= k;
    i += i32(k);
  }
  trialBuf = buf;
  trialLeft = left;
}

/**
 * One trial of the i32 integral path: `a` = sysTotal + Σ_{swapped} delta in i32, `b` = (blTotal + sysTotal) − a,
 * both written as f64 (width values each, `width` a multiple of 4). The sums go to a scratch row of i32 just
 * above `b`'s f64 row (`a`'s f64 row is only written at the end).
 */
function integralTrialI32(
  n: i32, width: i32, delta: usize, blTotal: usize, sysTotal: usize, a: usize, b: usize,
): void {
  const rowBytes = usize(width) << 2;
  // a's f64 row is 2·rowBytes long: its upper half holds the i32 sums until they are converted.
  const sums = a + rowBytes;
  memory.copy(sums, sysTotal, rowBytes);
  addSwappedRows(n, sums, delta, rowBytes, true);
  for (let c = 0; c < width; c++) {
    const at = usize(c) << 2;
    const sumA = load<i32>(sums + at);
    store<f64>(b + (usize(c) << 3), f64(load<i32>(blTotal + at) + load<i32>(sysTotal + at) - sumA));
  }
  // In place, ascending: f64 slot c (bytes 8c … 8c + 7 of the row) overlaps only i32 slots 2c − width and
  // 2c − width + 1 (at byte 4·width + 4c'), both ≤ c, so every i32 is read before anything overwrites it.
  for (let c = 0; c < width; c++) {
    const value = f64(load<i32>(sums + (usize(c) << 2)));
    store<f64>(a + (usize(c) << 3), value);
  }
}

/**
 * Approximate-randomization sums: `nTrials` swap masks of `n` bool draws (continuing the bool buffer of the state
 * block); for each trial the column sums (f64, width columns, width even: the caller pads) of the two
 * pseudo-systems: `a` takes the baseline's row where the draw is 1 and the system's where it is 0, `b` the
 * opposite. Writes per trial `a` then `b` (2 × width f64) at `out`.
 *
 * With `integral` = 1 (every statistic an integer, so every sum is exact in any order) `a` = Σsys + Σ_{swapped}
 * `delta` (delta = baseline − system, row-major) and `b` = (Σbl + Σsys) − a, touching only the swapped rows,
 * found a buffered word at a time; `blTotal` and `sysTotal` are the full column sums. With `integral` = 2 the same in i32
 * (`delta`, `blTotal`, `sysTotal` are i32 and `width` a multiple of 4; the caller checked that no sum can leave the
 * i32 range), converted to f64 on output. Otherwise both are summed row after row in segment order.
 */
export function randomizationSums(
  block: usize, n: i32, width: i32, nTrials: i32,
  bl: usize, sys: usize, delta: usize, blTotal: usize, sysTotal: usize, integral: i32, out: usize,
): void {
  loadState(block);
  // The bool buffer: bit 0 of `buf` is the last bit handed out, `left` bits above it are still to come.
  let buf = load<u32>(block, 40);
  let left = load<u32>(block, 44);
  const rowBytes = usize(width) << 3;
  for (let t = 0; t < nTrials; t++) {
    const a = out + usize(t) * (rowBytes << 1);
    const b = a + rowBytes;
    if (integral == 2) {
      trialBuf = buf;
      trialLeft = left;
      integralTrialI32(n, width, delta, blTotal, sysTotal, a, b);
      buf = trialBuf;
      left = trialLeft;
    } else if (integral != 0) {
      memory.copy(a, sysTotal, rowBytes);
      trialBuf = buf;
      trialLeft = left;
      addSwappedRows(n, a, delta, rowBytes, false);
      buf = trialBuf;
      left = trialLeft;
      for (let at: usize = 0; at < rowBytes; at += 16) {
        const both = f64x2.add(v128.load(blTotal + at), v128.load(sysTotal + at));
        v128.store(b + at, f64x2.sub(both, v128.load(a + at)));
      }
    } else {
      memory.fill(a, 0, rowBytes << 1);
      for (let i = 0; i < n; i++) {
        if (left == 0) {
          buf = nextUint32();
          left = 31;
        } else {
          buf >>>= 1;
          left--;
        }
        const offset = usize(i) * rowBytes;
        const x = (buf & 1) != 0 ? bl + offset : sys + offset;
        const y = (buf & 1) != 0 ? sys + offset : bl + offset;
        addRow(a, x, rowBytes);
        addRow(b, y, rowBytes);
      }
    }
  }
  store<u32>(block, buf, 40);
  store<u32>(block, left, 44);
  storeState(block);
}
