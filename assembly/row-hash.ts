/**
 * Hashes of n-best statistics rows for Moses' duplicate removal: two candidates can only be duplicates when their
 * rows are equal value for value (as doubles compare: -0 equals 0, and the removal takes any NaN as equal to any
 * NaN), so equal rows must hash alike; almost every row of an n-best list is unlike the others of its sentence, and
 * a sentence whose hashes are all different has no duplicate to look for.
 */

/** 2^64 / φ, odd: a multiply that spreads every input bit over the high bits. */
const MIX: u64 = 0x9e3779b97f4a7c15;

/**
 * The bits a value hashes as: its own, except that both zeros hash as +0 and every NaN as one NaN, folded so that
 * the high bits, where whole numbers differ, also reach the low ones.
 */
// @ts-ignore: decorator
@inline
function valueBits(v: f64): u64 {
  let bits = reinterpret<u64>(v);
  bits = select<u64>(0, bits, v == 0);
  bits = select<u64>(0x7ff8000000000000, bits, v != v);
  return bits ^ (bits >> 29);
}

/** Whether two values are equal as duplicate removal compares them (any NaN equals any NaN). */
// @ts-ignore: decorator
@inline
function sameValue(x: f64, y: f64): bool {
  return x == y || (x != x && y != y);
}

/** Whether rows at `x` and `y` (`width` f64 each) are equal value for value. */
function sameRow(x: usize, y: usize, width: i32): bool {
  for (let k: usize = 0; k < usize(width) << 3; k += 8) {
    if (!sameValue(load<f64>(x + k), load<f64>(y + k))) return false;
  }
  return true;
}

/** Values a row's hash reads at most, spread over the row (rows that differ mostly differ in many columns). */
const HASHED: i32 = 8;

/**
 * Writes the hash (i32) of each of the `nRows` rows of `width` f64 at `stats` to `hashes` (equal rows, equal hashes:
 * it reads at most {@link HASHED} of a row's values) and, to `links`, the latest earlier row equal to each row (-1
 * for none); returns the number of rows with an earlier equal row. `table` is scratch of `1 << slotBits` u32 (at
 * least 2 × `nRows` slots).
 */
export function rowHashes(
  stats: usize, width: i32, nRows: i32, hashes: usize, links: usize, table: usize, slotBits: i32,
): i32 {
  const slots = u32(1) << u32(slotBits);
  const mask = slots - 1;
  const shift = u32(32 - slotBits);
  memory.fill(table, 0, usize(slots) << 2);
  const rowBytes = usize(width) << 3;
  // Byte step between hashed values: every value of a narrow row, a spread of HASHED of a wide one.
  const step = usize(width <= HASHED ? 1 : (width + HASHED - 1) / HASHED) << 3;
  let linked: i32 = 0;
  for (let r: i32 = 0; r < nRows; r++) {
    const row = stats + usize(r) * rowBytes;
    let h: u64 = u64(width);
    for (let at = row; at < row + rowBytes; at += step) h = (h ^ valueBits(load<f64>(at))) * MIX;
    h = (h ^ (h >> 32)) * MIX;
    const hash = i32(h >> 32);
    store<i32>(hashes + (usize(r) << 2), hash);
    let link: i32 = -1;
    // Open addressing on row numbers + 1 (0: empty), from the hash's high bits; a slot holds the latest row of its
    // value.
    let slot = (u32(hash) * 0x9e3779b1) >> shift;
    for (;;) {
      const at = table + (usize(slot) << 2);
      const e = load<u32>(at);
      if (e == 0) {
        store<u32>(at, u32(r) + 1);
        break;
      }
      if (load<i32>(hashes + (usize(e - 1) << 2)) == hash && sameRow(stats + usize(e - 1) * rowBytes, row, width)) {
        link = i32(e - 1);
        store<u32>(at, u32(r) + 1);
        linked++;
        break;
      }
      slot = (slot + 1) & mask;
    }
    store<i32>(links + (usize(r) << 2), link);
  }
  return linked;
}
