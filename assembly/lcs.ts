/**
 * Longest common subsequence kernels (ROUGE-L) over CSR token ids.
 *
 * Length: the bit-parallel LCS of Allison & Dix (1986, "A bit-string longest-common-subsequence algorithm"), in the
 * form of Crochemore, Iliopoulos, Pinzon & Reid (2001) and Hyyrö (2004, "Bit-parallel LCS-length computation
 * revisited"). The reference is the pattern: its match vectors `PM[t]` are built once per segment
 * (`common/match-vectors`) and shared by every hypothesis of the segment. For each hypothesis token t,
 * `u = V & PM[t]; V = (V + u) | (V - u)`, starting from V = all ones; afterwards the LCS length is the number of
 * zero bits of V among the reference's m positions. References of up to 64 tokens take one `i64x2` lane each (two
 * references per instruction, no carry crosses lanes); longer ones use several words, the addition's carry passed
 * upward by unsigned compare (`V - u` never borrows: u is a subset of V).
 *
 * Hit recovery (ROUGE-L summary level): the vector after hypothesis token j, V_j, is column j of the LCS table as
 * differences: bit i-1 of V_j is 0 exactly when c[i][j] = c[i-1][j] + 1 (Hyyrö 2004, "A note on bit-parallel
 * alignment computation"). Storing the columns gives the traceback in O(m + n) without the table. The traceback is
 * the one ROUGE-1.5.5 (`markLCS` over the `lcs_inner` arrows) and rouge-score (`_backtrack_norec`) both use, with the
 * reference as rows: diagonal when the tokens are equal, else up when c[i-1][j] >= c[i][j-1], else left. With
 * unequal tokens c[i][j] = max(c[i-1][j], c[i][j-1]), so "up" is exactly "bit i-1 of V_j is 1"; the two tools do
 * not differ here, and one kernel serves both flavors.
 */
import {
  INFO_BYTES, INFO_LENGTH, INFO_WORD, INFO_WORDS, buildMatchVectors, vectorCapacity, vectorStride, vectorWords,
  zeroBits,
} from './common/match-vectors';
import { STAMPED_SHIFT, stampedFind, stampedTag } from './common/stamped-table';

/** Token `i` of a CSR token array, read as u32 (see `common/hash` on sign extension). */
// @ts-ignore: decorator
@inline
function tokenAt(tokens: usize, i: i32): u32 {
  return load<u32>(tokens + (usize(i) << 2));
}

/**
 * LCS lengths of one hypothesis against references of one word each: `stride / 2` vectors of two lanes, kept in
 * `state`. Absent tokens leave V unchanged (u = 0) and are skipped.
 */
// @ts-ignore: decorator
@inline
function lengthsSingleWord(
  hypTokens: usize, from: i32, to: i32, keys: usize, capacity: u32, tag: u32, vectors: usize, stride: i32,
  state: usize, info: usize, k: i32, row: usize,
): void {
  const strideBytes = usize(stride) << 3;
  const ones = i64x2.splat(-1);
  if (stride == 2) {
    // One or two references (the common case): V stays in a register.
    let v = ones;
    for (let j = from; j < to; j++) {
      const slot = stampedFind(keys, capacity, u64(tokenAt(hypTokens, j)), tag);
      if (slot < 0) continue;
      const u = v128.and(v, v128.load(vectors + usize(slot) * strideBytes));
      v = v128.or(i64x2.add(v, u), i64x2.sub(v, u));
    }
    v128.store(state, v);
  } else if (stride == 4) {
    let v0 = ones;
    let v1 = ones;
    for (let j = from; j < to; j++) {
      const slot = stampedFind(keys, capacity, u64(tokenAt(hypTokens, j)), tag);
      if (slot < 0) continue;
      const pm = vectors + usize(slot) * strideBytes;
      const u0 = v128.and(v0, v128.load(pm));
      const u1 = v128.and(v1, v128.load(pm, 16));
      v0 = v128.or(i64x2.add(v0, u0), i64x2.sub(v0, u0));
      v1 = v128.or(i64x2.add(v1, u1), i64x2.sub(v1, u1));
    }
    v128.store(state, v0);
    v128.store(state, v1, 16);
  } else {
    for (let q: usize = 0; q < strideBytes; q += 16) v128.store(state + q, ones);
    for (let j = from; j < to; j++) {
      const slot = stampedFind(keys, capacity, u64(tokenAt(hypTokens, j)), tag);
      if (slot < 0) continue;
      const pm = vectors + usize(slot) * strideBytes;
      for (let q: usize = 0; q < strideBytes; q += 16) {
        const v = v128.load(state + q);
        const u = v128.and(v, v128.load(pm + q));
        v128.store(state + q, v128.or(i64x2.add(v, u), i64x2.sub(v, u)));
      }
    }
  }
  for (let r = 0; r < k; r++) {
    store<i32>(row + (usize(r) << 2), zeroBits(state + (usize(r) << 3), load<i32>(info + usize(r) * INFO_BYTES, INFO_LENGTH)));
  }
}

/**
 * Advances the multi-word vector of one reference by one hypothesis token: `V = (V + u) | (V - u)` word by word
 * from `v` (0: the all-ones start vector) to `out`, with the match vector `pm` (0: no match, V is copied).
 */
// @ts-ignore: decorator
@inline
function advance(v: usize, pm: usize, out: usize, words: i32): void {
  const end = usize(words) << 3;
  if (!pm) {
    if (v != out) {
      for (let q: usize = 0; q < end; q += 8) store<u64>(out + q, v ? load<u64>(v + q) : u64.MAX_VALUE);
    }
    return;
  }
  let carry: u64 = 0;
  for (let q: usize = 0; q < end; q += 8) {
    const x = v ? load<u64>(v + q) : u64.MAX_VALUE;
    const u = x & load<u64>(pm + q);
    const s = x + u;
    const t = s + carry;
    carry = u64(s < x) | u64(t < s);
    store<u64>(out + q, t | (x - u));
  }
}

/** LCS lengths of one hypothesis against references of any length (vectors of `info[r].words` words in `state`). */
// @ts-ignore: decorator
@inline
function lengthsMultiWord(
  hypTokens: usize, from: i32, to: i32, keys: usize, capacity: u32, tag: u32, vectors: usize, stride: i32,
  state: usize, info: usize, k: i32, row: usize,
): void {
  const strideBytes = usize(stride) << 3;
  for (let q: usize = 0; q < strideBytes; q += 8) store<u64>(state + q, u64.MAX_VALUE);
  for (let j = from; j < to; j++) {
    const slot = stampedFind(keys, capacity, u64(tokenAt(hypTokens, j)), tag);
    if (slot < 0) continue;
    const pm = vectors + usize(slot) * strideBytes;
    for (let r = 0; r < k; r++) {
      const entry = info + usize(r) * INFO_BYTES;
      const at = usize(load<i32>(entry, INFO_WORD)) << 3;
      advance(state + at, pm + at, state + at, load<i32>(entry, INFO_WORDS));
    }
  }
  for (let r = 0; r < k; r++) {
    const entry = info + usize(r) * INFO_BYTES;
    const at = usize(load<i32>(entry, INFO_WORD)) << 3;
    store<i32>(row + (usize(r) << 2), zeroBits(state + at, load<i32>(entry, INFO_LENGTH)));
  }
}

/**
 * Sizes the scratch of `lcsLengths` for segments `0 .. nSegments` — or of `lcsUnionMasks`, given one segment per
 * reference row. Writes 4 f64 to `plan`: the largest key capacity, vector words (capacity × stride), stride, and
 * number of references of one segment.
 */
export function planMatchVectors(refOffsets: usize, segRefOffsets: usize, nSegments: i32, plan: usize): void {
  let capacity = 0.0;
  let words = 0.0;
  let stride = 0;
  let refs = 0;
  for (let s = 0; s < nSegments; s++) {
    const r0 = load<i32>(segRefOffsets + (usize(s) << 2));
    const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
    const c = f64(vectorCapacity(refOffsets, r0, r1));
    const w = vectorStride(refOffsets, r0, r1);
    capacity = max(capacity, c);
    words = max(words, c * f64(w));
    stride = max(stride, w);
    refs = max(refs, r1 - r0);
  }
  store<f64>(plan, capacity);
  store<f64>(plan, words, 8);
  store<f64>(plan, f64(stride), 16);
  store<f64>(plan, f64(refs), 24);
}

/**
 * LCS lengths of a batch (see `lcsLengths` in `src/wasm/rouge.ts`).
 *
 * Hypothesis `h` is `hypTokens[hypOffsets[h] .. hypOffsets[h + 1]]` of segment `hypSegments[h]` (or `h` when
 * `hypSegments` is 0); segment `s` has references `segRefOffsets[s] .. segRefOffsets[s + 1]` of the reference CSR.
 * Scratch: `keys` = `keysCapacity` key slots (16 bytes; at least the largest `vectorCapacity` of a segment),
 * `vectors` = that segment's capacity × stride u64, `info` = 12 bytes per reference of the largest segment,
 * `state` = the largest stride in u64. `out` receives, hypothesis after hypothesis, one i32 per reference of the
 * hypothesis' segment.
 */
export function lcsLengths(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize,
  keys: usize, keysCapacity: u32, vectors: usize, info: usize, state: usize, out: usize,
): void {
  memory.fill(keys, 0, usize(keysCapacity) << STAMPED_SHIFT);
  let segment = -1;
  let k = 0;
  let stride = 0;
  let capacity: u32 = 0;
  let generation: u32 = 0;
  let single = false;
  let row = out;
  for (let h = 0; h < nHyps; h++) {
    const s = hypSegments ? load<i32>(hypSegments + (usize(h) << 2)) : h;
    if (s != segment) {
      segment = s;
      const r0 = load<i32>(segRefOffsets + (usize(s) << 2));
      const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
      k = r1 - r0;
      stride = vectorStride(refOffsets, r0, r1);
      capacity = vectorCapacity(refOffsets, r0, r1);
      assert(k >= 0 && capacity <= keysCapacity);
      generation++;
      single = buildMatchVectors(keys, capacity, vectors, stride, generation, refTokens, refOffsets, r0, r1, info);
    }
    if (k == 0) continue;
    const tag = stampedTag(generation, 0);
    const from = load<i32>(hypOffsets + (usize(h) << 2));
    const to = load<i32>(hypOffsets + (usize(h) << 2), 4);
    if (single) lengthsSingleWord(hypTokens, from, to, keys, capacity, tag, vectors, stride, state, info, k, row);
    else lengthsMultiWord(hypTokens, from, to, keys, capacity, tag, vectors, stride, state, info, k, row);
    row += usize(k) << 2;
  }
}

/**
 * Marks in `mask` (one byte per reference position, set to 1) the reference positions on the LCS of `ref` and `hyp`
 * that the ROUGE traceback takes, reading the stored columns (`words` u64 each, column j-1 = V_j).
 */
// @ts-ignore: decorator
@inline
function traceColumns(
  refTokens: usize, refFrom: i32, m: i32, hypTokens: usize, hypFrom: i32, n: i32, columns: usize, words: i32,
  mask: usize,
): void {
  const columnBytes = usize(words) << 3;
  let i = m;
  let j = n;
  while (i > 0 && j > 0) {
    if (tokenAt(refTokens, refFrom + i - 1) == tokenAt(hypTokens, hypFrom + j - 1)) {
      i--;
      j--;
      store<u8>(mask + usize(i), 1);
    } else {
      const column = columns + usize(j - 1) * columnBytes;
      const bit = i - 1;
      if ((load<u64>(column + (usize(bit >> 6) << 3)) >> u64(bit & 63)) & 1) i--;
      else j--;
    }
  }
}

/**
 * Union LCS hit masks (ROUGE-L summary level; see `lcsUnionMasks` in `src/wasm/rouge.ts`).
 *
 * Unit `u` is four i32 at `units + 16u`: reference rows `refFrom .. refTo` and hypothesis rows `hypFrom .. hypTo` of
 * the two CSR stores (sentences). For each reference row, `out` gets one byte per token, 1 where the position lies
 * on the traced LCS with at least one hypothesis row of the unit; the masks of all units' reference rows follow
 * each other in order. Scratch: `keys` = `keysCapacity` key slots (at least `tableSlots(longest reference row)`),
 * `vectors` = that many slots × the row's words, `info` = 12 bytes, `columns` = longest hypothesis row × words.
 */
export function lcsUnionMasks(
  hypTokens: usize, hypOffsets: usize, refTokens: usize, refOffsets: usize, units: usize, nUnits: i32,
  keys: usize, keysCapacity: u32, vectors: usize, info: usize, columns: usize, out: usize,
): void {
  memory.fill(keys, 0, usize(keysCapacity) << STAMPED_SHIFT);
  let generation: u32 = 0;
  let mask = out;
  for (let u = 0; u < nUnits; u++) {
    const unit = units + (usize(u) << 4);
    const refFrom = load<i32>(unit);
    const refTo = load<i32>(unit, 4);
    const hypFrom = load<i32>(unit, 8);
    const hypTo = load<i32>(unit, 12);
    for (let r = refFrom; r < refTo; r++) {
      const from = load<i32>(refOffsets + (usize(r) << 2));
      const m = load<i32>(refOffsets + (usize(r) << 2), 4) - from;
      memory.fill(mask, 0, usize(m));
      if (m > 0 && hypFrom < hypTo) {
        const words = vectorWords(m);
        const stride = vectorStride(refOffsets, r, r + 1);
        const capacity = vectorCapacity(refOffsets, r, r + 1);
        assert(capacity <= keysCapacity);
        generation++;
        buildMatchVectors(keys, capacity, vectors, stride, generation, refTokens, refOffsets, r, r + 1, info);
        const tag = stampedTag(generation, 0);
        const strideBytes = usize(stride) << 3;
        const columnBytes = usize(words) << 3;
        for (let h = hypFrom; h < hypTo; h++) {
          const hypFromToken = load<i32>(hypOffsets + (usize(h) << 2));
          const n = load<i32>(hypOffsets + (usize(h) << 2), 4) - hypFromToken;
          for (let j = 0; j < n; j++) {
            const slot = stampedFind(keys, capacity, u64(tokenAt(hypTokens, hypFromToken + j)), tag);
            const column = columns + usize(j) * columnBytes;
            advance(j ? column - columnBytes : 0, slot < 0 ? 0 : vectors + usize(slot) * strideBytes, column, words);
          }
          traceColumns(refTokens, from, m, hypTokens, hypFromToken, n, columns, words, mask);
        }
      }
      mask += usize(m);
    }
  }
}
