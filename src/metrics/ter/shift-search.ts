/**
 * sacreBLEU 2.6.0's TER of one hypothesis against one reference (`lib_ter.translation_edit_rate`): greedy
 * shifts, one per round, each the best of all candidate shifts of the round, until no shift lowers the edit
 * distance or the candidate budget runs out; then the beam edit distance of the shifted hypothesis.
 *
 * Candidates of a round, in sacreBLEU's order: every hypothesis position `sh`, every reference position `sr`
 * with `|sr − sh| ≤ maxShiftDist`, every length `1..maxShiftSize` for which the blocks match word for word;
 * a block is tried only if some of its hypothesis words and some of the reference words it matches are
 * currently misaligned and the reference block is not already aligned inside it. Its targets are the positions
 * right after the hypothesis words aligned to `sr − 1 .. sr + len − 1` (0 for `sr − 1 = −1`), skipping a
 * target equal to the previous one. The best candidate has the largest gain, then the longest block, then the
 * earliest start, then the earliest target. The candidate counter runs over all rounds; when it reaches the
 * budget, the search stops and that round's best shift is not applied (sacreBLEU's loop order).
 *
 * Speed without changing a number: a candidate's edit distance comes from `BeamEditDistance.variantDistance`
 * (only the rows its shift changes are recomputed), which equals the full computation (see that class). The
 * result is property-tested against the literal port in `test/reference/ter.ts`.
 */
import { TerOp, alignmentErrors, countOps, type TerResult, type TerShift } from './alignment.js';
import { BeamEditDistance } from './beam-edit-distance.js';
import { SACREBLEU_TER_LIMITS, type TerSearchLimits } from './limits.js';
import { performShift, writeShiftWindow } from './shift.js';

/** An array at least `size` long: `a` itself when it is, else a new one (contents not kept). */
function grow32(a: Int32Array, size: number): Int32Array {
  return a.length >= size ? a : new Int32Array(Math.max(size, 2 * a.length));
}

/** {@link grow32} for bytes. */
function grow8(a: Uint8Array, size: number): Uint8Array {
  return a.length >= size ? a : new Uint8Array(Math.max(size, 2 * a.length));
}

/**
 * sacreBLEU's TER search with reusable scratch memory: one instance scores any number of (hypothesis,
 * reference) pairs, one at a time, allocating only when a longer pair comes.
 */
export class SacrebleuTerSearch {
  /** The limits in use. */
  readonly limits: TerSearchLimits;
  private readonly ed: BeamEditDistance;
  private wordsA: Int32Array = new Int32Array(0);
  private wordsB: Int32Array = new Int32Array(0);
  private candidate: Int32Array = new Int32Array(0);
  private hypErrSum: Int32Array = new Int32Array(1);
  private refErrSum: Int32Array = new Int32Array(1);
  private hypErr: Uint8Array = new Uint8Array(0);
  private refErr: Uint8Array = new Uint8Array(0);
  private refAlign: Int32Array = new Int32Array(0);

  /** @param limits the search limits; sacreBLEU's by default. */
  constructor(limits: TerSearchLimits = SACREBLEU_TER_LIMITS) {
    this.limits = limits;
    this.ed = new BeamEditDistance(limits.beamWidth);
  }

  /**
   * sacreBLEU's TER edits of `hyp` against `ref` (word ids; equal ids are equal words).
   * @param withAlignment also return the shifts and the final operations (for `--detail`).
   */
  align(hyp: Int32Array, ref: Int32Array, withAlignment = false): TerResult {
    const n = hyp.length;
    const m = ref.length;
    if (m === 0) {
      // sacreBLEU: every hypothesis word is an edit, and no search runs.
      const alignment = withAlignment
        ? { shifts: [], hypOrder: Int32Array.from({ length: n }, (_, k) => k), ops: new Uint8Array(n).fill(TerOp.Ins) }
        : null;
      return { edits: n, refLength: 0, ins: n, del: 0, sub: 0, shifts: 0, alignment };
    }
    const { maxShiftSize, maxShiftDist, maxCandidates } = this.limits;
    const ed = this.ed;
    ed.reset(ref, n);
    let words = (this.wordsA = grow32(this.wordsA, n)).subarray(0, n);
    let spare = (this.wordsB = grow32(this.wordsB, n)).subarray(0, n);
    const candidate = (this.candidate = grow32(this.candidate, n)).subarray(0, n);
    const hypErr = (this.hypErr = grow8(this.hypErr, n));
    const refErr = (this.refErr = grow8(this.refErr, m));
    const refAlign = (this.refAlign = grow32(this.refAlign, m));
    const hypErrSum = (this.hypErrSum = grow32(this.hypErrSum, n + 1));
    const refErrSum = (this.refErrSum = grow32(this.refErrSum, m + 1));
    words.set(hyp);
    candidate.set(hyp);
    let order = withAlignment ? Int32Array.from({ length: n }, (_, k) => k) : null;
    const shifts: TerShift[] = [];
    let checked = 0;
    let pre = ed.setHypothesis(words);
    for (;;) {
      const ops = ed.trace();
      alignmentErrors(ops, hypErr, refErr, refAlign);
      for (let k = 0; k < n; k++) hypErrSum[k + 1] = hypErrSum[k] + hypErr[k];
      for (let k = 0; k < m; k++) refErrSum[k + 1] = refErrSum[k] + refErr[k];
      // The round's best, compared as sacreBLEU's tuple (gain, length, -start, -target); none yet.
      let bestGain = 0;
      let bestLength = 0;
      let bestStart = -1;
      let bestTarget = 0;
      search: for (let sh = 0; sh < n; sh++) {
        const first = words[sh];
        const srEnd = Math.min(m - 1, sh + maxShiftDist);
        for (let sr = Math.max(0, sh - maxShiftDist); sr <= srEnd; sr++) {
          if (ref[sr] !== first) continue;
          for (let len = 1; len <= maxShiftSize; len++) {
            if (sh + len > n || sr + len > m || words[sh + len - 1] !== ref[sr + len - 1]) break;
            if (
              hypErrSum[sh + len] !== hypErrSum[sh] &&
              refErrSum[sr + len] !== refErrSum[sr] &&
              !(sh <= refAlign[sr] && refAlign[sr] < sh + len)
            ) {
              const end = sh + len;
              let prev = -1;
              for (let off = -1; off < len; off++) {
                const target = sr + off === -1 ? 0 : refAlign[sr + off] + 1;
                if (target === prev) continue;
                prev = target;
                checked++;
                // The window [from, to) that the shift rewrites (see shiftSpan).
                const from = target < sh ? target : sh;
                const to = target < sh ? end : target > end ? target : Math.min(n, len + target);
                writeShiftWindow(words, sh, len, target, candidate);
                const gain = pre - ed.variantDistance(candidate, from, to);
                for (let k = from; k < to; k++) candidate[k] = words[k];
                if (
                  bestStart < 0 ||
                  gain > bestGain ||
                  (gain === bestGain &&
                    (len > bestLength || (len === bestLength && (sh < bestStart || (sh === bestStart && target < bestTarget)))))
                ) {
                  bestGain = gain;
                  bestLength = len;
                  bestStart = sh;
                  bestTarget = target;
                }
              }
            }
            if (checked >= maxCandidates) break search;
          }
        }
      }
      // The budget ends the search before the round's best shift is applied (sacreBLEU's loop order).
      if (checked >= maxCandidates || bestStart < 0 || bestGain <= 0) {
        const counts = countOps(ops);
        return {
          edits: shifts.length + pre,
          refLength: m,
          ins: counts.ins,
          del: counts.del,
          sub: counts.sub,
          shifts: shifts.length,
          alignment: order ? { shifts, hypOrder: order, ops: Uint8Array.from(ops) } : null,
        };
      }
      performShift(words, bestStart, bestLength, bestTarget, spare);
      const end = bestStart + bestLength;
      const from = bestTarget < bestStart ? bestTarget : bestStart;
      const to = bestTarget < bestStart ? end : bestTarget > end ? bestTarget : Math.min(n, bestLength + bestTarget);
      [words, spare] = [spare, words];
      candidate.set(words);
      pre = ed.replaceHypothesis(words, from, to);
      if (order) {
        const moved = new Int32Array(n);
        performShift(order, bestStart, bestLength, bestTarget, moved);
        order = moved;
      }
      shifts.push({ start: bestStart, length: bestLength, target: bestTarget });
    }
  }
}

let defaultSearch: SacrebleuTerSearch | null = null;

/**
 * sacreBLEU's TER edits of `hyp` against `ref` (word ids; equal ids are equal words), with a shared search
 * instance for sacreBLEU's limits.
 * @param limits the search limits; sacreBLEU's by default.
 * @param withAlignment also return the shifts and the final operations (for `--detail`).
 */
export function sacrebleuTer(
  hyp: Int32Array,
  ref: Int32Array,
  limits: TerSearchLimits = SACREBLEU_TER_LIMITS,
  withAlignment = false,
): TerResult {
  if (limits !== SACREBLEU_TER_LIMITS) return new SacrebleuTerSearch(limits).align(hyp, ref, withAlignment);
  defaultSearch ??= new SacrebleuTerSearch();
  return defaultSearch.align(hyp, ref, withAlignment);
}
