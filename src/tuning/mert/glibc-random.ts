/**
 * glibc's `srand`/`rand` (= `srandom`/`random`, the TYPE_3 additive feedback generator of `random_r.c`) in
 * TypeScript, so that `palette mert -r SEED` draws the random restarts and directions Moses' `mert` draws with the
 * same seed: Moses seeds with `srand(seed)` (util/random.cc; older versions called `srandom` directly, the same
 * generator in glibc) and scales each `rand()` with `util::rand_incl<float>`.
 *
 * The generator: `r[0] = seed` (0 becomes 1), `r[i] = 16807 · r[i−1] mod (2^31 − 1)` for i = 1..30 (Schrage's
 * method in signed 32-bit arithmetic, as glibc computes it), `r[i] = r[i−31]` for i = 31..33, then
 * `r[i] = r[i−3] + r[i−31] mod 2^32`; the first 310 values after r[33] are discarded and each output is
 * `r[i] >>> 1` (31 bits, 0 .. RAND_MAX).
 */

/** glibc's `RAND_MAX`. */
export const GLIBC_RAND_MAX = 2147483647;

/** A glibc `rand()` stream. */
export class GlibcRandom {
  private readonly state = new Int32Array(34);
  /** Index of r[i−31] and r[i−3] in the ring of the last 34 values. */
  private i = 0;

  /** `srand(seed)`: `seed` is taken as C's `unsigned int` (modulo 2^32). */
  constructor(seed: number) {
    const r = this.state;
    let word = (Math.trunc(seed) >>> 0) | 0;
    if (word === 0) word = 1;
    r[0] = word;
    for (let k = 1; k < 31; k++) {
      // 16807 · word mod (2^31 − 1) without overflowing 31 bits, with C's truncating division.
      const hi = Math.trunc(word / 127773);
      const lo = word % 127773;
      word = 16807 * lo - 2836 * hi;
      if (word < 0) word += 2147483647;
      r[k] = word;
    }
    for (let k = 31; k < 34; k++) r[k] = r[k - 31];
    this.i = 34;
    for (let k = 0; k < 310; k++) this.step();
  }

  /** The next r[i] of the recurrence (32 bits). */
  private step(): number {
    const r = this.state;
    const i = this.i;
    const v = (r[(i - 31) % 34] + r[(i - 3) % 34]) | 0;
    r[i % 34] = v;
    this.i = i + 1 === 34 * 1024 ? 34 : i + 1; // keep the index small; only i mod 34 matters
    return v;
  }

  /** `rand()`: the next value in 0 .. {@link GLIBC_RAND_MAX}. */
  next(): number {
    return this.step() >>> 1;
  }

  /**
   * Moses' `util::rand_incl<float>(bottom, top)`: `bottom + (top − bottom) · float(rand()) / RAND_MAX`, every
   * operation in single precision (`RAND_MAX` converted to float is 2^31).
   */
  randInclFloat(bottom: number, top: number): number {
    const f = Math.fround;
    const range = f(f(top) - f(bottom));
    return f(f(bottom) + f(f(range * f(this.next())) / 2147483648));
  }
}
