/**
 * The plain sacreBLEU TER of one hypothesis against one reference: a direct, unoptimised reading of sacreBLEU
 * 2.6.0's `lib_ter.translation_edit_rate` (full matrices, every candidate's edit distance from scratch). It is
 * the oracle that the fast search in `src/metrics/ter/shift-search.ts` and the TER kernel are tested against;
 * the library never uses it.
 *
 * sacreBLEU caches edit-distance rows in a trie keyed by hypothesis prefixes; since every hypothesis it scores
 * for one reference has the same length (shifts permute words), a row depends only on the prefix above it, and
 * the cache cannot change a result. It is left out here.
 */
import { TerOp, alignmentErrors, countOps, type TerResult, type TerShift } from '../../src/metrics/ter/alignment.js';
import { SACREBLEU_TER_LIMITS, type TerSearchLimits } from '../../src/metrics/ter/limits.js';
import { performShift } from '../../src/metrics/ter/shift.js';

const INF = 0x3fffffff;
const UNDEF = 255;

/** sacreBLEU's `BeamEditDistance` on one hypothesis, computed in full: distance and trace. */
export function plainBeamEditDistance(
  hyp: Int32Array,
  ref: Int32Array,
  beamWidth: number,
): { distance: number; ops: Uint8Array } {
  const n = hyp.length;
  const m = ref.length;
  const cost: Int32Array[] = [];
  const op: Uint8Array[] = [];
  for (let i = 0; i <= n; i++) {
    cost.push(new Int32Array(m + 1).fill(INF));
    op.push(new Uint8Array(m + 1).fill(UNDEF));
  }
  for (let j = 0; j <= m; j++) {
    cost[0][j] = j;
    op[0][j] = TerOp.Del;
  }
  const ratio = n > 0 ? m / n : 1;
  const beam = beamWidth < ratio / 2 ? Math.ceil(ratio / 2 + beamWidth) : beamWidth;
  for (let i = 1; i <= n; i++) {
    const diag = Math.floor(i * ratio);
    const lo = Math.max(0, diag - beam);
    const hi = i === n ? m + 1 : Math.min(m + 1, diag + beam);
    for (let j = lo; j < hi; j++) {
      if (j === 0) {
        cost[i][0] = cost[i - 1][0] + 1;
        op[i][0] = TerOp.Ins;
        continue;
      }
      // Strictly smaller wins, tried in sacreBLEU's order: diagonal, then up (a hypothesis word alone), then left.
      const same = hyp[i - 1] === ref[j - 1];
      const candidates: [number, number][] = [
        [cost[i - 1][j - 1] + (same ? 0 : 1), same ? TerOp.Match : TerOp.Sub],
        [cost[i - 1][j] + 1, TerOp.Ins],
        [cost[i][j - 1] + 1, TerOp.Del],
      ];
      for (const [c, o] of candidates) {
        if (cost[i][j] > c) {
          cost[i][j] = c;
          op[i][j] = o;
        }
      }
    }
  }
  const trace: number[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const o = op[i][j];
    trace.push(o);
    if (o === TerOp.Match || o === TerOp.Sub) {
      i--;
      j--;
    } else if (o === TerOp.Ins) i--;
    else if (o === TerOp.Del) j--;
    else throw new Error(`TER trace reached an unset cell (${i}, ${j})`);
  }
  return { distance: cost[n][m], ops: Uint8Array.from(trace.reverse()) };
}

/** sacreBLEU's `translation_edit_rate` for one reference, computed plainly (see the file comment). */
export function plainTranslationEditRate(
  hyp: Int32Array,
  ref: Int32Array,
  limits: TerSearchLimits = SACREBLEU_TER_LIMITS,
): TerResult {
  const n = hyp.length;
  const m = ref.length;
  if (m === 0) {
    const ops = new Uint8Array(n).fill(TerOp.Ins);
    const hypOrder = Int32Array.from({ length: n }, (_, k) => k);
    return { edits: n, refLength: 0, ins: n, del: 0, sub: 0, shifts: 0, alignment: { shifts: [], hypOrder, ops } };
  }
  let words = Int32Array.from(hyp);
  let order = Int32Array.from({ length: n }, (_, k) => k);
  const shifts: TerShift[] = [];
  let checked = 0;
  for (;;) {
    const pre = plainBeamEditDistance(words, ref, limits.beamWidth);
    const hypErr = new Uint8Array(n);
    const refErr = new Uint8Array(m);
    const refAlign = new Int32Array(m);
    alignmentErrors(pre.ops, hypErr, refErr, refAlign);
    let best: { gain: number; length: number; start: number; target: number } | null = null;
    const shifted = new Int32Array(n);
    search: for (let sh = 0; sh < n; sh++) {
      for (let sr = 0; sr < m; sr++) {
        if (Math.abs(sr - sh) > limits.maxShiftDist) continue;
        for (let len = 1; len <= limits.maxShiftSize; len++) {
          if (sh + len > n || sr + len > m || words[sh + len - 1] !== ref[sr + len - 1]) break;
          let anyHypErr = false;
          for (let k = sh; k < sh + len; k++) anyHypErr ||= hypErr[k] === 1;
          let anyRefErr = false;
          for (let k = sr; k < sr + len; k++) anyRefErr ||= refErr[k] === 1;
          if (anyHypErr && anyRefErr && !(sh <= refAlign[sr] && refAlign[sr] < sh + len)) {
            let prev = -1;
            for (let off = -1; off < len; off++) {
              const target = sr + off === -1 ? 0 : refAlign[sr + off] + 1;
              if (target === prev) continue;
              prev = target;
              performShift(words, sh, len, target, shifted);
              const gain = pre.distance - plainBeamEditDistance(shifted, ref, limits.beamWidth).distance;
              checked++;
              // sacreBLEU ranks by (gain, length, -start, -target), highest first; the first of equals stays.
              if (
                best === null ||
                gain > best.gain ||
                (gain === best.gain &&
                  (len > best.length ||
                    (len === best.length && (sh < best.start || (sh === best.start && target < best.target)))))
              ) {
                best = { gain, length: len, start: sh, target };
              }
            }
          }
          if (checked >= limits.maxCandidates) break search;
        }
      }
    }
    // The candidate budget ends the search before the best shift of the last round is applied.
    if (checked >= limits.maxCandidates || best === null || best.gain <= 0) {
      const counts = countOps(pre.ops);
      return {
        edits: shifts.length + pre.distance,
        refLength: m,
        ins: counts.ins,
        del: counts.del,
        sub: counts.sub,
        shifts: shifts.length,
        alignment: { shifts, hypOrder: order, ops: pre.ops },
      };
    }
    const next = new Int32Array(n);
    performShift(words, best.start, best.length, best.target, next);
    const nextOrder = new Int32Array(n);
    performShift(order, best.start, best.length, best.target, nextOrder);
    shifts.push({ start: best.start, length: best.length, target: best.target });
    words = next;
    order = nextOrder;
  }
}
