/**
 * numpy's `default_rng(seed)` bit for bit: `SeedSequence` → `PCG64` (XSL-RR 128/64) and the two draws sacreBLEU
 * makes from it — `choice(n, size, replace=True)` (bounded integers in [0, n), numpy's 32-bit Lemire path) and
 * `integers(2, size, dtype=bool)` (one bit per draw out of a buffered 32-bit word).
 *
 * sacreBLEU's paired bootstrap and approximate randomization p-values, means and confidence intervals are only
 * reproducible with this exact stream, so every step follows numpy's C code (numpy ≥ 1.17; the algorithm has not
 * changed since): the seed hashing of `SeedSequence`, the 128-bit LCG step, the output permutation, the half-word
 * buffer PCG64 keeps for 32-bit requests, and Lemire's multiply-and-reject with numpy's threshold.
 *
 * Arithmetic is exact in plain numbers: the 128-bit state is eight 16-bit limbs, so every partial product is below
 * 2^32 and every column sum below 2^53 (BigInt would cost ~50× more per draw; 10M draws must take well under a second).
 * The draws are streams ({@link BoundedIntStream}, {@link BoolStream}) that reproduce ONE numpy call of any size while
 * filling caller buffers piecewise, so a bootstrap never materialises the n_samples × n index matrix. Long bounded
 * fills run on the WebAssembly kernel of src/wasm/pcg64.ts (native u64), which continues this generator's state;
 * property tests hold it to the limb arithmetic here.
 */

import { defaultPcg64Engine } from '../wasm/pcg64.js';

// SeedSequence's hashing constants (O'Neill's seed_seq_fe), 32-bit.
const INIT_A = 0x43b0d7e5;
const MULT_A = 0x931e8875;
const INIT_B = 0x8b51f9dd;
const MULT_B = 0x58f38ded;
const MIX_MULT_L = 0xca01f9dd;
const MIX_MULT_R = 0x4973f715;
const XSHIFT = 16;
/** numpy's default pool size (in 32-bit words). */
const POOL_SIZE = 4;

/** Fills at least this long go to the WebAssembly kernel (native u64, ~10× faster); shorter ones stay here. */
const KERNEL_MIN_DRAWS = 256;

const TWO_16 = 0x10000;
const TWO_32 = 0x100000000;
/** Exact scalings by powers of two (multiplying is cheaper than dividing). */
const INV_16 = 1 / TWO_16;
const INV_32 = 1 / TWO_32;

// PCG's default 128-bit multiplier 0x2360ED051FC65DA4_4385DF649FCCF645 as 16-bit limbs, least significant first.
const M0 = 0xf645;
const M1 = 0x9fcc;
const M2 = 0xdf64;
const M3 = 0x4385;
const M4 = 0x5da4;
const M5 = 0x1fc6;
const M6 = 0xed05;
const M7 = 0x2360;

/** A seed as numpy takes it: a non-negative integer, or `null` for fresh OS entropy (numpy's `None`). */
export type NumpySeed = number | bigint | null;

/** Splits a non-negative integer into 32-bit words, least significant first (numpy's `_coerce_to_uint32_array`). */
function entropyWords(seed: number | bigint): number[] {
  let v: bigint;
  if (typeof seed === 'number') {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`seed must be a non-negative integer (got ${seed})`);
    v = BigInt(seed);
  } else {
    if (seed < 0n) throw new RangeError(`seed must be a non-negative integer (got ${seed})`);
    v = seed;
  }
  const words: number[] = [];
  do {
    words.push(Number(v & 0xffffffffn));
    v >>= 32n;
  } while (v > 0n);
  return words;
}

/** `hashmix` of SeedSequence: the running constant lives in `hc[0]` because every call advances it. */
function hashmix(value: number, hc: Uint32Array): number {
  let v = (value ^ hc[0]) >>> 0;
  hc[0] = Math.imul(hc[0], MULT_A);
  v = Math.imul(v, hc[0]) >>> 0;
  return (v ^ (v >>> XSHIFT)) >>> 0;
}

function mix(x: number, y: number): number {
  const r = (Math.imul(MIX_MULT_L, x) - Math.imul(MIX_MULT_R, y)) >>> 0;
  return (r ^ (r >>> XSHIFT)) >>> 0;
}

/** numpy's `SeedSequence` (no spawn key, pool size 4): turns a seed into well-mixed state words. */
export class SeedSequence {
  /** The mixed entropy pool (4 words). */
  readonly pool: Uint32Array;

  /**
   * @param seed non-negative integer entropy; `null` draws 128 bits from the platform's cryptographic generator (Web
   * Crypto, on Node and in browsers) as numpy draws them from the OS for `None`.
   */
  constructor(seed: NumpySeed) {
    const entropy = seed === null ? Array.from(crypto.getRandomValues(new Uint32Array(4))) : entropyWords(seed);
    const pool = new Uint32Array(POOL_SIZE);
    const hc = new Uint32Array([INIT_A]);
    for (let i = 0; i < POOL_SIZE; i++) pool[i] = hashmix(i < entropy.length ? entropy[i] : 0, hc);
    for (let src = 0; src < POOL_SIZE; src++) {
      for (let dst = 0; dst < POOL_SIZE; dst++) {
        if (src !== dst) pool[dst] = mix(pool[dst], hashmix(pool[src], hc));
      }
    }
    // Entropy longer than the pool is folded in afterwards.
    for (let src = POOL_SIZE; src < entropy.length; src++) {
      for (let dst = 0; dst < POOL_SIZE; dst++) pool[dst] = mix(pool[dst], hashmix(entropy[src], hc));
    }
    this.pool = pool;
  }

  /** `generate_state(nWords, uint32)`; a uint64 word is two of these, low word first (little-endian view). */
  generateState(nWords: number): Uint32Array {
    const out = new Uint32Array(nWords);
    let hc = INIT_B;
    for (let i = 0; i < nWords; i++) {
      let v = (this.pool[i % POOL_SIZE] ^ hc) >>> 0;
      hc = Math.imul(hc, MULT_B) >>> 0;
      v = Math.imul(v, hc) >>> 0;
      out[i] = (v ^ (v >>> XSHIFT)) >>> 0;
    }
    return out;
  }
}

/** Four 16-bit limbs (least significant first) of the 64-bit value `hi·2^32 + lo`. */
function limbs64(hi: number, lo: number): [number, number, number, number] {
  return [lo & 0xffff, lo >>> 16, hi & 0xffff, hi >>> 16];
}

/** A 128-bit value from its 16-bit limbs (tests and `state`). */
function bigFromLimbs(l: readonly number[]): bigint {
  let v = 0n;
  for (let i = l.length - 1; i >= 0; i--) v = (v << 16n) | BigInt(l[i]);
  return v;
}

/** numpy's `PCG64` bit generator, including the spare half-word it keeps for 32-bit draws. */
export class Pcg64 {
  // State limbs s0 (least significant) … s7 and increment limbs c0 … c7, as plain fields for the hot loop.
  private s0 = 0;
  private s1 = 0;
  private s2 = 0;
  private s3 = 0;
  private s4 = 0;
  private s5 = 0;
  private s6 = 0;
  private s7 = 0;
  private c0 = 0;
  private c1 = 0;
  private c2 = 0;
  private c3 = 0;
  private c4 = 0;
  private c5 = 0;
  private c6 = 0;
  private c7 = 0;
  /** High and low words of the last 64-bit output. */
  private outHi = 0;
  private outLo = 0;
  /** numpy's `has_uint32` / `uinteger`: a 64-bit output serves two 32-bit requests, low half first. */
  private hasUint32 = false;
  private uinteger = 0;

  /** `PCG64(seed)`: seeded through {@link SeedSequence} exactly as numpy does. */
  constructor(seed: NumpySeed) {
    // generate_state(4, uint64): words 0–1 = seed high 64 bits, 2–3 = seed low, 4–5 = inc high, 6–7 = inc low.
    const w = new SeedSequence(seed).generateState(8);
    const seedLimbs = [...limbs64(w[3], w[2]), ...limbs64(w[1], w[0])];
    const seqLimbs = [...limbs64(w[7], w[6]), ...limbs64(w[5], w[4])];
    // pcg_setseq_128_srandom_r: inc = (initseq << 1) | 1; state = 0; step; state += initstate; step.
    let carry = 0;
    const inc: number[] = [];
    for (let i = 0; i < 8; i++) {
      const v = seqLimbs[i] * 2 + carry;
      inc.push(v & 0xffff);
      carry = v >>> 16;
    }
    inc[0] |= 1;
    [this.c0, this.c1, this.c2, this.c3, this.c4, this.c5, this.c6, this.c7] = inc;
    this.step();
    const st = [this.s0, this.s1, this.s2, this.s3, this.s4, this.s5, this.s6, this.s7];
    carry = 0;
    for (let i = 0; i < 8; i++) {
      const v = st[i] + seedLimbs[i] + carry;
      st[i] = v & 0xffff;
      carry = v >>> 16;
    }
    [this.s0, this.s1, this.s2, this.s3, this.s4, this.s5, this.s6, this.s7] = st;
    this.step();
  }

  /** The 128-bit state, increment and half-word buffer, as numpy's `bit_generator.state` shows them. */
  get state(): { state: bigint; inc: bigint; hasUint32: boolean; uinteger: number } {
    return {
      state: bigFromLimbs([this.s0, this.s1, this.s2, this.s3, this.s4, this.s5, this.s6, this.s7]),
      inc: bigFromLimbs([this.c0, this.c1, this.c2, this.c3, this.c4, this.c5, this.c6, this.c7]),
      hasUint32: this.hasUint32,
      uinteger: this.uinteger,
    };
  }

  /** state ← state · M + inc (mod 2^128), schoolbook on 16-bit limbs with the carry propagated limb by limb. */
  private step(): void {
    const { s0, s1, s2, s3, s4, s5, s6, s7 } = this;
    let t = s0 * M0 + this.c0;
    this.s0 = t & 0xffff;
    t = (t - (t & 0xffff)) * INV_16 + s0 * M1 + s1 * M0 + this.c1;
    this.s1 = t & 0xffff;
    t = (t - (t & 0xffff)) * INV_16 + s0 * M2 + s1 * M1 + s2 * M0 + this.c2;
    this.s2 = t & 0xffff;
    t = (t - (t & 0xffff)) * INV_16 + s0 * M3 + s1 * M2 + s2 * M1 + s3 * M0 + this.c3;
    this.s3 = t & 0xffff;
    t = (t - (t & 0xffff)) * INV_16 + s0 * M4 + s1 * M3 + s2 * M2 + s3 * M1 + s4 * M0 + this.c4;
    this.s4 = t & 0xffff;
    t = (t - (t & 0xffff)) * INV_16 + s0 * M5 + s1 * M4 + s2 * M3 + s3 * M2 + s4 * M1 + s5 * M0 + this.c5;
    this.s5 = t & 0xffff;
    t = (t - (t & 0xffff)) * INV_16 + s0 * M6 + s1 * M5 + s2 * M4 + s3 * M3 + s4 * M2 + s5 * M1 + s6 * M0 + this.c6;
    this.s6 = t & 0xffff;
    t =
      (t - (t & 0xffff)) * INV_16 +
      s0 * M7 + s1 * M6 + s2 * M5 + s3 * M4 + s4 * M3 + s5 * M2 + s6 * M1 + s7 * M0 + this.c7;
    this.s7 = t & 0xffff;
  }

  /** Advances and stores the XSL-RR output of the new state: rotr64(hi64 ^ lo64, top 6 state bits). */
  private next64(): void {
    this.step();
    const xHi = ((this.s7 << 16) | this.s6) ^ ((this.s3 << 16) | this.s2);
    const xLo = ((this.s5 << 16) | this.s4) ^ ((this.s1 << 16) | this.s0);
    let rot = this.s7 >>> 10;
    let hi = xHi;
    let lo = xLo;
    if (rot >= 32) {
      hi = xLo;
      lo = xHi;
      rot -= 32;
    }
    if (rot === 0) {
      this.outHi = hi >>> 0;
      this.outLo = lo >>> 0;
    } else {
      this.outHi = ((hi >>> rot) | (lo << (32 - rot))) >>> 0;
      this.outLo = ((lo >>> rot) | (hi << (32 - rot))) >>> 0;
    }
  }

  /** numpy's `next_uint32`: the low half of a fresh 64-bit output, its high half on the following call. */
  nextUint32(): number {
    if (this.hasUint32) {
      this.hasUint32 = false;
      return this.uinteger;
    }
    this.next64();
    this.hasUint32 = true;
    this.uinteger = this.outHi;
    return this.outLo;
  }

  /**
   * `out.length` Lemire draws in [0, n) with numpy's `threshold`, the generator state held in locals for the whole
   * loop (the same stream as {@link nextUint32} + {@link BoundedIntStream.next}, several times faster).
   * @internal
   */
  fillBounded(out: Int32Array | Uint32Array, n: number, threshold: number): void {
    let { s0, s1, s2, s3, s4, s5, s6, s7 } = this;
    const { c0, c1, c2, c3, c4, c5, c6, c7 } = this;
    let has = this.hasUint32;
    let spare = this.uinteger;
    let lastHi = this.outHi;
    let lastLo = this.outLo;
    for (let i = 0; i < out.length; ) {
      let x: number;
      if (has) {
        has = false;
        x = spare;
      } else {
        let t = s0 * M0 + c0;
        const n0 = t & 0xffff;
        t = (t - n0) * INV_16 + s0 * M1 + s1 * M0 + c1;
        const n1 = t & 0xffff;
        t = (t - n1) * INV_16 + s0 * M2 + s1 * M1 + s2 * M0 + c2;
        const n2 = t & 0xffff;
        t = (t - n2) * INV_16 + s0 * M3 + s1 * M2 + s2 * M1 + s3 * M0 + c3;
        const n3 = t & 0xffff;
        t = (t - n3) * INV_16 + s0 * M4 + s1 * M3 + s2 * M2 + s3 * M1 + s4 * M0 + c4;
        const n4 = t & 0xffff;
        t = (t - n4) * INV_16 + s0 * M5 + s1 * M4 + s2 * M3 + s3 * M2 + s4 * M1 + s5 * M0 + c5;
        const n5 = t & 0xffff;
        t = (t - n5) * INV_16 + s0 * M6 + s1 * M5 + s2 * M4 + s3 * M3 + s4 * M2 + s5 * M1 + s6 * M0 + c6;
        const n6 = t & 0xffff;
        t = (t - n6) * INV_16 + s0 * M7 + s1 * M6 + s2 * M5 + s3 * M4 + s4 * M3 + s5 * M2 + s6 * M1 + s7 * M0 + c7;
        s0 = n0;
        s1 = n1;
        s2 = n2;
        s3 = n3;
        s4 = n4;
        s5 = n5;
        s6 = n6;
        s7 = t & 0xffff;
        const xHi = ((s7 << 16) | s6) ^ ((s3 << 16) | s2);
        const xLo = ((s5 << 16) | s4) ^ ((s1 << 16) | s0);
        let rot = s7 >>> 10;
        let hi = xHi;
        let lo = xLo;
        if (rot >= 32) {
          hi = xLo;
          lo = xHi;
          rot -= 32;
        }
        if (rot !== 0) {
          const h = (hi >>> rot) | (lo << (32 - rot));
          lo = (lo >>> rot) | (hi << (32 - rot));
          hi = h;
        }
        lastHi = hi >>> 0;
        lastLo = lo >>> 0;
        has = true;
        spare = lastHi;
        x = lastLo;
      }
      if (n === 1) {
        // numpy draws nothing for a one-value range; never reached (handled by the caller), kept for safety.
        out[i++] = 0;
        continue;
      }
      const a = (x & 0xffff) * n;
      const b = (x >>> 16) * n;
      // Integers below 2^53: `& 0xffff` and `>>> 0` take their low 16 / 32 bits exactly.
      const bLow = b & 0xffff;
      const low = bLow * TWO_16 + a;
      const lo = low >>> 0;
      if (lo >= threshold) out[i++] = (b - bLow) * INV_16 + (low - lo) * INV_32;
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
    this.s4 = s4;
    this.s5 = s5;
    this.s6 = s6;
    this.s7 = s7;
    this.hasUint32 = has;
    this.uinteger = spare;
    this.outHi = lastHi;
    this.outLo = lastLo;
  }

  /**
   * Writes the generator's state to `out` as ten u32 words: the 128-bit state and increment, least significant word
   * first (words 0–3 and 4–7), then the half-word buffer (`has_uint32` as 0/1, `uinteger`). The layout of the
   * WebAssembly kernels' state block (assembly/pcg64.ts), so a stream can continue there and come back.
   * @internal
   */
  saveWords(out: Uint32Array): void {
    out[0] = (this.s1 * TWO_16 + this.s0) >>> 0;
    out[1] = (this.s3 * TWO_16 + this.s2) >>> 0;
    out[2] = (this.s5 * TWO_16 + this.s4) >>> 0;
    out[3] = (this.s7 * TWO_16 + this.s6) >>> 0;
    out[4] = (this.c1 * TWO_16 + this.c0) >>> 0;
    out[5] = (this.c3 * TWO_16 + this.c2) >>> 0;
    out[6] = (this.c5 * TWO_16 + this.c4) >>> 0;
    out[7] = (this.c7 * TWO_16 + this.c6) >>> 0;
    out[8] = this.hasUint32 ? 1 : 0;
    out[9] = this.uinteger;
  }

  /**
   * Takes back a state written by {@link saveWords} (or advanced by the kernels from it).
   * @internal
   */
  loadWords(words: Uint32Array): void {
    this.s0 = words[0] & 0xffff;
    this.s1 = words[0] >>> 16;
    this.s2 = words[1] & 0xffff;
    this.s3 = words[1] >>> 16;
    this.s4 = words[2] & 0xffff;
    this.s5 = words[2] >>> 16;
    this.s6 = words[3] & 0xffff;
    this.s7 = words[3] >>> 16;
    this.c0 = words[4] & 0xffff;
    this.c1 = words[4] >>> 16;
    this.c2 = words[5] & 0xffff;
    this.c3 = words[5] >>> 16;
    this.c4 = words[6] & 0xffff;
    this.c5 = words[6] >>> 16;
    this.c6 = words[7] & 0xffff;
    this.c7 = words[7] >>> 16;
    this.hasUint32 = words[8] !== 0;
    this.uinteger = words[9] >>> 0;
  }

  /**
   * `random_raw(count)` as words: `out[2k]` = low, `out[2k+1]` = high 32 bits of output k. Like numpy it bypasses
   * (and leaves untouched) the half-word buffer.
   */
  randomRaw(out: Uint32Array): void {
    for (let k = 0; k + 1 < out.length; k += 2) {
      this.next64();
      out[k] = this.outLo;
      out[k + 1] = this.outHi;
    }
  }
}

/**
 * numpy's bounded integers in [0, n) for 1 ≤ n < 2^32: `integers(0, n, size)` and `choice(n, size, replace=True)`
 * (both reach `buffered_bounded_lemire_uint32`). One stream = one numpy call; `fill` may be called any number of
 * times and the values continue that call's sequence.
 */
export class BoundedIntStream {
  private readonly n: number;
  /** numpy's rejection threshold `(2^32 − n) mod n`, computed only once. */
  private readonly threshold: number;

  /** @param bits the generator (shared: its half-word buffer carries over, as in numpy). @param n the range size. */
  constructor(
    private readonly bits: Pcg64,
    n: number,
  ) {
    if (!Number.isInteger(n) || n < 1 || n >= TWO_32) throw new RangeError(`range size must be in [1, 2^32) (got ${n})`);
    this.n = n;
    this.threshold = (TWO_32 - n) % n;
  }

  /** The next draw. */
  next(): number {
    const n = this.n;
    // numpy: rng = n − 1 = 0 returns the offset without drawing.
    if (n === 1) return 0;
    for (;;) {
      const x = this.bits.nextUint32();
      // m = x·n (< 2^64) as hi·2^32 + lo, from two exact < 2^48 partial products.
      const a = (x & 0xffff) * n;
      const b = (x >>> 16) * n;
      const bLow = b & 0xffff;
      const low = bLow * TWO_16 + a;
      const lo = low >>> 0;
      if (lo >= this.threshold) return (b - bLow) * INV_16 + (low - lo) * INV_32;
    }
  }

  /** Fills `out` with the next `out.length` draws. */
  fill(out: Int32Array | Uint32Array): void {
    if (this.n === 1) out.fill(0);
    else if (out.length < KERNEL_MIN_DRAWS) this.bits.fillBounded(out, this.n, this.threshold);
    else {
      // Same bits through a u32 view: an Int32Array receives the values as fillBounded would store them.
      const view = out instanceof Uint32Array ? out : new Uint32Array(out.buffer, out.byteOffset, out.length);
      defaultPcg64Engine().bounded(this.bits, this.n, view);
    }
  }
}

/**
 * numpy's `integers(2, size, dtype=bool)`: a 32-bit word is drawn and its bits handed out least significant first,
 * 32 draws per word. The bit buffer belongs to one numpy call (one stream); the generator's half-word buffer is shared.
 */
export class BoolStream {
  private buf = 0;
  private count = 0;

  /** @param bits the generator. */
  constructor(private readonly bits: Pcg64) {}

  /** The next draw, 0 or 1. */
  next(): number {
    if (this.count === 0) {
      this.buf = this.bits.nextUint32();
      this.count = 31;
    } else {
      this.buf >>>= 1;
      this.count--;
    }
    return this.buf & 1;
  }

  /** Fills `out` with the next `out.length` draws (0 or 1). */
  fill(out: Uint8Array): void {
    let buf = this.buf;
    let count = this.count;
    for (let i = 0; i < out.length; i++) {
      if (count === 0) {
        buf = this.bits.nextUint32();
        count = 31;
      } else {
        buf >>>= 1;
        count--;
      }
      out[i] = buf & 1;
    }
    this.buf = buf;
    this.count = count;
  }
}

/** numpy's `Generator` over PCG64, reduced to the draws sacreBLEU makes. */
export class NumpyGenerator {
  /** The bit generator. */
  readonly bits: Pcg64;

  /** `numpy.random.default_rng(seed)`. */
  constructor(seed: NumpySeed) {
    this.bits = new Pcg64(seed);
  }

  /** One `choice(n, size=…, replace=True)` / `integers(0, n, size=…)` call, drawn as a stream. */
  boundedStream(n: number): BoundedIntStream {
    return new BoundedIntStream(this.bits, n);
  }

  /** One `integers(2, size=…, dtype=bool)` call, drawn as a stream. */
  boolStream(): BoolStream {
    return new BoolStream(this.bits);
  }

  /** `choice(n, size=count, replace=True)` materialised (row-major for a matrix size). */
  choice(n: number, count: number): Uint32Array {
    const out = new Uint32Array(count);
    this.boundedStream(n).fill(out);
    return out;
  }
}

/** `numpy.random.default_rng(seed)`. */
export function defaultRng(seed: NumpySeed): NumpyGenerator {
  return new NumpyGenerator(seed);
}
