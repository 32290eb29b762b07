/**
 * sacreBLEU 2.6.0's TER (sacrebleu/metrics/lib_ter.py, `translation_edit_rate`) over CSR token ids: per
 * (hypothesis, reference) pair, greedy block shifts chosen among candidates ranked by (gain, length, −start,
 * −target) until none helps or 1000 candidates have been scored, then the beam edit distance (Snover et al. 2006
 * for TER; the band is sacreBLEU's own: columns `[⌊i·m/n⌋ − beam, ⌊i·m/n⌋ + beam)` of row `i`).
 *
 * The same algorithm as `src/metrics/ter/shift-search.ts` and `beam-edit-distance.ts` (read their comments for the
 * rules), and the same arithmetic: the band comes from the same double operations; a candidate's distance re-runs
 * only the rows its shift changes and closes with the backward matrix of the current hypothesis. Property tests
 * check this kernel against the plain TypeScript port of lib_ter.
 *
 * All arrays are i32 in the caller's scratch memory, laid out per pair by `layout` (see `terScratchBytes`).
 */
import { get, put } from './common/memory';

const INF: i32 = 0x3fffffff;
/** `INF` in every lane: what a lane shifted in from outside a group of four cells holds. */
const INF4: v128 = i32x4(INF, INF, INF, INF);
/** Each lane's index: the distance of a cell from the first of its group of four. */
const LANES: v128 = i32x4(0, 1, 2, 3);

/** The beam of a pair: sacreBLEU widens it to ⌈ratio/2 + beam⌉ when the length ratio exceeds twice the beam. */
// @ts-ignore: decorator
@inline
function beamOf(ratio: f64, beamWidth: i32): i32 {
  return f64(beamWidth) < ratio / 2 ? i32(Math.ceil(ratio / 2 + f64(beamWidth))) : beamWidth;
}

/** Fills the band of `n` rows against `m` columns into `lo`, `hi`, `start`; returns the number of cells. */
function fillBand(n: i32, m: i32, beamWidth: i32, lo: usize, hi: usize, start: usize): i32 {
  const ratio: f64 = n > 0 ? f64(m) / f64(n) : 1.0;
  const beam = beamOf(ratio, beamWidth);
  put(lo, 0, 0);
  put(hi, 0, m + 1);
  put(start, 0, 0);
  put(start, 1, m + 1);
  for (let i = 1; i <= n; i++) {
    const diag = i32(Math.floor(f64(i) * ratio));
    const l = max(0, diag - beam);
    const h = i == n ? m + 1 : min(m + 1, diag + beam);
    put(lo, i, l);
    put(hi, i, h);
    put(start, i + 1, get(start, i) + max(0, h - l));
  }
  return get(start, n + 1);
}

/** Cells of the band of `n` rows against `m` columns (as `fillBand` counts them, without storing the band). */
function bandCells(n: i32, m: i32, beamWidth: i32): i32 {
  const ratio: f64 = n > 0 ? f64(m) / f64(n) : 1.0;
  const beam = beamOf(ratio, beamWidth);
  let cells = m + 1;
  for (let i = 1; i <= n; i++) {
    const diag = i32(Math.floor(f64(i) * ratio));
    cells += max(0, (i == n ? m + 1 : min(m + 1, diag + beam)) - max(0, diag - beam));
  }
  return cells;
}

/**
 * One forward row: `dst[j]` for `j` in `[clo, chi)` from `src[j]` (valid on `[plo, phi)`), hypothesis word `w`.
 * `src` and `dst` point at the cell of column 0 of their rows. Split where the available neighbours change, as in
 * the TypeScript `bandRow`.
 */
// @ts-ignore: decorator
@inline
function bandRow(src: usize, plo: i32, phi: i32, dst: usize, clo: i32, chi: i32, w: i32, ref: usize): void {
  let j = clo;
  let left = INF;
  if (j == 0) {
    left = get(src, 0) + 1;
    put(dst, 0, left);
    j = 1;
  } else if (j == plo) {
    left = j < phi ? get(src, j) + 1 : INF;
    put(dst, j, left);
    j++;
  }
  const stop = min(phi, chi);
  // Four cells at a time: `t` = min(diagonal + cost, above + 1) needs no neighbour in the row; then each cell is
  // min over the cells k to its left (this group's and `left`) of t_k + distance, a prefix minimum of t_k − k.
  if (j + 4 <= stop) {
    const wv = i32x4.splat(w);
    for (; j + 4 <= stop; j += 4) {
      const cost = i32x4.add(i32x4.splat(1), i32x4.eq(v128.load(ref + (usize(j - 1) << 2)), wv));
      const t = i32x4.min_s(
        i32x4.add(v128.load(src + (usize(j - 1) << 2)), cost),
        i32x4.add(v128.load(src + (usize(j) << 2)), i32x4.splat(1)),
      );
      let x = i32x4.sub(t, LANES);
      x = i32x4.min_s(x, i32x4.shuffle(INF4, x, 0, 4, 5, 6));
      x = i32x4.min_s(x, i32x4.shuffle(INF4, x, 0, 1, 4, 5));
      const best = i32x4.add(i32x4.min_s(x, i32x4.splat(left + 1)), LANES);
      v128.store(dst + (usize(j) << 2), best);
      left = i32x4.extract_lane(best, 3);
    }
  }
  if (j < stop) {
    // The cell above becomes the next cell's diagonal: one load of the previous row per cell.
    let diag = get(src, j - 1);
    for (; j < stop; j++) {
      const above = get(src, j);
      let best = diag + i32(w != get(ref, j - 1));
      const up = above + 1;
      if (up < best) best = up;
      if (left + 1 < best) best = left + 1;
      put(dst, j, best);
      left = best;
      diag = above;
    }
  }
  if (j < chi) {
    let best = left + 1;
    if (j - 1 >= plo) {
      const diag = get(src, j - 1) + i32(w != get(ref, j - 1));
      if (diag < best) best = diag;
    }
    put(dst, j, best);
    left = best;
    j++;
  }
  for (; j < chi; j++) {
    left++;
    put(dst, j, left);
  }
}

// Operation codes, as `TerOp` in src/metrics/ter/alignment.ts.
const MATCH: i32 = 0;
const SUB: i32 = 1;
const INS: i32 = 2;
const DEL: i32 = 3;

/** Scratch of one pair: addresses of its arrays. */
@unmanaged
class Scratch {
  lo: usize = 0;
  hi: usize = 0;
  start: usize = 0;
  fwd: usize = 0;
  bwd: usize = 0;
  rowA: usize = 0;
  rowB: usize = 0;
  words: usize = 0;
  /** For each reference position, the next position holding the same word (−1: none). */
  refNext: usize = 0;
  /** Open-addressing table of the reference's words: the word of each slot, and its first position (−1: empty). */
  tableWords: usize = 0;
  tableFirst: usize = 0;
  tableMask: i32 = 0;
  cand: usize = 0;
  hypErrSum: usize = 0;
  refErrSum: usize = 0;
  refAlign: usize = 0;
  ops: usize = 0;
  /** Per block length: backward rows of the words before the block, moved right past it (left targets). */
  leftRows: usize = 0;
  /** Per block length: forward rows of the words after the block, moved left over it (right targets). */
  rightRows: usize = 0;
  /** Per block length: the lowest row of `leftRows` computed (above the block's end: none). */
  leftLow: usize = 0;
  /** Per block length: the highest row of `rightRows` computed (below the block's start: none). */
  rightHigh: usize = 0;
  /** Per block length: the epoch its kept rows were computed in (rows of another epoch are stale). */
  keptEpoch: usize = 0;
  /** Counts the (round, start) pairs of the search: the kept rows are valid for one of them. */
  epoch: i32 = 0;
  /** Bytes of one band-shaped matrix. */
  matrixBytes: usize = 0;
  end: usize = 0;
}

/** Slots of the word table of a reference of `m` words: a power of two, at least twice `m`. */
function tableCapacity(m: i32): i32 {
  let capacity = 16;
  while (capacity < 2 * m) capacity <<= 1;
  return capacity;
}

/** The slot of `word` in the table: its own, or the empty one where it would go. */
// @ts-ignore: decorator
@inline
function tableSlot(s: Scratch, word: i32): i32 {
  let h = u32(word) * 0x9e3779b1;
  let slot = i32(h ^ (h >> 15)) & s.tableMask;
  while (get(s.tableFirst, slot) >= 0 && get(s.tableWords, slot) != word) slot = (slot + 1) & s.tableMask;
  return slot;
}

/**
 * Indexes the reference's positions by word: `tableFirst` gives a word's first position and `refNext` chains each
 * position to the next one holding the same word, so the shift search visits only the reference positions where a
 * block can start instead of comparing every position within the shift distance.
 */
function indexReference(s: Scratch, ref: usize, m: i32): void {
  for (let slot = 0; slot <= s.tableMask; slot++) put(s.tableFirst, slot, -1);
  for (let r = m - 1; r >= 0; r--) {
    const word = get(ref, r);
    const slot = tableSlot(s, word);
    put(s.tableWords, slot, word);
    put(s.refNext, r, get(s.tableFirst, slot));
    put(s.tableFirst, slot, r);
  }
}

/** Lays the arrays of a pair out from `base` (16-byte aligned), given its band's cell count. */
function layout(s: Scratch, base: usize, n: i32, m: i32, cells: i32, maxShiftSize: i32): void {
  let at = (base + 15) & ~usize(15);
  s.lo = at;
  at += usize(n + 1) << 2;
  s.hi = at;
  at += usize(n + 1) << 2;
  s.start = at;
  at += usize(n + 2) << 2;
  s.fwd = at;
  at += usize(cells) << 2;
  s.bwd = at;
  at += usize(cells) << 2;
  s.rowA = at;
  at += usize(m + 1) << 2;
  s.rowB = at;
  at += usize(m + 1) << 2;
  s.words = at;
  at += usize(n) << 2;
  s.refNext = at;
  at += usize(m) << 2;
  const capacity = tableCapacity(m);
  s.tableMask = capacity - 1;
  s.tableWords = at;
  at += usize(capacity) << 2;
  s.tableFirst = at;
  at += usize(capacity) << 2;
  s.cand = at;
  at += usize(n) << 2;
  s.hypErrSum = at;
  at += usize(n + 1) << 2;
  s.refErrSum = at;
  at += usize(m + 1) << 2;
  s.refAlign = at;
  at += usize(m) << 2;
  s.ops = at;
  at += usize(n + m) << 2;
  s.leftLow = at;
  at += usize(maxShiftSize + 1) << 2;
  s.rightHigh = at;
  at += usize(maxShiftSize + 1) << 2;
  s.keptEpoch = at;
  at += usize(maxShiftSize + 1) << 2;
  s.matrixBytes = usize(cells) << 2;
  s.leftRows = at;
  at += s.matrixBytes * usize(maxShiftSize);
  s.rightRows = at;
  at += s.matrixBytes * usize(maxShiftSize);
  s.end = at;
}

/**
 * Bytes of scratch that `terSacrebleuEdits` needs for a pair of `n` hypothesis and `m` reference words, with blocks
 * of up to `maxShiftSize` words.
 */
export function terScratchBytes(n: i32, m: i32, beamWidth: i32, maxShiftSize: i32): usize {
  const s = changetype<Scratch>(memory.data(offsetof<Scratch>(), 16));
  layout(s, 0, n, m, bandCells(n, m, beamWidth), maxShiftSize);
  return s.end + 16;
}

/** Forward rows `first + 1 .. n` of the words at `words`; returns the distance (cell `(n, m)`). */
function forwardRows(s: Scratch, first: i32, n: i32, m: i32, ref: usize): i32 {
  const fwd = s.fwd;
  for (let i = first + 1; i <= n; i++) {
    const plo = get(s.lo, i - 1);
    const clo = get(s.lo, i);
    bandRow(
      fwd + (usize(get(s.start, i - 1) - plo) << 2), plo, get(s.hi, i - 1),
      fwd + (usize(get(s.start, i) - clo) << 2), clo, get(s.hi, i), get(s.words, i - 1), ref,
    );
  }
  return get(fwd, get(s.start, n) - get(s.lo, n) + m);
}

/**
 * The address of column 0 of row `i` of a band-shaped matrix at `matrix` (the row's cells are its columns
 * `lo[i] .. hi[i] − 1`; the address may lie before the matrix, only columns of the band are read or written).
 */
// @ts-ignore: decorator
@inline
function rowAt(s: Scratch, matrix: usize, i: i32): usize {
  return matrix + (usize(get(s.start, i) - get(s.lo, i)) << 2);
}

/**
 * Backward cell `j` from the row below (`src`, valid on `[nlo, nhi)`) and the cell to its right (`right`, when
 * `j + 1 < chi`), hypothesis word `w`.
 */
// @ts-ignore: decorator
@inline
function backCell(src: usize, nlo: i32, nhi: i32, chi: i32, j: i32, right: i32, w: i32, ref: usize, m: i32): i32 {
  let best = INF;
  if (j < m && j + 1 >= nlo && j + 1 < nhi) best = get(src, j + 1) + i32(w != get(ref, j));
  if (j >= nlo && j < nhi) {
    const c = get(src, j) + 1;
    if (c < best) best = c;
  }
  if (j + 1 < chi) {
    const c = right + 1;
    if (c < best) best = c;
  }
  return best;
}

/**
 * One backward row: `dst[j]` for `j` in `[clo, chi)` from `src[j]` (valid on `[nlo, nhi)`, the row below),
 * hypothesis word `w`, right to left. The columns where the cell below, the one below right and the one to the
 * right all exist take a loop without bound checks that carries the cell below into the next cell's diagonal; the
 * columns around them take `backCell`.
 */
// @ts-ignore: decorator
@inline
function backRow(src: usize, nlo: i32, nhi: i32, dst: usize, clo: i32, chi: i32, w: i32, ref: usize, m: i32): void {
  let right = INF;
  let j = chi - 1;
  const top = min(min(nhi - 2, m - 1), chi - 2);
  const bottom = max(clo, nlo);
  for (; j > top && j >= clo; j--) {
    right = backCell(src, nlo, nhi, chi, j, right, w, ref, m);
    put(dst, j, right);
  }
  // Four cells at a time, right to left: the mirror of `bandRow`'s groups (a suffix minimum of t_k + k).
  if (j - 3 >= bottom) {
    const wv = i32x4.splat(w);
    for (; j - 3 >= bottom; j -= 4) {
      const at = usize(j - 3) << 2;
      const cost = i32x4.add(i32x4.splat(1), i32x4.eq(v128.load(ref + at), wv));
      const t = i32x4.min_s(
        i32x4.add(v128.load(src + at, 4), cost),
        i32x4.add(v128.load(src + at), i32x4.splat(1)),
      );
      let y = i32x4.add(t, LANES);
      y = i32x4.min_s(y, i32x4.shuffle(y, INF4, 1, 2, 3, 4));
      y = i32x4.min_s(y, i32x4.shuffle(y, INF4, 2, 3, 4, 5));
      const best = i32x4.sub(i32x4.min_s(y, i32x4.splat(right + 4)), LANES);
      v128.store(dst + at, best);
      right = i32x4.extract_lane(best, 0);
    }
  }
  if (j >= bottom) {
    let diag = get(src, j + 1);
    for (; j >= bottom; j--) {
      const below = get(src, j);
      let best = diag + i32(w != get(ref, j));
      const up = below + 1;
      if (up < best) best = up;
      if (right + 1 < best) best = right + 1;
      put(dst, j, best);
      right = best;
      diag = below;
    }
  }
  for (; j >= clo; j--) {
    right = backCell(src, nlo, nhi, chi, j, right, w, ref, m);
    put(dst, j, right);
  }
}

/** Backward rows from `low − 1` down to `k` of the current words; returns the new lowest valid row. */
function backwardTo(s: Scratch, low: i32, k: i32, n: i32, m: i32, ref: usize): i32 {
  const bwd = s.bwd;
  let i = low;
  if (i > n) {
    const last = get(s.start, n) - get(s.lo, n);
    for (let j = get(s.lo, n); j <= m; j++) put(bwd, last + j, m - j);
    i = n;
  }
  for (i--; i >= k; i--) {
    backRow(
      rowAt(s, bwd, i + 1), get(s.lo, i + 1), get(s.hi, i + 1),
      rowAt(s, bwd, i), get(s.lo, i), get(s.hi, i), get(s.words, i), ref, m,
    );
  }
  return k < low ? k : low;
}

/** The smallest `a[j] + b[j]` over the band of row `i` (`a`, `b`: column-0 addresses of two rows). */
// @ts-ignore: decorator
@inline
function meet(s: Scratch, i: i32, a: usize, b: usize): i32 {
  return meetColumns(a, b, get(s.lo, i), get(s.hi, i));
}

/**
 * The smallest `a[j] + b[j]` for `j` in `[lo, hi)` (`INF` when empty): four columns at a time, then the rest. The
 * same i32 sums and signed minimum as one column at a time, so the same value whatever the grouping.
 */
// @ts-ignore: decorator
@inline
function meetColumns(a: usize, b: usize, lo: i32, hi: i32): i32 {
  let j = lo;
  let best = INF;
  if (j + 4 <= hi) {
    let v = INF4;
    for (; j + 4 <= hi; j += 4) {
      const at = usize(j) << 2;
      v = i32x4.min_s(v, i32x4.add(v128.load(a + at), v128.load(b + at)));
    }
    v = i32x4.min_s(v, i32x4.shuffle(v, v, 2, 3, 0, 1));
    v = i32x4.min_s(v, i32x4.shuffle(v, v, 1, 0, 3, 2));
    best = i32x4.extract_lane(v, 0);
  }
  for (; j < hi; j++) {
    const c = get(a, j) + get(b, j);
    if (c < best) best = c;
  }
  return best;
}

/**
 * Distance of the current words with block `[start, start + len)` moved before `target < start`. The rows from
 * `start + len` up to `target + len` hold the words `[target, start)` whatever the target, so their backward rows
 * are computed once per (start, len) and kept in `leftRows` (lowest row in `leftLow`); each target adds the `len`
 * rows of the block and meets the forward matrix at row `target`. Needs the backward matrix from row `start + len`.
 */
function leftDistance(s: Scratch, start: i32, len: i32, target: i32, m: i32, ref: usize): i32 {
  const end = start + len;
  const cache = s.leftRows + s.matrixBytes * usize(len - 1);
  if (get(s.keptEpoch, len) != s.epoch) {
    put(s.keptEpoch, len, s.epoch);
    put(s.leftLow, len, end + 1);
    put(s.rightHigh, len, start - 1);
  }
  let low = get(s.leftLow, len);
  if (low > end) {
    const from = get(s.start, end);
    memory.copy(cache + (usize(from) << 2), s.bwd + (usize(from) << 2), usize(get(s.start, end + 1) - from) << 2);
    low = end;
  }
  const words = s.words;
  for (; low > target + len; low--) {
    const k = low - 1;
    backRow(
      rowAt(s, cache, low), get(s.lo, low), get(s.hi, low),
      rowAt(s, cache, k), get(s.lo, k), get(s.hi, k), get(words, k - len), ref, m,
    );
  }
  put(s.leftLow, len, low);
  let src = rowAt(s, cache, target + len);
  let cur = s.rowA;
  let other = s.rowB;
  for (let k = target + len - 1; k >= target; k--) {
    backRow(src, get(s.lo, k + 1), get(s.hi, k + 1), cur, get(s.lo, k), get(s.hi, k), get(words, start + k - target), ref, m);
    src = cur;
    cur = other;
    other = src;
  }
  return meet(s, target, rowAt(s, s.fwd, target), src);
}

/**
 * Distance of the current words with block `[start, start + len)` moved before `target > start + len`: the mirror
 * of `leftDistance`. Rows `start + 1 .. target − len` hold the words after the block whatever the target: their
 * forward rows are kept in `rightRows` (highest row in `rightHigh`); each target adds the block's `len` rows and
 * meets the backward matrix at row `target` (needed from there unless `target` is `n`).
 */
function rightDistance(s: Scratch, start: i32, len: i32, target: i32, n: i32, m: i32, ref: usize): i32 {
  const cache = s.rightRows + s.matrixBytes * usize(len - 1);
  if (get(s.keptEpoch, len) != s.epoch) {
    put(s.keptEpoch, len, s.epoch);
    put(s.leftLow, len, start + len + 1);
    put(s.rightHigh, len, start - 1);
  }
  let high = get(s.rightHigh, len);
  if (high < start) {
    const from = get(s.start, start);
    memory.copy(cache + (usize(from) << 2), s.fwd + (usize(from) << 2), usize(get(s.start, start + 1) - from) << 2);
    high = start;
  }
  const words = s.words;
  for (; high < target - len; high++) {
    const i = high + 1;
    bandRow(
      rowAt(s, cache, high), get(s.lo, high), get(s.hi, high),
      rowAt(s, cache, i), get(s.lo, i), get(s.hi, i), get(words, high + len), ref,
    );
  }
  put(s.rightHigh, len, high);
  let prev = rowAt(s, cache, target - len);
  let cur = s.rowA;
  let other = s.rowB;
  for (let i = target - len + 1; i <= target; i++) {
    bandRow(prev, get(s.lo, i - 1), get(s.hi, i - 1), cur, get(s.lo, i), get(s.hi, i), get(words, start + i - 1 - target + len), ref);
    prev = cur;
    cur = other;
    other = prev;
  }
  if (target == n) return get(prev, m);
  return meet(s, target, prev, rowAt(s, s.bwd, target));
}

/** Distance of the candidate words at `s.cand`, equal to the current words outside `[from, to)`. */
function variantDistance(s: Scratch, from: i32, to: i32, n: i32, m: i32, ref: usize, dist: i32): i32 {
  if (from >= to) return dist;
  // Row `from` is read where the forward matrix holds it; the rows after it alternate between two buffers.
  let prev = s.fwd + (usize(get(s.start, from) - get(s.lo, from)) << 2);
  let cur = s.rowA;
  let other = s.rowB;
  for (let i = from + 1; i <= to; i++) {
    bandRow(prev, get(s.lo, i - 1), get(s.hi, i - 1), cur, get(s.lo, i), get(s.hi, i), get(s.cand, i - 1), ref);
    prev = cur;
    cur = other;
    other = prev;
  }
  if (to == n) return get(prev, m);
  return meet(s, to, prev, rowAt(s, s.bwd, to));
}

/**
 * The trace of the current words (first of diagonal, up, left reaching each cell's cost, read back from
 * `(n, m)`), written left to right at `s.ops`; returns its length.
 */
function trace(s: Scratch, n: i32, m: i32, ref: usize): i32 {
  const fwd = s.fwd;
  const tmp = s.ops;
  let k = 0;
  let i = n;
  let j = m;
  // Written backwards first, then reversed in place.
  while (i > 0 || j > 0) {
    const here = get(fwd, get(s.start, i) - get(s.lo, i) + j);
    let op = DEL;
    if (i == 0) op = DEL;
    else if (j == 0) op = INS;
    else {
      const plo = get(s.lo, i - 1);
      const phi = get(s.hi, i - 1);
      const prev = get(s.start, i - 1) - plo;
      const same = get(s.words, i - 1) == get(ref, j - 1);
      if (j - 1 >= plo && j - 1 < phi && get(fwd, prev + j - 1) + i32(!same) == here) op = same ? MATCH : SUB;
      else if (j >= plo && j < phi && get(fwd, prev + j) + 1 == here) op = INS;
    }
    put(tmp, k++, op);
    if (op == MATCH || op == SUB) {
      i--;
      j--;
    } else if (op == INS) i--;
    else j--;
  }
  for (let a = 0, b = k - 1; a < b; a++, b--) {
    const t = get(tmp, a);
    put(tmp, a, get(tmp, b));
    put(tmp, b, t);
  }
  return k;
}

/** Writes `words` with block `[start, start + len)` moved before `target` into `out`, only on the changed window. */
function shiftWindow(words: usize, n: i32, start: i32, len: i32, target: i32, out: usize): void {
  const end = start + len;
  if (target < start) {
    for (let k = 0; k < len; k++) put(out, target + k, get(words, start + k));
    for (let k = target; k < start; k++) put(out, k + len, get(words, k));
  } else if (target > end) {
    for (let k = end; k < target; k++) put(out, k - len, get(words, k));
    for (let k = 0; k < len; k++) put(out, target - len + k, get(words, start + k));
  } else {
    const after = min(n, len + target);
    for (let k = end; k < after; k++) put(out, start + k - end, get(words, k));
    const at = start + after - end;
    for (let k = 0; k < len; k++) put(out, at + k, get(words, start + k));
  }
}

/** sacreBLEU's TER edits of one pair (`hyp`: `n` ids, `ref`: `m` ids); scratch from `base`. */
function pairEdits(
  hyp: usize, n: i32, ref: usize, m: i32, maxShiftSize: i32, maxShiftDist: i32, maxCandidates: i32, beamWidth: i32,
  base: usize,
): i32 {
  if (m == 0) return n;
  const s = changetype<Scratch>(memory.data(offsetof<Scratch>(), 16));
  // The band's arrays come first in the layout, whatever its cell count: fill them, then place the rest.
  layout(s, base, n, m, 0, maxShiftSize);
  layout(s, base, n, m, fillBand(n, m, beamWidth, s.lo, s.hi, s.start), maxShiftSize);
  memory.copy(s.words, hyp, usize(n) << 2);
  memory.copy(s.cand, hyp, usize(n) << 2);
  for (let j = 0; j <= m; j++) put(s.fwd, j, j);
  indexReference(s, ref, m);
  s.epoch = 0;
  for (let len = 1; len <= maxShiftSize; len++) put(s.keptEpoch, len, 0);
  let pre = forwardRows(s, 0, n, m, ref);
  let bwdLow = n + 1;
  let checked = 0;
  let shifts = 0;
  for (;;) {
    // Alignment errors of the current words, as prefix sums, and the reference-to-hypothesis alignment.
    const steps = trace(s, n, m, ref);
    let h = -1;
    let r = -1;
    put(s.hypErrSum, 0, 0);
    put(s.refErrSum, 0, 0);
    for (let k = 0; k < steps; k++) {
      const op = get(s.ops, k);
      if (op == MATCH || op == SUB) {
        h++;
        r++;
        const err = i32(op == SUB);
        put(s.hypErrSum, h + 1, get(s.hypErrSum, h) + err);
        put(s.refErrSum, r + 1, get(s.refErrSum, r) + err);
        put(s.refAlign, r, h);
      } else if (op == INS) {
        h++;
        put(s.hypErrSum, h + 1, get(s.hypErrSum, h) + 1);
      } else {
        r++;
        put(s.refErrSum, r + 1, get(s.refErrSum, r) + 1);
        put(s.refAlign, r, h);
      }
    }
    let bestGain = 0;
    let bestLength = 0;
    let bestStart = -1;
    let bestTarget = 0;
    const words = s.words;
    let done = false;
    for (let sh = 0; sh < n && !done; sh++) {
      const first = get(words, sh);
      // The kept rows of the previous start describe other blocks: a new epoch marks them stale.
      s.epoch++;
      const srEnd = min(m - 1, sh + maxShiftDist);
      // The reference positions holding the word at `sh`, ascending, from `sh − maxShiftDist` on.
      let sr = get(s.tableFirst, tableSlot(s, first));
      const srStart = sh - maxShiftDist;
      while (sr >= 0 && sr < srStart) sr = get(s.refNext, sr);
      for (; sr >= 0 && sr <= srEnd && !done; sr = get(s.refNext, sr)) {
        for (let len = 1; len <= maxShiftSize; len++) {
          if (sh + len > n || sr + len > m || get(words, sh + len - 1) != get(ref, sr + len - 1)) break;
          const alignedAt = get(s.refAlign, sr);
          if (
            get(s.hypErrSum, sh + len) != get(s.hypErrSum, sh) &&
            get(s.refErrSum, sr + len) != get(s.refErrSum, sr) &&
            !(sh <= alignedAt && alignedAt < sh + len)
          ) {
            const end = sh + len;
            let prev = -1;
            for (let off = -1; off < len; off++) {
              const target = sr + off == -1 ? 0 : get(s.refAlign, sr + off) + 1;
              if (target == prev) continue;
              prev = target;
              checked++;
              const from = target < sh ? target : sh;
              const to = target < sh ? end : target > end ? target : min(n, len + target);
              if (to < n && bwdLow > to) bwdLow = backwardTo(s, bwdLow, to, n, m, ref);
              let dist: i32;
              if (target < sh) {
                if (bwdLow > end) bwdLow = backwardTo(s, bwdLow, end, n, m, ref);
                dist = leftDistance(s, sh, len, target, m, ref);
              } else if (target > end) {
                dist = rightDistance(s, sh, len, target, n, m, ref);
              } else {
                shiftWindow(words, n, sh, len, target, s.cand);
                dist = variantDistance(s, from, to, n, m, ref, pre);
                for (let k = from; k < to; k++) put(s.cand, k, get(words, k));
              }
              const gain = pre - dist;
              if (
                bestStart < 0 ||
                gain > bestGain ||
                (gain == bestGain &&
                  (len > bestLength || (len == bestLength && (sh < bestStart || (sh == bestStart && target < bestTarget)))))
              ) {
                bestGain = gain;
                bestLength = len;
                bestStart = sh;
                bestTarget = target;
              }
            }
          }
          if (checked >= maxCandidates) {
            done = true;
            break;
          }
        }
      }
    }
    if (checked >= maxCandidates || bestStart < 0 || bestGain <= 0) return shifts + pre;
    // Apply the best shift: the candidate buffer becomes the current words.
    const end = bestStart + bestLength;
    const from = bestTarget < bestStart ? bestTarget : bestStart;
    const to = bestTarget < bestStart ? end : bestTarget > end ? bestTarget : min(n, bestLength + bestTarget);
    shiftWindow(words, n, bestStart, bestLength, bestTarget, s.cand);
    memory.copy(words + (usize(from) << 2), s.cand + (usize(from) << 2), usize(to - from) << 2);
    pre = forwardRows(s, from, n, m, ref);
    if (bwdLow < to) bwdLow = to;
    shifts++;
  }
  return unreachable();
}

/**
 * sacreBLEU TER edits of every (hypothesis, reference) pair: hypothesis `h` (CSR row `h` of `hypTokens` /
 * `hypOffsets`) against references `h · nRefs .. h · nRefs + nRefs − 1` (rows of `refTokens` / `refOffsets`).
 * Writes `nHyps · nRefs` i32 edit counts at `out`, hypothesis-major. `scratch` must hold `terScratchBytes` of the
 * largest pair.
 */
export function terSacrebleuEdits(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, refTokens: usize, refOffsets: usize, nRefs: i32,
  maxShiftSize: i32, maxShiftDist: i32, maxCandidates: i32, beamWidth: i32, scratch: usize, out: usize,
): void {
  for (let h = 0; h < nHyps; h++) {
    const hs = get(hypOffsets, h);
    const n = get(hypOffsets, h + 1) - hs;
    for (let j = 0; j < nRefs; j++) {
      const row = h * nRefs + j;
      const rs = get(refOffsets, row);
      const m = get(refOffsets, row + 1) - rs;
      put(out, row, pairEdits(
        hypTokens + (usize(hs) << 2), n, refTokens + (usize(rs) << 2), m,
        maxShiftSize, maxShiftDist, maxCandidates, beamWidth, scratch,
      ));
    }
  }
}
