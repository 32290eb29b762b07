/**
 * Perl's `srand`/`rand`, bit for bit. Since perl 5.20 these no longer call the C library: perl carries its own
 * drand48 (a 48-bit linear congruential generator, `x ← (0x5DEECE66D·x + 0xB) mod 2^48`), so every perl ≥ 5.20 on
 * every platform gives the same stream. `srand(s)` sets `x = (s mod 2^32)·2^16 + 0x330E`; each `rand(n)` first
 * advances `x`, then returns `n · x / 2^48` (`n` = 0 counts as 1, as in perl).
 *
 * ROUGE-1.5.5 seeds with `srand(i)` before bootstrap resample `i` and draws `int(rand(N))`, so its confidence
 * intervals (and its printed averages, which are resample means) can only be reproduced with this exact stream.
 *
 * The state is kept as two 24-bit halves in plain numbers: every partial product stays below 2^53, so the
 * arithmetic is exact without BigInt (which would cost ~100 ns a draw; this costs a few).
 */

const TWO_24 = 0x1000000;
const TWO_48 = TWO_24 * TWO_24;
// The multiplier 0x5DEECE66D split at bit 24.
const A_HI = 0x5de;
const A_LO = 0xece66d;
const C = 0xb;

/** Perl's random number generator (perl ≥ 5.20): one instance = one `PL_random_state`. */
export class PerlRand {
  private hi = 0;
  private lo = 0;

  /** A generator seeded as `srand(seed)`. @param seed @default 0 */
  constructor(seed = 0) {
    this.srand(seed);
  }

  /**
   * Perl `srand(seed)`. Perl reads the seed as an unsigned integer and keeps its low 32 bits.
   * @throws RangeError when `seed` is not a non-negative integer.
   */
  srand(seed: number): void {
    if (!Number.isInteger(seed) || seed < 0) throw new RangeError(`seed must be a non-negative integer (got ${seed})`);
    const s = seed % 0x100000000;
    // x = s·2^16 + 0x330E, split into 24-bit halves: the low 8 bits of s go to the low half, the rest up.
    this.lo = (s % 0x100) * 0x10000 + 0x330e;
    this.hi = Math.floor(s / 0x100);
  }

  /** Perl's `Drand01()`: advances the state, returns the new state / 2^48, in [0, 1). */
  next(): number {
    // (hi·2^24 + lo)·(A_HI·2^24 + A_LO) + C mod 2^48: the hi·A_HI term is a multiple of 2^48 and drops out.
    const low = this.lo * A_LO + C; // < 2^48
    const carry = Math.floor(low / TWO_24);
    const mid = this.hi * A_LO + this.lo * A_HI + carry; // < 2^49
    this.lo = low - carry * TWO_24;
    this.hi = mid % TWO_24;
    return (this.hi * TWO_24 + this.lo) / TWO_48;
  }

  /** Perl `rand(n)`: `n · Drand01()`, with `n` = 0 read as 1. @param n @default 1 */
  rand(n = 1): number {
    return (n === 0 ? 1 : n) * this.next();
  }

  /** Perl `int(rand(n))` for a count `n` ≥ 1: a uniform index in [0, n). */
  index(n: number): number {
    return Math.floor(n * this.next());
  }
}
