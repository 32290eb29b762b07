/**
 * MessagePack of n-best statistics rows, as msgpackr writes each candidate's `{ sentence, stats }` map (the plain
 * oracle is msgpackr itself, through test/reference/msgpack-stats.ts). A million candidates of 27 numbers are 27
 * million numbers: each is packed here with a few comparisons and one store instead of a JavaScript call per number.
 */

/**
 * Writes row after row: for row `k`, the `prefixLength` bytes at `prefix` (the map header, the `sentence` key and
 * value, the `stats` key and the array header: the same for every row of a block), then the `width` f64 of row
 * `rows[k]` of `stats` (i32 row indices), each packed by {@link packNumber}. Returns the bytes written at `out`,
 * which must have room for `nRows × (prefixLength + 9 × width) + 8` bytes, and `prefix` must be readable for
 * `prefixLength` rounded up to a multiple of 8.
 */
export function msgpackRows(
  stats: usize, width: i32, rows: usize, nRows: i32, prefix: usize, prefixLength: i32, out: usize,
): i32 {
  let p = out;
  const rowBytes = usize(width) << 3;
  for (let k = 0; k < nRows; k++) {
    // The prefix a word at a time (a `memory.copy` per row is a call out of the module): the last word may write up
    // to 7 bytes past it, which the row's numbers then overwrite.
    for (let i: usize = 0; i < usize(prefixLength); i += 8) store<u64>(p + i, load<u64>(prefix + i));
    p += usize(prefixLength);
    let at = stats + usize(load<i32>(rows + (usize(k) << 2))) * rowBytes;
    const end = at + rowBytes;
    // Two numbers a turn: each copy of the packing has branches of its own, which learn the pattern of the columns
    // it sees (a row's counts, fractions and larger numbers sit in the same columns row after row).
    for (; at + 16 <= end; at += 16) {
      p = packNumber(p, load<f64>(at));
      p = packNumber(p, load<f64>(at, 8));
    }
    if (at < end) p = packNumber(p, load<f64>(at));
  }
  return i32(p - out);
}

/** 2^52 and its bits (see {@link packNumber}). */
const MAGIC: f64 = 4503599627370496.0;
const MAGIC_BITS: u64 = 0x4330000000000000;

/**
 * msgpackr's encoding of a number (its `pack` without the float32 option): a whole number that fits 32 bits
 * unsigned as the shortest unsigned form (below 128 a positive fixint; -0 is 0), a whole negative number that fits
 * 32 bits signed as the shortest signed form, anything else (fractions, NaN, infinities, larger integers) as a
 * float64; all big-endian. Returns the position after it.
 */
// @ts-ignore: decorator
@inline
function packNumber(p: usize, v: f64): usize {
  // The unsigned test without a conversion to integer and back (a few instructions each): y = v + 2^52 is exact for
  // a whole v in [0, 2^32), and its bits less those of 2^52 are then v. Conversely, those bits below 2^32 make y
  // 2^52 + u for a whole u, y - 2^52 is u exactly, and v is u when the two are equal (a fraction rounded to it, a
  // negative number, an infinity or a NaN is not; -0 gives 0).
  const y = v + MAGIC;
  const u = reinterpret<u64>(y) - MAGIC_BITS;
  if (u < 0x100000000 && y - MAGIC == v) {
    if (u < 0x80) {
      store<u8>(p, u8(u));
      return p + 1;
    }
    if (u < 0x100) {
      store<u8>(p, 0xcc);
      store<u8>(p, u8(u), 1);
      return p + 2;
    }
    if (u < 0x10000) {
      store<u8>(p, 0xcd);
      store<u16>(p, bswap<u16>(u16(u)), 1);
      return p + 3;
    }
    store<u8>(p, 0xce);
    store<u32>(p, bswap<u32>(u32(u)), 1);
    return p + 5;
  }
  if (v < 0 && v >= -2147483648.0) {
    const i = i32(v);
    if (f64(i) == v) {
      if (i >= -0x20) {
        store<u8>(p, u8(i));
        return p + 1;
      }
      if (i >= -0x80) {
        store<u8>(p, 0xd0);
        store<u8>(p, u8(i), 1);
        return p + 2;
      }
      if (i >= -0x8000) {
        store<u8>(p, 0xd1);
        store<u16>(p, bswap<u16>(u16(i)), 1);
        return p + 3;
      }
      store<u8>(p, 0xd2);
      store<u32>(p, bswap<u32>(u32(i)), 1);
      return p + 5;
    }
  }
  // 0xcb and the 8 bytes reversed in one shuffle, one 16-byte store: the 7 bytes past them fall in the room left
  // for every number as a float64 and the 8 bytes of slack, and the next number overwrites them.
  const bytes = f64x2.splat(v);
  v128.store(p, i8x16.shuffle(bytes, i8x16.splat(<i8>0xcb), 16, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0));
  return p + 9;
}
