/**
 * tercom 0.10.0's beam-pruned word edit distance (`TerScorer.MinEditDist`), cell for cell.
 *
 * The table is filled column by column (one column per hypothesis word), each cell pushing its cost into the
 * diagonal, right (insertion) and lower (deletion) neighbours; a neighbour is overwritten only by a strictly
 * cheaper cost, so on ties the diagonal wins over an insertion and an insertion over a deletion. A cell is
 * skipped when its cost exceeds `beamWidth` plus the cheapest diagonal move into its column, and each column
 * only scans from the first live row of the previous column down to the last live row (extended by deletions).
 * The pruning is a heuristic: the result can exceed the true Levenshtein distance, and tercom's numbers are
 * those of the pruned table, so it is reproduced exactly, including two asymmetries of the original: a match
 * lowers the column's best diagonal cost even when it does not improve its cell, a substitution only when it
 * does; and rows are only "live" once processed.
 *
 * Costs are tercom's defaults (match 0, substitution, insertion, deletion 1), so every cost is a small integer
 * and the table is an `Int32Array` (`-1` = not reached). The scratch arrays grow to the largest pair seen and
 * are reused: one instance per thread, not per call.
 */

/** Traceback codes of {@link TercomEditDistance.path}, tercom's alignment characters in brackets. */
export const TercomOp = {
  /** Hypothesis word equals the reference word (' '). */
  Match: 1,
  /** Substitution ('S'). */
  Sub: 2,
  /** Insertion: a hypothesis word without reference word ('I'). */
  Ins: 3,
  /** Deletion: a reference word without hypothesis word ('D'). */
  Del: 4,
} as const;

/** tercom's `INF`: the "no diagonal move yet" cost. */
const INF = 999999;

/** The beam edit distance with its scratch memory and the alignment path of the last call. */
export class TercomEditDistance {
  private cost = new Int32Array(1024);
  private trace = new Uint8Array(1024);
  /** Alignment of the last {@link distance} call, first operation first ({@link TercomOp} codes). */
  path = new Uint8Array(256);
  /** Number of operations in {@link path}. */
  pathLength = 0;

  /**
   * The edit distance of `hyp[0, hypLen)` to `ref[0, refLen)` under tercom's beam, and its alignment in
   * {@link path}. Both lengths must be at least 1 (tercom scores empty segments without this table).
   * @param beamWidth tercom's `-b` (default 20).
   */
  distance(hyp: Int32Array, hypLen: number, ref: Int32Array, refLen: number, beamWidth: number): number {
    const rows = refLen + 1;
    const cells = rows * (hypLen + 1);
    if (cells > this.cost.length) {
      const size = Math.max(cells, this.cost.length * 2);
      this.cost = new Int32Array(size);
      this.trace = new Uint8Array(size);
    }
    const S = this.cost;
    const P = this.trace;
    S.fill(-1, 0, cells);
    P.fill(0, 0, cells);
    S[0] = 0;

    let currentBest = INF;
    let lastBest: number;
    let firstGood: number;
    let currentFirstGood = 0;
    let lastGood: number;
    let curLastGood = 0;
    for (let j = 0; j <= hypLen; j++) {
      lastBest = currentBest;
      currentBest = INF;
      firstGood = currentFirstGood;
      currentFirstGood = -1;
      lastGood = curLastGood;
      curLastGood = -1;
      const col = j * rows;
      const next = col + rows;
      const hypWord = j < hypLen ? hyp[j] : 0;
      for (let i = firstGood; i <= refLen; i++) {
        if (i > lastGood) break;
        const score = S[col + i];
        if (score < 0) continue;
        if (j < hypLen && score > lastBest + beamWidth) continue;
        if (currentFirstGood === -1) currentFirstGood = i;
        if (i < refLen && j < hypLen) {
          const diag = next + i + 1;
          if (ref[i] === hypWord) {
            const c = score;
            if (S[diag] === -1 || c < S[diag]) {
              S[diag] = c;
              P[diag] = TercomOp.Match;
            }
            if (c < currentBest) currentBest = c;
          } else {
            const c = score + 1;
            if (S[diag] < 0 || c < S[diag]) {
              S[diag] = c;
              P[diag] = TercomOp.Sub;
              if (c < currentBest) currentBest = c;
            }
          }
        }
        curLastGood = i + 1;
        if (j < hypLen) {
          const c = score + 1;
          const right = next + i;
          if (S[right] < 0 || S[right] > c) {
            S[right] = c;
            P[right] = TercomOp.Ins;
          }
        }
        if (i < refLen) {
          const c = score + 1;
          const down = col + i + 1;
          if (S[down] < 0 || S[down] > c) {
            S[down] = c;
            P[down] = TercomOp.Del;
            if (i >= lastGood) lastGood = i + 1;
          }
        }
      }
    }
    this.tracePath(hypLen, refLen);
    return S[hypLen * rows + refLen];
  }

  /** Follows the traceback from the last cell and writes the operations in order into {@link path}. */
  private tracePath(hypLen: number, refLen: number): void {
    const rows = refLen + 1;
    const P = this.trace;
    if (this.path.length < hypLen + refLen) this.path = new Uint8Array(Math.max(hypLen + refLen, this.path.length * 2));
    let length = 0;
    let i = refLen;
    let j = hypLen;
    while (i > 0 || j > 0) {
      const op = P[j * rows + i];
      if (op === TercomOp.Match || op === TercomOp.Sub) {
        i--;
        j--;
      } else if (op === TercomOp.Del) i--;
      else if (op === TercomOp.Ins) j--;
      else throw new Error(`tercom edit distance: no path through cell (${i}, ${j})`);
      length++;
    }
    const path = this.path;
    i = refLen;
    j = hypLen;
    let at = length;
    while (i > 0 || j > 0) {
      const op = P[j * rows + i];
      path[--at] = op;
      if (op === TercomOp.Match || op === TercomOp.Sub) {
        i--;
        j--;
      } else if (op === TercomOp.Del) i--;
      else j--;
    }
    this.pathLength = length;
  }
}
