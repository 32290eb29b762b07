/**
 * Reference implementations (oracles) of the resampling sums of `src/wasm/pcg64.ts`, written as sacreBLEU states
 * them, on the TypeScript numpy streams of `src/meta/numpy-random.ts` (checked against numpy's own output):
 *
 * - bootstrap: one `choice(n, (nSamples, n))` stream; each resample's rows summed in float32, row after row
 *   (`stats[idx].sum(0)` on a float32 matrix: every partial sum rounded to float32);
 * - approximate randomization: one `integers(2, (nTrials, n), dtype=bool)` stream; per trial the pseudo-system `a`
 *   takes the baseline's row where the draw is 1 and the system's row where it is 0, `b` the opposite, both summed
 *   in double in segment order.
 *
 * Plain loops, one draw at a time; the generator is advanced in place so final states can be compared too.
 */
import { BoolStream, BoundedIntStream, type Pcg64 } from '../../src/meta/numpy-random.js';

/** Bootstrap float32 column sums of `nSamples` resamples of `rows` (n × width, float32 values as doubles). */
export function bootstrapSumsRef(bits: Pcg64, rows: Float64Array, width: number, nSamples: number): Float64Array[] {
  const n = rows.length / width;
  const draw = new BoundedIntStream(bits, n);
  const out: Float64Array[] = [];
  for (let s = 0; s < nSamples; s++) {
    const sums = new Float64Array(width);
    for (let i = 0; i < n; i++) {
      const pick = draw.next();
      for (let c = 0; c < width; c++) sums[c] = Math.fround(sums[c] + rows[pick * width + c]);
    }
    out.push(sums);
  }
  return out;
}

/** Approximate-randomization sums `[a, b]` of `nTrials` trials of the baseline `bl` and system `sys` rows. */
export function randomizationSumsRef(
  bits: Pcg64,
  bl: Float64Array,
  sys: Float64Array,
  width: number,
  nTrials: number,
): [Float64Array, Float64Array][] {
  const n = bl.length / width;
  const flips = new BoolStream(bits);
  const out: [Float64Array, Float64Array][] = [];
  for (let t = 0; t < nTrials; t++) {
    const a = new Float64Array(width);
    const b = new Float64Array(width);
    for (let i = 0; i < n; i++) {
      const swap = flips.next() === 1;
      for (let c = 0; c < width; c++) {
        a[c] += swap ? bl[i * width + c] : sys[i * width + c];
        b[c] += swap ? sys[i * width + c] : bl[i * width + c];
      }
    }
    out.push([a, b]);
  }
  return out;
}
