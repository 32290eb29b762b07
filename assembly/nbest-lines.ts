/**
 * The candidates of a chunk of a Moses n-best list (`id ||| hypothesis ||| features ||| score`), parsed from the
 * UTF-8 bytes of whole lines in one pass: per candidate its id, its line and the bounds of its hypothesis and
 * features fields, in bytes and in UTF-16 units of the decoded text, as columns, so that the caller reads typed
 * arrays instead of slicing or searching text. The pass also checks that the bytes are valid UTF-8 (the caller then
 * need not decode them), and the distinct hypotheses of each segment are found over the same memory.
 *
 * Lines end at `\n` only; one `\r` before it is not part of the line. Separators are found as a left-to-right
 * search for `|||` that goes on after each match (so `||||` holds one separator, followed by `|`). Only plainly
 * well-formed lines are taken: a decimal id (spaces or tabs around it, at most ten digits, below 2^31), ids
 * non-decreasing and below the number of segments, two to five separators, a score field (when there is one) that
 * is a plain decimal. Anything else stops the pass: the caller parses the chunk as text, which accepts the rarer
 * forms or reports the line.
 */

/** Columns of i32 the candidates fill (see {@link nbestCandidates}). */
const COLUMNS: i32 = 10;
/** A line with more separators than this is left to the text parser. */
const MAX_DELIMS: i32 = 5;
const MAX_ID: u64 = 0x7fffffff;

/** Results other than a count. */
const MORE_THAN_CAPACITY: i32 = -1;
const NOT_PLAIN: i32 = -2;
const INVALID_UTF8: i32 = -3;

const LF: u8 = 0x0a;
const CR: u8 = 0x0d;
const BAR: u8 = 0x7c;

// @ts-ignore: decorator
@inline
function isBlank(c: u32): bool {
  return c == 0x20 || c == 0x09;
}

// @ts-ignore: decorator
@inline
function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

/** The id of `[from, to)`: spaces or tabs around at most ten decimal digits, below 2^31; -1 otherwise. */
function idOf(from: usize, to: usize): i32 {
  while (from < to && isBlank(load<u8>(from))) from++;
  while (to > from && isBlank(load<u8>(to - 1))) to--;
  if (to == from || to - from > 10) return -1;
  let v: u64 = 0;
  for (let p = from; p < to; p++) {
    const c = u32(load<u8>(p));
    if (!isDigit(c)) return -1;
    v = v * 10 + u64(c - 0x30);
  }
  return v <= MAX_ID ? i32(v) : -1;
}

/**
 * Whether `[from, to)`, spaces and tabs around it dropped, is `[+-]digits[.digits][(e|E)[+-]digits]` with a digit
 * before or after the point: a decimal that `Number` reads as the number it spells.
 */
function isPlainNumber(from: usize, to: usize): bool {
  while (from < to && isBlank(load<u8>(from))) from++;
  while (to > from && isBlank(load<u8>(to - 1))) to--;
  let p = from;
  if (p < to && (load<u8>(p) == 0x2b || load<u8>(p) == 0x2d)) p++;
  let digits = 0;
  while (p < to && isDigit(load<u8>(p))) {
    p++;
    digits++;
  }
  if (p < to && load<u8>(p) == 0x2e) {
    p++;
    while (p < to && isDigit(load<u8>(p))) {
      p++;
      digits++;
    }
  }
  if (digits == 0) return false;
  if (p < to && (load<u8>(p) | 0x20) == 0x65) {
    p++;
    if (p < to && (load<u8>(p) == 0x2b || load<u8>(p) == 0x2d)) p++;
    let exponent = 0;
    while (p < to && isDigit(load<u8>(p))) {
      p++;
      exponent++;
    }
    if (exponent == 0) return false;
  }
  return p == to;
}

// @ts-ignore: decorator
@inline
function isContinuation(c: u32): bool {
  return (c & 0xc0) == 0x80;
}

/**
 * Bytes of the UTF-8 sequence whose lead byte `c` (not ASCII) is at `p`, or 0 when the sequence is not valid
 * UTF-8 as a strict decoder (WHATWG's) reads it: no stray continuation byte, no overlong form, no surrogate, nothing
 * above U+10FFFF, no sequence cut by the end of the input.
 */
function utf8Length(p: usize, end: usize, c: u32): i32 {
  if (c < 0xc2) return 0;
  if (c < 0xe0) return p + 1 < end && isContinuation(load<u8>(p, 1)) ? 2 : 0;
  if (c < 0xf0) {
    if (p + 2 >= end) return 0;
    const b1 = u32(load<u8>(p, 1));
    const low: u32 = c == 0xe0 ? 0xa0 : 0x80;
    const high: u32 = c == 0xed ? 0x9f : 0xbf;
    return b1 >= low && b1 <= high && isContinuation(load<u8>(p, 2)) ? 3 : 0;
  }
  if (c < 0xf5) {
    if (p + 3 >= end) return 0;
    const b1 = u32(load<u8>(p, 1));
    const low: u32 = c == 0xf0 ? 0x90 : 0x80;
    const high: u32 = c == 0xf4 ? 0x8f : 0xbf;
    return b1 >= low && b1 <= high && isContinuation(load<u8>(p, 2)) && isContinuation(load<u8>(p, 3)) ? 4 : 0;
  }
  return 0;
}

/**
 * Parses the `length` bytes at `input` (whole lines) into candidate columns at `out`, each of `capacity` i32 while
 * they are filled, then moved together (column `k` of `n` candidates at `out + 4·k·n`, one block for the caller):
 * 0 id, 1 line (`firstLine` for the input's first, counting every line), 2 and 3 the hypothesis field's byte bounds, 4 and 5 its
 * UTF-16 bounds, 6 and 7 the features field's byte bounds (up to the third separator, else the line's end), 8 and 9
 * its UTF-16 bounds. Empty lines hold no candidate. `segments` (when not negative) bounds the ids. Returns the number
 * of candidates, or -1 when there are more than `capacity`, -2 when a line is not plainly well-formed (see the file
 * comment), -3 when the bytes are not valid UTF-8; the pass stops at the first such line or byte.
 */
export function nbestCandidates(input: usize, length: i32, firstLine: i32, segments: i32, out: usize, capacity: i32): i32 {
  const end = input + usize(length);
  const columnBytes = usize(capacity) << 2;
  const newline = i8x16.splat(LF);
  const bar = i8x16.splat(BAR);
  let p = input;
  let u16: i32 = 0;
  let line = firstLine;
  let n: i32 = 0;
  let previousId: i32 = 0;
  let lineStart = p;
  let lineU16: i32 = 0;
  let delims: i32 = 0;
  // Byte and UTF-16 positions of the first four separators.
  let d0: usize = 0, d1: usize = 0, d2: usize = 0, d3: usize = 0;
  let e0: i32 = 0, e1: i32 = 0, e2: i32 = 0;
  while (true) {
    // 16 bytes at a time while none is a newline, a bar or a non-ASCII byte.
    while (p + 16 <= end) {
      const v = v128.load(p);
      // One mask for the three kinds: a match is 0xff, a non-ASCII byte has its high bit set.
      const hits = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, newline), i8x16.eq(v, bar)), v));
      if (hits == 0) {
        p += 16;
        u16 += 16;
        continue;
      }
      const skip = ctz(hits);
      p += usize(skip);
      u16 += skip;
      break;
    }
    const atEnd = p >= end;
    const c = atEnd ? u32(LF) : u32(load<u8>(p));
    if (c == LF) {
      if (atEnd && p == lineStart) break;
      let lineEnd = p;
      let lineEndU16 = u16;
      if (lineEnd > lineStart && load<u8>(lineEnd - 1) == CR) {
        lineEnd--;
        lineEndU16--;
      }
      if (lineEnd > lineStart) {
        if (delims < 2) return NOT_PLAIN;
        const id = idOf(lineStart, d0);
        if (id < previousId || (segments >= 0 && id >= segments)) return NOT_PLAIN;
        if (delims >= 3 && !isPlainNumber(d2 + 3, delims >= 4 ? d3 : lineEnd)) return NOT_PLAIN;
        if (n == capacity) return MORE_THAN_CAPACITY;
        previousId = id;
        const at = out + (usize(n) << 2);
        store<i32>(at, id);
        store<i32>(at + columnBytes, line);
        store<i32>(at + 2 * columnBytes, i32(d0 + 3 - input));
        store<i32>(at + 3 * columnBytes, i32(d1 - input));
        store<i32>(at + 4 * columnBytes, e0 + 3);
        store<i32>(at + 5 * columnBytes, e1);
        store<i32>(at + 6 * columnBytes, i32(d1 + 3 - input));
        store<i32>(at + 7 * columnBytes, i32((delims >= 3 ? d2 : lineEnd) - input));
        store<i32>(at + 8 * columnBytes, e1 + 3);
        store<i32>(at + 9 * columnBytes, delims >= 3 ? e2 : lineEndU16);
        n++;
      }
      line++;
      if (atEnd) break;
      p++;
      u16++;
      lineStart = p;
      lineU16 = u16;
      delims = 0;
    } else if (c == BAR) {
      if (p + 2 < end && load<u8>(p, 1) == BAR && load<u8>(p, 2) == BAR) {
        if (delims == MAX_DELIMS) return NOT_PLAIN;
        if (delims == 0) {
          d0 = p;
          e0 = u16;
        } else if (delims == 1) {
          d1 = p;
          e1 = u16;
        } else if (delims == 2) {
          d2 = p;
          e2 = u16;
        } else if (delims == 3) {
          d3 = p;
        }
        delims++;
        p += 3;
        u16 += 3;
      } else {
        p++;
        u16++;
      }
    } else if (c < 0x80) {
      p++;
      u16++;
    } else {
      // A sequence is one UTF-16 unit, two for a four-byte one (a surrogate pair).
      const bytes = utf8Length(p, end, c);
      if (bytes == 0) return INVALID_UTF8;
      p += usize(bytes);
      u16 += bytes == 4 ? 2 : 1;
    }
  }
  for (let k: usize = 1; k < usize(COLUMNS); k++) memory.copy(out + k * (usize(n) << 2), out + k * columnBytes, usize(n) << 2);
  return n;
}

/**
 * Number of `\n` bytes among the `length` bytes at `input`, 16 at a time: each block's matches (-1 per lane) are
 * subtracted from byte lanes, which are widened and summed every 255 blocks, before they could overflow.
 */
export function countLineFeeds(input: usize, length: i32): i32 {
  const end = input + usize(length);
  const newline = i8x16.splat(LF);
  let p = input;
  let total: i32 = 0;
  while (p + 16 <= end) {
    let blocks = (end - p) >> 4;
    if (blocks > 255) blocks = 255;
    const stop = p + (blocks << 4);
    let lanes = i8x16.splat(0);
    for (; p < stop; p += 16) lanes = i8x16.sub(lanes, i8x16.eq(v128.load(p), newline));
    const pairs = i16x8.extadd_pairwise_i8x16_u(lanes);
    const quads = i32x4.extadd_pairwise_i16x8_u(pairs);
    total += i32x4.extract_lane(quads, 0) + i32x4.extract_lane(quads, 1) + i32x4.extract_lane(quads, 2) + i32x4.extract_lane(quads, 3);
  }
  for (; p < end; p++) if (load<u8>(p) == LF) total++;
  return total;
}

/** Whether the `length` bytes at `a` and at `b` are equal. */
function sameBytes(a: usize, b: usize, length: usize): bool {
  let k: usize = 0;
  for (; k + 8 <= length; k += 8) if (load<u64>(a + k) != load<u64>(b + k)) return false;
  for (; k < length; k++) if (load<u8>(a + k) != load<u8>(b + k)) return false;
  return true;
}

/**
 * A hash of the `length` bytes at `p` from at most eight of its 8-byte words, spread over it (every byte of a text of
 * up to 64 bytes), and its length: O(1) per text. Texts of one segment differ in a word or two; those that share the
 * sampled words are told apart by the comparison, which stops at their first differing word. The words' offsets
 * need no division per word: 8 apart up to 64 bytes, past that a seventh of the span apart (one division), the last
 * word ending with the text either way.
 */
function bytesHash(p: usize, length: usize): u32 {
  let h: u64 = u64(length) * 0x9e3779b97f4a7c15;
  if (length >= 8) {
    const last = length - 8;
    const step: usize = length <= 64 ? 8 : u32(last) / 7;
    const words: usize = length <= 64 ? (length + 7) >> 3 : 8;
    let at: usize = 0;
    for (let k: usize = 1; k < words; k++) {
      h = (h ^ load<u64>(p + at)) * 0xff51afd7ed558ccd;
      at += step;
    }
    h = (h ^ load<u64>(p + last)) * 0xff51afd7ed558ccd;
  } else {
    let tail: u64 = 0;
    for (let k: usize = 0; k < length; k++) tail |= u64(load<u8>(p + k)) << (k << 3);
    h = (h ^ tail) * 0xff51afd7ed558ccd;
  }
  h ^= h >> 29;
  h *= 0xc4ceb9fe1a85ec53;
  return u32(h ^ (h >> 32));
}

/**
 * The distinct hypotheses of each segment among the `n` candidates of {@link nbestCandidates}' columns at `columns`
 * (the input at `input`): `source[h]` at `sourceOut` is the index, in file order, of the first
 * candidate of `h`'s segment with the same bytes, counted over the distinct ones of the whole chunk. `table` is
 * scratch of `tableSize` i32 (a power of two, at least four times the largest segment). Returns the number of distinct
 * candidates.
 */
export function nbestDistinct(
  input: usize,
  columns: usize,
  n: i32,
  sourceOut: usize,
  firstsOut: usize,
  table: usize,
  tableSize: i32,
): i32 {
  const columnBytes = usize(n) << 2;
  const ids = columns;
  const starts = columns + 2 * columnBytes;
  const ends = columns + 3 * columnBytes;
  let distinct: i32 = 0;
  let from: i32 = 0;
  while (from < n) {
    const id = load<i32>(ids + (usize(from) << 2));
    let to = from + 1;
    while (to < n && load<i32>(ids + (usize(to) << 2)) == id) to++;
    // A table a quarter full: a text then mostly finds its first slot empty or its own, and the probe's loop seldom
    // turns (the turn is a branch taken at random).
    let size: i32 = 16;
    while (size < 4 * (to - from)) size <<= 1;
    if (size > tableSize) unreachable();
    memory.fill(table, 0xff, usize(size) << 2);
    const mask = size - 1;
    for (let h = from; h < to; h++) {
      const start = load<i32>(starts + (usize(h) << 2));
      const length = load<i32>(ends + (usize(h) << 2)) - start;
      const at = input + usize(start);
      let slot = i32(bytesHash(at, usize(length))) & mask;
      let earlier: i32 = -1;
      for (let e = load<i32>(table + (usize(slot) << 2)); e >= 0; e = load<i32>(table + (usize(slot) << 2))) {
        const first = load<i32>(firstsOut + (usize(e) << 2));
        const firstStart = load<i32>(starts + (usize(first) << 2));
        if (load<i32>(ends + (usize(first) << 2)) - firstStart == length && sameBytes(input + usize(firstStart), at, usize(length))) {
          earlier = e;
          break;
        }
        slot = (slot + 1) & mask;
      }
      if (earlier < 0) {
        store<i32>(table + (usize(slot) << 2), distinct);
        store<i32>(firstsOut + (usize(distinct) << 2), h);
        earlier = distinct++;
      }
      store<i32>(sourceOut + (usize(h) << 2), earlier);
    }
    from = to;
  }
  return distinct;
}
