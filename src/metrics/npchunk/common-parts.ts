/**
 * The common-part search of IMPACT and the NP-chunk metric (seed 003 §2.2, eqs. 1–5): in round i the LCS of the
 * words not yet matched is found; when several LCS routes exist, the one with the highest route score
 *   RS = Σ_{c ∈ route} (Σ_{w ∈ c} weight(w))^β
 * is taken, a common part c being a maximal run of matched pairs that are consecutive in both sentences; the round
 * contributes α^i Σ_c length(c)^β (every word weighing 1 there); its words are then removed and the next round
 * searches what is left, until no common word remains (or after round RN when a limit is set).
 *
 * Palette's reading of the rounds: a removed word leaves a gap, so a later round's common part is a run of words
 * adjacent in the original sentences (the paper's Figure 2 cannot tell the two readings apart).
 *
 * Search: a dynamic programme over prefixes maximising (LCS length, RS) lexicographically. A route's RS is a sum
 * over its runs, and (a + b)^β ≥ a^β + b^β for β ≥ 1, so scoring every way of cutting a route into diagonal steps
 * and keeping the best finds the best route with its maximal runs. Cell (i, j) compares, in this order and keeping
 * the first of equals: leaving hypothesis word i unmatched, leaving reference word j unmatched, then ending a run
 * of k = 1, 2, … matched pairs at (i, j). That order is the tie rule between routes of equal length and RS, and the
 * plain implementation in test/reference/npchunk.ts follows it. Weights are the integers 1 and 2, so run weights
 * are exact and their powers come from one table.
 *
 * Flat: one set of typed scratch arrays of (n + 1)(m + 1) cells, reused for every pair; no object per word. Each round
 * runs over the words that can still match (unused, with an equal unused word on the other side), which is what
 * keeps the later rounds cheap.
 */

/** Parameters of the search. */
export interface CommonPartParams {
  /** α of eqs. 3–4, weight of round i is α^i; 0 ≤ α ≤ 1. */
  readonly alpha: number;
  /** β of eqs. 1, 3, 4 (length weighting); ≥ 1. */
  readonly beta: number;
  /** RN, the last round (0-based) counted; `Infinity` = until no common word remains. */
  readonly maxRound: number;
}

/** Reusable scratch state of the search, with the trace of the last {@link CommonPartSearch.run}. */
export class CommonPartSearch {
  private len = new Int32Array(0);
  private rs = new Float64Array(0);
  private choice = new Int32Array(0);
  private diag = new Int32Array(0);
  private wsum = new Int32Array(0);
  private usedA = new Uint8Array(0);
  private usedB = new Uint8Array(0);
  private idxA = new Int32Array(0);
  private idxB = new Int32Array(0);
  private pow = new Float64Array(0);
  private powBeta = NaN;
  /** Rounds of the last run: LCS length, route score and α^i Σ length^β of each (trace for tests and details). */
  readonly rounds: { lcs: number[]; routeScore: number[]; sum: number[] } = { lcs: [], routeScore: [], sum: [] };

  constructor(private readonly params: CommonPartParams) {}

  /**
   * Σ_i α^i Σ_c length(c)^β over the rounds, for `a[aOff, aOff + n)` against `b[bOff, bOff + m)`.
   * `pairA[i]`/`pairB[j]` name the corresponding noun phrase a word belongs to (−1: none); a matched pair weighs 2
   * when both words belong to the same correspondence, 1 otherwise; `null` gives every pair weight 1 (IMPACT).
   */
  run(
    a: Int32Array,
    aOff: number,
    n: number,
    b: Int32Array,
    bOff: number,
    m: number,
    pairA: Int32Array | null,
    pairB: Int32Array | null,
  ): number {
    const { alpha, beta, maxRound } = this.params;
    this.reserve(n, m, beta);
    const { usedA, usedB } = this;
    usedA.fill(0, 0, n);
    usedB.fill(0, 0, m);
    this.rounds.lcs.length = 0;
    this.rounds.routeScore.length = 0;
    this.rounds.sum.length = 0;
    let total = 0;
    for (let round = 0; round <= maxRound; round++) {
      const [na, nb] = this.compact(a, aOff, n, b, bOff, m);
      if (na === 0) break;
      const lcs = this.search(a, aOff, na, b, bOff, nb, pairA, pairB);
      if (lcs === 0) break;
      this.rounds.lcs.push(lcs);
      this.rounds.routeScore.push(this.rs[na * (nb + 1) + nb]);
      const sum = Math.pow(alpha, round) * this.traceback(na, nb);
      this.rounds.sum.push(sum);
      total += sum;
    }
    return total;
  }

  private reserve(n: number, m: number, beta: number): void {
    const cells = (n + 1) * (m + 1);
    if (this.len.length < cells) {
      const size = Math.max(cells, this.len.length * 2);
      this.len = new Int32Array(size);
      this.rs = new Float64Array(size);
      this.choice = new Int32Array(size);
      this.diag = new Int32Array(size);
      this.wsum = new Int32Array(size);
    }
    if (this.usedA.length < n) {
      this.usedA = new Uint8Array(Math.max(n, this.usedA.length * 2));
      this.idxA = new Int32Array(this.usedA.length);
    }
    if (this.usedB.length < m) {
      this.usedB = new Uint8Array(Math.max(m, this.usedB.length * 2));
      this.idxB = new Int32Array(this.usedB.length);
    }
    // Run weights are at most 2 per pair.
    const maxWeight = 2 * Math.min(n, m) + 1;
    if (this.powBeta !== beta || this.pow.length < maxWeight) {
      this.pow = new Float64Array(Math.max(maxWeight, 2 * this.pow.length, 64));
      for (let s = 0; s < this.pow.length; s++) this.pow[s] = Math.pow(s, beta);
      this.powBeta = beta;
    }
  }

  /**
   * Lists (in `idxA`/`idxB`) the unused words that equal some unused word of the other side; returns their counts.
   * The others can match nothing this round, and leaving them out changes neither the best route nor the tie rule:
   * in the full table such a row (column) only copies the row above (the cell to the left), and the traceback walks
   * through it the same way. Runs still need adjacency in the original sentences (see {@link search}).
   */
  private compact(a: Int32Array, aOff: number, n: number, b: Int32Array, bOff: number, m: number): [number, number] {
    const { usedA, usedB, idxA, idxB } = this;
    let na = 0;
    for (let i = 0; i < n; i++) {
      if (usedA[i] !== 0) continue;
      const x = a[aOff + i];
      for (let j = 0; j < m; j++) {
        if (usedB[j] === 0 && b[bOff + j] === x) {
          idxA[na++] = i;
          break;
        }
      }
    }
    if (na === 0) return [0, 0];
    let nb = 0;
    for (let j = 0; j < m; j++) {
      if (usedB[j] !== 0) continue;
      const y = b[bOff + j];
      for (let k = 0; k < na; k++) {
        if (a[aOff + idxA[k]] === y) {
          idxB[nb++] = j;
          break;
        }
      }
    }
    return [na, nb];
  }

  /**
   * Fills the tables over the listed words (`idxA[0, na)` against `idxB[0, nb)`); returns the LCS length. Two
   * matches are one run only when their words are adjacent in the original sentences on both sides.
   */
  private search(
    a: Int32Array,
    aOff: number,
    na: number,
    b: Int32Array,
    bOff: number,
    nb: number,
    pairA: Int32Array | null,
    pairB: Int32Array | null,
  ): number {
    const { len, rs, choice, diag, wsum, idxA, idxB, pow } = this;
    const W = nb + 1;
    for (let j = 0; j <= nb; j++) {
      len[j] = 0;
      rs[j] = 0;
      diag[j] = 0;
      wsum[j] = 0;
    }
    for (let i = 1; i <= na; i++) {
      const row = i * W;
      len[row] = 0;
      rs[row] = 0;
      diag[row] = 0;
      wsum[row] = 0;
      const ai = idxA[i - 1];
      const x = a[aOff + ai];
      // Whether the previous listed hypothesis word is the original word before this one.
      const aAdjacent = i > 1 && idxA[i - 2] === ai - 1;
      const xPair = pairA === null ? -1 : pairA[ai];
      for (let j = 1; j <= nb; j++) {
        const idx = row + j;
        const back = idx - W - 1;
        const bj = idxB[j - 1];
        if (b[bOff + bj] === x) {
          const w = xPair >= 0 && pairB !== null && pairB[bj] === xPair ? 2 : 1;
          if (aAdjacent && j > 1 && idxB[j - 2] === bj - 1 && diag[back] > 0) {
            diag[idx] = diag[back] + 1;
            wsum[idx] = wsum[back] + w;
          } else {
            diag[idx] = 1;
            // A run starts here: the cell before it counts as weight 0 (see the loop below).
            wsum[idx] = w;
          }
        } else {
          diag[idx] = 0;
          wsum[idx] = 0;
        }
        let bestLen = len[idx - W];
        let bestRs = rs[idx - W];
        let bestChoice = 0;
        const upLen = len[idx - 1];
        if (upLen > bestLen || (upLen === bestLen && rs[idx - 1] > bestRs)) {
          bestLen = upLen;
          bestRs = rs[idx - 1];
          bestChoice = -1;
        }
        const runs = diag[idx];
        const wEnd = wsum[idx];
        for (let k = 1, p = back; k <= runs; k++, p -= W + 1) {
          const l = len[p] + k;
          // The weight of the last k pairs: everything on the run minus what lies before them (0 at its start).
          const r = rs[p] + pow[k === runs ? wEnd : wEnd - wsum[p]];
          if (l > bestLen || (l === bestLen && r > bestRs)) {
            bestLen = l;
            bestRs = r;
            bestChoice = k;
          }
        }
        len[idx] = bestLen;
        rs[idx] = bestRs;
        choice[idx] = bestChoice;
      }
    }
    return len[na * W + nb];
  }

  /** Marks the chosen route's words used; returns Σ_c length(c)^β over its maximal runs (original adjacency). */
  private traceback(na: number, nb: number): number {
    const { choice, usedA, usedB, idxA, idxB, pow } = this;
    const W = nb + 1;
    let i = na;
    let j = nb;
    let sum = 0;
    // The run being gathered (traceback goes right to left): its length and its leftmost pair's original words.
    let runLen = 0;
    let runStartA = -1;
    let runStartB = -1;
    while (i > 0 && j > 0) {
      const c = choice[i * W + j];
      if (c === 0) i--;
      else if (c < 0) j--;
      else {
        for (let t = 1; t <= c; t++) {
          usedA[idxA[i - t]] = 1;
          usedB[idxB[j - t]] = 1;
        }
        const lastA = idxA[i - 1];
        const lastB = idxB[j - 1];
        // Two diagonal steps whose words touch in the original sentences are one common part.
        if (runLen > 0 && runStartA === lastA + 1 && runStartB === lastB + 1) runLen += c;
        else {
          if (runLen > 0) sum += pow[runLen];
          runLen = c;
        }
        i -= c;
        j -= c;
        runStartA = idxA[i];
        runStartB = idxB[j];
      }
    }
    if (runLen > 0) sum += pow[runLen];
    return sum;
  }
}

/**
 * RS (eq. 1) of an explicit route: matched pairs `(hyp[k], ref[k])`, left to right, cut into maximal runs of
 * consecutive pairs; a pair weighs 2 when both words belong to the same correspondence (`pairA`/`pairB`), else 1.
 */
export function routeScore(
  hyp: readonly number[],
  ref: readonly number[],
  pairA: ArrayLike<number> | null,
  pairB: ArrayLike<number> | null,
  beta: number,
): number {
  let total = 0;
  let run = 0;
  for (let k = 0; k < hyp.length; k++) {
    const pa = pairA === null ? -1 : pairA[hyp[k]];
    const w = pa >= 0 && pairB !== null && pairB[ref[k]] === pa ? 2 : 1;
    const continues = k > 0 && hyp[k] === hyp[k - 1] + 1 && ref[k] === ref[k - 1] + 1;
    if (!continues && run > 0) {
      total += Math.pow(run, beta);
      run = 0;
    }
    run += w;
  }
  return run > 0 ? total + Math.pow(run, beta) : total;
}
