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
 * result is property-tested against the literal port in `plain.ts`.
 */
import { TerOp, alignmentErrors, countOps, type TerResult, type TerShift } from './alignment.js';
import { BeamEditDistance } from './beam-edit-distance.js';
import { SACREBLEU_TER_LIMITS, type TerSearchLimits } from './limits.js';
import { performShift, shiftSpan } from './shift.js';

/** The best candidate of a round, compared as sacreBLEU's tuple `(gain, length, -start, -target)`. */
interface Best {
  gain: number;
  length: number;
  start: number;
  target: number;
}

function beats(gain: number, length: number, start: number, target: number, best: Best): boolean {
  if (gain !== best.gain) return gain > best.gain;
  if (length !== best.length) return length > best.length;
  if (start !== best.start) return start < best.start;
  return target < best.target;
}

/**
 * sacreBLEU's TER edits of `hyp` against `ref` (word ids; equal ids are equal words).
 * @param limits the search limits; sacreBLEU's by default.
 * @param withAlignment also return the shifts and the final operations (for `--detail`).
 */
export function sacrebleuTer(
  hyp: Int32Array,
  ref: Int32Array,
  limits: TerSearchLimits = SACREBLEU_TER_LIMITS,
  withAlignment = false,
): TerResult {
  const n = hyp.length;
  const m = ref.length;
  if (m === 0) {
    // sacreBLEU: every hypothesis word is an edit, and no search runs.
    const alignment = withAlignment
      ? { shifts: [], hypOrder: Int32Array.from({ length: n }, (_, k) => k), ops: new Uint8Array(n).fill(TerOp.Ins) }
      : null;
    return { edits: n, refLength: 0, ins: n, del: 0, sub: 0, shifts: 0, alignment };
  }
  const { maxShiftSize, maxShiftDist, maxCandidates } = limits;
  const ed = new BeamEditDistance(ref, n, limits.beamWidth);
  let words = Int32Array.from(hyp);
  let spare = new Int32Array(n);
  const candidate = new Int32Array(n);
  let order = withAlignment ? Int32Array.from({ length: n }, (_, k) => k) : null;
  const shifts: TerShift[] = [];
  const hypErr = new Uint8Array(n);
  const refErr = new Uint8Array(m);
  const refAlign = new Int32Array(m);
  const hypErrSum = new Int32Array(n + 1);
  const refErrSum = new Int32Array(m + 1);
  let checked = 0;
  for (;;) {
    const pre = ed.setHypothesis(words);
    const ops = ed.trace();
    alignmentErrors(ops, hypErr, refErr, refAlign);
    for (let k = 0; k < n; k++) hypErrSum[k + 1] = hypErrSum[k] + hypErr[k];
    for (let k = 0; k < m; k++) refErrSum[k + 1] = refErrSum[k] + refErr[k];
    let best: Best | null = null;
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
            let prev = -1;
            for (let off = -1; off < len; off++) {
              const target = sr + off === -1 ? 0 : refAlign[sr + off] + 1;
              if (target === prev) continue;
              prev = target;
              checked++;
              const span = shiftSpan(n, sh, len, target);
              performShift(words, sh, len, target, candidate);
              const gain = pre - ed.variantDistance(candidate, span.from, span.to);
              if (best === null) best = { gain, length: len, start: sh, target };
              else if (beats(gain, len, sh, target, best)) {
                best.gain = gain;
                best.length = len;
                best.start = sh;
                best.target = target;
              }
            }
          }
          if (checked >= maxCandidates) break search;
        }
      }
    }
    if (checked >= maxCandidates || best === null || best.gain <= 0) {
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
    performShift(words, best.start, best.length, best.target, spare);
    [words, spare] = [spare, words];
    if (order) {
      const moved = new Int32Array(n);
      performShift(order, best.start, best.length, best.target, moved);
      order = moved;
    }
    shifts.push({ start: best.start, length: best.length, target: best.target });
  }
}
