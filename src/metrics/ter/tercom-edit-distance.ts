/**
 * tercom 0.10.0's beam-pruned word edit distance (`TerScorer.MinEditDist`), cell for cell.
 *
 * The table is filled column by column (one column per hypothesis word), each cell pushing its cost into the
 * diagonal, right (insertion) and lower (deletion) neighbours; a neighbour is overwritten only by a strictly
 * cheaper cost, so on ties the diagonal wins over an insertion and an insertion over a deletion. A cell is
 * skipped when its cost exceeds `beamWidth` plus the cheapest diagonal move into its column, and each column
 * only scans from the first live row of the previous column down to the last live row (extended by deletions).
 * The pruning is a heuristic: the result can exceed the true Levenshtein distance (with `-N` on WMT17 and on
 * long Japanese segments it does), and tercom's numbers are those of the pruned table, so the scan is reproduced
 * as written: its row range, its skip rule, and which rows count as live (only processed ones). (tercom lowers
 * the column's best diagonal cost on a match whether or not the cell improved, on a substitution only if it did;
 * that never shows, because a diagonal move is always the first write into its cell.)
 *
 * Costs are tercom's defaults (match 0; substitution, insertion and deletion {@link TER_EDIT_COST}), so every
 * cost is an integer and the table is an `Int32Array` (`-1` = not reached). The scratch arrays grow to the
 * largest pair seen and are reused: one instance per thread, not per call.
 *
 * The shift search scores many hypotheses that share a prefix with the current one. Column `j` of the table only
 * depends on the first `j` hypothesis words, and its final content does not depend on word `j` (that word only
 * decides what the column pushes into column `j + 1`). So {@link TercomEditDistance.distanceWithPrefix} keeps
 * the columns up to the first changed word `p` from the last full {@link TercomEditDistance.distance} call,
 * replays column `p`'s scan (same rows, same skips, recorded by the full call) without its deletions to push
 * the new word's moves, and fills the rest anew: the same cells, values and traceback as a full call, for the
 * cost of the changed columns only.
 */
import { TER_EDIT_COST, TerOp } from './alignment.js';

/** tercom's `INF`: the "no diagonal move yet" cost. */
const INF = 999999;
/** Traceback cell not reached (tercom's '0'); the others hold {@link TerOp} codes. */
const UNSET = 0xff;
// Module-local copies: hot loops read constants, not properties of an imported object.
const MATCH = TerOp.Match;
const SUB = TerOp.Sub;
const INS = TerOp.Ins;
const DEL = TerOp.Del;
const COST = TER_EDIT_COST;

/** Outputs of one column scan, read by the next column. */
interface ColumnState {
  /** Cheapest diagonal move into the next column (tercom's `current_best`). */
  best: number;
  /** First row that was not skipped (`current_first_good`), -1 when none. */
  firstLive: number;
  /** One past the last row that was not skipped (`cur_last_good`), -1 when none. */
  lastLive: number;
  /** The scan's final bound (`last_good` after this column's deletions extended it). */
  bound: number;
}

/**
 * Scans column `j` (offset `col` in `S`/`P`, rows `0 .. refLen`) from row `first` while the row is at most the
 * bound (`lastGood`, raised by deletions when `deletions`), skipping unreached cells and cells above `limit`, and
 * pushes diagonal and insertion moves for hypothesis word `hypWord` into the next column of `S2`/`P2` (at
 * `next`; none when `hypWord` is -1, the last column). Returns its outputs in `state`.
 */
function scanColumn(
  S: Int32Array,
  P: Uint8Array,
  col: number,
  S2: Int32Array,
  P2: Uint8Array,
  next: number,
  ref: Int32Array,
  refLen: number,
  hypWord: number,
  first: number,
  lastGood: number,
  limit: number,
  deletions: boolean,
  state: ColumnState,
): void {
  let best = INF;
  let firstLive = -1;
  let lastLive = -1;
  const inner = hypWord >= 0;
  for (let i = first; i <= refLen && i <= lastGood; i++) {
    const score = S[col + i];
    if (score < 0 || score > limit) continue;
    if (firstLive === -1) firstLive = i;
    if (inner) {
      if (i < refLen) {
        const diag = next + i + 1;
        const old = S2[diag];
        if (ref[i] === hypWord) {
          if (old === -1 || score < old) {
            S2[diag] = score;
            P2[diag] = MATCH;
          }
          if (score < best) best = score;
        } else if (old < 0 || score + COST < old) {
          S2[diag] = score + COST;
          P2[diag] = SUB;
          if (score + COST < best) best = score + COST;
        }
      }
      const right = next + i;
      const oldRight = S2[right];
      if (oldRight < 0 || oldRight > score + COST) {
        S2[right] = score + COST;
        P2[right] = INS;
      }
    }
    lastLive = i + 1;
    if (deletions && i < refLen) {
      const down = col + i + 1;
      const oldDown = S[down];
      if (oldDown < 0 || oldDown > score + COST) {
        S[down] = score + COST;
        P[down] = DEL;
        if (i >= lastGood) lastGood = i + 1;
      }
    }
  }
  state.best = best;
  state.firstLive = firstLive;
  state.lastLive = lastLive;
  state.bound = lastGood;
}

/** The beam edit distance with its scratch memory and the alignment path of the last call. */
export class TercomEditDistance {
  /** Table of the last full call (kept for prefix reuse) and of the last prefix call. */
  private baseS = new Int32Array(1024);
  private baseP = new Uint8Array(1024);
  private workS = new Int32Array(1024);
  private workP = new Uint8Array(1024);
  /** Per column of the last full call: scan start, final bound and pruning limit. */
  private colFirst = new Int32Array(64);
  private colBound = new Int32Array(64);
  private colLimit = new Float64Array(64);
  private readonly state: ColumnState = { best: INF, firstLive: 0, lastLive: 0, bound: 0 };
  private baseHypLen = -1;
  private baseRefLen = -1;
  private baseCost = 0;
  /** Alignment of the last call, first operation first ({@link TerOp} codes). */
  path = new Uint8Array(256);
  /** Number of operations in {@link path}. */
  pathLength = 0;

  private ensure(cells: number, columns: number, pathLength: number): void {
    if (cells > this.baseS.length) {
      const size = Math.max(cells, this.baseS.length * 2);
      this.baseS = new Int32Array(size);
      this.baseP = new Uint8Array(size);
      this.workS = new Int32Array(size);
      this.workP = new Uint8Array(size);
    }
    if (columns > this.colFirst.length) {
      const size = Math.max(columns, this.colFirst.length * 2);
      this.colFirst = new Int32Array(size);
      this.colBound = new Int32Array(size);
      this.colLimit = new Float64Array(size);
    }
    if (pathLength > this.path.length) this.path = new Uint8Array(Math.max(pathLength, this.path.length * 2));
  }

  /**
   * The edit distance of `hyp[0, hypLen)` to `ref[0, refLen)` under tercom's beam, and its alignment in
   * {@link path}. The table is kept for {@link distanceWithPrefix}.
   * @param beamWidth tercom's `-b` (default 20).
   */
  distance(hyp: Int32Array, hypLen: number, ref: Int32Array, refLen: number, beamWidth: number): number {
    const rows = refLen + 1;
    const cells = rows * (hypLen + 1);
    this.ensure(cells, hypLen + 1, hypLen + refLen);
    const S = this.baseS;
    const P = this.baseP;
    S.fill(-1, 0, cells);
    P.fill(UNSET, 0, cells);
    S[0] = 0;
    const state = this.state;
    state.best = INF;
    state.firstLive = 0;
    state.lastLive = 0;
    for (let j = 0; j <= hypLen; j++) {
      // The last column is never pruned.
      const limit = j < hypLen ? state.best + beamWidth : INF + beamWidth + 1;
      const first = state.firstLive;
      this.colFirst[j] = first;
      this.colLimit[j] = limit;
      const col = j * rows;
      const word = j < hypLen ? hyp[j] : -1;
      scanColumn(S, P, col, S, P, col + rows, ref, refLen, word, first, state.lastLive, limit, true, state);
      this.colBound[j] = state.bound;
    }
    this.baseHypLen = hypLen;
    this.baseRefLen = refLen;
    this.baseCost = S[cells - 1];
    this.tracePath(P, P, hypLen, refLen, hypLen);
    return this.baseCost;
  }

  /**
   * Like {@link distance} for a hypothesis whose first `prefix` words equal those of the last {@link distance}
   * call's (same lengths, same reference), reusing that call's columns `0 .. prefix`. The kept table is left as
   * it was, so any number of such calls can follow one full call.
   */
  distanceWithPrefix(
    hyp: Int32Array,
    hypLen: number,
    ref: Int32Array,
    refLen: number,
    beamWidth: number,
    prefix: number,
  ): number {
    if (hypLen !== this.baseHypLen || refLen !== this.baseRefLen) {
      throw new RangeError('distanceWithPrefix: lengths differ from the last full distance() call');
    }
    const rows = refLen + 1;
    if (prefix >= hypLen) {
      this.tracePath(this.baseP, this.baseP, hypLen, refLen, hypLen);
      return this.baseCost;
    }
    const S = this.workS;
    const P = this.workP;
    const from = (prefix + 1) * rows;
    const cells = rows * (hypLen + 1);
    S.fill(-1, from, cells);
    P.fill(UNSET, from, cells);
    const state = this.state;
    // Column `prefix` is final in the kept table; replay its scan for the new word, without its deletions.
    const pcol = prefix * rows;
    scanColumn(
      this.baseS,
      this.baseP,
      pcol,
      S,
      P,
      pcol + rows,
      ref,
      refLen,
      hyp[prefix],
      this.colFirst[prefix],
      this.colBound[prefix],
      this.colLimit[prefix],
      false,
      state,
    );
    for (let j = prefix + 1; j <= hypLen; j++) {
      const limit = j < hypLen ? state.best + beamWidth : INF + beamWidth + 1;
      const col = j * rows;
      const word = j < hypLen ? hyp[j] : -1;
      scanColumn(S, P, col, S, P, col + rows, ref, refLen, word, state.firstLive, state.lastLive, limit, true, state);
    }
    this.tracePath(this.baseP, P, hypLen, refLen, prefix);
    return S[cells - 1];
  }

  /**
   * Follows the traceback from the last cell (columns up to `split` in `kept`, later ones in `P`) and writes the
   * operations in order into {@link path}.
   */
  private tracePath(kept: Uint8Array, P: Uint8Array, hypLen: number, refLen: number, split: number): void {
    const rows = refLen + 1;
    const path = this.path;
    let at = hypLen + refLen;
    let i = refLen;
    let j = hypLen;
    // Written backwards from the end of the buffer, then moved to the front.
    while (i > 0 || j > 0) {
      const op = (j <= split ? kept : P)[j * rows + i];
      if (op === MATCH || op === SUB) {
        i--;
        j--;
      } else if (op === DEL) i--;
      else if (op === INS) j--;
      else throw new Error(`tercom edit distance: no path through cell (${i}, ${j})`);
      path[--at] = op;
    }
    this.pathLength = hypLen + refLen - at;
    if (at > 0) path.copyWithin(0, at, hypLen + refLen);
  }
}
