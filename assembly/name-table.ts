/**
 * A table of names (strings of UTF-16 units) to dense ids, for ../src/wasm/name-table.ts: the caller lays out the
 * records (per id its hash and where its units start in the arena) and an open-addressing table of slots of two u32
 * (`id + 1`, 0 = empty, and the hash; the hash's top bits choose a name's first slot), with room for every name a call
 * may add and the table at most half full after it (a table grown is filled again with words13aRehash).
 */

/** FNV-1a over the units, mixed so that the top bits (which choose the slot) depend on all of them. */
// @ts-ignore: decorator
@inline
function unitsHash(p: usize, n: u32): u32 {
  let h: u32 = 0x811c9dc5 ^ n;
  for (let k: u32 = 0; k < n; k++) h = (h ^ u32(load<u16>(p + (usize(k) << 1)))) * 0x01000193;
  h ^= h >>> 16;
  return h * 0x9e3779b1;
}

/**
 * The ids of `runs` names, name `r` the units `units[starts[r] .. starts[r + 1])` (offsets in units): found, or added
 * with the next id (from `count`); an empty run gets -1. Ids to `out` (i32); returns the number of names after.
 */
export function nameTableIntern(
  units: usize, starts: usize, runs: i32, out: usize, table: usize, mask: u32, hashes: usize, nameStarts: usize,
  arena: usize, count: u32,
): u32 {
  const shift = clz(mask);
  for (let r = 0; r < runs; r++) {
    const from = load<u32>(starts + (usize(r) << 2));
    const n = load<u32>(starts + (usize(r + 1) << 2)) - from;
    if (n == 0) {
      store<i32>(out + (usize(r) << 2), -1);
      continue;
    }
    const p = units + (usize(from) << 1);
    const hash = unitsHash(p, n);
    let slot = hash >> shift;
    while (true) {
      const at = table + (usize(slot) << 3);
      const entry = load<u32>(at);
      if (entry == 0) {
        const id = count++;
        const start = load<u32>(nameStarts + (usize(id) << 2));
        memory.copy(arena + (usize(start) << 1), p, usize(n) << 1);
        store<u32>(nameStarts + (usize(id + 1) << 2), start + n);
        store<u32>(hashes + (usize(id) << 2), hash);
        store<u32>(at, id + 1);
        store<u32>(at, hash, 4);
        store<i32>(out + (usize(r) << 2), i32(id));
        break;
      }
      if (load<u32>(at, 4) == hash) {
        const id = entry - 1;
        const start = load<u32>(nameStarts + (usize(id) << 2));
        if (load<u32>(nameStarts + (usize(id + 1) << 2)) - start == n) {
          const q = arena + (usize(start) << 1);
          let k: u32 = 0;
          while (k < n && load<u16>(q + (usize(k) << 1)) == load<u16>(p + (usize(k) << 1))) k++;
          if (k == n) {
            store<i32>(out + (usize(r) << 2), i32(id));
            break;
          }
        }
      }
      slot = (slot + 1) & mask;
    }
  }
  return count;
}
