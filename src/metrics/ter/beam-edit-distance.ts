/**
 * sacreBLEU's beam edit distance (`lib_ter.BeamEditDistance`): word-level Levenshtein distance between a
 * hypothesis and a reference, computed only inside a band of the matrix around the "pseudo-diagonal"
 * `j = floor(i * m / n)` (rows `i` over the hypothesis, columns `j` over the reference), with the trace that
 * tercom-style shift search reads. The band is `[diag - beam, diag + beam)`, the first row and the whole tail of
 * the last row included; `beam` is the beam width, widened to `ceil(ratio / 2 + beam)` when the length ratio
 * `m / n` exceeds twice it. Costs are all 1; on ties the diagonal wins, then the step that consumes a hypothesis
 * word (an insertion), then the one that consumes a reference word (a deletion), as in sacreBLEU.
 *
 * The shift search scores hundreds of shifted variants of one hypothesis, all of the same length. A shift
 * changes only a window `[from, to)` of the words, so besides the forward matrix of the current hypothesis this
 * class keeps the backward matrix (cheapest completion from each band cell to the end, inside the band). A
 * variant's distance is then `min_j F'[to][j] + B[to][j]`, where `F'` re-runs the forward rows `from + 1 .. to`
 * over the variant's words from row `from` of the current hypothesis: every band path crosses row `to`, and the
 * band does not depend on the words. The result is exactly the full computation's (checked against `plain.ts`).
 *
 * Storage is banded (row `i` holds only its band), so long segments cost O(n · beam), not O(n · m).
 */
import { TerOp } from './alignment.js';

/** An unreachable cell; sums of it and a few unit costs stay far below int32 overflow. */
const INF = 0x3fffffff;

/** The band of one (hypothesis length, reference) pair: row `i` covers columns `[lo[i], hi[i])`. */
export interface TerBand {
  /** Hypothesis length (number of rows − 1). */
  readonly n: number;
  /** Reference length (number of columns − 1). */
  readonly m: number;
  /** First column of each row's band. */
  readonly lo: Int32Array;
  /** One past the last column of each row's band. */
  readonly hi: Int32Array;
  /** Offset of each row's first cell in the banded storage; `start[n + 1]` is the number of cells. */
  readonly start: Int32Array;
}

/**
 * The band sacreBLEU computes for a hypothesis of `n` words and a reference of `m` words.
 * @param beamWidth sacreBLEU's `_BEAM_WIDTH` (25).
 */
export function terBand(n: number, m: number, beamWidth: number): TerBand {
  const lo = new Int32Array(n + 1);
  const hi = new Int32Array(n + 1);
  const start = new Int32Array(n + 2);
  // Same double operations as sacreBLEU: the ratio is one division, each diagonal one product then floor.
  const ratio = n > 0 ? m / n : 1;
  const beam = beamWidth < ratio / 2 ? Math.ceil(ratio / 2 + beamWidth) : beamWidth;
  hi[0] = m + 1;
  start[1] = m + 1;
  for (let i = 1; i <= n; i++) {
    const diag = Math.floor(i * ratio);
    lo[i] = Math.max(0, diag - beam);
    hi[i] = i === n ? m + 1 : Math.min(m + 1, diag + beam);
    start[i + 1] = start[i] + Math.max(0, hi[i] - lo[i]);
  }
  return { n, m, lo, hi, start };
}

/**
 * Forward and backward band matrices of one hypothesis against one reference, plus the distance of shifted
 * variants of that hypothesis. Create one per (reference, hypothesis length); call {@link setHypothesis} for
 * each new current hypothesis.
 */
export class BeamEditDistance {
  /** The band (fixed for this reference and hypothesis length). */
  readonly band: TerBand;
  private readonly ref: Int32Array;
  private readonly fwd: Int32Array;
  private readonly op: Uint8Array;
  private readonly bwd: Int32Array;
  private readonly rowA: Int32Array;
  private readonly rowB: Int32Array;
  private words: Int32Array = new Int32Array(0);
  private dist = 0;

  /**
   * @param ref reference word ids (kept, not copied).
   * @param n hypothesis length.
   * @param beamWidth see {@link terBand}.
   */
  constructor(ref: Int32Array, n: number, beamWidth: number) {
    this.ref = ref;
    this.band = terBand(n, ref.length, beamWidth);
    const cells = this.band.start[n + 1];
    this.fwd = new Int32Array(cells);
    this.op = new Uint8Array(cells);
    this.bwd = new Int32Array(cells);
    this.rowA = new Int32Array(ref.length + 1);
    this.rowB = new Int32Array(ref.length + 1);
  }

  /** The distance of the current hypothesis. */
  get distance(): number {
    return this.dist;
  }

  /**
   * Makes `words` (length `n`; kept, not copied, until the next call) the current hypothesis: fills both
   * matrices and the operations.
   * @returns its edit distance.
   */
  setHypothesis(words: Int32Array): number {
    this.words = words;
    this.forward();
    this.backward();
    return this.dist;
  }

  /** Forward costs and operations of the current hypothesis. */
  private forward(): void {
    const { fwd, op, ref, words } = this;
    const { n, m, lo, hi, start } = this.band;
    for (let j = 0; j <= m; j++) {
      fwd[j] = j;
      op[j] = TerOp.Del;
    }
    for (let i = 1; i <= n; i++) {
      const plo = lo[i - 1];
      const phi = hi[i - 1];
      const prev = start[i - 1] - plo;
      const cur = start[i] - lo[i];
      const w = words[i - 1];
      for (let j = lo[i]; j < hi[i]; j++) {
        if (j === 0) {
          fwd[cur] = fwd[prev] + 1;
          op[cur] = TerOp.Ins;
          continue;
        }
        let best = INF;
        let o = 255;
        if (j - 1 >= plo && j - 1 < phi) {
          const same = w === ref[j - 1];
          const c = fwd[prev + j - 1] + (same ? 0 : 1);
          if (best > c) {
            best = c;
            o = same ? TerOp.Match : TerOp.Sub;
          }
        }
        if (j >= plo && j < phi) {
          const c = fwd[prev + j] + 1;
          if (best > c) {
            best = c;
            o = TerOp.Ins;
          }
        }
        if (j > lo[i]) {
          const c = fwd[cur + j - 1] + 1;
          if (best > c) {
            best = c;
            o = TerOp.Del;
          }
        }
        fwd[cur + j] = best;
        op[cur + j] = o;
      }
    }
    this.dist = fwd[start[n] - lo[n] + m];
  }

  /** Backward costs (cheapest band path from each cell to `(n, m)`) of the current hypothesis. */
  private backward(): void {
    const { bwd, ref, words } = this;
    const { n, m, lo, hi, start } = this.band;
    const last = start[n] - lo[n];
    for (let j = lo[n]; j <= m; j++) bwd[last + j] = m - j;
    for (let i = n - 1; i >= 0; i--) {
      const nlo = lo[i + 1];
      const nhi = hi[i + 1];
      const next = start[i + 1] - nlo;
      const cur = start[i] - lo[i];
      const w = words[i];
      for (let j = hi[i] - 1; j >= lo[i]; j--) {
        let best = INF;
        if (j < m && j + 1 >= nlo && j + 1 < nhi) {
          const c = bwd[next + j + 1] + (w === ref[j] ? 0 : 1);
          if (c < best) best = c;
        }
        if (j >= nlo && j < nhi) {
          const c = bwd[next + j] + 1;
          if (c < best) best = c;
        }
        if (j + 1 < hi[i]) {
          const c = bwd[cur + j + 1] + 1;
          if (c < best) best = c;
        }
        bwd[cur + j] = best;
      }
    }
  }

  /**
   * The edit distance of `variant`, a hypothesis equal to the current one outside `[from, to)` (0 ≤ from ≤
   * to ≤ n). Costs O((to − from) · band width); the matrices of the current hypothesis are left unchanged.
   */
  variantDistance(variant: Int32Array, from: number, to: number): number {
    if (from >= to) return this.dist;
    const { fwd, bwd, ref } = this;
    const { n, m, lo, hi, start } = this.band;
    // Row `from` of the current hypothesis is row `from` of the variant.
    let prev = this.rowA;
    let cur = this.rowB;
    {
      const base = start[from] - lo[from];
      for (let j = lo[from]; j < hi[from]; j++) prev[j] = fwd[base + j];
    }
    for (let i = from + 1; i <= to; i++) {
      const plo = lo[i - 1];
      const phi = hi[i - 1];
      const clo = lo[i];
      const chi = hi[i];
      const w = variant[i - 1];
      for (let j = clo; j < chi; j++) {
        if (j === 0) {
          cur[0] = prev[0] + 1;
          continue;
        }
        let best = INF;
        if (j - 1 >= plo && j - 1 < phi) {
          const c = prev[j - 1] + (w === ref[j - 1] ? 0 : 1);
          if (c < best) best = c;
        }
        if (j >= plo && j < phi) {
          const c = prev[j] + 1;
          if (c < best) best = c;
        }
        if (j > clo) {
          const c = cur[j - 1] + 1;
          if (c < best) best = c;
        }
        cur[j] = best;
      }
      const t = prev;
      prev = cur;
      cur = t;
    }
    if (to === n) return prev[m];
    let best = INF;
    const base = start[to] - lo[to];
    for (let j = lo[to]; j < hi[to]; j++) {
      const c = prev[j] + bwd[base + j];
      if (c < best) best = c;
    }
    return best;
  }

  /**
   * The operations of the current hypothesis's optimal path (sacreBLEU's trace, in {@link TerOp} codes, read
   * back from `(n, m)`), left to right.
   * @throws Error when the path meets an unset cell (sacreBLEU raises there too; the band makes it unreachable).
   */
  trace(): Uint8Array {
    const { op } = this;
    const { n, m, lo, start } = this.band;
    const out = new Uint8Array(n + m);
    let k = out.length;
    let i = n;
    let j = m;
    while (i > 0 || j > 0) {
      const o = op[start[i] - lo[i] + j];
      out[--k] = o;
      if (o === TerOp.Match || o === TerOp.Sub) {
        i--;
        j--;
      } else if (o === TerOp.Ins) i--;
      else if (o === TerOp.Del) j--;
      else throw new Error(`TER trace reached an unset cell (${i}, ${j})`);
    }
    return out.subarray(k);
  }
}
