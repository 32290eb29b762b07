/**
 * sacreBLEU's BLEU preprocessing with the 13a tokenizer, straight to interned token ids, over UTF-8 bytes (WTF-8
 * where a JavaScript string held a lone surrogate): per line Python's `rstrip()`, 13a's normalization (`<skipped>`,
 * `-\n`, `\n`, `&quot;`, `&amp;`, `&lt;`, `&gt;`, in that order and only when the line held `<`, `\n` or `&`), the
 * `tokenize_regexp` rules with padding (punctuation alone, a period or comma kept only between digits, a dash kept
 * only after a non-digit), and `str.split()`; each token is hashed and looked up in an open-addressing table of the
 * tokens seen so far. Every rule looks only at ASCII bytes and at whether a code point is Python whitespace, so the
 * token bounds fall on the same characters as in the UTF-16 text, and two tokens are equal exactly when their bytes
 * are.
 *
 * The caller lays out the table (slots of two u32, `id + 1` (0 = empty) and the token's hash, a power of two of them,
 * at least two, the hash's top bits choosing a token's first slot, at most half full once every new token is in), the token records (`hashes[id]` u32, `keyStarts[id .. id + 1]` u32 byte offsets of the token
 * in the arena) and the arena, with room for as many new tokens and bytes as the input has bytes. The plain
 * reference (test/reference/words-13a.ts) is sacreBLEU's rules on strings with a Map of ids.
 *
 * Two more passes over the same bytes: {@link wordsSplit} interns the words of Python's `str.split()` alone (sacreBLEU
 * TER's words with its default options, before lowercasing), and {@link codePoints} writes each line's code points
 * without Python whitespace (chrF's characters).
 */

const PLAIN: u32 = 0;
const ALONE: u32 = 1;
const SPACE: u32 = 2;
const PERIOD_COMMA: u32 = 3;
const DASH: u32 = 4;

/**
 * The tokenizer's class of each ASCII byte: the punctuation sacreBLEU always splits off, Python whitespace,
 * period and comma, dash, and the rest.
 */
const ASCII_CLASS = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 0, 0, // 0x00: \t \n \v \f \r
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, // 0x10: \x1c-\x1f
  2, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 3, 4, 3, 1, // 0x20: space ! " # $ % & ' ( ) * + , - . /
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, // 0x30: digits : ; < = > ?
  1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 0x40: @ A-O
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, // 0x50: P-Z [ \ ] ^ _
  1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 0x60: ` a-o
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, // 0x70: p-z { | } ~
]);

/**
 * Two 16-byte tables of the ASCII bytes that end a run of {@link PLAIN} bytes (every other class), by nibble: byte
 * `h·16 + l` (h < 8) is one exactly when bit h of `BREAK_BY_LOW[l]` and of `BREAK_BY_HIGH[h]` are both set (bit h is
 * all of `BREAK_BY_HIGH[h]`, and 0 for h ≥ 8: the bytes of wider characters are tested on their own).
 * Filled from {@link ASCII_CLASS} on first use.
 */
const BREAK_BY_LOW = memory.data(16, 16);
const BREAK_BY_HIGH = memory.data(16, 16);
let breakTablesFilled = false;

function fillBreakTables(): void {
  for (let c: u32 = 0; c < 128; c++) {
    if (load<u8>(ASCII_CLASS + c) == u8(PLAIN)) continue;
    const at = BREAK_BY_LOW + usize(c & 15);
    store<u8>(at, u32(load<u8>(at)) | (u32(1) << (c >> 4)));
  }
  for (let h: u32 = 0; h < 8; h++) store<u8>(BREAK_BY_HIGH + usize(h), u32(1) << h);
  breakTablesFilled = true;
}

/**
 * The bytes among the sixteen at `p` that may end a run of {@link PLAIN} bytes, as bits (bit k: byte k): an ASCII
 * byte of another class, or the first byte of a wider character that may be Python whitespace (the caller decodes
 * it). A token's run is then found with one count of trailing zeros instead of a branch per byte, whose exit at a
 * token's variable length the branch predictor cannot learn.
 */
// @ts-ignore: decorator
@inline
function breakBits(p: usize, byLow: v128, byHigh: v128): u32 {
  const v = v128.load(p);
  const low = v128.and(v, i8x16.splat(15));
  const high = i8x16.shr_u(v, 4);
  const hit = v128.and(i8x16.swizzle(byLow, low), i8x16.swizzle(byHigh, high));
  // Of the bytes ≥ 0x80 only the lead bytes of the wide Python whitespace (C2, E1 to E3; E0 too, which is cheaper
  // to test with them) can end a run: every other wider character is PLAIN, its bytes passed over as the run's.
  const lead = v128.or(i8x16.eq(v128.and(v, i8x16.splat(-4)), i8x16.splat(-32)), i8x16.eq(v, i8x16.splat(-62)));
  return u32(i8x16.bitmask(v128.or(i8x16.ne(hit, i8x16.splat(0)), lead)));
}

/** The tokenizer's class of an ASCII byte. */
// @ts-ignore: decorator
@inline
function asciiClass(c: u32): u32 {
  return u32(load<u8>(ASCII_CLASS + c));
}

/** Python's `str.isspace()` for a code point above ASCII (Unicode 14). */
// @ts-ignore: decorator
@inline
function isWideSpace(cp: u32): bool {
  return cp == 0x85 || cp == 0xa0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029 ||
    cp == 0x202f || cp == 0x205f || cp == 0x3000;
}

/** Bytes of the code point whose lead byte is `b` (≥ 0x80). */
// @ts-ignore: decorator
@inline
function seqLength(b: u32): usize {
  return b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
}

/** The code point of the sequence of `n` bytes at `p` whose lead byte is `b`. */
// @ts-ignore: decorator
@inline
function decodeAt(p: usize, b: u32, n: usize): u32 {
  if (n == 2) return ((b & 0x1f) << 6) | (u32(load<u8>(p + 1)) & 0x3f);
  if (n == 3) return ((b & 0x0f) << 12) | ((u32(load<u8>(p + 1)) & 0x3f) << 6) | (u32(load<u8>(p + 2)) & 0x3f);
  return ((b & 0x07) << 18) | ((u32(load<u8>(p + 1)) & 0x3f) << 12) | ((u32(load<u8>(p + 2)) & 0x3f) << 6) |
    (u32(load<u8>(p + 3)) & 0x3f);
}

/** Length of `[p, p + n)` without its trailing Python whitespace. */
function rstripLength(p: usize, n: usize): usize {
  while (n > 0) {
    const last = u32(load<u8>(p + n - 1));
    if (last < 0x80) {
      if ((last >= 9 && last <= 13) || (last >= 28 && last <= 32)) {
        n--;
        continue;
      }
      return n;
    }
    // The lead byte of the last code point: the continuation bytes (10xxxxxx) before it are skipped.
    let lead = n - 1;
    while (lead > 0 && (u32(load<u8>(p + lead)) & 0xc0) == 0x80) lead--;
    const b = u32(load<u8>(p + lead));
    if (!isWideSpace(decodeAt(p + lead, b, seqLength(b)))) return n;
    n = lead;
  }
  return 0;
}

/** Whether the `m` bytes at `a` equal those at `b`. */
// @ts-ignore: decorator
@inline
function sameBytes(a: usize, b: usize, m: usize): bool {
  for (let k: usize = 0; k < m; k++) if (load<u8>(a + k) != load<u8>(b + k)) return false;
  return true;
}

/**
 * JavaScript's `replaceAll(pattern, replacement)` from `[src, src + n)` to `dst` (left to right, matches not
 * overlapping); `replacement` is one byte, or none when negative. Returns the bytes written.
 */
function replaceAll(src: usize, n: usize, dst: usize, pattern: usize, m: usize, replacement: i32): usize {
  let out: usize = 0;
  let i: usize = 0;
  while (i < n) {
    if (i + m <= n && sameBytes(src + i, pattern, m)) {
      if (replacement >= 0) store<u8>(dst + out++, u8(replacement));
      i += m;
    } else {
      store<u8>(dst + out++, load<u8>(src + i));
      i++;
    }
  }
  return out;
}

// The patterns of the normalization, in static data.
const SKIPPED = memory.data<u8>([0x3c, 0x73, 0x6b, 0x69, 0x70, 0x70, 0x65, 0x64, 0x3e]); // <skipped>
const DASH_NL = memory.data<u8>([0x2d, 0x0a]); // -\n
const NL = memory.data<u8>([0x0a]); // \n
const QUOT = memory.data<u8>([0x26, 0x71, 0x75, 0x6f, 0x74, 0x3b]); // &quot;
const AMP = memory.data<u8>([0x26, 0x61, 0x6d, 0x70, 0x3b]); // &amp;
const LT = memory.data<u8>([0x26, 0x6c, 0x74, 0x3b]); // &lt;
const GT = memory.data<u8>([0x26, 0x67, 0x74, 0x3b]); // &gt;

/** Where the normalized line is: its address and length (set by {@link normalize}). */
let normAt: usize = 0;
let normLength: usize = 0;
/** The two scratch buffers the rewrites of {@link normalize} write to in turn. */
let scratchA: usize = 0;
let scratchB: usize = 0;

/** One rewrite of the normalization: the line at `normAt` into the scratch buffer it is not in, which it then is. */
function rewrite(pattern: usize, m: usize, replacement: i32): void {
  const dst = normAt == scratchA ? scratchB : scratchA;
  normLength = replaceAll(normAt, normLength, dst, pattern, m, replacement);
  normAt = dst;
}

/**
 * 13a's normalization of `[p, p + n)` (already right-stripped), through the two scratch buffers `a` and `b` of `n`
 * bytes each when it has something to replace; the result is at `normAt`, `normLength` bytes.
 */
function normalize(p: usize, n: usize, a: usize, b: usize): void {
  let hasLt = false;
  let hasNl = false;
  let hasAmp = false;
  if (n >= 16) {
    // Sixteen bytes at a time, each of the three tested in every byte and the results gathered without a branch; the
    // last sixteen bytes of the line end it (overlapping bytes tested twice).
    const lt = i8x16.splat(0x3c);
    const nl = i8x16.splat(0x0a);
    const amp = i8x16.splat(0x26);
    let anyLt = i8x16.splat(0);
    let anyNl = i8x16.splat(0);
    let anyAmp = i8x16.splat(0);
    for (let k: usize = 0; k < n; k += 16) {
      const v = v128.load(p + (k + 16 <= n ? k : n - 16));
      anyLt = v128.or(anyLt, i8x16.eq(v, lt));
      anyNl = v128.or(anyNl, i8x16.eq(v, nl));
      anyAmp = v128.or(anyAmp, i8x16.eq(v, amp));
    }
    hasLt = v128.any_true(anyLt);
    hasNl = v128.any_true(anyNl);
    hasAmp = v128.any_true(anyAmp);
  } else {
    for (let k: usize = 0; k < n; k++) {
      const c = load<u8>(p + k);
      if (c == 0x3c) hasLt = true;
      else if (c == 0x0a) hasNl = true;
      else if (c == 0x26) hasAmp = true;
    }
  }
  normAt = p;
  normLength = n;
  scratchA = a;
  scratchB = b;
  if (hasLt) rewrite(SKIPPED, 9, -1);
  if (hasNl) {
    rewrite(DASH_NL, 2, -1);
    rewrite(NL, 1, 0x20);
  }
  if (hasAmp) {
    rewrite(QUOT, 6, 0x22);
    rewrite(AMP, 5, 0x26);
    rewrite(LT, 4, 0x3c);
    rewrite(GT, 4, 0x3e);
  }
}

/**
 * The `r` bytes at `p` (1 ≤ r ≤ 8) as the low bytes of a u64, the others 0. It reads eight bytes: every token lies
 * in a region (a line, a scratch buffer, the arena) that other regions follow, so the bytes after it are memory of
 * the call, and they are masked off.
 */
// @ts-ignore: decorator
@inline
function headBytes(p: usize, r: usize): u64 {
  return load<u64>(p) & (u64(-1) >> (u64(8 - r) << 3));
}

/**
 * A hash of the bytes `[p, p + n)` (n ≥ 1), eight at a time: each step a multiply by an odd constant (one-to-one in
 * the bytes), a fold of the high half into the low between steps, the length in the seed; the hash is the high half
 * of the last product, whose top bits (those that choose a token's first slot) depend on every byte of the last step.
 * A token of up to eight bytes (most) costs one multiply.
 */
// @ts-ignore: decorator
@inline
function tokenHash(p: usize, n: usize): u32 {
  let h: u64 = 0x9e3779b97f4a7c15 ^ u64(n);
  let k: usize = 0;
  for (; k + 8 < n; k += 8) {
    h = (h ^ load<u64>(p + k)) * 0xff51afd7ed558ccd;
    h ^= h >> 29;
  }
  h = (h ^ headBytes(p + k, n - k)) * 0xff51afd7ed558ccd;
  return u32(h >> 32);
}

/** Whether the `n` bytes at `a` equal those at `b`, eight at a time (the last step masked as in {@link headBytes}). */
// @ts-ignore: decorator
@inline
function sameKey(a: usize, b: usize, n: usize): bool {
  let k: usize = 0;
  for (; k + 8 <= n; k += 8) if (load<u64>(a + k) != load<u64>(b + k)) return false;
  return k == n || headBytes(a + k, n - k) == headBytes(b + k, n - k);
}

// The vocabulary of the current call (set by words13a).
let vTable: usize = 0;
let vMask: u32 = 0;
/** 32 − log2(slots): a hash's top bits choose its first slot. */
let vShift: u32 = 0;
let vHashes: usize = 0;
let vKeyStarts: usize = 0;
let vArena: usize = 0;
let vCount: u32 = 0;
let vGrow = false;
let vUnknown: i32 = 0;
/** Ids the table takes (growing): a new token past it stops the call (see {@link words13a}). */
let vLimit: u32 = 0;
let vFull = false;
let outAt: usize = 0;

/**
 * The id of the token `[p, p + n)`: found, added (growing), or the unknown id (frozen). A slot holds the id and the
 * hash beside it, so that a probe reads one place before it compares bytes.
 */
// @ts-ignore: decorator
@inline
function idOf(p: usize, n: usize): i32 {
  const hash = tokenHash(p, n);
  let slot = hash >> vShift;
  while (true) {
    const at = vTable + (usize(slot) << 3);
    const entry = load<u32>(at);
    if (entry == 0) {
      if (!vGrow) return vUnknown;
      if (vCount >= vLimit) {
        vFull = true;
        return -1;
      }
      const id = vCount++;
      const keyAt = load<u32>(vKeyStarts + (usize(id) << 2));
      memory.copy(vArena + keyAt, p, n);
      store<u32>(vKeyStarts + (usize(id + 1) << 2), keyAt + u32(n));
      store<u32>(vHashes + (usize(id) << 2), hash);
      store<u32>(at, id + 1);
      store<u32>(at, hash, 4);
      return i32(id);
    }
    if (load<u32>(at, 4) == hash) {
      const id = entry - 1;
      const keyAt = load<u32>(vKeyStarts + (usize(id) << 2));
      const keyEnd = load<u32>(vKeyStarts + (usize(id + 1) << 2));
      if (usize(keyEnd - keyAt) == n && sameKey(vArena + keyAt, p, n)) return i32(id);
    }
    slot = (slot + 1) & vMask;
  }
}

// @ts-ignore: decorator
@inline
function emit(p: usize, start: usize, end: usize): void {
  store<i32>(outAt, idOf(p + start, end - start));
  outAt += 4;
}

// @ts-ignore: decorator
@inline
function isDigitByte(p: usize): bool {
  const c = load<u8>(p);
  return c >= 48 && c <= 57;
}

/**
 * The token ids of the normalized line `[p, p + n)` (13a: padded, so its ends count as neither digit nor text). It reads
 * up to sixteen bytes past the line, which lies in a region that other regions follow (see {@link headBytes}).
 */
function tokenizeLine(p: usize, n: usize): void {
  if (!breakTablesFilled) fillBreakTables();
  const byLow = v128.load(BREAK_BY_LOW);
  const byHigh = v128.load(BREAK_BY_HIGH);
  let start: isize = -1;
  let i: usize = 0;
  while (i < n) {
    const c = u32(load<u8>(p + i));
    let cls: u32;
    let width: usize = 1;
    if (c < 0x80) cls = asciiClass(c);
    else {
      width = seqLength(c);
      if (i + width > n) width = n - i;
      cls = width > 1 && isWideSpace(decodeAt(p + i, c, width)) ? SPACE : PLAIN;
    }
    if (cls == PLAIN || (cls == DASH && (i == 0 || !isDigitByte(p + i - 1)))) {
      if (start < 0) start = isize(i);
      i += width;
      // The ASCII bytes of the token that follow take no decision but to extend it: most of a line's bytes.
      while (i < n) {
        const bits = breakBits(p + i, byLow, byHigh);
        if (bits != 0) {
          i += usize(ctz(bits));
          break;
        }
        i += 16;
      }
      if (i > n) i = n;
    } else if (cls == PERIOD_COMMA) {
      let last = i;
      while (last + 1 < n && (load<u8>(p + last + 1) == 46 || load<u8>(p + last + 1) == 44)) last++;
      const afterDigit = i > 0 && isDigitByte(p + i - 1);
      const beforeDigit = last + 1 < n && isDigitByte(p + last + 1);
      const oddLength = ((last - i + 1) & 1) == 1;
      const splitByFirstRule = afterDigit ? !oddLength : oddLength;
      const lastGlued = !splitByFirstRule && beforeDigit;
      if (last > i || !lastGlued) {
        if (start >= 0) emit(p, usize(start), i);
        start = -1;
        for (let k = i; k < last; k++) emit(p, k, k + 1);
      }
      if (!lastGlued) emit(p, last, last + 1);
      else if (start < 0) start = isize(last);
      i = last + 1;
    } else {
      if (start >= 0) emit(p, usize(start), i);
      start = -1;
      if (cls != SPACE) emit(p, i, i + 1);
      i += width;
    }
  }
  if (start >= 0) emit(p, usize(start), n);
}

/**
 * The Python-whitespace-separated words of `[p, p + n)` (Python's `str.split()`, no other rule): what sacreBLEU's
 * TER tokenizer leaves of a line with its default options, before lowercasing.
 */
function splitLine(p: usize, n: usize): void {
  let start: isize = -1;
  let i: usize = 0;
  while (i < n) {
    const c = u32(load<u8>(p + i));
    let width: usize = 1;
    let space: bool;
    if (c < 0x80) space = asciiClass(c) == SPACE;
    else {
      width = seqLength(c);
      if (i + width > n) width = n - i;
      space = width > 1 && isWideSpace(decodeAt(p + i, c, width));
    }
    if (space) {
      if (start >= 0) emit(p, usize(start), i);
      start = -1;
    } else if (start < 0) start = isize(i);
    i += width;
  }
  if (start >= 0) emit(p, usize(start), n);
}

/**
 * The loop of {@link words13a} and {@link wordsSplit}: 13a's preprocessing of each line, or (`split`) only its
 * Python-whitespace split.
 */
function internLines(
  split: bool, input: usize, lineStarts: usize, fromLine: i32, nLines: i32, scratch: usize, table: usize, mask: u32,
  hashes: usize, keyStarts: usize, arena: usize, count: u32, limit: u32, grow: i32, unknownId: i32, outTokens: usize,
  outOffsets: usize, status: usize,
): i32 {
  vTable = table;
  vMask = mask;
  vShift = clz(mask);
  vHashes = hashes;
  vKeyStarts = keyStarts;
  vArena = arena;
  vCount = count;
  vGrow = grow != 0;
  vUnknown = unknownId;
  vLimit = limit;
  vFull = false;
  for (let line = fromLine; line < nLines; line++) {
    outAt = outTokens + (usize(load<i32>(outOffsets + (usize(line) << 2))) << 2);
    const from = load<u32>(lineStarts + (usize(line) << 2));
    const to = load<u32>(lineStarts + (usize(line + 1) << 2));
    const p = input + from;
    if (split) {
      splitLine(p, to - from);
    } else {
      const n = rstripLength(p, to - from);
      normalize(p, n, scratch, scratch + n);
      tokenizeLine(normAt, normLength);
    }
    if (vFull) {
      store<u32>(status, vCount);
      return line;
    }
    store<i32>(outOffsets + (usize(line + 1) << 2), i32((outAt - outTokens) >> 2));
  }
  store<u32>(status, vCount);
  return nLines;
}

/**
 * Token ids of lines `fromLine .. nLines` (line `i` is bytes `input + lineStarts[i] .. input + lineStarts[i + 1]`):
 * row `i` is `outTokens[outOffsets[i] .. outOffsets[i + 1]]` (i32; `outOffsets[fromLine]` must be set). With `grow`,
 * a token not in the vocabulary gets the next id (from `count`); otherwise it gets `unknownId`. `scratch` holds twice
 * the longest line.
 *
 * Growing, the table takes at most `limit` ids: when a line has a new token past that, the call stops after it and
 * returns the line, whose row is not written; `status[0]` is then the number of ids, and the caller gives the table
 * room and calls again from that line. Returns `nLines` when every line is done (`status[0]` the number of ids).
 */
export function words13a(
  input: usize, lineStarts: usize, fromLine: i32, nLines: i32, scratch: usize, table: usize, mask: u32, hashes: usize,
  keyStarts: usize, arena: usize, count: u32, limit: u32, grow: i32, unknownId: i32, outTokens: usize, outOffsets: usize,
  status: usize,
): i32 {
  return internLines(
    false, input, lineStarts, fromLine, nLines, scratch, table, mask, hashes, keyStarts, arena, count, limit, grow,
    unknownId, outTokens, outOffsets, status,
  );
}

/**
 * {@link words13a} with Python's `str.split()` as the whole tokenizer (no `rstrip()`, which changes no word, and no
 * normalization; `scratch` is not used): the words of sacreBLEU's TER tokenizer with its default options, case
 * kept (the caller maps each distinct word to its lowercased form).
 */
export function wordsSplit(
  input: usize, lineStarts: usize, fromLine: i32, nLines: i32, scratch: usize, table: usize, mask: u32, hashes: usize,
  keyStarts: usize, arena: usize, count: u32, limit: u32, grow: i32, unknownId: i32, outTokens: usize, outOffsets: usize,
  status: usize,
): i32 {
  return internLines(
    true, input, lineStarts, fromLine, nLines, scratch, table, mask, hashes, keyStarts, arena, count, limit, grow,
    unknownId, outTokens, outOffsets, status,
  );
}

/**
 * Lines given as UTF-16 code units (little-endian, back to back at `units`; `starts[0 .. nLines]` i32 unit offsets,
 * `starts[0]` = 0) to WTF-8 bytes back to back at `out`, `starts` rewritten with their byte offsets; returns the
 * bytes written. The bytes are those of ../src/wasm/wtf8.ts: UTF-8 of a well-formed line (what `TextEncoder`
 * writes), a lone surrogate as the three bytes of its code point, a pair only within a line. `units` may lie in the
 * output region as long as it starts at least one byte per unit after `out`: a unit is read before the bytes written
 * reach it (at most three bytes per unit, and eight at once from eight units read at once).
 */
export function utf16Lines(units: usize, starts: usize, nLines: i32, out: usize): u32 {
  let o = out;
  let k: u32 = 0;
  for (let line = 0; line < nLines; line++) {
    const end = load<u32>(starts + (usize(line + 1) << 2));
    while (k < end) {
      // Eight ASCII units (most of a line) at once: their low bytes; of eight with a wider one, the ASCII units before
      // it (their bytes written with the others', which the next bytes overwrite).
      if (k + 8 <= end) {
        const v = v128.load(units + (usize(k) << 1));
        const high = v128.and(v, i16x8.splat(i16(0xff80)));
        store<u64>(o, i64x2.extract_lane(i8x16.narrow_i16x8_u(v, v), 0));
        if (!v128.any_true(high)) {
          o += 8;
          k += 8;
          continue;
        }
        const ascii = ctz(i16x8.bitmask(i16x8.ne(high, i16x8.splat(0))));
        o += ascii;
        k += ascii;
      }
      const c = u32(load<u16>(units + (usize(k) << 1)));
      k++;
      if (c < 0x80) {
        store<u8>(o++, u8(c));
      } else if (c < 0x800) {
        store<u8>(o, u8(0xc0 | (c >> 6)));
        store<u8>(o + 1, u8(0x80 | (c & 0x3f)));
        o += 2;
      } else {
        if (c >= 0xd800 && c <= 0xdbff && k < end) {
          const d = u32(load<u16>(units + (usize(k) << 1)));
          if (d >= 0xdc00 && d <= 0xdfff) {
            k++;
            const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
            store<u8>(o, u8(0xf0 | (cp >> 18)));
            store<u8>(o + 1, u8(0x80 | ((cp >> 12) & 0x3f)));
            store<u8>(o + 2, u8(0x80 | ((cp >> 6) & 0x3f)));
            store<u8>(o + 3, u8(0x80 | (cp & 0x3f)));
            o += 4;
            continue;
          }
        }
        store<u8>(o, u8(0xe0 | (c >> 12)));
        store<u8>(o + 1, u8(0x80 | ((c >> 6) & 0x3f)));
        store<u8>(o + 2, u8(0x80 | (c & 0x3f)));
        o += 3;
      }
    }
    store<u32>(starts + (usize(line + 1) << 2), u32(o - out));
  }
  return u32(o - out);
}

/** Places ids `0 .. count` into an empty table of `mask + 1` slots by their hashes (a smaller table after a build). */
export function words13aRehash(table: usize, mask: u32, hashes: usize, count: u32): void {
  for (let id: u32 = 0; id < count; id++) {
    const hash = load<u32>(hashes + (usize(id) << 2));
    let slot = hash >> clz(mask);
    while (load<u32>(table + (usize(slot) << 3)) != 0) slot = (slot + 1) & mask;
    store<u32>(table + (usize(slot) << 3), id + 1);
    store<u32>(table + (usize(slot) << 3), hash, 4);
  }
}

/**
 * The code points of `[p, p + n)` as i32 at `out`, without the Python whitespace ones unless `keepWhitespace`
 * (sacreBLEU chrF's `''.join(line.split())`); returns the address after the last one written. The bytes are WTF-8, so
 * a lone surrogate gives its own code point, as the code unit it was.
 */
function lineCodePoints(p: usize, n: usize, keepWhitespace: bool, out: usize): usize {
  let i: usize = 0;
  while (i < n) {
    const c = u32(load<u8>(p + i));
    if (c < 0x80) {
      if (keepWhitespace || asciiClass(c) != SPACE) {
        store<u32>(out, c);
        out += 4;
      }
      i++;
      continue;
    }
    let width = seqLength(c);
    if (i + width > n) width = n - i;
    const cp = width > 1 ? decodeAt(p + i, c, width) : c;
    if (keepWhitespace || !isWideSpace(cp)) {
      store<u32>(out, cp);
      out += 4;
    }
    i += width;
  }
  return out;
}

/**
 * Code points of lines `0 .. nLines` (laid out as for {@link words13a}): row `i` is `outTokens[outOffsets[i] ..
 * outOffsets[i + 1]]` (i32), with Python whitespace dropped unless `keepWhitespace`. `outTokens` has room for one
 * code point per input byte.
 */
export function codePoints(input: usize, lineStarts: usize, nLines: i32, keepWhitespace: i32, outTokens: usize, outOffsets: usize): void {
  store<i32>(outOffsets, 0);
  for (let line = 0; line < nLines; line++) {
    const from = load<u32>(lineStarts + (usize(line) << 2));
    const to = load<u32>(lineStarts + (usize(line + 1) << 2));
    const at = outTokens + (usize(load<i32>(outOffsets + (usize(line) << 2))) << 2);
    // Two call sites keep the optimizer from inlining the line's loop here: V8 runs a WebAssembly function first in
    // its baseline code and switches to optimized code only at a later call, so the work must lie in a function
    // called once per line, not in the one call of the export.
    const end = keepWhitespace != 0
      ? lineCodePoints(input + from, to - from, true, at)
      : lineCodePoints(input + from, to - from, false, at);
    store<i32>(outOffsets + (usize(line + 1) << 2), i32((end - outTokens) >> 2));
  }
}

/** Replaces each of the `n` i32 ids at `tokens` by its entry in the i32 array at `ids`. */
export function mapIds(tokens: usize, n: i32, ids: usize): void {
  for (let k = 0; k < n; k++) {
    const at = tokens + (usize(k) << 2);
    store<i32>(at, load<i32>(ids + (usize(load<i32>(at)) << 2)));
  }
}
