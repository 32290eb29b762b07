/**
 * The chunk memo of the n-best fast path, in linear memory: lines of UTF-8 bytes (WTF-8 where a JavaScript string
 * held a lone surrogate) are cut at runs of U+0020 into chunks, each chunk is hashed and looked up in a table of the
 * chunks seen so far (kept across calls: the memo of a thread), and a line's token row for a tokenizer is the
 * concatenation of its chunks' memoised token ids. Chunks not seen before are added to the table with the next id;
 * the caller tokenizes them (the tokenizers are TypeScript) and writes their token ids into their records before it
 * asks for rows.
 *
 * The caller lays everything out and passes a header (u32 fields, see `H_*`): the open-addressing table (2^k slots
 * of 16 bytes in groups of 4, one 64-byte line each: the 4 slots' tags, their ids, their heads; linear probing group
 * by group from the group the hash's high bits name, `H_MASK` the number of groups - 1, at most `H_LOAD` entries), the
 * key records (12 bytes each: hash, byte offset of the key in the arena, key length), the token entries (`H_STRIDE` bytes per chunk: per tokenizer `first, count` as i32; with one token
 * `first` is its id, with several it is the index of the first in the token store), the key arena and the token
 * store. Inputs are read in 64-byte blocks and the arena in 8-byte words, so an input must be followed by 64
 * readable bytes and the arena by 8.
 *
 * A chunk's bytes never contain 0x20, and UTF-8 never encodes anything but U+0020 with that byte, so cutting the
 * bytes at 0x20 cuts the code units at U+0020.
 */

/** Header fields (byte offsets of u32 values). */
const H_TABLE: usize = 0;
const H_MASK: usize = 4;
const H_LOAD: usize = 8;
const H_RECORDS: usize = 12;
const H_STRIDE: usize = 16;
const H_COUNT: usize = 20;
const H_MAX_CHUNKS: usize = 24;
const H_ARENA: usize = 28;
const H_ARENA_USED: usize = 32;
const H_ARENA_CAP: usize = 36;
const H_TOKENS: usize = 40;
const H_ENTRIES: usize = 44;
const H_SHIFT: usize = 48;
const H_NEED: usize = 52;
const H_RESUME: usize = 56;
const H_OUT: usize = 60;

/** Record fields (byte offsets). */
const R_HASH: usize = 0;
const R_KEY: usize = 4;
const R_LENGTH: usize = 8;
const RECORD_BYTES: usize = 12;

/** Bytes `[at, at + n)` of the word at `at` (n in 1..7), the rest zero. */
// @ts-ignore: decorator
@inline
function partialWord(at: usize, n: usize): u64 {
  return load<u64>(at) & ((u64(1) << (u64(n) << 3)) - 1);
}

/** One multiply-xorshift step over a word. */
// @ts-ignore: decorator
@inline
function mixWord(h: u64, w: u64): u64 {
  h = (h ^ w) * 0xFF51AFD7ED558CCD;
  return h ^ (h >> 32);
}

/** Bytes `[at, at + n)` of the word at `at` (n in 1..8), the rest zero: the head a slot keeps. */
// @ts-ignore: decorator
@inline
function headWord(at: usize, n: usize): u64 {
  return load<u64>(at) & (u64(-1) >> (u64(64) - (u64(min<usize>(n, 8)) << 3)));
}

/**
 * Hash of bytes `[start, end)`; its high bits pick the home slot. A chunk of up to 8 bytes (most words) is one
 * multiply of its head word and length; a longer one is mixed 8 bytes at a time.
 */
// @ts-ignore: decorator
@inline
function chunkHash(start: usize, end: usize): u32 {
  const n = end - start;
  if (n <= 8) {
    const h = (headWord(start, n) ^ (u64(n) << 59)) * 0x9E3779B97F4A7C15;
    return u32(h >> 32);
  }
  let h: u64 = u64(n) * 0x9E3779B97F4A7C15;
  let p = start;
  while (p + 8 <= end) {
    h = mixWord(h, load<u64>(p));
    p += 8;
  }
  if (p < end) h = mixWord(h, partialWord(p, end - p));
  h *= 0xC4CEB9FE1A85EC53;
  return u32(h ^ (h >> 29));
}

/** Whether the `n` bytes at `a` equal those at `b`. */
// @ts-ignore: decorator
@inline
function sameBytes(a: usize, b: usize, n: usize): bool {
  let k: usize = 0;
  while (k + 8 <= n) {
    if (load<u64>(a + k) != load<u64>(b + k)) return false;
    k += 8;
  }
  return k == n || partialWord(a + k, n - k) == partialWord(b + k, n - k);
}

/**
 * The slot tag of a chunk: its hash with the low byte replaced by its length (capped at 255; never 0, which marks an
 * empty slot). A slot also keeps the chunk's first 8 bytes zero-padded (its head), so that a chunk of up to 8 bytes is
 * found or refused in its group alone; the tags of a group are compared in one step, so a look-up costs one compare
 * and branch whatever the chunks that share its home group.
 */
// @ts-ignore: decorator
@inline
function slotTag(hash: u32, length: usize): u32 {
  return (hash & 0xFFFFFF00) | u32(min<usize>(length, 255));
}

/** Byte offsets in a group of 4 slots (one 64-byte line): their 4 tags, their 4 ids, their 4 heads. */
const G_IDS: usize = 16;
const G_HEADS: usize = 32;
const GROUP_SHIFT: usize = 6;

/** Writes chunk `id` into slot `k` (empty) of the group at `group`. */
// @ts-ignore: decorator
@inline
function fillSlot(group: usize, k: usize, id: u32, tag: u32, head: u64): void {
  store<u32>(group + (k << 2), tag);
  store<u32>(group + G_IDS + (k << 2), id);
  store<u64>(group + G_HEADS + (k << 3), head);
}

/**
 * The id of the chunk `[start, start + n)` (its tag and head given) in the table, or, when it is not there, the
 * negated address of the empty slot it would take, minus one (`-(group + k) - 1`, k the slot in its group). Probes
 * group after group from the hash's home group: the tags of a group are compared at once, and a group with an empty
 * slot ends the search (slots are never emptied, so a chunk lies in the first group with room from its home).
 */
// @ts-ignore: decorator
@inline
function findChunk(
  table: usize, groupMask: u32, home: u32, tag: u32, head: u64, start: usize, n: usize, records: usize, arena: usize,
): i64 {
  const want = i32x4.splat(tag);
  let g = home;
  while (true) {
    const group = table + (usize(g) << GROUP_SHIFT);
    const tags = v128.load(group);
    let hits = i32x4.bitmask(i32x4.eq(tags, want));
    while (hits != 0) {
      const k = usize(ctz(hits));
      hits &= hits - 1;
      if (load<u64>(group + G_HEADS + (k << 3)) != head) continue;
      const candidate = load<u32>(group + G_IDS + (k << 2));
      if (n <= 8) return i64(candidate);
      const record = records + usize(candidate) * RECORD_BYTES;
      if (usize(load<u32>(record, R_LENGTH)) == n && sameBytes(start + 8, arena + usize(load<u32>(record, R_KEY)) + 8, n - 8)) {
        return i64(candidate);
      }
    }
    const empty = i32x4.bitmask(i32x4.eq(tags, i32x4.splat(0)));
    if (empty != 0) return -i64(group + usize(ctz(empty))) - 1;
    g = (g + 1) & groupMask;
  }
}

/**
 * Cuts lines `fromLine .. nLines` (line `i` is bytes `input + lineStarts[i] .. input + lineEnds[i]`; lines laid end
 * to end pass one offsets array twice, `lineEnds = lineStarts + 4`, and fields of a larger text their own bounds) into
 * chunks and writes each chunk's id to `chunkIds`, line by line: the ids of line `i` are
 * `chunkIds[lineChunks[i] .. lineChunks[i + 1]]` (`lineChunks[fromLine]` must be set). New chunks get the ids from
 * `H_COUNT` on, their keys copied to the arena, their token entries left for the caller.
 *
 * When a new chunk finds the table, the records or the arena full, the kernel stops before it and returns its line;
 * `H_NEED` is then the chunk's length, `H_RESUME` its byte offset from `input` and `H_OUT` the number of ids written,
 * and the caller grows the memo and calls again from that line, which goes on from that chunk. Before a first call
 * the caller sets `H_RESUME` to 0xFFFFFFFF (start at the line's start) and `H_OUT` to 0. Returns `nLines` when every
 * line is done. `H_COUNT` and `H_ARENA_USED` are updated.
 */
export function memoScan(
  header: usize, input: usize, lineStarts: usize, lineEnds: usize, fromLine: i32, nLines: i32, chunkIds: usize,
  lineChunks: usize,
): i32 {
  const table = usize(load<u32>(header, H_TABLE));
  const mask = load<u32>(header, H_MASK);
  const shift = load<u32>(header, H_SHIFT);
  const limit = min(load<u32>(header, H_LOAD), load<u32>(header, H_MAX_CHUNKS));
  const records = usize(load<u32>(header, H_RECORDS));
  const arena = usize(load<u32>(header, H_ARENA));
  const arenaCap = load<u32>(header, H_ARENA_CAP);
  let count = load<u32>(header, H_COUNT);
  let arenaUsed = load<u32>(header, H_ARENA_USED);
  let out = chunkIds + (usize(load<u32>(header, H_OUT)) << 2);
  let resume = load<u32>(header, H_RESUME);
  const spaces = i8x16.splat(0x20);
  for (let line = fromLine; line < nLines; line++) {
    const lineStart = input + usize(load<u32>(lineStarts + (usize(line) << 2)));
    const lineEnd = input + usize(load<u32>(lineEnds + (usize(line) << 2)));
    let start = lineStart;
    if (resume != 0xFFFFFFFF) {
      start = input + usize(resume);
      resume = 0xFFFFFFFF;
    }
    let base = start;
    // Each 64-byte block gives a mask of its spaces (four 16-byte compares); every space ends the chunk before it
    // (empty ones skipped). Blocks of 64 rather than 16 bytes: the branch that leaves a block's spaces, taken at an
    // unpredictable count of them, is taken a quarter as often.
    while (true) {
      let bits = u64(i8x16.bitmask(i8x16.eq(v128.load(base), spaces)))
        | (u64(i8x16.bitmask(i8x16.eq(v128.load(base, 16), spaces))) << 16)
        | (u64(i8x16.bitmask(i8x16.eq(v128.load(base, 32), spaces))) << 32)
        | (u64(i8x16.bitmask(i8x16.eq(v128.load(base, 48), spaces))) << 48);
      const rest = lineEnd - base;
      const last = rest <= 64;
      if (rest < 64) bits &= (u64(1) << u64(rest)) - 1;
      while (true) {
        let end = lineEnd;
        if (bits != 0) {
          end = base + usize(ctz(bits));
          bits &= bits - 1;
        } else if (!last) {
          break;
        }
        if (end > start) {
          const n = end - start;
          const hash = chunkHash(start, end);
          const tag = slotTag(hash, n);
          const head = headWord(start, n);
          let id: u32;
          const found = findChunk(table, mask, hash >>> shift, tag, head, start, n, records, arena);
          if (found >= 0) {
            id = u32(found);
          } else {
            if (count >= limit || arenaUsed + u32(n) > arenaCap) {
              store<u32>(header, u32(n), H_NEED);
              store<u32>(header, u32(start - input), H_RESUME);
              store<u32>(header, u32((out - chunkIds) >> 2), H_OUT);
              store<u32>(header, count, H_COUNT);
              store<u32>(header, arenaUsed, H_ARENA_USED);
              return line;
            }
            id = count++;
            const record = records + usize(id) * RECORD_BYTES;
            store<u32>(record, hash, R_HASH);
            store<u32>(record, arenaUsed, R_KEY);
            store<u32>(record, u32(n), R_LENGTH);
            memory.copy(arena + usize(arenaUsed), start, n);
            arenaUsed += u32(n);
            const slot = usize(-found - 1);
            fillSlot(slot & ~usize(63), slot & 63, id, tag, head);
          }
          store<u32>(out, id);
          out += 4;
        }
        start = end + 1;
        if (end == lineEnd) break;
      }
      if (last) break;
      base += 64;
    }
    store<u32>(lineChunks + (usize(line) << 2), u32((out - chunkIds) >> 2), 4);
  }
  store<u32>(header, u32((out - chunkIds) >> 2), H_OUT);
  store<u32>(header, 0xFFFFFFFF, H_RESUME);
  store<u32>(header, count, H_COUNT);
  store<u32>(header, arenaUsed, H_ARENA_USED);
  return nLines;
}

/** Clears the table and inserts every chunk of the records again (after the caller resized the table). */
export function memoRehash(header: usize): void {
  const table = usize(load<u32>(header, H_TABLE));
  const mask = load<u32>(header, H_MASK);
  const shift = load<u32>(header, H_SHIFT);
  const records = usize(load<u32>(header, H_RECORDS));
  const arena = usize(load<u32>(header, H_ARENA));
  const count = load<u32>(header, H_COUNT);
  memory.fill(table, 0, (usize(mask) + 1) << GROUP_SHIFT);
  for (let id: u32 = 0; id < count; id++) {
    const record = records + usize(id) * RECORD_BYTES;
    const hash = load<u32>(record, R_HASH);
    const n = usize(load<u32>(record, R_LENGTH));
    const key = arena + usize(load<u32>(record, R_KEY));
    let g = hash >>> shift;
    while (true) {
      const group = table + (usize(g) << GROUP_SHIFT);
      const empty = i32x4.bitmask(i32x4.eq(v128.load(group), i32x4.splat(0)));
      if (empty != 0) {
        fillSlot(group, usize(ctz(empty)), id, slotTag(hash, n), headWord(key, n));
        break;
      }
      g = (g + 1) & mask;
    }
  }
}

/** Number of tokens tokenizer `t` gives the chunks `chunkIds[0 .. nChunks]`. */
export function memoTokenCount(header: usize, chunkIds: usize, nChunks: i32, t: i32): i32 {
  const counts = usize(load<u32>(header, H_ENTRIES)) + (usize(t) << 3) + 4;
  const stride = usize(load<u32>(header, H_STRIDE));
  const end = chunkIds + (usize(nChunks) << 2);
  let total: i32 = 0;
  for (let c = chunkIds; c < end; c += 4) total += load<i32>(counts + usize(load<u32>(c)) * stride);
  return total;
}

/**
 * Appends the tokens of a chunk's entry `entry` for one tokenizer at `at`; returns the new end. One token is stored
 * unconditionally and kept only when it is one (no branch for the usual zero or one token): the caller leaves room
 * for one token past the end.
 */
// @ts-ignore: decorator
@inline
function emitTokens(entry: usize, at: usize, tokens: usize): usize {
  const first = load<i32>(entry);
  const n = load<i32>(entry, 4);
  store<i32>(at, first);
  if (n <= 1) return at + (usize(n) << 2);
  const from = tokens + (usize(first) << 2);
  for (let k: usize = 0; k < usize(n); k++) store<i32>(at + (k << 2), load<i32>(from + (k << 2)));
  return at + (usize(n) << 2);
}

/**
 * Token rows of the `nLines` lines scanned by {@link memoScan}, for tokenizers `firstT .. firstT + nt` (at most 4)
 * at once: `outs` holds the u32 address where each one's tokens go (with room for one token more than it gives),
 * and the `nLines + 1` row offsets of the `t`-th go to `rowOffsets + 4 · t · (nLines + 1)`. The caller makes room
 * for every token (see {@link memoTokenCount}).
 */
export function memoRows(
  header: usize, chunkIds: usize, lineChunks: usize, nLines: i32, firstT: i32, nt: i32, outs: usize, rowOffsets: usize,
): void {
  const entries = usize(load<u32>(header, H_ENTRIES)) + (usize(firstT) << 3);
  const stride = usize(load<u32>(header, H_STRIDE));
  const tokens = usize(load<u32>(header, H_TOKENS));
  const offsetsStride = usize(nLines + 1) << 2;
  // One cursor per tokenizer in a local: the tests on `nt` are the same for every chunk, hence predicted.
  const start0 = usize(load<u32>(outs));
  const start1 = nt > 1 ? usize(load<u32>(outs, 4)) : 0;
  const start2 = nt > 2 ? usize(load<u32>(outs, 8)) : 0;
  const start3 = nt > 3 ? usize(load<u32>(outs, 12)) : 0;
  let at0 = start0;
  let at1 = start1;
  let at2 = start2;
  let at3 = start3;
  const offsets0 = rowOffsets;
  const offsets1 = rowOffsets + offsetsStride;
  const offsets2 = rowOffsets + 2 * offsetsStride;
  const offsets3 = rowOffsets + 3 * offsetsStride;
  for (let t = 0; t < nt; t++) store<i32>(rowOffsets + usize(t) * offsetsStride, 0);
  let c = chunkIds;
  for (let i = 0; i < nLines; i++) {
    const end = chunkIds + (usize(load<u32>(lineChunks + (usize(i) << 2), 4)) << 2);
    for (; c < end; c += 4) {
      const entry = entries + usize(load<u32>(c)) * stride;
      at0 = emitTokens(entry, at0, tokens);
      if (nt > 1) at1 = emitTokens(entry + 8, at1, tokens);
      if (nt > 2) at2 = emitTokens(entry + 16, at2, tokens);
      if (nt > 3) at3 = emitTokens(entry + 24, at3, tokens);
    }
    const o = usize(i + 1) << 2;
    store<i32>(offsets0 + o, i32((at0 - start0) >> 2));
    if (nt > 1) store<i32>(offsets1 + o, i32((at1 - start1) >> 2));
    if (nt > 2) store<i32>(offsets2 + o, i32((at2 - start2) >> 2));
    if (nt > 3) store<i32>(offsets3 + o, i32((at3 - start3) >> 2));
  }
}

/** The hash the table gives bytes `[start, end)` (for tests that need chunks whose hashes collide). */
export function memoHash(start: usize, end: usize): u32 {
  return chunkHash(start, end);
}
