/**
 * The line and field scan of a Moses n-best list (`id ||| hypothesis ||| features ||| score`), over the UTF-8 bytes
 * of whole lines: for each line its byte and UTF-16 bounds and the positions of its first `|||` separators, so that
 * the caller slices fields without searching the text. Lines end at `\n` only; one `\r` before it is not part of
 * the line. Separators are found as a left-to-right search for `|||` that goes on after each match (so `||||` holds
 * one separator, followed by `|`).
 *
 * The bytes must be valid UTF-8 (the caller decoded them strictly first): UTF-16 positions count every byte that is
 * not a continuation byte once, and a four-byte sequence's lead byte twice (a surrogate pair).
 */

/** Record of a line: 16 i32 (see {@link nbestLines}). */
const RECORD: usize = 64;
/** Separators whose positions a record holds; the count goes on to MAX_DELIMS + 1 ("more"). */
const MAX_DELIMS: i32 = 5;

const LF: u8 = 0x0a;
const CR: u8 = 0x0d;
const BAR: u8 = 0x7c;

/**
 * Scans `length` bytes at `input` into line records at `records` (at most `maxLines`), each 16 i32: byte start, byte
 * end (the `\r` before `\n` excluded), UTF-16 start, UTF-16 end, separator count (capped at 6), 0, the byte
 * positions of the first five separators, their UTF-16 positions. A final line without `\n` is a line; the `\n` that
 * ends the input does not start another. Returns the number of lines, or -1 when there are more than `maxLines`.
 */
export function nbestLines(input: usize, length: i32, records: usize, maxLines: i32): i32 {
  const end = input + usize(length);
  const newline = i8x16.splat(LF);
  const bar = i8x16.splat(BAR);
  let p = input;
  let u16: i32 = 0;
  let lines: i32 = 0;
  let record = records;
  let lineStart = p;
  let lineU16: i32 = 0;
  let delims: i32 = 0;
  while (true) {
    // 16 bytes at a time while none is a newline, a bar or a non-ASCII byte.
    while (p + 16 <= end) {
      const v = v128.load(p);
      const hits = i8x16.bitmask(i8x16.eq(v, newline)) | i8x16.bitmask(i8x16.eq(v, bar)) | i8x16.bitmask(v);
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
    const c: u8 = atEnd ? LF : load<u8>(p);
    if (c == LF) {
      if (atEnd && p == lineStart) break;
      if (lines == maxLines) return -1;
      let lineEnd = p;
      let lineEndU16 = u16;
      if (lineEnd > lineStart && load<u8>(lineEnd - 1) == CR) {
        lineEnd--;
        lineEndU16--;
      }
      store<i32>(record, i32(lineStart - input));
      store<i32>(record, i32(lineEnd - input), 4);
      store<i32>(record, lineU16, 8);
      store<i32>(record, lineEndU16, 12);
      store<i32>(record, delims, 16);
      store<i32>(record, 0, 20);
      lines++;
      record += RECORD;
      if (atEnd) break;
      p++;
      u16++;
      lineStart = p;
      lineU16 = u16;
      delims = 0;
    } else if (c == BAR) {
      if (p + 2 < end && load<u8>(p, 1) == BAR && load<u8>(p, 2) == BAR) {
        if (delims < MAX_DELIMS) {
          store<i32>(record + (usize(6 + delims) << 2), i32(p - input));
          store<i32>(record + (usize(11 + delims) << 2), u16);
        }
        if (delims <= MAX_DELIMS) delims++;
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
      // A lead byte starts one UTF-16 unit, two for a four-byte sequence; continuation bytes add none.
      if ((c & 0xc0) != 0x80) u16 += c >= 0xf0 ? 2 : 1;
      p++;
    }
  }
  return lines;
}
