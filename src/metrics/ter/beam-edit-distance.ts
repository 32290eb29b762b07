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
 * band does not depend on the words. The result is exactly the full computation's (checked against
 * `test/reference/ter.ts`).
 *
 * Storage is banded (row `i` holds only its band), so long segments cost O(n · beam), not O(n · m).
 * `assembly/ter-sacrebleu.ts` is the same algorithm as a WebAssembly kernel (the metric's default engine).
 */
import { TerOp } from './alignment.js';

/** An unreachable cell; sums of it and a few unit costs stay far below int32 overflow. */
const INF = 0x3fffffff;
// Module-local copies: hot loops read constants, not properties of an imported object.
const MATCH = TerOp.Match;
const SUB = TerOp.Sub;
const INS = TerOp.Ins;
const DEL = TerOp.Del;

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
  return fillTerBand(n, m, beamWidth, new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 2));
}

/** {@link terBand} into caller-provided arrays (at least `n + 1`, `n + 1` and `n + 2` long). */
function fillTerBand(n: number, m: number, beamWidth: number, lo: Int32Array, hi: Int32Array, start: Int32Array): TerBand {
  // Same double operations as sacreBLEU: the ratio is one division, each diagonal one product then floor.
  const ratio = n > 0 ? m / n : 1;
  const beam = beamWidth < ratio / 2 ? Math.ceil(ratio / 2 + beamWidth) : beamWidth;
  lo[0] = 0;
  hi[0] = m + 1;
  start[0] = 0;
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
 * One forward row of the band: `dst[dOff + j]` for `j` in `[clo, chi)` from the previous row `src[sOff + j]`
 * (valid on `[plo, phi)`), hypothesis word `w` against `ref`. Out-of-band neighbours count as unreachable. The
 * row is split where the available neighbours change (the bands only move right, `plo ≤ clo`, `phi ≤ chi`),
 * so the main stretch takes the minimum of all three without bounds tests. Every band cell is reachable (the
 * bands of consecutive rows overlap), so no sum of unreachable costs is ever stored.
 */
function bandRow(
  src: Int32Array,
  sOff: number,
  plo: number,
  phi: number,
  dst: Int32Array,
  dOff: number,
  clo: number,
  chi: number,
  w: number,
  ref: Int32Array,
): void {
  let j = clo;
  let left = INF;
  if (j === 0) {
    left = src[sOff] + 1;
    dst[dOff] = left;
    j = 1;
  } else if (j === plo) {
    // No diagonal (its column is left of the previous band) and no left neighbour.
    left = j < phi ? src[sOff + j] + 1 : INF;
    dst[dOff + j] = left;
    j++;
  }
  const stop = phi < chi ? phi : chi;
  for (; j < stop; j++) {
    let best = src[sOff + j - 1] + (w === ref[j - 1] ? 0 : 1);
    const up = src[sOff + j] + 1;
    if (up < best) best = up;
    if (left + 1 < best) best = left + 1;
    dst[dOff + j] = best;
    left = best;
  }
  if (j < chi) {
    // Column `phi`: the diagonal is the last cell of the previous band; nothing above.
    let best = left + 1;
    if (j - 1 >= plo) {
      const diag = src[sOff + j - 1] + (w === ref[j - 1] ? 0 : 1);
      if (diag < best) best = diag;
    }
    dst[dOff + j] = best;
    left = best;
    j++;
  }
  for (; j < chi; j++) {
    left++;
    dst[dOff + j] = left;
  }
}

/** An array at least `size` long: `a` itself when it is, else a new one (contents not kept). */
function atLeast(a: Int32Array, size: number): Int32Array {
  return a.length >= size ? a : new Int32Array(Math.max(size, 2 * a.length));
}

/**
 * Forward and backward band matrices of the current hypothesis against one reference, and the distance of
 * variants of it. Reusable: {@link reset} for each (reference, hypothesis length) pair, then
 * {@link setHypothesis}; buffers only grow. The backward matrix is filled lazily, from the last row up to the
 * lowest row a variant needs.
 */
export class BeamEditDistance {
  private readonly beamWidth: number;
  private ref: Int32Array = new Int32Array(0);
  private n = 0;
  private m = 0;
  private lo: Int32Array = new Int32Array(1);
  private hi: Int32Array = new Int32Array(1);
  private start: Int32Array = new Int32Array(2);
  private fwd: Int32Array = new Int32Array(0);
  private bwd: Int32Array = new Int32Array(0);
  private rowA: Int32Array = new Int32Array(0);
  private rowB: Int32Array = new Int32Array(0);
  private words: Int32Array = new Int32Array(0);
  /** Backward rows `bwdLow .. n` are valid for the current hypothesis. */
  private bwdLow = 1;
  private dist = 0;

  /** @param beamWidth see {@link terBand}. */
  constructor(beamWidth: number) {
    this.beamWidth = beamWidth;
  }

  /** Prepares for hypotheses of `n` words against `ref` (kept, not copied). */
  reset(ref: Int32Array, n: number): void {
    const m = ref.length;
    this.ref = ref;
    this.n = n;
    this.m = m;
    this.lo = atLeast(this.lo, n + 1);
    this.hi = atLeast(this.hi, n + 1);
    this.start = atLeast(this.start, n + 2);
    fillTerBand(n, m, this.beamWidth, this.lo, this.hi, this.start);
    const cells = this.start[n + 1];
    this.fwd = atLeast(this.fwd, cells);
    this.bwd = atLeast(this.bwd, cells);
    this.rowA = atLeast(this.rowA, m + 1);
    this.rowB = atLeast(this.rowB, m + 1);
    this.bwdLow = n + 1;
  }

  /** The band of the current (reference, hypothesis length); a fresh copy. */
  get band(): TerBand {
    const { n, m } = this;
    return { n, m, lo: this.lo.slice(0, n + 1), hi: this.hi.slice(0, n + 1), start: this.start.slice(0, n + 2) };
  }

  /** The distance of the current hypothesis. */
  get distance(): number {
    return this.dist;
  }

  /**
   * Makes `words` (length `n`; kept, not copied, while it is current) the current hypothesis.
   * @returns its edit distance.
   */
  setHypothesis(words: Int32Array): number {
    this.words = words;
    const { fwd, m } = this;
    for (let j = 0; j <= m; j++) fwd[j] = j;
    this.forwardRows(0);
    this.bwdLow = this.n + 1;
    return this.dist;
  }

  /**
   * Makes `words` the current hypothesis when it equals the current one outside `[from, to)` (e.g. the shift
   * just chosen): the forward rows after row `from` are recomputed, the backward rows before row `to` dropped
   * (refilled when a variant needs them); the others depend only on unchanged words.
   * @returns its edit distance.
   */
  replaceHypothesis(words: Int32Array, from: number, to: number): number {
    this.words = words;
    this.forwardRows(from);
    if (this.bwdLow < to) this.bwdLow = to;
    return this.dist;
  }

  /** Forward rows `first + 1 .. n` of the current hypothesis, in place. */
  private forwardRows(first: number): void {
    const { fwd, ref, words, lo, hi, start, n, m } = this;
    for (let i = first + 1; i <= n; i++) {
      bandRow(fwd, start[i - 1] - lo[i - 1], lo[i - 1], hi[i - 1], fwd, start[i] - lo[i], lo[i], hi[i], words[i - 1], ref);
    }
    this.dist = fwd[start[n] - lo[n] + m];
  }

  /** Backward rows down to `k` (cheapest band path from each cell to `(n, m)`) of the current hypothesis. */
  private backwardTo(k: number): void {
    const { bwd, ref, words, lo, hi, start, n, m } = this;
    let i = this.bwdLow;
    if (i > n) {
      const last = start[n] - lo[n];
      for (let j = lo[n]; j <= m; j++) bwd[last + j] = m - j;
      i = n;
    }
    for (i--; i >= k; i--) {
      const nlo = lo[i + 1];
      const nhi = hi[i + 1];
      const next = start[i + 1] - nlo;
      const clo = lo[i];
      const chi = hi[i];
      const cur = start[i] - clo;
      const w = words[i];
      for (let j = chi - 1; j >= clo; j--) {
        let best = INF;
        if (j < m && j + 1 >= nlo && j + 1 < nhi) best = bwd[next + j + 1] + (w === ref[j] ? 0 : 1);
        if (j >= nlo && j < nhi) {
          const c = bwd[next + j] + 1;
          if (c < best) best = c;
        }
        if (j + 1 < chi) {
          const c = bwd[cur + j + 1] + 1;
          if (c < best) best = c;
        }
        bwd[cur + j] = best;
      }
    }
    if (k < this.bwdLow) this.bwdLow = k;
  }

  /**
   * The edit distance of `variant`, a hypothesis equal to the current one outside `[from, to)` (0 ≤ from ≤
   * to ≤ n). Costs O((to − from) · band width) plus the backward rows not yet filled; the current hypothesis
   * is left unchanged.
   */
  variantDistance(variant: Int32Array, from: number, to: number): number {
    if (from >= to) return this.dist;
    const { fwd, ref, lo, hi, start, n, m } = this;
    if (to < n && this.bwdLow > to) this.backwardTo(to);
    // Row `from` of the current hypothesis is row `from` of the variant.
    let prev = this.rowA;
    let cur = this.rowB;
    {
      const base = start[from] - lo[from];
      for (let j = lo[from]; j < hi[from]; j++) prev[j] = fwd[base + j];
    }
    for (let i = from + 1; i <= to; i++) {
      bandRow(prev, 0, lo[i - 1], hi[i - 1], cur, 0, lo[i], hi[i], variant[i - 1], ref);
      const t = prev;
      prev = cur;
      cur = t;
    }
    if (to === n) return prev[m];
    const { bwd } = this;
    let best = INF;
    const base = start[to] - lo[to];
    for (let j = lo[to]; j < hi[to]; j++) {
      const c = prev[j] + bwd[base + j];
      if (c < best) best = c;
    }
    return best;
  }

  /**
   * The operations of the current hypothesis's path (sacreBLEU's trace, in {@link TerOp} codes), left to right.
   * sacreBLEU keeps the first of diagonal, up, left that reaches a cell's minimum (it replaces only on a strictly
   * smaller cost), so each step is recovered from the costs alone.
   * @throws Error when the path meets an unreachable cell (sacreBLEU raises there too; the band prevents it).
   */
  trace(): Uint8Array {
    const { fwd, ref, words, lo, hi, start, n, m } = this;
    const out = new Uint8Array(n + m);
    let k = out.length;
    let i = n;
    let j = m;
    while (i > 0 || j > 0) {
      const here = fwd[start[i] - lo[i] + j];
      if (here >= INF) throw new Error(`TER trace reached an unreachable cell (${i}, ${j})`);
      let op: number;
      if (i === 0) op = DEL;
      else if (j === 0) op = INS;
      else {
        const plo = lo[i - 1];
        const phi = hi[i - 1];
        const prev = start[i - 1] - plo;
        const same = words[i - 1] === ref[j - 1];
        if (j - 1 >= plo && j - 1 < phi && fwd[prev + j - 1] + (same ? 0 : 1) === here) op = same ? MATCH : SUB;
        else if (j >= plo && j < phi && fwd[prev + j] + 1 === here) op = INS;
        else op = DEL;
      }
      out[--k] = op;
      if (op === MATCH || op === SUB) {
        i--;
        j--;
      } else if (op === INS) i--;
      else j--;
    }
    return out.subarray(k);
  }
}
