/**
 * Word-level Levenshtein kernels (WER) over CSR token ids.
 *
 * Distance: the bit-vector algorithm of Myers (1999, "A fast bit-vector algorithm for approximate string matching
 * based on dynamic programming") in Hyyrö's edit-distance form (2003, "A bit-vector algorithm for computing
 * Levenshtein and Damerau edit distances"); the step is written out in `common/levenshtein-words`. The reference is
 * the pattern: its match vectors are built once per segment (`common/match-vectors`) and every hypothesis of the
 * segment reads them, one probe per hypothesis token for all references. References of up to 32 tokens take a 32-bit
 * lane each (four references per `i32x4` instruction), up to 64 a 64-bit lane (`i64x2`); no carry or shift crosses a
 * lane, so each lane is its own pattern. Longer references use several u64 words (carries passed upward). The
 * distance is read once at the end from the last column, D[m][n] = n + popcount(VP) − popcount(VN) over the m rows,
 * instead of being tracked at every step.
 *
 * Alignment (S, D, I, hits) for the reference with the fewest edits (the first one on ties), recovered the way
 * RapidFuzz's `Levenshtein.editops(reference, hypothesis)` recovers it (what jiwer 4.0 counts): the common prefix and
 * suffix are matched and cut off first, then the columns VP_j/VN_j of the remaining middle are stored and walked back
 * from (m, n) (Hyyrö 2004, "A note on bit-parallel alignment computation"): at (i, j), a deletion when bit i-1 of VP_j
 * is set (D[i][j] = D[i-1][j] + 1); otherwise j steps back, and an insertion follows when bit i-1 of VN_j is set for
 * the new j (D[i][j] − D[i-1][j] = −1 there), else a match or substitution steps back diagonally. Where several
 * optimal alignments exist this choice decides the S/D/I split, so it is reproduced exactly, not just some optimum.
 * For references in lanes, the distance pass keeps its columns and the walk reads the middle part's from them
 * (`alignInLanes`); references in words run the middle part again (`alignBest`).
 */
import {
  INFO_BYTES, INFO_LENGTH, INFO_WORD, INFO_WORDS, LANES32, LANES64, WORDS, buildMatchVectors, clearMatchVectors, lowBits,
  vectorCapacity, vectorLayout, vectorStrideBytes,
} from './common/match-vectors';
import { distanceOfColumn, levenshteinStep } from './common/levenshtein-words';
import { rowLength, tokenAt } from './common/rows';
import { findToken } from './common/token-table';

/** Bytes of the alignment counts of one hypothesis: `best, hits, substitutions, deletions, insertions` (i32). */
export const EDIT_OPS_BYTES: usize = 20;

/** `x << 1` lane-wise. */
// @ts-ignore: decorator
@inline
function shiftUp(x: v128, lanes32: bool): v128 {
  return lanes32 ? i32x4.shl(x, 1) : i64x2.shl(x, 1);
}

/**
 * The complement of a step's shifted horizontal positives, NHP' = ~((HP << 1) | 1) lane-wise, HP = VN | ~(D0 | VP)
 * (see `common/levenshtein-words`), so that the step's VN' = HP' & D0 is `D0 & ~NHP'` and
 * VP' = (HN << 1) | ~(D0 | HP') is `(HN << 1) | (NHP' & ~D0)`: and-nots instead of complements, which SIMD does not
 * have. NHP' = ((D0 | VP) & ~VN) << 1; the shift brings in the zero of the `| 1`.
 */
// @ts-ignore: decorator
@inline
function notHps(vp: v128, vn: v128, d0: v128, lanes32: bool): v128 {
  return shiftUp(v128.andnot(v128.or(d0, vp), vn), lanes32);
}

/** A step's diagonal, D0 = (((X & VP) + VP) ^ VP) | X lane-wise, where X is the token's match vector | VN. */
// @ts-ignore: decorator
@inline
function diagonalOf(x: v128, vp: v128, lanes32: bool): v128 {
  const t = v128.and(x, vp);
  return v128.or(v128.xor(lanes32 ? i32x4.add(t, vp) : i64x2.add(t, vp), vp), x);
}

/** A step's VP' = (HN << 1) | (NHP' & ~D0) with HN = VP & D0 (see {@link notHps}). */
// @ts-ignore: decorator
@inline
function nextVp(vp: v128, d0: v128, nhps: v128, lanes32: bool): v128 {
  return v128.or(shiftUp(v128.and(vp, d0), lanes32), v128.andnot(nhps, d0));
}

/**
 * Slot address of a hypothesis token's match vectors: directly indexed, or found in the token table (the all-zero
 * slot at index `capacity` when absent).
 */
// @ts-ignore: decorator
@inline
function slotOf(direct: bool, keys: usize, capacity: u32, generation: u32, token: u32, vectors: usize, strideBytes: usize): usize {
  return vectors + usize(direct ? token : findToken(keys, capacity, generation, token)) * strideBytes;
}

/**
 * Distances of one hypothesis against references in lanes (`lanes32`: 32-bit lanes, else 64-bit). VP and VN of all
 * references advance together, one `v128` each per four (or two) references, in registers for up to two `v128`s.
 * The columns start at the start column, or (`start` false) at the VP and VN left at `state` and
 * `state + strideBytes`, where the last VP and VN are left. With `columns` set, the column after token j is written
 * to `columns + (j − from) × 2 × strideBytes` (its VP, then its VN).
 */
// @ts-ignore: decorator
@inline
function columnsInLanes(
  direct: bool, hypTokens: usize, from: i32, to: i32, keys: usize, capacity: u32, generation: u32, vectors: usize,
  strideBytes: usize, lanes32: bool, state: usize, columns: usize, start: bool,
): void {
  const keep = columns != 0;
  const ones = i64x2.splat(-1);
  const zero = i64x2.splat(0);
  if (strideBytes == 16) {
    let vp = start ? ones : v128.load(state);
    let vn = start ? zero : v128.load(state, 16);
    for (let j = from; j < to; j++) {
      const x = v128.or(v128.load(slotOf(direct, keys, capacity, generation, tokenAt(hypTokens, j), vectors, 16)), vn);
      const d0 = diagonalOf(x, vp, lanes32);
      const nhps = notHps(vp, vn, d0, lanes32);
      vp = nextVp(vp, d0, nhps, lanes32);
      vn = v128.andnot(d0, nhps);
      if (keep) {
        const column = columns + (usize(j - from) << 5);
        v128.store(column, vp);
        v128.store(column, vn, 16);
      }
    }
    v128.store(state, vp);
    v128.store(state + strideBytes, vn);
  } else if (strideBytes == 32) {
    let vp0 = start ? ones : v128.load(state);
    let vn0 = start ? zero : v128.load(state, 32);
    let vp1 = start ? ones : v128.load(state, 16);
    let vn1 = start ? zero : v128.load(state, 48);
    for (let j = from; j < to; j++) {
      const pm = slotOf(direct, keys, capacity, generation, tokenAt(hypTokens, j), vectors, 32);
      const x0 = v128.or(v128.load(pm), vn0);
      const x1 = v128.or(v128.load(pm, 16), vn1);
      const d0 = diagonalOf(x0, vp0, lanes32);
      const d1 = diagonalOf(x1, vp1, lanes32);
      const nhps0 = notHps(vp0, vn0, d0, lanes32);
      const nhps1 = notHps(vp1, vn1, d1, lanes32);
      vp0 = nextVp(vp0, d0, nhps0, lanes32);
      vp1 = nextVp(vp1, d1, nhps1, lanes32);
      vn0 = v128.andnot(d0, nhps0);
      vn1 = v128.andnot(d1, nhps1);
      if (keep) {
        const column = columns + (usize(j - from) << 6);
        v128.store(column, vp0);
        v128.store(column, vp1, 16);
        v128.store(column, vn0, 32);
        v128.store(column, vn1, 48);
      }
    }
    v128.store(state, vp0);
    v128.store(state, vp1, 16);
    v128.store(state + strideBytes, vn0);
    v128.store(state + strideBytes, vn1, 16);
  } else {
    const vnAt = state + strideBytes;
    if (start) {
      for (let q: usize = 0; q < strideBytes; q += 16) {
        v128.store(state + q, ones);
        v128.store(vnAt + q, zero);
      }
    }
    for (let j = from; j < to; j++) {
      const pm = slotOf(direct, keys, capacity, generation, tokenAt(hypTokens, j), vectors, strideBytes);
      for (let q: usize = 0; q < strideBytes; q += 16) {
        const vp = v128.load(state + q);
        const vn = v128.load(vnAt + q);
        const x = v128.or(v128.load(pm + q), vn);
        const d0 = diagonalOf(x, vp, lanes32);
        const nhps = notHps(vp, vn, d0, lanes32);
        v128.store(state + q, nextVp(vp, d0, nhps, lanes32));
        v128.store(vnAt + q, v128.andnot(d0, nhps));
      }
      if (keep) memory.copy(columns + usize(j - from) * (strideBytes << 1), state, strideBytes << 1);
    }
  }
}

/**
 * `columnsInLanes` of two hypotheses of one segment at once over their first `common` tokens (slots of 16 or 32
 * bytes): the two columns do not depend on each other, so their steps overlap. Each hypothesis' last VP and VN are
 * left at `stateA` and `stateB` (as `columnsInLanes` leaves them, to resume from); with `columnsA` set, the columns
 * are written to `columnsA` and `columnsB`.
 */
// @ts-ignore: decorator
@inline
function columnsInLanesPair(
  direct: bool, hypTokens: usize, fromA: i32, fromB: i32, common: i32, keys: usize, capacity: u32, generation: u32,
  vectors: usize, strideBytes: usize, lanes32: bool, stateA: usize, stateB: usize, columnsA: usize, columnsB: usize,
): void {
  const keep = columnsA != 0;
  const ones = i64x2.splat(-1);
  const zero = i64x2.splat(0);
  if (strideBytes == 16) {
    let vpA = ones;
    let vnA = zero;
    let vpB = ones;
    let vnB = zero;
    for (let j = 0; j < common; j++) {
      const xA = v128.or(v128.load(slotOf(direct, keys, capacity, generation, tokenAt(hypTokens, fromA + j), vectors, 16)), vnA);
      const xB = v128.or(v128.load(slotOf(direct, keys, capacity, generation, tokenAt(hypTokens, fromB + j), vectors, 16)), vnB);
      const dA = diagonalOf(xA, vpA, lanes32);
      const dB = diagonalOf(xB, vpB, lanes32);
      const nhpsA = notHps(vpA, vnA, dA, lanes32);
      const nhpsB = notHps(vpB, vnB, dB, lanes32);
      vpA = nextVp(vpA, dA, nhpsA, lanes32);
      vpB = nextVp(vpB, dB, nhpsB, lanes32);
      vnA = v128.andnot(dA, nhpsA);
      vnB = v128.andnot(dB, nhpsB);
      if (keep) {
        const at = usize(j) << 5;
        v128.store(columnsA + at, vpA);
        v128.store(columnsA + at, vnA, 16);
        v128.store(columnsB + at, vpB);
        v128.store(columnsB + at, vnB, 16);
      }
    }
    v128.store(stateA, vpA);
    v128.store(stateA, vnA, 16);
    v128.store(stateB, vpB);
    v128.store(stateB, vnB, 16);
  } else {
    let vpA0 = ones;
    let vnA0 = zero;
    let vpA1 = ones;
    let vnA1 = zero;
    let vpB0 = ones;
    let vnB0 = zero;
    let vpB1 = ones;
    let vnB1 = zero;
    for (let j = 0; j < common; j++) {
      const pmA = slotOf(direct, keys, capacity, generation, tokenAt(hypTokens, fromA + j), vectors, 32);
      const pmB = slotOf(direct, keys, capacity, generation, tokenAt(hypTokens, fromB + j), vectors, 32);
      const xA0 = v128.or(v128.load(pmA), vnA0);
      const xA1 = v128.or(v128.load(pmA, 16), vnA1);
      const xB0 = v128.or(v128.load(pmB), vnB0);
      const xB1 = v128.or(v128.load(pmB, 16), vnB1);
      const dA0 = diagonalOf(xA0, vpA0, lanes32);
      const dA1 = diagonalOf(xA1, vpA1, lanes32);
      const dB0 = diagonalOf(xB0, vpB0, lanes32);
      const dB1 = diagonalOf(xB1, vpB1, lanes32);
      const nhpsA0 = notHps(vpA0, vnA0, dA0, lanes32);
      const nhpsA1 = notHps(vpA1, vnA1, dA1, lanes32);
      const nhpsB0 = notHps(vpB0, vnB0, dB0, lanes32);
      const nhpsB1 = notHps(vpB1, vnB1, dB1, lanes32);
      vpA0 = nextVp(vpA0, dA0, nhpsA0, lanes32);
      vpA1 = nextVp(vpA1, dA1, nhpsA1, lanes32);
      vpB0 = nextVp(vpB0, dB0, nhpsB0, lanes32);
      vpB1 = nextVp(vpB1, dB1, nhpsB1, lanes32);
      vnA0 = v128.andnot(dA0, nhpsA0);
      vnA1 = v128.andnot(dA1, nhpsA1);
      vnB0 = v128.andnot(dB0, nhpsB0);
      vnB1 = v128.andnot(dB1, nhpsB1);
      if (keep) {
        const at = usize(j) << 6;
        v128.store(columnsA + at, vpA0);
        v128.store(columnsA + at, vpA1, 16);
        v128.store(columnsA + at, vnA0, 32);
        v128.store(columnsA + at, vnA1, 48);
        v128.store(columnsB + at, vpB0);
        v128.store(columnsB + at, vpB1, 16);
        v128.store(columnsB + at, vnB0, 32);
        v128.store(columnsB + at, vnB1, 48);
      }
    }
    v128.store(stateA, vpA0);
    v128.store(stateA, vpA1, 16);
    v128.store(stateA, vnA0, 32);
    v128.store(stateA, vnA1, 48);
    v128.store(stateB, vpB0);
    v128.store(stateB, vpB1, 16);
    v128.store(stateB, vnB0, 32);
    v128.store(stateB, vnB1, 48);
  }
}

/** Reads the distances of `k` references in lanes from the last VP/VN at `state` into `row` (one i32 each). */
// @ts-ignore: decorator
@inline
function distancesOfLanes(state: usize, strideBytes: usize, lanes32: bool, refOffsets: usize, r0: i32, k: i32, n: i32, row: usize): void {
  for (let r = 0; r < k; r++) {
    const mask = lowBits(rowLength(refOffsets, r0 + r));
    let vp: u64;
    let vn: u64;
    if (lanes32) {
      vp = u64(load<u32>(state + (usize(r) << 2)));
      vn = u64(load<u32>(state + strideBytes + (usize(r) << 2)));
    } else {
      vp = load<u64>(state + (usize(r) << 3));
      vn = load<u64>(state + strideBytes + (usize(r) << 3));
    }
    store<i32>(row + (usize(r) << 2), n + i32(popcnt<u64>(vp & mask)) - i32(popcnt<u64>(vn & mask)));
  }
}

/**
 * Distances of one hypothesis against references in the `WORDS` layout: reference r's VP and VN are its words of
 * `state` and `state + strideBytes`. A token absent from the references still changes the columns, so every token
 * is processed (its slot is all zero).
 */
// @ts-ignore: decorator
@inline
function distancesInWords(
  direct: bool, hypTokens: usize, from: i32, to: i32, keys: usize, capacity: u32, generation: u32, vectors: usize,
  strideBytes: usize, state: usize, info: usize, k: i32, row: usize,
): void {
  const vnAt = state + strideBytes;
  for (let q: usize = 0; q < strideBytes; q += 8) {
    store<u64>(state + q, u64.MAX_VALUE);
    store<u64>(vnAt + q, 0);
  }
  for (let j = from; j < to; j++) {
    const pm = slotOf(direct, keys, capacity, generation, tokenAt(hypTokens, j), vectors, strideBytes);
    for (let r = 0; r < k; r++) {
      const entry = info + usize(r) * INFO_BYTES;
      const at = usize(load<i32>(entry, INFO_WORD)) << 3;
      levenshteinStep(state + at, vnAt + at, pm + at, state + at, vnAt + at, load<i32>(entry, INFO_WORDS));
    }
  }
  for (let r = 0; r < k; r++) {
    const entry = info + usize(r) * INFO_BYTES;
    const at = usize(load<i32>(entry, INFO_WORD)) << 3;
    const d = distanceOfColumn(state + at, vnAt + at, load<i32>(entry, INFO_LENGTH), to - from, load<i32>(entry, INFO_WORDS));
    store<i32>(row + (usize(r) << 2), d);
  }
}

/**
 * The match vector of the middle part `[skip, skip + length)` of reference `r`, shifted down to bit 0, read from a
 * token's slot at `slot` when that part has at most 64 tokens: the pattern of the trimmed reference, without building
 * a table for it.
 */
// @ts-ignore: decorator
@inline
function middleWord(slot: usize, layout: i32, r: i32, info: usize, skip: i32, length: i32): u64 {
  if (layout == LANES32) return (u64(load<u32>(slot + (usize(r) << 2))) >> u64(skip)) & lowBits(length);
  if (layout == LANES64) return (load<u64>(slot + (usize(r) << 3)) >> u64(skip)) & lowBits(length);
  const entry = info + usize(r) * INFO_BYTES;
  const base = slot + (usize(load<i32>(entry, INFO_WORD)) << 3);
  const q = skip >> 6;
  const shift = u64(skip & 63);
  let x = load<u64>(base + (usize(q) << 3)) >> shift;
  if (shift && q + 1 < load<i32>(entry, INFO_WORDS)) x |= load<u64>(base + (usize(q + 1) << 3)) << (64 - shift);
  return x & lowBits(length);
}

/**
 * `middleWord` of a middle part of more than 64 tokens (so of a reference in the `WORDS` layout), written to `out`
 * as `words` u64.
 */
// @ts-ignore: decorator
@inline
function middleWords(slot: usize, r: i32, info: usize, skip: i32, length: i32, words: i32, out: usize): void {
  const entry = info + usize(r) * INFO_BYTES;
  const base = slot + (usize(load<i32>(entry, INFO_WORD)) << 3);
  const have = load<i32>(entry, INFO_WORDS);
  const shift = u64(skip & 63);
  for (let w = 0; w < words; w++) {
    const q = (skip >> 6) + w;
    let x = load<u64>(base + (usize(q) << 3)) >> shift;
    if (shift && q + 1 < have) x |= load<u64>(base + (usize(q + 1) << 3)) << (64 - shift);
    store<u64>(out + (usize(w) << 3), w == words - 1 ? x & lowBits(length - (w << 6)) : x);
  }
}

/** Bit `i` of the `words`-word vector at `v`. */
// @ts-ignore: decorator
@inline
function bitAt(v: usize, i: i32): bool {
  return bool((load<u64>(v + (usize(i >> 6) << 3)) >> u64(i & 63)) & 1);
}

/**
 * The S/D/I split of one hypothesis against its best reference `r` (see the file comment), written with `best` and
 * the hits to `ops`. Scratch: `columns` = (hypothesis length + 1) × 2 × words of the reference u64 (the columns'
 * VP and VN words, then one pattern).
 */
// @ts-ignore: decorator
@inline
function alignBest(
  direct: bool, keys: usize, capacity: u32, generation: u32, vectors: usize, strideBytes: usize, layout: i32,
  info: usize, refTokens: usize, refFrom: i32, m: i32, r: i32, hypTokens: usize, hypFrom: i32, n: i32,
  columns: usize, ops: usize,
): void {
  let prefix = 0;
  while (prefix < m && prefix < n && tokenAt(refTokens, refFrom + prefix) == tokenAt(hypTokens, hypFrom + prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < m - prefix && suffix < n - prefix &&
    tokenAt(refTokens, refFrom + m - 1 - suffix) == tokenAt(hypTokens, hypFrom + n - 1 - suffix)
  ) suffix++;
  const a = refFrom + prefix;
  const b = hypFrom + prefix;
  let col = m - prefix - suffix;
  let row = n - prefix - suffix;
  let subs = 0;
  let dels = 0;
  let ins = 0;
  if (col > 0 && row > 0) {
    const words = (col + 63) >> 6;
    const vnOffset = usize(words) << 3;
    const columnBytes = vnOffset << 1;
    if (words == 1) {
      // The common case, one word per column: the step in registers (the same step as `levenshteinStep`).
      let vp = u64.MAX_VALUE;
      let vn: u64 = 0;
      for (let j = 0; j < row; j++) {
        const slot = slotOf(direct, keys, capacity, generation, tokenAt(hypTokens, b + j), vectors, strideBytes);
        const x = middleWord(slot, layout, r, info, prefix, col) | vn;
        const d0 = (((x & vp) + vp) ^ vp) | x;
        const nhps = ((vn | ~(d0 | vp)) << 1) | 1;
        vp = ((vp & d0) << 1) | ~(d0 | nhps);
        vn = nhps & d0;
        const column = columns + (usize(j) << 4);
        store<u64>(column, vp);
        store<u64>(column, vn, 8);
      }
    } else {
      const pattern = columns + usize(row) * columnBytes;
      for (let j = 0; j < row; j++) {
        const slot = slotOf(direct, keys, capacity, generation, tokenAt(hypTokens, b + j), vectors, strideBytes);
        middleWords(slot, r, info, prefix, col, words, pattern);
        const column = columns + usize(j) * columnBytes;
        const previous = j ? column - columnBytes : 0;
        levenshteinStep(previous, previous ? previous + vnOffset : 0, pattern, column, column + vnOffset, words);
      }
    }
    while (row && col) {
      if (bitAt(columns + usize(row - 1) * columnBytes, col - 1)) {
        dels++;
        col--;
      } else {
        row--;
        if (row && bitAt(columns + usize(row - 1) * columnBytes + vnOffset, col - 1)) {
          ins++;
        } else {
          col--;
          if (tokenAt(refTokens, a + col) != tokenAt(hypTokens, b + row)) subs++;
        }
      }
    }
  }
  dels += col;
  ins += row;
  store<i32>(ops, r);
  store<i32>(ops, m - subs - dels, 4);
  store<i32>(ops, subs, 8);
  store<i32>(ops, dels, 12);
  store<i32>(ops, ins, 16);
}

/**
 * Number of equal tokens at the start of the token arrays at `a` and `b`, at most `limit`: four at a time (one
 * compare, and a branch that a short common prefix, the usual case, decides at its first group), then one by one.
 */
// @ts-ignore: decorator
@inline
function commonPrefix(a: usize, b: usize, limit: i32): i32 {
  let k = 0;
  while (k + 4 <= limit) {
    const at = usize(k) << 2;
    const equal = i32x4.bitmask(i32x4.eq(v128.load(a + at), v128.load(b + at)));
    if (equal != 15) return k + i32(ctz<u32>(~equal));
    k += 4;
  }
  while (k < limit && load<u32>(a + (usize(k) << 2)) == load<u32>(b + (usize(k) << 2))) k++;
  return k;
}

/** Number of equal tokens at the end of the token arrays ending before `aEnd` and `bEnd`, at most `limit`. */
// @ts-ignore: decorator
@inline
function commonSuffix(aEnd: usize, bEnd: usize, limit: i32): i32 {
  let k = 0;
  while (k + 4 <= limit) {
    const back = usize(k + 4) << 2;
    // Lane 3 is the token k from the end: the run of equal lanes from lane 3 down.
    const unequal = ~i32x4.bitmask(i32x4.eq(v128.load(aEnd - back), v128.load(bEnd - back))) & 15;
    if (unequal) return k + i32(clz<u32>(unequal << 28));
    k += 4;
  }
  while (k < limit && load<u32>(aEnd - (usize(k + 1) << 2)) == load<u32>(bEnd - (usize(k + 1) << 2))) k++;
  return k;
}

/**
 * `alignBest` for references in lanes, from the columns the distance pass kept (`keep` of `columnsInLanes`): column
 * j of the hypothesis (the VP and VN vectors after its token j, `2 × strideBytes` apart) holds reference `r`'s
 * vertical differences in its lane. Cutting the common prefix of p tokens leaves D[p][p + j] = j and D[p + i][p] = i,
 * the boundary of the middle part's own table, so the full table's differences in rows and columns past p are the
 * middle part's: the walk reads them at bit p + i − 1 of column p + j − 1 instead of running the middle part again.
 * The steps are `alignBest`'s; a run of deletions (VP bits set from bit i − 1 down in one column) is taken at once.
 *
 * Only the diagonal steps are counted. Every step of the walk is optimal (a deletion where D[i][j] = D[i−1][j] + 1;
 * otherwise D[i][j] ≤ D[i−1][j], and then an insertion where D[i−1][j−1] = D[i][j−1] + 1 leaves D[i][j−1] + 1 as
 * the only way to reach D[i][j], and a diagonal step where D[i][j−1] ≥ D[i−1][j−1] is at least as cheap as either
 * other), and the cut prefix and suffix are matches, so S + D + I is the distance `distance`; with H + S + D = m and
 * H + S + I = n, the deletions (m minus the diagonal steps of the middle part, less the cut tokens) fix the rest.
 * References of fewer than 64 tokens: row i of the middle part is then bit i of a u64 (see the loop).
 */
// @ts-ignore: decorator
@inline
function alignInLanes(
  lanes32: bool, refTokens: usize, refFrom: i32, m: i32, r: i32, distance: i32, hypTokens: usize, hypFrom: i32,
  n: i32, columns: usize, strideBytes: usize, ops: usize,
): void {
  const prefix = commonPrefix(refTokens + (usize(refFrom) << 2), hypTokens + (usize(hypFrom) << 2), min(m, n));
  const suffix = commonSuffix(
    refTokens + (usize(refFrom + m) << 2), hypTokens + (usize(hypFrom + n) << 2), min(m, n) - prefix,
  );
  const col = m - prefix - suffix;
  const row = n - prefix - suffix;
  const columnBytes = strideBytes << 1;
  const lane = lanes32 ? usize(r) << 2 : usize(r) << 3;
  // Row i of the middle part is bit p + i − 1 of the lane: `at`, that bit alone, at least `low` (bit p) while the
  // walk goes on (i > 0). A one-hot mask keeps a diagonal step to an and, a test and a select.
  const low = u64(1) << u64(prefix);
  let at = low << u64(col - 1);
  let diagonals = 0;
  if (row && col) {
    // Column p + j − 1 of the hypothesis at the reference's lane, for j = row down to 1; `first` is j = 1.
    const first = columns + usize(prefix) * columnBytes + lane;
    let column = first + usize(row - 1) * columnBytes;
    while (true) {
      const vp = lanes32 ? u64(load<u32>(column)) : load<u64>(column);
      // The deletions in this column: VP's set bits from `at` down; the walk goes on at the highest clear bit
      // below them. Row 1's bit is clear in every column read here (D[p + 1][p + j] ≤ D[p][p + j − 1] + 1 = j =
      // D[p][p + j]), so the run ends at or above it. Few columns have any, so the branch is a good guess and keeps
      // the clz out of the steps' latency.
      if (vp & at) at = u64(1) << (63 - clz<u64>(~vp & ((at << 1) - 1)));
      if (column == first) {
        // j = 1: the step back to the first column is diagonal.
        diagonals++;
        break;
      }
      column -= columnBytes;
      // An insertion where bit i − 1 of the new column's VN is set, else a diagonal step.
      const vn = lanes32 ? u64(load<u32>(column + strideBytes)) : load<u64>(column + strideBytes);
      const diagonal = (vn & at) == 0;
      diagonals += i32(diagonal);
      at = select<u64>(at >> 1, at, diagonal);
      if (at < low) break;
    }
  }
  const dels = col - diagonals;
  const ins = dels + n - m;
  const subs = distance - dels - ins;
  store<i32>(ops, r);
  store<i32>(ops, m - subs - dels, 4);
  store<i32>(ops, subs, 8);
  store<i32>(ops, dels, 12);
  store<i32>(ops, ins, 16);
}

/**
 * The alignment counts of the hypothesis `hypTokens[from .. to]` against the reference with the fewest edits among
 * the `k` of its segment (from `r0`), whose distances are at `row`, written to `ops`: from the columns kept at
 * `columns` for references in lanes (`alignInLanes`), else by `alignBest` with `columns` as its scratch.
 */
function alignHypothesis(
  direct: bool, keys: usize, capacity: u32, generation: u32, vectors: usize, strideBytes: usize, layout: i32,
  info: usize, refTokens: usize, refOffsets: usize, r0: i32, k: i32, hypTokens: usize, from: i32, to: i32,
  row: usize, columns: usize, ops: usize,
): void {
  let best = 0;
  let fewest = load<i32>(row);
  for (let r = 1; r < k; r++) {
    const d = load<i32>(row + (usize(r) << 2));
    // Selects, not a branch: which reference is closest is as good as random.
    best = select(r, best, d < fewest);
    fewest = min(d, fewest);
  }
  const refFrom = load<i32>(refOffsets + (usize(r0 + best) << 2));
  const m = rowLength(refOffsets, r0 + best);
  if (layout == LANES32) {
    alignInLanes(true, refTokens, refFrom, m, best, fewest, hypTokens, from, to - from, columns, strideBytes, ops);
  } else if (layout == LANES64 && m < 64) {
    alignInLanes(false, refTokens, refFrom, m, best, fewest, hypTokens, from, to - from, columns, strideBytes, ops);
  } else {
    alignBest(
      direct, keys, capacity, generation, vectors, strideBytes, layout, info, refTokens, refFrom,
      m, best, hypTokens, from, to - from, columns, ops,
    );
  }
}

/**
 * Levenshtein distances of a batch, and optionally the alignment counts of each hypothesis against its closest
 * reference (see `editDistances` in `src/wasm/edit.ts`).
 *
 * Batch shape and scratch as `lcsLengths` (`assembly/lcs.ts`; `planMatchVectors` sizes it), except `state`, which
 * holds four slots (VP and VN of two hypotheses). `out` receives, hypothesis after hypothesis, one i32 distance per reference of the
 * hypothesis' segment. With `ops` set, it receives `EDIT_OPS_BYTES` per hypothesis: the index (within its segment)
 * of the reference with the fewest edits (first on ties; -1 without references), hits, substitutions, deletions and
 * insertions against it; `columns` then holds the larger of (longest hypothesis + 1) × 2 × words of the longest
 * reference u64 and longest hypothesis × 4 slots (the columns of two hypotheses against references in lanes).
 */
export function editDistances(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize,
  keys: usize, keysCapacity: u32, vectors: usize, directBytes: usize, info: usize, state: usize,
  columns: usize, out: usize, ops: usize,
): void {
  if (directBytes) distancesOfBatch(true, hypTokens, hypOffsets, nHyps, hypSegments, refTokens, refOffsets, segRefOffsets, keys, keysCapacity, vectors, directBytes, info, state, columns, out, ops);
  else distancesOfBatch(false, hypTokens, hypOffsets, nHyps, hypSegments, refTokens, refOffsets, segRefOffsets, keys, keysCapacity, vectors, 0, info, state, columns, out, ops);
}

/** `editDistances` with the slot addressing fixed at compile time. */
// @ts-ignore: decorator
@inline
function distancesOfBatch(
  direct: bool, hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize,
  keys: usize, keysCapacity: u32, vectors: usize, directBytes: usize, info: usize, state: usize,
  columns: usize, out: usize, ops: usize,
): void {
  if (direct) memory.fill(vectors, 0, directBytes);
  else memory.fill(keys, 0, usize(keysCapacity) << 3);
  let segment = -1;
  let r0 = 0;
  let r1 = 0;
  let k = 0;
  let strideBytes: usize = 0;
  let capacity: u32 = 0;
  let generation: u32 = 0;
  let layout = LANES32;
  let row = out;
  for (let h = 0; h < nHyps; h++) {
    const s = hypSegments ? load<i32>(hypSegments + (usize(h) << 2)) : h;
    if (s != segment) {
      if (direct && segment >= 0) clearMatchVectors(vectors, strideBytes, refTokens, refOffsets, r0, r1);
      segment = s;
      r0 = load<i32>(segRefOffsets + (usize(s) << 2));
      r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
      k = r1 - r0;
      layout = vectorLayout(refOffsets, r0, r1, false);
      strideBytes = vectorStrideBytes(layout, refOffsets, r0, r1);
      capacity = vectorCapacity(refOffsets, r0, r1);
      assert(k >= 0 && (direct || capacity <= keysCapacity));
      generation++;
      buildMatchVectors(direct, keys, capacity, vectors, strideBytes, layout, generation, refTokens, refOffsets, r0, r1, info);
    }
    const opsAt = ops + usize(h) * EDIT_OPS_BYTES;
    if (k == 0) {
      if (ops) {
        store<i32>(opsAt, -1);
        memory.fill(opsAt + 4, 0, 16);
      }
      continue;
    }
    const from = load<i32>(hypOffsets + (usize(h) << 2));
    const to = load<i32>(hypOffsets + (usize(h) << 2), 4);
    // Two hypotheses of the segment at once where they allow it (see `columnsInLanesPair`), each finished alone.
    let count = 1;
    let fromB = to;
    let toB = to;
    if (
      layout != WORDS && strideBytes <= 32 && h + 1 < nHyps &&
      (hypSegments ? load<i32>(hypSegments + (usize(h) << 2), 4) : h + 1) == s
    ) {
      count = 2;
      toB = load<i32>(hypOffsets + (usize(h) << 2), 8);
    }
    const columnBytes = strideBytes << 1;
    const columnsB = columns + usize(to - from) * columnBytes;
    const rowBytes = usize(k) << 2;
    if (layout == WORDS) {
      distancesInWords(direct, hypTokens, from, to, keys, capacity, generation, vectors, strideBytes, state, info, k, row);
    } else {
      const lanes32 = layout == LANES32;
      const common = count == 2 ? min(to - from, toB - fromB) : 0;
      if (common) {
        if (lanes32) columnsInLanesPair(direct, hypTokens, from, fromB, common, keys, capacity, generation, vectors, strideBytes, true, state, state + columnBytes, ops ? columns : 0, columnsB);
        else columnsInLanesPair(direct, hypTokens, from, fromB, common, keys, capacity, generation, vectors, strideBytes, false, state, state + columnBytes, ops ? columns : 0, columnsB);
      }
      for (let q = 0; q < count; q++) {
        const f = (q ? fromB : from) + common;
        const t = q ? toB : to;
        const at = state + (q ? columnBytes : 0);
        const kept = ops ? (q ? columnsB : columns) + usize(common) * columnBytes : 0;
        if (lanes32) columnsInLanes(direct, hypTokens, f, t, keys, capacity, generation, vectors, strideBytes, true, at, kept, !common);
        else columnsInLanes(direct, hypTokens, f, t, keys, capacity, generation, vectors, strideBytes, false, at, kept, !common);
        distancesOfLanes(at, strideBytes, lanes32, refOffsets, r0, k, t - f + common, row + (q ? rowBytes : 0));
      }
    }
    if (ops) {
      for (let q = 0; q < count; q++) {
        alignHypothesis(
          direct, keys, capacity, generation, vectors, strideBytes, layout, info, refTokens, refOffsets, r0, k, hypTokens,
          q ? fromB : from, q ? toB : to, row + (q ? rowBytes : 0), q ? columnsB : columns, opsAt + (q ? EDIT_OPS_BYTES : 0),
        );
      }
    }
    row += usize(count) * rowBytes;
    h += count - 1;
  }
}
