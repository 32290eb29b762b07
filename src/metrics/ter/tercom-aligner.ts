/**
 * tercom 0.10.0's TER of one tokenized hypothesis against one tokenized reference (`TerScorer.TER(String[],
 * String[])` with `CalcBestShift` and `FindAlignErr`): greedy shifting, then the beam edit distance of the
 * shifted hypothesis.
 *
 * Each step aligns the current hypothesis (tercom-edit-distance.ts), marks misaligned words, gathers shift
 * candidates (tercom-shifts.ts) and tries them longest first. A candidate replaces the best so far when it
 * lowers edit distance + shift cost, or, while no shift has been taken in this step, when it breaks even (so the
 * first shift that saves exactly its own cost is taken). A length bucket is abandoned once the best gain already
 * exceeds what a shift of that length can gain (twice its length), or equals it after a shift was found. The
 * loop stops when a step finds nothing; each step lowers the edit distance, so it ends. The result is the last
 * edit distance plus one per shift; insertions, deletions and substitutions are counted on the last alignment.
 *
 * This search differs from sacreBLEU's (which caches edit distances, caps candidates at 1000 and uses its own
 * beam), which is why the two disagree on some segments.
 */
import { alignmentErrors, countOps, TER_EDIT_COST, type TerAlignment, type TerShift } from './alignment.js';
import { TercomEditDistance } from './tercom-edit-distance.js';
import {
  tercomPerformShift,
  tercomShiftAsTerShift,
  TercomShiftCandidates,
  TERCOM_MAX_SHIFT_SIZE,
} from './tercom-shifts.js';

/** Search limits of tercom (its `-b` and `-d` flags). */
export interface TercomSearchOptions {
  /** Beam width of the edit distance (`-b`). @default 20 */
  readonly beamWidth: number;
  /** Maximum shift distance (`-d`); 0 turns shifts off. @default 50 */
  readonly maxShiftDistance: number;
}

/** tercom's defaults: beam 20, shift distance 50. */
export const TERCOM_SEARCH_DEFAULTS: TercomSearchOptions = { beamWidth: 20, maxShiftDistance: 50 };

/** The counts of one hypothesis/reference alignment, as tercom's summary reports them. */
export interface TercomPairCounts {
  /** Edit distance after shifting plus the number of shifts. */
  edits: number;
  /** Insertions in the final alignment. */
  ins: number;
  /** Deletions. */
  del: number;
  /** Substitutions. */
  sub: number;
  /** Shifts taken. */
  shifts: number;
  /** Words moved by those shifts. */
  wordsShifted: number;
}

/** Grows an `Int32Array` to at least `n` elements (contents dropped). */
function atLeast(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  return a.length >= n ? a : new Int32Array(Math.max(n, a.length * 2));
}

/** tercom's greedy shift search with reusable scratch memory (one instance per thread). */
export class TercomAligner {
  private readonly editDistance = new TercomEditDistance();
  private readonly candidates = new TercomShiftCandidates();
  private current = new Int32Array(64);
  private trial = new Int32Array(64);
  private best = new Int32Array(64);
  private currentPath = new Uint8Array(128);
  private currentPathLength = 0;
  private herr = new Uint8Array(64);
  private rerr = new Uint8Array(64);
  private ralign = new Int32Array(64);
  /** `start, end, newloc` of each shift taken by the last call. */
  private taken = new Int32Array(3 * 8);
  private takenLength = 0;

  /** The counts of the last {@link align} call. */
  readonly counts: TercomPairCounts = { edits: 0, ins: 0, del: 0, sub: 0, shifts: 0, wordsShifted: 0 };

  constructor(readonly options: TercomSearchOptions = TERCOM_SEARCH_DEFAULTS) {}

  /**
   * Aligns `hyp[0, hypLen)` to `ref[0, refLen)` (token ids; either may be empty) and fills {@link counts}.
   * @returns the edits (edit distance + shifts).
   */
  align(hyp: Int32Array, hypLen: number, ref: Int32Array, refLen: number): number {
    const { beamWidth, maxShiftDistance } = this.options;
    this.current = atLeast(this.current, hypLen);
    this.trial = atLeast(this.trial, hypLen);
    this.best = atLeast(this.best, hypLen);
    if (this.herr.length < hypLen) this.herr = new Uint8Array(Math.max(hypLen, this.herr.length * 2));
    if (this.rerr.length < refLen) this.rerr = new Uint8Array(Math.max(refLen, this.rerr.length * 2));
    this.ralign = atLeast(this.ralign, refLen);
    if (this.currentPath.length < hypLen + refLen) {
      this.currentPath = new Uint8Array(Math.max(hypLen + refLen, this.currentPath.length * 2));
    }
    this.current.set(hyp.subarray(0, hypLen));
    this.takenLength = 0;
    let currentEdits = 0;
    let shifts = 0;
    let wordsShifted = 0;

    for (;;) {
      // A full table of the current hypothesis each step: the trials below reuse its columns.
      currentEdits = this.editDistance.distance(this.current, hypLen, ref, refLen, beamWidth);
      this.keepPath();
      alignmentErrors(this.currentPath.subarray(0, this.currentPathLength), this.herr, this.rerr, this.ralign);
      this.candidates.gather(this.current, hypLen, ref, refLen, this.herr, this.rerr, this.ralign, maxShiftDistance);
      const cand = this.candidates;
      let bestShiftCost = 0;
      let bestEdits = currentEdits;
      let bestShift = -1;
      search: for (let b = TERCOM_MAX_SHIFT_SIZE; b >= 0; b--) {
        const maxFix = 2 * (b + 1);
        for (let k = cand.bucketStart[b]; ; k++) {
          // tercom checks this before each bucket and before each of its candidates.
          const fix = currentEdits - (bestShiftCost + bestEdits);
          if (fix > maxFix || (bestShiftCost !== 0 && fix === maxFix)) break search;
          if (k >= cand.bucketEnd[b]) break;
          const trial = this.trial;
          tercomPerformShift(this.current, hypLen, cand.start(k), cand.end(k), cand.newloc(k), trial);
          let prefix = 0;
          while (prefix < hypLen && trial[prefix] === this.current[prefix]) prefix++;
          const edits = this.editDistance.distanceWithPrefix(trial, hypLen, ref, refLen, beamWidth, prefix);
          const gain = bestEdits + bestShiftCost - (edits + TER_EDIT_COST);
          if (gain > 0 || (bestShiftCost === 0 && gain === 0)) {
            bestShift = k;
            bestShiftCost = TER_EDIT_COST;
            bestEdits = edits;
            this.trial = this.best;
            this.best = trial;
          }
        }
      }
      if (bestShift < 0) break;
      this.recordShift(shifts, cand.start(bestShift), cand.end(bestShift), cand.newloc(bestShift));
      shifts++;
      wordsShifted += cand.end(bestShift) - cand.start(bestShift) + 1;
      const swap = this.current;
      this.current = this.best;
      this.best = swap;
    }

    const counts = this.counts;
    const ops = countOps(this.currentPath.subarray(0, this.currentPathLength));
    counts.ins = ops.ins;
    counts.del = ops.del;
    counts.sub = ops.sub;
    counts.edits = currentEdits + shifts * TER_EDIT_COST;
    counts.shifts = shifts;
    counts.wordsShifted = wordsShifted;
    return counts.edits;
  }

  /** Copies the edit distance's last path (the current hypothesis's alignment) into {@link currentPath}. */
  private keepPath(): void {
    const ed = this.editDistance;
    this.currentPath.set(ed.path.subarray(0, ed.pathLength));
    this.currentPathLength = ed.pathLength;
  }

  private recordShift(index: number, start: number, end: number, newloc: number): void {
    this.takenLength = 3 * index + 3;
    if (3 * index + 3 > this.taken.length) {
      const grown = new Int32Array(this.taken.length * 2);
      grown.set(this.taken);
      this.taken = grown;
    }
    this.taken[3 * index] = start;
    this.taken[3 * index + 1] = end;
    this.taken[3 * index + 2] = newloc;
  }

  /**
   * The last {@link align} call's alignment in the shared TER form: its shifts (in sacreBLEU's `target`
   * convention, see {@link tercomShiftAsTerShift}), where each word of the shifted hypothesis came from, and
   * the operations of the final alignment.
   */
  alignment(hypLen: number): TerAlignment {
    const shifts: TerShift[] = [];
    let order = Int32Array.from({ length: hypLen }, (_, k) => k);
    let moved = new Int32Array(hypLen);
    for (let k = 0; 3 * k < this.takenLength; k++) {
      const [start, end, newloc] = [this.taken[3 * k], this.taken[3 * k + 1], this.taken[3 * k + 2]];
      shifts.push(tercomShiftAsTerShift(start, end, newloc));
      tercomPerformShift(order, hypLen, start, end, newloc, moved);
      [order, moved] = [moved, order];
    }
    return { shifts, hypOrder: order, ops: this.currentPath.slice(0, this.currentPathLength) };
  }
}
