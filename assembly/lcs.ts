/**
 * Longest common subsequence kernels (ROUGE-L) over CSR token ids.
 *
 * Length: the bit-parallel LCS of Allison & Dix (1986, "A bit-string longest-common-subsequence algorithm"), in the
 * form of Crochemore, Iliopoulos, Pinzon & Reid (2001) and Hyyrö (2004, "Bit-parallel LCS-length computation
 * revisited"). The reference is the pattern: its match vectors `PM[t]` are built once per segment
 * (`common/match-vectors`) and shared by every hypothesis of the segment. For each hypothesis token t,
 * `u = V & PM[t]; V = (V + u) | (V - u)`, starting from V = all ones; afterwards the LCS length is the number of
 * zero bits of V among the reference's m positions. When every reference of a segment has at most 32 tokens, each
 * takes a 32-bit lane (four references per `i32x4` instruction, no carry crosses lanes), up to 64 tokens a 64-bit
 * lane (`i64x2`); longer ones use several words, the addition's carry passed upward by unsigned compare (`V - u`
 * never borrows: u is a subset of V). Small dense token ids (an interned vocabulary) index the match vectors
 * directly; other ids go through a token table (`common/match-vectors`).
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
  INFO_BYTES, INFO_LENGTH, INFO_WORD, INFO_WORDS, LANES32, LANES64, WORDS, buildMatchVectors, clearMatchVectors,
  vectorCapacity, vectorLayout, vectorStrideBytes, vectorWords, zeroBits,
} from './common/match-vectors';
import { rowLength, tokenAt } from './common/rows';
import { findToken } from './common/token-table';

/** `V = (V + u) | (V - u)` with `u = V & pm`, lane-wise in 32- or 64-bit lanes. */
// @ts-ignore: decorator
@inline
function step(v: v128, pm: v128, lanes32: bool): v128 {
  const u = v128.and(v, pm);
  return lanes32 ? v128.or(i32x4.add(v, u), i32x4.sub(v, u)) : v128.or(i64x2.add(v, u), i64x2.sub(v, u));
}

/**
 * Slot of a hypothesis token's match vectors: directly indexed, or found in the token table (the all-zero slot
 * when absent).
 */
// @ts-ignore: decorator
@inline
function vectorsOf(direct: bool, keys: usize, capacity: u32, generation: u32, token: u32, vectors: usize, strideBytes: usize): usize {
  return vectors + usize(direct ? token : findToken(keys, capacity, generation, token)) * strideBytes;
}

/**
 * LCS lengths of one hypothesis against references in lanes (`LANES32` or `LANES64`): the vectors of all references
 * advance together, one `v128` per four (or two) references, in registers for up to eight (four). A token absent
 * from the references reads an all-zero slot, which leaves V unchanged.
 */
// @ts-ignore: decorator
@inline
function lengthsInLanes(
  direct: bool, hypTokens: usize, from: i32, to: i32, keys: usize, capacity: u32, generation: u32, vectors: usize,
  strideBytes: usize, lanes32: bool, state: usize, refOffsets: usize, r0: i32, k: i32, pairRows: bool, row: usize,
): void {
  const ones = i64x2.splat(-1);
  if (strideBytes == 16) {
    let v = ones;
    for (let j = from; j < to; j++) {
      v = step(v, v128.load(vectorsOf(direct, keys, capacity, generation, tokenAt(hypTokens, j), vectors, 16)), lanes32);
    }
    v128.store(state, v);
  } else if (strideBytes == 32) {
    let v0 = ones;
    let v1 = ones;
    for (let j = from; j < to; j++) {
      const pm = vectorsOf(direct, keys, capacity, generation, tokenAt(hypTokens, j), vectors, 32);
      v0 = step(v0, v128.load(pm), lanes32);
      v1 = step(v1, v128.load(pm, 16), lanes32);
    }
    v128.store(state, v0);
    v128.store(state, v1, 16);
  } else {
    for (let q: usize = 0; q < strideBytes; q += 16) v128.store(state + q, ones);
    for (let j = from; j < to; j++) {
      const pm = vectorsOf(direct, keys, capacity, generation, tokenAt(hypTokens, j), vectors, strideBytes);
      for (let q: usize = 0; q < strideBytes; q += 16) {
        v128.store(state + q, step(v128.load(state + q), v128.load(pm + q), lanes32));
      }
    }
  }
  for (let r = 0; r < k; r++) {
    const m = rowLength(refOffsets, r0 + r);
    let lcs: i32;
    if (lanes32) lcs = i32(popcnt<u32>(~load<u32>(state + (usize(r) << 2)) & u32(lowBits32(m))));
    else lcs = i32(popcnt<u64>(~load<u64>(state + (usize(r) << 3)) & lowBits64(m)));
    putLength(row, r, lcs, pairRows, to - from, m);
  }
}

/**
 * Writes the LCS length of the hypothesis (`n` tokens) against its reference `r` (`m` tokens): an i32 at
 * `row + 4r`, or with `pairRows` the pair row of `assembly/rouge-rows.ts` at `row + 32r`, 4 f64: the LCS, n, m
 * and a select of 0 (ROUGE-L's counts, which the row kernel then reads where they are).
 */
// @ts-ignore: decorator
@inline
function putLength(row: usize, r: i32, lcs: i32, pairRows: bool, n: i32, m: i32): void {
  if (pairRows) {
    const at = row + (usize(r) << 5);
    store<f64>(at, f64(lcs));
    store<f64>(at, f64(n), 8);
    store<f64>(at, f64(m), 16);
    store<f64>(at, 0, 24);
  } else {
    store<i32>(row + (usize(r) << 2), lcs);
  }
}

/** Mask of bits `0 .. bits` of a 32-bit lane (bits in 0..32). */
// @ts-ignore: decorator
@inline
function lowBits32(bits: i32): u32 {
  return bits >= 32 ? u32.MAX_VALUE : (u32(1) << u32(bits)) - 1;
}

/** Mask of bits `0 .. bits` of a 64-bit lane (bits in 0..64). */
// @ts-ignore: decorator
@inline
function lowBits64(bits: i32): u64 {
  return bits >= 64 ? u64.MAX_VALUE : (u64(1) << u64(bits)) - 1;
}

/**
 * Advances the `WORDS` vector of one reference by one hypothesis token: `V = (V + u) | (V - u)` word by word
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

/** LCS lengths of one hypothesis against references in the `WORDS` layout (vectors of `info[r].words` words in `state`). */
// @ts-ignore: decorator
@inline
function lengthsInWords(
  direct: bool, hypTokens: usize, from: i32, to: i32, keys: usize, capacity: u32, generation: u32, vectors: usize,
  strideBytes: usize, state: usize, info: usize, k: i32, pairRows: bool, row: usize,
): void {
  for (let q: usize = 0; q < strideBytes; q += 8) store<u64>(state + q, u64.MAX_VALUE);
  for (let j = from; j < to; j++) {
    const token = tokenAt(hypTokens, j);
    const slot = direct ? token : findToken(keys, capacity, generation, token);
    // Several words per reference: skipping a token the table does not have is worth a branch here.
    if (!direct && slot == capacity) continue;
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
    const m = load<i32>(entry, INFO_LENGTH);
    putLength(row, r, zeroBits(state + at, m), pairRows, to - from, m);
  }
}

/**
 * Sizes the scratch of `lcsLengths` for segments `0 .. nSegments` — or of `lcsUnionMasks` (`words` set), given one
 * segment per reference row. Writes 4 f64 to `plan`: the largest key capacity, vector bytes
 * ((capacity + 1) × slot bytes), slot bytes, and number of references of one segment.
 */
export function planMatchVectors(refOffsets: usize, segRefOffsets: usize, nSegments: i32, words: bool, plan: usize): void {
  let capacity = 0.0;
  let bytes = 0.0;
  let stride = 0.0;
  let refs = 0;
  for (let s = 0; s < nSegments; s++) {
    const r0 = load<i32>(segRefOffsets + (usize(s) << 2));
    const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
    const c = f64(vectorCapacity(refOffsets, r0, r1));
    const w = f64(vectorStrideBytes(vectorLayout(refOffsets, r0, r1, words), refOffsets, r0, r1));
    capacity = max(capacity, c);
    bytes = max(bytes, (c + 1) * w);
    stride = max(stride, w);
    refs = max(refs, r1 - r0);
  }
  store<f64>(plan, capacity);
  store<f64>(plan, bytes, 8);
  store<f64>(plan, stride, 16);
  store<f64>(plan, f64(refs), 24);
}

/**
 * LCS lengths of a batch (see `lcsLengths` in `src/wasm/rouge.ts`).
 *
 * Hypothesis `h` is `hypTokens[hypOffsets[h] .. hypOffsets[h + 1]]` of segment `hypSegments[h]` (or `h` when
 * `hypSegments` is 0); segment `s` has references `segRefOffsets[s] .. segRefOffsets[s + 1]` of the reference CSR.
 * Scratch, as `planMatchVectors` sizes it: `keys` = `keysCapacity` u64, `vectors`, `info` = 12 bytes per
 * reference, `state` = one slot. With `directBytes` > 0 every token id is in `[0, V)` and `vectors` holds
 * `directBytes` = V × the largest slot: slots are indexed by token id and the token table is not used.
 * `out` receives, hypothesis after hypothesis, one i32 per reference of the hypothesis' segment — or, with
 * `pairRows` set, one pair row of 4 f64 (LCS, hypothesis length, reference length, 0) for the row kernel.
 */
export function lcsLengths(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize,
  keys: usize, keysCapacity: u32, vectors: usize, directBytes: usize, info: usize, state: usize, out: usize,
  pairRows: bool,
): void {
  if (directBytes) lengthsOfBatch(true, hypTokens, hypOffsets, nHyps, hypSegments, refTokens, refOffsets, segRefOffsets, keys, keysCapacity, vectors, directBytes, info, state, out, pairRows);
  else lengthsOfBatch(false, hypTokens, hypOffsets, nHyps, hypSegments, refTokens, refOffsets, segRefOffsets, keys, keysCapacity, vectors, 0, info, state, out, pairRows);
}

/** `lcsLengths` with the slot addressing fixed at compile time. */
// @ts-ignore: decorator
@inline
function lengthsOfBatch(
  direct: bool, hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize,
  keys: usize, keysCapacity: u32, vectors: usize, directBytes: usize, info: usize, state: usize, out: usize,
  pairRows: bool,
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
  let layout = WORDS;
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
    if (k == 0) continue;
    const from = load<i32>(hypOffsets + (usize(h) << 2));
    const to = load<i32>(hypOffsets + (usize(h) << 2), 4);
    if (layout == LANES32) {
      lengthsInLanes(direct, hypTokens, from, to, keys, capacity, generation, vectors, strideBytes, true, state, refOffsets, r0, k, pairRows, row);
    } else if (layout == LANES64) {
      lengthsInLanes(direct, hypTokens, from, to, keys, capacity, generation, vectors, strideBytes, false, state, refOffsets, r0, k, pairRows, row);
    } else {
      lengthsInWords(direct, hypTokens, from, to, keys, capacity, generation, vectors, strideBytes, state, info, k, pairRows, row);
    }
    row += usize(k) << (pairRows ? 5 : 2);
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
  memory.fill(keys, 0, usize(keysCapacity) << 3);
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
      const m = rowLength(refOffsets, r);
      memory.fill(mask, 0, usize(m));
      if (m > 0 && hypFrom < hypTo) {
        const words = vectorWords(m);
        const strideBytes = vectorStrideBytes(WORDS, refOffsets, r, r + 1);
        const capacity = vectorCapacity(refOffsets, r, r + 1);
        assert(capacity <= keysCapacity);
        generation++;
        buildMatchVectors(false, keys, capacity, vectors, strideBytes, WORDS, generation, refTokens, refOffsets, r, r + 1, info);
        const columnBytes = usize(words) << 3;
        for (let h = hypFrom; h < hypTo; h++) {
          const hypFromToken = load<i32>(hypOffsets + (usize(h) << 2));
          const n = rowLength(hypOffsets, h);
          for (let j = 0; j < n; j++) {
            const slot = findToken(keys, capacity, generation, tokenAt(hypTokens, hypFromToken + j));
            const column = columns + usize(j) * columnBytes;
            advance(j ? column - columnBytes : 0, slot == capacity ? 0 : vectors + usize(slot) * strideBytes, column, words);
          }
          traceColumns(refTokens, from, m, hypTokens, hypFromToken, n, columns, words, mask);
        }
      }
      mask += usize(m);
    }
  }
}
