/**
 * The chunk memo of the n-best fast path, in linear memory: lines of UTF-8 bytes (WTF-8 where a JavaScript string
 * held a lone surrogate) are cut at runs of U+0020 into chunks, each chunk is looked up in a table of the chunks seen
 * so far (kept across calls: the memo of a thread), and a line's token row for a tokenizer is the concatenation of
 * its chunks' memoised token ids. Chunks not seen before are added to the table with the next id; the caller
 * tokenizes them (the tokenizers are TypeScript) and writes their token codes before it asks for rows.
 *
 * The caller lays everything out and passes a header (u32 fields, see `H_*`): the open-addressing table (2^k slots
 * in groups of 4, one 64-byte line each: the 4 slots' 64-bit keys, then their ids; linear probing group by group
 * from the group the key's hash names, `H_MASK` the number of groups - 1, at most `H_LOAD` entries), the key records
 * (12 bytes each: hash, byte offset of the key in the arena, key length), the token codes (one i32 per chunk and
 * tokenizer, 16 bytes a chunk for each block of 4 tokenizers: see {@link memoRows1}; their addresses are passed), the
 * key arena and the token store. Inputs are read in 64-byte blocks and the arena in 8-byte words, so an input must
 * be followed by 64 readable bytes and the arena by 8.
 *
 * A slot's key is the chunk itself when it fits in a word (see {@link inlineKey}), so that most look-ups (words
 * are short) compare a group's keys with the chunk and are done, without a second load or a byte compare; a longer
 * chunk's key is its hash and length, and a match is confirmed against its bytes in the arena.
 *
 * A chunk's bytes never contain 0x20, and UTF-8 never encodes anything but U+0020 with that byte, so cutting the
 * bytes at 0x20 cuts the code units at U+0020.
 */

/** Header fields (byte offsets of u32 values). */
const H_TABLE: usize = 0;
const H_MASK: usize = 4;
const H_LOAD: usize = 8;
const H_RECORDS: usize = 12;
// Bytes 16-19 unused.
const H_COUNT: usize = 20;
const H_MAX_CHUNKS: usize = 24;
const H_ARENA: usize = 28;
const H_ARENA_USED: usize = 32;
const H_ARENA_CAP: usize = 36;
const H_TOKENS: usize = 40;
// Bytes 44-47 unused.
const H_SHIFT: usize = 48;
const H_NEED: usize = 52;
const H_RESUME: usize = 56;
const H_OUT: usize = 60;

/** Record fields (byte offsets). */
const R_HASH: usize = 0;
const R_KEY: usize = 4;
const R_LENGTH: usize = 8;
const RECORD_BYTES: usize = 12;

/** Byte offsets in a group of 4 slots (one 64-byte line): their 4 keys (u64; 0 marks an empty slot), their 4 ids. */
const G_IDS: usize = 32;
const GROUP_SHIFT: usize = 6;

/** Largest key length a long chunk's key keeps (bits 0-23). */
const LONG_LENGTH_CAP: usize = 0xFFFFFF;

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

/** Hash of bytes `[start, end)`, mixed 8 bytes at a time: a long chunk's key holds it. */
// @ts-ignore: decorator
@inline
function chunkHash(start: usize, end: usize): u32 {
  const n = end - start;
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
 * Whether a chunk of `n` bytes whose first word is `w` is its own key: up to 7 bytes, or 8 whose last byte is 8 or
 * more (see {@link inlineKey}).
 */
// @ts-ignore: decorator
@inline
function isInline(w: u64, n: usize): bool {
  return n < 8 || (n == 8 && w >= (u64(8) << 56));
}

/**
 * The key of an inline chunk of `n` bytes (first word `w`): its bytes zero-padded, with `n` in the top byte when
 * `n` < 8; a chunk of 8 bytes is its word, whose top byte (the chunk's last) is then 8 or more. So two inline chunks
 * have equal keys exactly when they are equal, the top byte of an inline key is never 0, and a long chunk's key
 * ({@link longKey}), whose top byte is 0, never equals one.
 */
// @ts-ignore: decorator
@inline
function inlineKey(w: u64, n: usize): u64 {
  const drop = u64(64) - (u64(n) << 3);
  return ((w << drop) >> drop) | (u64(n & 7) << 56);
}

/** The key of a chunk that is not inline: its hash and its length (capped), top byte 0, never 0 (n > 7). */
// @ts-ignore: decorator
@inline
function longKey(hash: u32, n: usize): u64 {
  return (u64(hash) << 24) | u64(min<usize>(n, LONG_LENGTH_CAP));
}

/** The group a key's probe starts from (its multiplicative hash's high bits). */
// @ts-ignore: decorator
@inline
function homeGroup(key: u64, shift: u32): u32 {
  return u32((key * 0x9E3779B97F4A7C15) >> 32) >>> shift;
}

/** Bit `k` set where slot `k` of the group at `group` holds `keys` (a key in both lanes). */
// @ts-ignore: decorator
@inline
function groupMatches(group: usize, keys: v128): i32 {
  return i64x2.bitmask(i64x2.eq(v128.load(group), keys)) | (i64x2.bitmask(i64x2.eq(v128.load(group, 16), keys)) << 2);
}

/** Bit `k` set where slot `k` of the group at `group` is empty. */
// @ts-ignore: decorator
@inline
function groupEmpty(group: usize): i32 {
  return groupMatches(group, i64x2.splat(0));
}

/**
 * The id of the chunk `[start, start + n)` (first word `w`) in the table, added with the next id when it is not
 * there; 0xFFFFFFFF (nothing added) when it is new and the table, the records or the arena is full. Probes group
 * after group from the key's home group: for an inline chunk a key that matches is the chunk, a long chunk's match is
 * confirmed against its bytes; a group with an empty slot ends the search (slots are never emptied, so a chunk lies
 * in the first group with room from its home). The scan's loop looks an inline chunk up in its home group itself and
 * comes here for the rest: long chunks, chunks past their home group and new ones.
 */
// @ts-ignore: decorator
@inline
function lookUp(header: usize, start: usize, n: usize, w: u64): u32 {
  const table = usize(load<u32>(header, H_TABLE));
  const mask = load<u32>(header, H_MASK);
  const records = usize(load<u32>(header, H_RECORDS));
  const arena = usize(load<u32>(header, H_ARENA));
  const inline = isInline(w, n);
  const key = inline ? inlineKey(w, n) : longKey(chunkHash(start, start + n), n);
  const keys = i64x2.splat(key);
  let g = homeGroup(key, load<u32>(header, H_SHIFT));
  while (true) {
    const group = table + (usize(g) << GROUP_SHIFT);
    let hits = groupMatches(group, keys);
    while (hits != 0) {
      const k = usize(ctz(hits));
      hits &= hits - 1;
      const candidate = load<u32>(group + G_IDS + (k << 2));
      if (inline) return candidate;
      const record = records + usize(candidate) * RECORD_BYTES;
      if (usize(load<u32>(record, R_LENGTH)) == n && sameBytes(start, arena + usize(load<u32>(record, R_KEY)), n)) {
        return candidate;
      }
    }
    const empty = groupEmpty(group);
    if (empty != 0) return addChunk(header, group, usize(ctz(empty)), key, start, n);
    g = (g + 1) & mask;
  }
}

/**
 * Adds the chunk `[start, start + n)` (key `key`) with the next id in empty slot `k` of the group at `group`; returns
 * its id, or 0xFFFFFFFF (nothing added) when the table, the records or the arena is full.
 */
// @ts-ignore: decorator
@inline
function addChunk(header: usize, group: usize, k: usize, key: u64, start: usize, n: usize): u32 {
  const count = load<u32>(header, H_COUNT);
  const arenaUsed = load<u32>(header, H_ARENA_USED);
  const full = count >= min(load<u32>(header, H_LOAD), load<u32>(header, H_MAX_CHUNKS));
  if (full || arenaUsed + u32(n) > load<u32>(header, H_ARENA_CAP)) return 0xFFFFFFFF;
  const record = usize(load<u32>(header, H_RECORDS)) + usize(count) * RECORD_BYTES;
  store<u32>(record, chunkHash(start, start + n), R_HASH);
  store<u32>(record, arenaUsed, R_KEY);
  store<u32>(record, u32(n), R_LENGTH);
  // Word by word rather than memory.copy, which is a call: values the scan keeps live across a call are reloaded
  // from the stack on every chunk. The last word may write up to 7 bytes past the key, inside the arena's padding,
  // and the next key overwrites them.
  const to = usize(load<u32>(header, H_ARENA)) + usize(arenaUsed);
  for (let k: usize = 0; k < n; k += 8) store<u64>(to + k, load<u64>(start + k));
  store<u32>(header, arenaUsed + u32(n), H_ARENA_USED);
  store<u32>(header, count + 1, H_COUNT);
  store<u64>(group + (k << 3), key);
  store<u32>(group + G_IDS + (k << 2), count);
  return count;
}

/**
 * Cuts lines `fromLine .. nLines` (line `i` is bytes `input + lineStarts[i] .. input + lineEnds[i]`; lines laid end
 * to end pass one offsets array twice, `lineEnds = lineStarts + 4`, and fields of a larger text their own bounds) into
 * chunks and writes each chunk's id to `chunkIds`, line by line: the ids of line `i` are
 * `chunkIds[lineChunks[i] .. lineChunks[i + 1]]` (`lineChunks[fromLine]` must be set). New chunks get the ids from
 * `H_COUNT` on, their keys copied to the arena, their token codes left for the caller.
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
  const shift = load<u32>(header, H_SHIFT);
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
    // (empty ones skipped), and in the block where the line ends a bit past its last byte ends its last chunk (a line
    // that ends with a block has it at bit 0 of the next, an empty chunk). Blocks of 64 rather than 16 bytes: the
    // branch that leaves a block's spaces, taken at an unpredictable count of them, is taken a quarter as often.
    while (true) {
      let bits = u64(i8x16.bitmask(i8x16.eq(v128.load(base), spaces)))
        | (u64(i8x16.bitmask(i8x16.eq(v128.load(base, 16), spaces))) << 16)
        | (u64(i8x16.bitmask(i8x16.eq(v128.load(base, 32), spaces))) << 32)
        | (u64(i8x16.bitmask(i8x16.eq(v128.load(base, 48), spaces))) << 48);
      const rest = lineEnd - base;
      if (rest < 64) bits = (bits & ((u64(1) << u64(rest)) - 1)) | (u64(1) << u64(rest));
      while (bits != 0) {
        const end = base + usize(ctz(bits));
        bits &= bits - 1;
        if (end > start) {
          const n = end - start;
          const w = load<u64>(start);
          // The usual case in the loop: an inline chunk found in its home group (equal keys are equal chunks).
          let hits = 0;
          let group: usize = 0;
          if (isInline(w, n)) {
            const key = inlineKey(w, n);
            group = table + (usize(homeGroup(key, shift)) << GROUP_SHIFT);
            hits = groupMatches(group, i64x2.splat(key));
          }
          let id: u32;
          if (hits != 0) {
            id = load<u32>(group + G_IDS + (usize(ctz(hits)) << 2));
          } else {
            id = lookUp(header, start, n, w);
            if (id == 0xFFFFFFFF) {
              store<u32>(header, u32(n), H_NEED);
              store<u32>(header, u32(start - input), H_RESUME);
              store<u32>(header, u32((out - chunkIds) >> 2), H_OUT);
              return line;
            }
          }
          store<u32>(out, id);
          out += 4;
        }
        start = end + 1;
      }
      if (rest < 64) break;
      base += 64;
    }
    store<u32>(lineChunks + (usize(line) << 2), u32((out - chunkIds) >> 2), 4);
  }
  store<u32>(header, u32((out - chunkIds) >> 2), H_OUT);
  store<u32>(header, 0xFFFFFFFF, H_RESUME);
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
    const n = usize(load<u32>(record, R_LENGTH));
    const w = load<u64>(arena + usize(load<u32>(record, R_KEY)));
    const key = isInline(w, n) ? inlineKey(w, n) : longKey(load<u32>(record, R_HASH), n);
    let g = homeGroup(key, shift);
    while (true) {
      const group = table + (usize(g) << GROUP_SHIFT);
      const empty = groupEmpty(group);
      if (empty != 0) {
        const k = usize(ctz(empty));
        store<u64>(group + (k << 3), key);
        store<u32>(group + G_IDS + (k << 2), id);
        break;
      }
      g = (g + 1) & mask;
    }
  }
}

/** Bytes of a chunk's token codes: one i32 for each of a block of 4 tokenizers. */
const CODES_SHIFT: usize = 4;

/**
 * Number of tokens a chunk's code stands for (see {@link memoRows1}): 1 for a token (>= 0), 0 for none (-1), else
 * the count stored before its tokens.
 */
// @ts-ignore: decorator
@inline
function codeCount(code: i32, tokens: usize): i32 {
  return code >= -1 ? (code >> 31) + 1 : load<i32>(tokens + (usize(-code - 2) << 2));
}

/** Number of tokens the tokenizer whose codes are at `codes` gives the chunks `chunkIds[0 .. nChunks]`. */
export function memoTokenCount(header: usize, chunkIds: usize, nChunks: i32, codes: usize): i32 {
  const tokens = usize(load<u32>(header, H_TOKENS));
  const end = chunkIds + (usize(nChunks) << 2);
  let total: i32 = 0;
  for (let c = chunkIds; c < end; c += 4) {
    total += codeCount(load<i32>(codes + (usize(load<u32>(c)) << CODES_SHIFT)), tokens);
  }
  return total;
}

/**
 * Appends the tokens of a chunk's code `code` at `at`; returns the new end. The code is stored unconditionally and
 * kept only when it is a token: no branch for the usual zero or one token.
 */
// @ts-ignore: decorator
@inline
function emitCode(code: i32, at: usize, tokens: usize): usize {
  store<i32>(at, code);
  if (code >= -1) return at + (usize((code >> 31) + 1) << 2);
  // A loop rather than memory.copy: a call in the row loop would make every value it keeps live be reloaded from
  // the stack on each chunk.
  const from = tokens + (usize(-code - 2) << 2);
  const end = at + (usize(load<i32>(from)) << 2);
  for (let p = from + 4; at < end; p += 4) {
    store<i32>(at, load<i32>(p));
    at += 4;
  }
  return end;
}

/** {@link memoRows1} .. {@link memoRows4}: rows for `nt` (a constant once inlined) tokenizers. */
// @ts-ignore: decorator
@inline
function rowsOf(
  nt: i32, tokens: usize, chunkIds: usize, lineChunks: usize, nLines: i32, codes: usize, outs: usize, rowOffsets: usize,
): void {
  const offsetsStride = usize(nLines + 1) << 2;
  const start0 = usize(load<u32>(outs));
  const start1 = nt > 1 ? usize(load<u32>(outs, 4)) : 0;
  const start2 = nt > 2 ? usize(load<u32>(outs, 8)) : 0;
  const start3 = nt > 3 ? usize(load<u32>(outs, 12)) : 0;
  let at0 = start0;
  let at1 = start1;
  let at2 = start2;
  let at3 = start3;
  for (let t = 0; t < nt; t++) store<i32>(rowOffsets + usize(t) * offsetsStride, 0);
  let c = chunkIds;
  for (let i = 0; i < nLines; i++) {
    const end = chunkIds + (usize(load<u32>(lineChunks + (usize(i) << 2), 4)) << 2);
    for (; c < end; c += 4) {
      const entry = codes + (usize(load<u32>(c)) << CODES_SHIFT);
      if (nt > 1) {
        // The usual chunk gives each tokenizer one token (codes >= 0): the codes in one load (the lanes past the
        // call's tokenizers are not looked at), one test of their signs, each stored from its lane and every cursor
        // moved by one token; other chunks go code by code.
        const v = v128.load(entry);
        if ((i32x4.bitmask(v) & ((1 << nt) - 1)) == 0) {
          v128.store32_lane(at0, v, 0);
          v128.store32_lane(at1, v, 1);
          at0 += 4;
          at1 += 4;
          if (nt > 2) {
            v128.store32_lane(at2, v, 2);
            at2 += 4;
          }
          if (nt > 3) {
            v128.store32_lane(at3, v, 3);
            at3 += 4;
          }
          continue;
        }
      }
      at0 = emitCode(load<i32>(entry), at0, tokens);
      if (nt > 1) at1 = emitCode(load<i32>(entry, 4), at1, tokens);
      if (nt > 2) at2 = emitCode(load<i32>(entry, 8), at2, tokens);
      if (nt > 3) at3 = emitCode(load<i32>(entry, 12), at3, tokens);
    }
    const o = rowOffsets + (usize(i + 1) << 2);
    store<i32>(o, i32((at0 - start0) >> 2));
    if (nt > 1) store<i32>(o + offsetsStride, i32((at1 - start1) >> 2));
    if (nt > 2) store<i32>(o + 2 * offsetsStride, i32((at2 - start2) >> 2));
    if (nt > 3) store<i32>(o + 3 * offsetsStride, i32((at3 - start3) >> 2));
  }
}

/**
 * Token rows of the `nLines` lines scanned by {@link memoScan}, for 1 to 4 tokenizers of one block at once
 * (`memoRows1` .. `memoRows4`: a loop each, with a cursor per tokenizer in a local and no test of the count per
 * chunk; one function would have the optimizer fold the loops into one that tests it): the codes of the first are
 * at `codes` (the codes of the block of 4 tokenizers a chunk is in are 16 bytes at `block + 16 · id`, the others'
 * follow it), `outs` holds the u32 address where each one's tokens go (with room for one token more than it gives),
 * and the `nLines + 1` row offsets of the `k`-th go to `rowOffsets + 4 · k · (nLines + 1)`. The caller makes room
 * for every token (see {@link memoTokenCount}).
 *
 * A chunk's token code for a tokenizer is one i32: the chunk's one token (a code >= 0), none (-1), or several (a code
 * c <= -2: their count, then the tokens, from index -c - 2 of the token store). A chunk's codes for the tokenizers
 * of a call are read from one 16-byte unit, never across cache lines.
 */
export function memoRows1(
  header: usize, chunkIds: usize, lineChunks: usize, nLines: i32, codes: usize, outs: usize, rowOffsets: usize,
): void {
  rowsOf(1, usize(load<u32>(header, H_TOKENS)), chunkIds, lineChunks, nLines, codes, outs, rowOffsets);
}

/** {@link memoRows1} for 2 tokenizers. */
export function memoRows2(
  header: usize, chunkIds: usize, lineChunks: usize, nLines: i32, codes: usize, outs: usize, rowOffsets: usize,
): void {
  rowsOf(2, usize(load<u32>(header, H_TOKENS)), chunkIds, lineChunks, nLines, codes, outs, rowOffsets);
}

/** {@link memoRows1} for 3 tokenizers. */
export function memoRows3(
  header: usize, chunkIds: usize, lineChunks: usize, nLines: i32, codes: usize, outs: usize, rowOffsets: usize,
): void {
  rowsOf(3, usize(load<u32>(header, H_TOKENS)), chunkIds, lineChunks, nLines, codes, outs, rowOffsets);
}

/** {@link memoRows1} for 4 tokenizers. */
export function memoRows4(
  header: usize, chunkIds: usize, lineChunks: usize, nLines: i32, codes: usize, outs: usize, rowOffsets: usize,
): void {
  rowsOf(4, usize(load<u32>(header, H_TOKENS)), chunkIds, lineChunks, nLines, codes, outs, rowOffsets);
}

/** The hash a long chunk's key holds, of bytes `[start, end)` (for tests that need long chunks of one key). */
export function memoHash(start: usize, end: usize): u32 {
  return chunkHash(start, end);
}
