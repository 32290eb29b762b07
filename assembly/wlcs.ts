/**
 * Weighted LCS kernels (ROUGE-W) over CSR token ids: the dynamic program of Lin (2004, "ROUGE: A Package for
 * Automatic Evaluation of Summaries", §3.3) with weighting function f(k) = k^w, reference as rows.
 *
 *   equal tokens:  k = l[i-1][j-1];  c[i][j] = (c[i-1][j-1] + f(k+1)) - f(k);  l[i][j] = k + 1;  arrow "diagonal"
 *   otherwise:     c[i][j] = c[i-1][j] if c[i-1][j] >= c[i][j-1] (arrow "up"), else c[i][j-1] (arrow "left"); l = 0
 *
 * c[m][n] is the textbook WLCS value (the `paper` flavor; the paper's tie-break `>` instead of `>=` picks an equal
 * value, so the value does not depend on it). ROUGE-1.5.5 (`wlcs_inner` + `markLCS`) does not score c[m][n]: it
 * follows the arrows back from (m, n), marks the reference position of every diagonal step, and adds f(run) for each
 * run of consecutive marked reference positions, left to right. The arrows depend on float comparisons, so the
 * table is computed with exactly ROUGE-1.5.5's operations and order: `(c + f(k+1)) - f(k)`, f from one `pow`.
 *
 * No bit-parallel form of this DP is known (see Palette's PERFORMANCE.md), but most cells see unequal tokens. A
 * row therefore jumps from match to match: the hypothesis' positions of each token are a bit vector
 * (`common/match-vectors`, the hypothesis as pattern), the set bits of the reference token's vector are the row's
 * diagonal cells, and the cells between them are a running maximum with one load and one store each. The whole c
 * table (f64, (m + 1) × (n + 1)) is kept instead of arrows: the traceback re-reads the arrow of each cell on its path
 * (diagonal on equal tokens, else up when c[i-1][j] >= c[i][j-1]) from the same values the forward pass compared.
 * l is written only on diagonal cells, in two alternating rows, and read only where the tokens above-left are equal
 * (elsewhere it is 0).
 * `pow` is AssemblyScript's port of musl's `pow` (ARM optimized-routines, the algorithm of glibc's since 2.28),
 * which is what Perl's `**` calls on Linux.
 */
import {
  WORDS, buildMatchVectors, clearMatchVectors, vectorCapacity, vectorStrideBytes, vectorWords,
} from './common/match-vectors';
import { tokenAt } from './common/rows';
import { findToken } from './common/token-table';

/** f(x) = x^w, ROUGE-1.5.5's `wlcsWeight`. */
export function wlcsWeight(x: f64, w: f64): f64 {
  return Math.pow(x, w);
}

/** f⁻¹(x) = x^(1/w), ROUGE-1.5.5's `wlcsWeightInverse`. */
export function wlcsWeightInverse(x: f64, w: f64): f64 {
  return Math.pow(x, 1.0 / w);
}

/** Writes f(k) for k = 0 .. maxLength to `weights` (f64): every weight a kernel needs, from one `pow` each. */
// @ts-ignore: decorator
@inline
function fillWeights(weights: usize, maxLength: i32, w: f64): void {
  for (let k = 0; k <= maxLength; k++) store<f64>(weights + (usize(k) << 3), wlcsWeight(f64(k), w));
}

/** Bytes of one table row of arrows: one bit per column 0 .. n, whole u64 words. */
// @ts-ignore: decorator
@inline
function arrowRowBytes(n: i32): usize {
  return (usize(n >> 6) + 1) << 3;
}

/** Clears the arrow bit of column `j` (the cell goes "left"). */
// @ts-ignore: decorator
@inline
function markLeft(arrows: usize, j: usize): void {
  const word = arrows + ((j >> 6) << 3);
  store<u64>(word, load<u64>(word) & ~(u64(1) << u64(j & 63)));
}

/** Clears the arrow bits of columns `from` .. `to` (exclusive, from < to). */
// @ts-ignore: decorator
@inline
function markLeftRange(arrows: usize, from: usize, to: usize): void {
  const last = to - 1;
  let word = from >> 6;
  const lastWord = last >> 6;
  // Bits from `from & 63` up in the first word, up to `last & 63` in the last one.
  let bits: u64 = u64(-1) << u64(from & 63);
  while (word < lastWord) {
    const at = arrows + (word << 3);
    store<u64>(at, load<u64>(at) & ~bits);
    bits = u64(-1);
    word++;
  }
  bits &= u64(-1) >> u64(63 - (last & 63));
  const at = arrows + (word << 3);
  store<u64>(at, load<u64>(at) & ~bits);
}

/**
 * The cells of row i from column `j` up to `end` (exclusive), all with unequal tokens, in place over `c`, which
 * holds row i - 1 from column `j` on: a cell stays c[i-1][j] ("up", its arrow bit left set) when that is
 * >= c[i][j-1], else it becomes c[i][j-1] and its arrow bit is cleared ("left"). Returns the last c.
 *
 * When row i - 1 never decreases (`aboveSorted`, the usual case), the cells need no comparisons past the first
 * one that goes up: from there on every cell goes up, so nothing is written at all. Before it, each cell repeats
 * `left`.
 */
// @ts-ignore: decorator
@inline
function unequalCells(c: usize, arrows: usize, j: usize, end: usize, left: f64, aboveSorted: bool): f64 {
  if (j >= end) return left;
  if (aboveSorted) {
    // Find the run of cells that go left first, then write it: the cells' stores are independent, and the arrow
    // bits are cleared a word at a time.
    let stop = j;
    while (stop < end && load<f64>(c + (stop << 3)) < left) stop++;
    if (stop > j) {
      for (let at = j; at < stop; at++) store<f64>(c + (at << 3), left);
      markLeftRange(arrows, j, stop);
    }
    return stop < end ? load<f64>(c + ((end - 1) << 3)) : left;
  }
  for (; j < end; j++) {
    const up = load<f64>(c + (j << 3));
    if (up >= left) left = up;
    else {
      store<f64>(c + (j << 3), left);
      markLeft(arrows, j);
    }
  }
  return left;
}

/**
 * Runs the DP of reference `ref[refFrom .. refFrom + m]` (rows) against hypothesis `hyp[hypFrom .. hypFrom + n]`
 * (columns) and returns c[m][n]. Only one row of c is kept (f64, n + 1, at `table`, updated in place); what the
 * traceback needs of the others is the arrow of each cell with unequal tokens, one bit per cell (set: "up"), m rows
 * of `arrowRowBytes(n)` right after it — the same comparisons of the same doubles as the full table gave. The
 * hypothesis' position vectors are slots of `strideBytes` at `vectors`, indexed by token id (`direct`) or found in
 * the token table (`keys`, `capacity`, `generation`). `runs`: scratch of 2(n + 1) i32 for two rows of l. `table`
 * holds (m + 1) × (n + 1) f64, more than (n + 1) f64 and m arrow rows. m and n are at least 1.
 */
// @ts-ignore: decorator
@inline
function fillTable(
  refTokens: usize, refFrom: i32, m: i32, hypTokens: usize, hypFrom: i32, n: i32, direct: bool, keys: usize,
  capacity: u32, generation: u32, vectors: usize, strideBytes: usize, weights: usize, table: usize, runs: usize,
): f64 {
  const width = usize(n + 1);
  const words = vectorWords(n);
  const c = table;
  const arrowBytes = arrowRowBytes(n);
  memory.fill(c, 0, width << 3);
  const end = usize(n) + 1;
  // Whether row i - 1 never decreases (row 0 is all zero). Cells with unequal tokens never go below their left
  // neighbour; only a diagonal cell can.
  let aboveSorted = true;
  let arrows = c + (width << 3);
  for (let i = 1; i <= m; i++, arrows += arrowBytes) {
    // Every arrow "up" until a cell goes left.
    for (let b: usize = 0; b < arrowBytes; b += 8) store<u64>(arrows + b, -1);
    let sorted = true;
    const x = tokenAt(refTokens, refFrom + i - 1);
    const pm = vectors + usize(direct ? x : findToken(keys, capacity, generation, x)) * strideBytes;
    // Rows of l alternate between two buffers; a value is read only where the tokens above-left are equal, and
    // then row i - 1 wrote it.
    const lAbove = runs + ((usize((i - 1) & 1) * width) << 2);
    const lRow = runs + ((usize(i & 1) * width) << 2);
    const previous = i > 1 ? tokenAt(refTokens, refFrom + i - 2) : 0;
    let left = 0.0;
    // c[i-1][j-1] once column j - 1 of row i is written (column 0 is always 0).
    let aboveLeft = 0.0;
    let j: usize = 1;
    for (let w = 0; w < words; w++) {
      let bits = load<u64>(pm + (usize(w) << 3));
      while (bits) {
        const at = (usize(w) << 6) + usize(ctz<u64>(bits)) + 1;
        bits &= bits - 1;
        // c[i-1][at-1], read before the cells up to it are overwritten.
        const diagonalAbove = at > j ? load<f64>(c + ((at - 1) << 3)) : aboveLeft;
        left = unequalCells(c, arrows, j, at, left, aboveSorted);
        // The diagonal cell (i, at): k = l[i-1][at-1], which is 0 unless the tokens there are equal too.
        const k = i > 1 && at > 1 && previous == tokenAt(hypTokens, hypFrom + i32(at) - 2) ? load<i32>(lAbove + ((at - 1) << 2)) : 0;
        const f = weights + (usize(k) << 3);
        const diagonal = (diagonalAbove + load<f64>(f, 8)) - load<f64>(f);
        if (diagonal < left) sorted = false;
        left = diagonal;
        aboveLeft = load<f64>(c + (at << 3));
        store<f64>(c + (at << 3), left);
        store<i32>(lRow + (at << 2), k + 1);
        j = at + 1;
      }
    }
    unequalCells(c, arrows, j, end, left, aboveSorted);
    aboveSorted = sorted;
  }
  return load<f64>(c + (usize(n) << 3));
}

/**
 * Follows ROUGE-1.5.5's arrows back from (m, n) (diagonal on equal tokens, else the arrow bit `fillTable` left in
 * `table`), setting `mask[i]` = 1 at every diagonal step's reference position.
 */
// @ts-ignore: decorator
@inline
function trace(
  refTokens: usize, refFrom: i32, m: i32, hypTokens: usize, hypFrom: i32, n: i32, table: usize, mask: usize,
): void {
  const arrowBytes = arrowRowBytes(n);
  // The arrow row of reference row i (1-based) starts at arrows + (i - 1) · arrowBytes.
  let row = table + (usize(n + 1) << 3) + usize(m - 1) * arrowBytes;
  let i = m;
  let j = n;
  let ref = refTokens + (usize(refFrom + m - 1) << 2);
  let hyp = hypTokens + (usize(hypFrom + n - 1) << 2);
  while (i > 0 && j > 0) {
    if (load<u32>(ref) == load<u32>(hyp)) {
      store<u8>(mask + usize(i - 1), 1);
      i--;
      j--;
      row -= arrowBytes;
      ref -= 4;
      hyp -= 4;
    } else if ((load<u64>(row + (usize(j >> 6) << 3)) >> u64(j & 63)) & 1) {
      i--;
      row -= arrowBytes;
      ref -= 4;
    } else {
      j--;
      hyp -= 4;
    }
  }
}

/**
 * WLCS statistics of a batch (see `wlcsPairStats` in `src/wasm/rouge.ts`). Inputs as for `lcsLengths`; `w` is the
 * weight exponent, `maxLength` the longest reference (for the table of f in `weights`, maxLength + 1 f64), `table`
 * the largest (m + 1) × (n + 1) f64, `runs` 2(n + 1) i32 for the longest hypothesis, `mask` the longest m bytes.
 * Position vectors of the hypotheses (`planMatchVectors` over the hypothesis rows): `keys` (`keysCapacity` u64),
 * `vectors`, `info` (12 bytes); with `directBytes` > 0 every token id is in `[0, V)`, `vectors` holds
 * `directBytes` = V × the largest slot and is indexed by token id. `out` receives, hypothesis after hypothesis, one row of 3 f64 per reference of
 * its segment: ROUGE-1.5.5 hit weight (Σ f(run) over runs of the traced mask, left to right), traced hits, c[m][n].
 */
export function wlcsPairStats(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize,
  w: f64, maxLength: i32, weights: usize, table: usize, runs: usize, mask: usize,
  keys: usize, keysCapacity: u32, vectors: usize, directBytes: usize, info: usize, out: usize,
): void {
  fillWeights(weights, maxLength, w);
  if (directBytes) pairStats(true, hypTokens, hypOffsets, nHyps, hypSegments, refTokens, refOffsets, segRefOffsets, maxLength, weights, table, runs, mask, keys, vectors, directBytes, info, out);
  else pairStats(false, hypTokens, hypOffsets, nHyps, hypSegments, refTokens, refOffsets, segRefOffsets, maxLength, weights, table, runs, mask, keys, vectors, usize(keysCapacity) << 3, info, out);
}

/**
 * `wlcsPairStats` with the position-vector addressing fixed at compile time; `clearBytes` is the region to clear
 * first (the vectors when `direct`, else the token keys).
 */
// @ts-ignore: decorator
@inline
function pairStats(
  direct: bool, hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize, maxLength: i32, weights: usize, table: usize,
  runs: usize, mask: usize, keys: usize, vectors: usize, clearBytes: usize, info: usize, out: usize,
): void {
  memory.fill(direct ? vectors : keys, 0, clearBytes);
  let generation: u32 = 0;
  let capacity: u32 = 0;
  let strideBytes: usize = 0;
  let row = out;
  for (let h = 0; h < nHyps; h++) {
    const s = hypSegments ? load<i32>(hypSegments + (usize(h) << 2)) : h;
    const r0 = load<i32>(segRefOffsets + (usize(s) << 2));
    const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
    const hypFrom = load<i32>(hypOffsets + (usize(h) << 2));
    const n = load<i32>(hypOffsets + (usize(h) << 2), 4) - hypFrom;
    if (n > 0 && r1 > r0) {
      // The hypothesis as the pattern of `common/match-vectors`: one set of one sequence, under a new generation.
      capacity = vectorCapacity(hypOffsets, h, h + 1);
      strideBytes = vectorStrideBytes(WORDS, hypOffsets, h, h + 1);
      generation++;
      buildMatchVectors(direct, keys, capacity, vectors, strideBytes, WORDS, generation, hypTokens, hypOffsets, h, h + 1, info);
    }
    for (let r = r0; r < r1; r++, row += 24) {
      const refFrom = load<i32>(refOffsets + (usize(r) << 2));
      const m = load<i32>(refOffsets + (usize(r) << 2), 4) - refFrom;
      assert(m <= maxLength);
      if (m == 0 || n == 0) {
        memory.fill(row, 0, 24);
        continue;
      }
      const value = fillTable(refTokens, refFrom, m, hypTokens, hypFrom, n, direct, keys, capacity, generation, vectors, strideBytes, weights, table, runs);
      memory.fill(mask, 0, usize(m));
      trace(refTokens, refFrom, m, hypTokens, hypFrom, n, table, mask);
      let hit = 0.0;
      let hits = 0;
      let run = 0;
      for (let i = 0; i < m; i++) {
        if (load<u8>(mask + usize(i))) {
          run++;
          hits++;
          if (i + 1 == m || !load<u8>(mask + usize(i + 1))) {
            hit += load<f64>(weights + (usize(run) << 3));
            run = 0;
          }
        }
      }
      store<f64>(row, hit);
      store<f64>(row, f64(hits), 8);
      store<f64>(row, value, 16);
    }
    if (direct && n > 0 && r1 > r0) clearMatchVectors(vectors, strideBytes, hypTokens, hypOffsets, h, h + 1);
  }
}

/**
 * Union WLCS hit masks (ROUGE-W summary level; see `wlcsUnionMasks` in `src/wasm/rouge.ts`): units and `out` as for
 * `lcsUnionMasks`, with ROUGE-1.5.5's WLCS traceback for each (reference row, hypothesis row) pair. Scratch as for
 * `wlcsPairStats` (position vectors in the token table only), with `maxLength` the longest reference row.
 */
export function wlcsUnionMasks(
  hypTokens: usize, hypOffsets: usize, refTokens: usize, refOffsets: usize, units: usize, nUnits: i32,
  w: f64, maxLength: i32, weights: usize, table: usize, runs: usize,
  keys: usize, keysCapacity: u32, vectors: usize, info: usize, out: usize,
): void {
  fillWeights(weights, maxLength, w);
  memory.fill(keys, 0, usize(keysCapacity) << 3);
  let generation: u32 = 0;
  let mask = out;
  for (let u = 0; u < nUnits; u++) {
    const unit = units + (usize(u) << 4);
    const refFrom = load<i32>(unit);
    const refTo = load<i32>(unit, 4);
    const hypFrom = load<i32>(unit, 8);
    const hypTo = load<i32>(unit, 12);
    let unitMasks = mask;
    for (let r = refFrom; r < refTo; r++) {
      const m = load<i32>(refOffsets + (usize(r) << 2), 4) - load<i32>(refOffsets + (usize(r) << 2));
      assert(m <= maxLength);
      memory.fill(unitMasks, 0, usize(m));
      unitMasks += usize(m);
    }
    // Hypothesis rows outside, so that each one's position vectors are built once per unit.
    for (let h = hypFrom; h < hypTo; h++) {
      const hypStart = load<i32>(hypOffsets + (usize(h) << 2));
      const n = load<i32>(hypOffsets + (usize(h) << 2), 4) - hypStart;
      if (n == 0 || refTo == refFrom) continue;
      const capacity = vectorCapacity(hypOffsets, h, h + 1);
      const strideBytes = vectorStrideBytes(WORDS, hypOffsets, h, h + 1);
      generation++;
      buildMatchVectors(false, keys, capacity, vectors, strideBytes, WORDS, generation, hypTokens, hypOffsets, h, h + 1, info);
      let at = mask;
      for (let r = refFrom; r < refTo; r++) {
        const from = load<i32>(refOffsets + (usize(r) << 2));
        const m = load<i32>(refOffsets + (usize(r) << 2), 4) - from;
        if (m > 0) {
          fillTable(refTokens, from, m, hypTokens, hypStart, n, false, keys, capacity, generation, vectors, strideBytes, weights, table, runs);
          trace(refTokens, from, m, hypTokens, hypStart, n, table, at);
        }
        at += usize(m);
      }
    }
    mask = unitMasks;
  }
}
