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
 * No bit-parallel form of this DP is known (see Palette's PERFORMANCE.md): rows of c (f64) and l (i32) are kept two
 * at a time and the arrows one byte per cell for the traceback. `pow` is AssemblyScript's port of musl's `pow`
 * (ARM optimized-routines, the algorithm of glibc's since 2.28), which is what Perl's `**` calls on Linux.
 */

/** Arrow of a cell: diagonal (equal tokens), up (i - 1), left (j - 1). */
const DIAGONAL: u8 = 0;
const UP: u8 = 1;
const LEFT: u8 = 2;

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

/**
 * Fills the arrows of reference `ref[refFrom .. refFrom + m]` (rows) against hypothesis `hyp[hypFrom .. hypFrom + n]`
 * (columns) into `arrows` (m × n bytes, row-major) and returns c[m][n]. `rows`: scratch for 2(n + 1) f64 then
 * 2(n + 1) i32. m and n are at least 1.
 */
// @ts-ignore: decorator
@inline
function fillTable(
  refTokens: usize, refFrom: i32, m: i32, hypTokens: usize, hypFrom: i32, n: i32, weights: usize, rows: usize,
  arrows: usize,
): f64 {
  const width = usize(n + 1);
  let cPrev = rows;
  let cCur = rows + (width << 3);
  let lPrev = rows + (width << 4);
  let lCur = lPrev + (width << 2);
  memory.fill(cPrev, 0, width << 3);
  memory.fill(lPrev, 0, width << 2);
  store<f64>(cCur, 0);
  store<i32>(lCur, 0);
  const hyp = hypTokens + (usize(hypFrom) << 2);
  for (let i = 0; i < m; i++) {
    const x = load<i32>(refTokens + (usize(refFrom + i) << 2));
    const arrowRow = arrows + usize(i) * usize(n);
    let left = 0.0;
    for (let j: usize = 1; j <= usize(n); j++) {
      let c: f64;
      if (x == load<i32>(hyp + ((j - 1) << 2))) {
        const k = load<i32>(lPrev + ((j - 1) << 2));
        const fk = weights + (usize(k) << 3);
        c = (load<f64>(cPrev + ((j - 1) << 3)) + load<f64>(fk, 8)) - load<f64>(fk);
        store<i32>(lCur + (j << 2), k + 1);
        store<u8>(arrowRow + j - 1, DIAGONAL);
      } else {
        const up = load<f64>(cPrev + (j << 3));
        if (up >= left) {
          c = up;
          store<u8>(arrowRow + j - 1, UP);
        } else {
          c = left;
          store<u8>(arrowRow + j - 1, LEFT);
        }
        store<i32>(lCur + (j << 2), 0);
      }
      store<f64>(cCur + (j << 3), c);
      left = c;
    }
    const ct = cPrev;
    cPrev = cCur;
    cCur = ct;
    const lt = lPrev;
    lPrev = lCur;
    lCur = lt;
  }
  return load<f64>(cPrev + (usize(n) << 3));
}

/** Follows the arrows back from (m, n), setting `mask[i]` = 1 at every diagonal step's reference position. */
// @ts-ignore: decorator
@inline
function traceArrows(arrows: usize, m: i32, n: i32, mask: usize): void {
  let i = m;
  let j = n;
  while (i > 0 && j > 0) {
    const arrow = load<u8>(arrows + usize(i - 1) * usize(n) + usize(j - 1));
    if (arrow == DIAGONAL) {
      i--;
      j--;
      store<u8>(mask + usize(i), 1);
    } else if (arrow == UP) {
      i--;
    } else {
      j--;
    }
  }
}

/**
 * WLCS statistics of a batch (see `wlcsPairStats` in `src/wasm/rouge.ts`). Inputs as for `lcsLengths`; `w` is the
 * weight exponent, `maxLength` the longest reference (for the table of f in `weights`, maxLength + 1 f64), `rows`
 * 2(n + 1) f64 + 2(n + 1) i32 for the longest hypothesis n, `arrows` the largest m × n bytes, `mask` the longest m
 * bytes. `out` receives, hypothesis after hypothesis, one row of 3 f64 per reference of its segment:
 * ROUGE-1.5.5 hit weight (Σ f(run) over runs of the traced mask, left to right), traced hits, and c[m][n].
 */
export function wlcsPairStats(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize,
  w: f64, maxLength: i32, weights: usize, rows: usize, arrows: usize, mask: usize, out: usize,
): void {
  fillWeights(weights, maxLength, w);
  let row = out;
  for (let h = 0; h < nHyps; h++) {
    const s = hypSegments ? load<i32>(hypSegments + (usize(h) << 2)) : h;
    const r0 = load<i32>(segRefOffsets + (usize(s) << 2));
    const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
    const hypFrom = load<i32>(hypOffsets + (usize(h) << 2));
    const n = load<i32>(hypOffsets + (usize(h) << 2), 4) - hypFrom;
    for (let r = r0; r < r1; r++, row += 24) {
      const refFrom = load<i32>(refOffsets + (usize(r) << 2));
      const m = load<i32>(refOffsets + (usize(r) << 2), 4) - refFrom;
      assert(m <= maxLength);
      if (m == 0 || n == 0) {
        memory.fill(row, 0, 24);
        continue;
      }
      const value = fillTable(refTokens, refFrom, m, hypTokens, hypFrom, n, weights, rows, arrows);
      memory.fill(mask, 0, usize(m));
      traceArrows(arrows, m, n, mask);
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
  }
}

/**
 * Union WLCS hit masks (ROUGE-W summary level; see `wlcsUnionMasks` in `src/wasm/rouge.ts`): units and `out` as for
 * `lcsUnionMasks`, with ROUGE-1.5.5's WLCS traceback for each (reference row, hypothesis row) pair. Scratch as for
 * `wlcsPairStats`, with `maxLength` the longest reference row.
 */
export function wlcsUnionMasks(
  hypTokens: usize, hypOffsets: usize, refTokens: usize, refOffsets: usize, units: usize, nUnits: i32,
  w: f64, maxLength: i32, weights: usize, rows: usize, arrows: usize, out: usize,
): void {
  fillWeights(weights, maxLength, w);
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
      assert(m <= maxLength);
      memory.fill(mask, 0, usize(m));
      if (m > 0) {
        for (let h = hypFrom; h < hypTo; h++) {
          const hypFromToken = load<i32>(hypOffsets + (usize(h) << 2));
          const n = load<i32>(hypOffsets + (usize(h) << 2), 4) - hypFromToken;
          if (n == 0) continue;
          fillTable(refTokens, from, m, hypTokens, hypFromToken, n, weights, rows, arrows);
          traceArrows(arrows, m, n, mask);
        }
      }
      mask += usize(m);
    }
  }
}
