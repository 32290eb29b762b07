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
 * Each round finds the longest free diagonal in one pass over the grid, keeping two rows of diagonal run lengths
 * (run[i][j] = run[i-1][j-1] + 1 on a free hit, else 0); the first maximum met in row-major order is the tie-break
 * above. A round costs n·m; there are at most min(n, m) rounds.
 */
import { rowLength, tokenAt } from './common/rows';

/** Bytes of a pair's statistics: `[Σ L^e, Σ L]` as two f64. */
export const GTM_PAIR_BYTES: usize = 16;

/**
 * Greedy run statistics of one (hypothesis, reference) pair, written to `out` as `[Σ weights[L], Σ L]` in the order
 * the runs are taken (longest first). Scratch at `scratch`: n + m bytes of used flags, then two rows of m + 1 i32.
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
 * up to the shorter side of any pair. Scratch: longest hypothesis + longest reference bytes, then 8 × (longest
 * reference + 1) + 4 bytes. `out` receives `GTM_PAIR_BYTES` per pair, hypothesis-major.
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
      greedyRuns(
        hypTokens, hypFrom, n, refTokens, load<i32>(refOffsets + (usize(r) << 2)), rowLength(refOffsets, r), weights,
        scratch, at,
      );
      at += GTM_PAIR_BYTES;
    }
  }
}
