/**
 * GTM run statistics (Turian, Shen & Melamed 2003, "Evaluation of machine translation and its evaluation") over CSR
 * token ids.
 *
 * A hit is a cell (i, j) of the grid of hypothesis position i and reference position j where the tokens are equal;
 * a matching uses each row and column at most once; a run is a maximal diagonal of consecutive matched cells
 * (i, j), (i+1, j+1), …; a matching of runs of lengths L_k has size (Σ L_k^e)^(1/e). The maximum for e > 1 is
 * NP-hard, and GTM's tool approximates it greedily; this kernel does the same, deterministically: repeatedly take the
 * longest diagonal of free hits (free: row and column not yet used) — the one starting at the smallest hypothesis
 * position on ties, then the smallest reference position — mark its rows and columns used, and add its weight
 * L^e, until no free hit is left. For e = 1 every maximal matching is maximum (hits of one word type form a complete
 * bipartite graph), so the greedy sum is the exact maximum matching size Σ_w min(count_hyp(w), count_ref(w)).
 *
 * References of up to 64 tokens (the common case) use bit rows: row i of the grid is a u64 with bit j set where
 * ref[j] = hyp[i] (built once per pair, four comparisons per `i32x4` instruction). With R_i = row i masked by the free
 * columns (zero once row i is used), E¹_i = R_i and E^k_i = R_i & (E^(k-1)_(i-1) << 1) have bit j set exactly where a
 * diagonal of k free hits ends at (i, j); the last level that is not all zero gives the longest length L, its first
 * non-zero row and lowest bit the tie-break above. A round costs (L + 1)·n word operations. Longer references scan
 * the grid instead, keeping two rows of diagonal run lengths (run[i][j] = run[i-1][j-1] + 1 on a free hit, else 0);
 * the first maximum met in row-major order is the same tie-break; a round costs n·m.
 */
import { lowBits } from './common/match-vectors';
import { rowLength, tokenAt } from './common/rows';

/** Bytes of a pair's statistics: `[Σ L^e, Σ L]` as two f64. */
export const GTM_PAIR_BYTES: usize = 16;

/**
 * `greedyRuns` of a reference of at most 64 tokens with bit rows (see the file comment). Scratch at `scratch`: three
 * arrays of n u64 (the grid rows, and two levels of run ends).
 */
// @ts-ignore: decorator
@inline
function greedyRunsInWords(
  hypTokens: usize, hypFrom: i32, n: i32, refTokens: usize, refFrom: i32, m: i32, weights: usize, scratch: usize,
  out: usize,
): void {
  const grid = scratch;
  let previous = grid + (usize(n) << 3);
  let current = previous + (usize(n) << 3);
  const refAt = refTokens + (usize(refFrom) << 2);
  const valid = lowBits(m);
  for (let i = 0; i < n; i++) {
    const token = i32x4.splat(i32(tokenAt(hypTokens, hypFrom + i)));
    let bits: u64 = 0;
    // Reads up to three tokens past the reference; the mask drops their bits.
    for (let j = 0; j < m; j += 4) {
      bits |= u64(i32x4.bitmask(i32x4.eq(v128.load(refAt + (usize(j) << 2)), token))) << u64(j);
    }
    store<u64>(grid + (usize(i) << 3), bits & valid);
  }
  let freeColumns = valid;
  let sum = 0.0;
  let matched = 0;
  while (true) {
    let any: u64 = 0;
    for (let i = 0; i < n; i++) {
      const row = load<u64>(grid + (usize(i) << 3)) & freeColumns;
      store<u64>(previous + (usize(i) << 3), row);
      any |= row;
    }
    if (!any) break;
    let longest = 1;
    while (true) {
      any = 0;
      store<u64>(current, 0);
      for (let i = 1; i < n; i++) {
        const ends = load<u64>(grid + (usize(i) << 3)) & freeColumns & (load<u64>(previous + (usize(i - 1) << 3)) << 1);
        store<u64>(current + (usize(i) << 3), ends);
        any |= ends;
      }
      if (!any) break;
      longest++;
      const swap = previous;
      previous = current;
      current = swap;
    }
    let endI = 0;
    while (!load<u64>(previous + (usize(endI) << 3))) endI++;
    const endJ = i32(ctz<u64>(load<u64>(previous + (usize(endI) << 3))));
    for (let i = endI - longest + 1; i <= endI; i++) store<u64>(grid + (usize(i) << 3), 0);
    freeColumns &= ~(lowBits(longest) << u64(endJ - longest + 1));
    sum += load<f64>(weights + (usize(longest) << 3));
    matched += longest;
  }
  store<f64>(out, sum);
  store<f64>(out, f64(matched), 8);
}

/**
 * Greedy run statistics of one (hypothesis, reference) pair, written to `out` as `[Σ weights[L], Σ L]` in the order
 * the runs are taken (longest first), by scanning the grid. Scratch at `scratch`: n + m bytes of used flags, then two
 * rows of m + 1 i32.
 */
// @ts-ignore: decorator
@inline
function greedyRuns(
  hypTokens: usize, hypFrom: i32, n: i32, refTokens: usize, refFrom: i32, m: i32, weights: usize, scratch: usize,
  out: usize,
): void {
  const rowUsed = scratch;
  const colUsed = scratch + usize(n);
  let previous = (colUsed + usize(m) + 3) & ~usize(3);
  let current = previous + (usize(m + 1) << 2);
  memory.fill(rowUsed, 0, usize(n + m));
  let sum = 0.0;
  let matched = 0;
  while (true) {
    memory.fill(previous, 0, usize(m + 1) << 2);
    store<i32>(current, 0);
    let longest = 0;
    let endI = 0;
    let endJ = 0;
    for (let i = 0; i < n; i++) {
      if (load<u8>(rowUsed + usize(i))) {
        memory.fill(current + 4, 0, usize(m) << 2);
      } else {
        const token = tokenAt(hypTokens, hypFrom + i);
        for (let j = 0; j < m; j++) {
          const free = !load<u8>(colUsed + usize(j)) && tokenAt(refTokens, refFrom + j) == token;
          const run = free ? load<i32>(previous + (usize(j) << 2)) + 1 : 0;
          store<i32>(current + (usize(j + 1) << 2), run);
          if (run > longest) {
            longest = run;
            endI = i;
            endJ = j;
          }
        }
      }
      const swap = previous;
      previous = current;
      current = swap;
    }
    if (longest == 0) break;
    memory.fill(rowUsed + usize(endI - longest + 1), 1, usize(longest));
    memory.fill(colUsed + usize(endJ - longest + 1), 1, usize(longest));
    sum += load<f64>(weights + (usize(longest) << 3));
    matched += longest;
  }
  store<f64>(out, sum);
  store<f64>(out, f64(matched), 8);
}

/**
 * GTM run statistics of every (hypothesis, reference of its segment) pair (see `gtmRunStats` in `src/wasm/edit.ts`).
 * Batch shape as `lcsLengths` (`assembly/lcs.ts`). `weights[L]` (f64) is the weight L^e of a run of L tokens, for L
 * up to the shorter side of any pair. Scratch: the larger of 24 × longest hypothesis bytes and longest hypothesis +
 * longest reference + 8 × (longest reference + 1) + 4 bytes. Reference tokens are read up to three past a row's end
 * (the caller leaves 12 readable bytes after the tokens). `out` receives `GTM_PAIR_BYTES` per pair,
 * hypothesis-major.
 */
export function gtmRunStats(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize, weights: usize, scratch: usize, out: usize,
): void {
  let at = out;
  for (let h = 0; h < nHyps; h++) {
    const s = hypSegments ? load<i32>(hypSegments + (usize(h) << 2)) : h;
    const r0 = load<i32>(segRefOffsets + (usize(s) << 2));
    const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
    const hypFrom = load<i32>(hypOffsets + (usize(h) << 2));
    const n = rowLength(hypOffsets, h);
    for (let r = r0; r < r1; r++) {
      const refFrom = load<i32>(refOffsets + (usize(r) << 2));
      const m = rowLength(refOffsets, r);
      if (m <= 64) greedyRunsInWords(hypTokens, hypFrom, n, refTokens, refFrom, m, weights, scratch, at);
      else greedyRuns(hypTokens, hypFrom, n, refTokens, refFrom, m, weights, scratch, at);
      at += GTM_PAIR_BYTES;
    }
  }
}
