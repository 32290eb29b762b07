/**
 * numpy's PCG64 streams and sacreBLEU's resampling sums on the WebAssembly kernels of `assembly/pcg64.ts`: bounded
 * draws, bool draws, bootstrap float32 column sums and approximate-randomization pseudo-system sums, with native u64
 * arithmetic (the TypeScript generator works on 16-bit limbs).
 *
 * The generator itself stays the TypeScript `Pcg64` of `src/meta/numpy-random.ts` (seeding, state): every call
 * copies its state into the kernel's state block, runs, and copies it back, so TypeScript and kernel draws can be
 * mixed in any order and continue one numpy stream. Results are defined by the TypeScript generator and the plain
 * loops of `test/reference/significance.ts`; property tests check equal draws, equal sums and equal final states.
 *
 * Each {@link Pcg64Engine} owns a kernel instance (its own linear memory); every call lays its inputs and outputs out
 * above the state block and processes work in chunks, so memory stays bounded for any number of resamples.
 */
import { PaletteError } from '../errors.js';
import type { KernelExports } from './kernels.js';
import { Layout, LinearMemory } from './linear-memory.js';
import { instantiateKernels } from './load.js';

/** The PCG64 kernels' exports (pointers are byte addresses in the instance's memory; see assembly/pcg64.ts). */
export interface Pcg64KernelExports extends KernelExports {
  /** `count` draws in [0, n) as u32 at `out`. */
  pcg64Bounded(block: number, n: number, threshold: number, out: number, count: number): void;
  /** `count` bool draws as bytes at `out`. */
  pcg64Bools(block: number, out: number, count: number): void;
  /** float32 column sums of `nSamples` resamples of the f32 rows: nSamples × width f32 at `out`. */
  bootstrapSums(
    block: number, n: number, threshold: number, rows: number, width: number, nSamples: number, out: number,
  ): void;
  /** Sums of both pseudo-systems of `nTrials` swap masks: per trial `a` then `b`, width f64 each, at `out`. */
  randomizationSums(
    block: number, n: number, width: number, nTrials: number,
    bl: number, sys: number, delta: number, blTotal: number, sysTotal: number, integral: number, out: number,
  ): void;
}

/** Whether a kernel instance has the PCG64 kernels (a build made before they existed does not). */
export function hasPcg64Kernels(kernels: KernelExports): kernels is Pcg64KernelExports {
  const k = kernels as Partial<Pcg64KernelExports>;
  return (
    typeof k.pcg64Bounded === 'function' &&
    typeof k.pcg64Bools === 'function' &&
    typeof k.bootstrapSums === 'function' &&
    typeof k.randomizationSums === 'function'
  );
}

/** Bytes of the kernel's state block (generator state, half-word buffer, bool buffer). */
const STATE_BYTES = 48;
/** Output values (f32 or f64) handed back per kernel call: bounds the memory of a call whatever the sample count. */
const CHUNK_VALUES = 1 << 18;
/**
 * Draws per kernel call. V8 first runs a module on its baseline compiler and swaps in optimised code only between
 * calls, so one call over all 10M draws of a bootstrap would run entirely unoptimised (3× slower on a first run);
 * calls of ~1M draws let every call after the first use optimised code.
 */
const DRAWS_PER_CALL = 1 << 20;

/** numpy's Lemire rejection threshold `(2^32 − n) mod n` for a range of size n. */
function thresholdOf(n: number): number {
  return (0x100000000 - n) % n;
}

function checkRange(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > 0xffffffff) {
    throw new RangeError(`range size must be in [1, 2^32) (got ${n})`);
  }
}

function checkShape(values: number, width: number, what: string): number {
  if (!Number.isInteger(width) || width < 1 || values % width !== 0) {
    throw new RangeError(`${what}: ${values} values do not make rows of width ${width}`);
  }
  return values / width;
}

/** How the kernel sums approximate-randomization trials (its `integral` argument). */
const enum Mode {
  /** Both pseudo-systems summed row after row in f64. */
  General = 0,
  /** Integer statistics: the swapped rows' differences added to the system's total, in f64. */
  Integral = 1,
  /** The same in i32 (four columns per v128 add), when no partial sum can leave the i32 range. */
  IntegralI32 = 2,
}

/**
 * Whether the i32 path is exact for these integer rows: every partial sum of that path (the system total plus some
 * differences, and the total of both systems) is bounded by 2·(Σ|bl| + Σ|sys|) per column, kept below 2^31.
 */
function fitsI32(bl: Float64Array, sys: Float64Array, width: number): boolean {
  const bound = new Float64Array(width);
  for (let k = 0; k < bl.length; k++) bound[k % width] += Math.abs(bl[k]) + Math.abs(sys[k]);
  for (let c = 0; c < width; c++) if (2 * bound[c] >= 2 ** 31) return false;
  return true;
}

/**
 * What a kernel call needs of a generator: its state as the kernels' ten words (`saveWords`, the numbering of
 * `assembly/pcg64.ts`) and the advanced state back (`loadWords`). numpy-random's `Pcg64` is one; declared here so
 * that the kernels do not depend on the meta-evaluation layer that uses them.
 */
export interface Pcg64State {
  saveWords(out: Uint32Array): void;
  loadWords(words: Uint32Array): void;
}

/** The bool buffer of one `integers(2, dtype=bool)` call: the current word and the bits left in it. */
export interface BoolBuffer {
  word: number;
  left: number;
}

/** The PCG64 kernels bound to one kernel instance. */
export class Pcg64Engine {
  /** The instance's memory. */
  readonly memory: LinearMemory;
  private readonly block: number;
  private readonly words = new Uint32Array(10);

  /** Binds the kernels of one instance (see {@link defaultPcg64Engine} for the shared one). */
  constructor(
    /** The instance's exports. */
    readonly kernels: Pcg64KernelExports,
    /** Output values (f32 or f64) per kernel call; small values only make sense to test the chunking. */
    private readonly chunkValues: number = CHUNK_VALUES,
  ) {
    if (!Number.isInteger(chunkValues) || chunkValues < 1) {
      throw new RangeError(`chunkValues must be a positive integer (got ${chunkValues})`);
    }
    this.memory = new LinearMemory(kernels.memory);
    this.block = new Layout(kernels.heapBase()).place(STATE_BYTES);
  }

  /** First byte above the state block, where a call's regions go. */
  private layout(): Layout {
    return new Layout(this.block + STATE_BYTES);
  }

  private put(bits: Pcg64State, bools: BoolBuffer | null): void {
    bits.saveWords(this.words);
    const u32 = this.memory.u32;
    const at = this.block >>> 2;
    u32.set(this.words, at);
    u32[at + 10] = bools === null ? 0 : bools.word;
    u32[at + 11] = bools === null ? 0 : bools.left;
  }

  private take(bits: Pcg64State, bools: BoolBuffer | null): void {
    const u32 = this.memory.u32;
    const at = this.block >>> 2;
    this.words.set(u32.subarray(at, at + 10));
    bits.loadWords(this.words);
    if (bools !== null) {
      bools.word = u32[at + 10];
      bools.left = u32[at + 11];
    }
  }

  /** Fills `out` with draws in [0, n), continuing `bits` exactly as `BoundedIntStream.fill` does. */
  bounded(bits: Pcg64State, n: number, out: Uint32Array): void {
    checkRange(n);
    const layout = this.layout();
    const chunk = Math.min(out.length, this.chunkValues, DRAWS_PER_CALL);
    const dest = layout.place(chunk * 4);
    this.memory.reserve(layout.end);
    for (let from = 0; from < out.length; from += chunk) {
      const count = Math.min(chunk, out.length - from);
      this.put(bits, null);
      this.kernels.pcg64Bounded(this.block, n, thresholdOf(n), dest, count);
      this.take(bits, null);
      out.set(this.memory.u32.subarray(dest >>> 2, (dest >>> 2) + count), from);
    }
  }

  /** Fills `out` with bool draws (0/1), continuing `bits` and the call's bool buffer `bools` (updated). */
  bools(bits: Pcg64State, bools: BoolBuffer, out: Uint8Array): void {
    const layout = this.layout();
    const chunk = Math.min(out.length, this.chunkValues, DRAWS_PER_CALL);
    const dest = layout.place(chunk);
    this.memory.reserve(layout.end);
    for (let from = 0; from < out.length; from += chunk) {
      const count = Math.min(chunk, out.length - from);
      this.put(bits, bools);
      this.kernels.pcg64Bools(this.block, dest, count);
      this.take(bits, bools);
      out.set(this.memory.u8.subarray(dest, dest + count), from);
    }
  }

  /**
   * sacreBLEU's bootstrap sums: `nSamples` resamples, each `n` bounded draws in [0, n) from `bits` (one
   * `choice(n, (nSamples, n))` call) and the float32 column sums of the picked rows of `rows` (n × width, values
   * already float32), accumulated in float32 in draw order. `onSample(s, totals)` receives each resample's sums as
   * doubles, in order (`totals` is reused: copy it to keep it).
   */
  bootstrapSums(
    bits: Pcg64State,
    rows: Float32Array,
    width: number,
    nSamples: number,
    onSample: (sample: number, totals: Float64Array) => void,
  ): void {
    const n = checkShape(rows.length, width, 'bootstrap rows');
    checkRange(n);
    // The kernel adds four float32 columns at a time: rows are padded with zero columns to a multiple of 4.
    const stride = Math.ceil(width / 4) * 4;
    const layout = this.layout();
    const rowsAt = layout.place(n * stride * 4);
    const perCall = Math.min(Math.floor(this.chunkValues / stride), Math.floor(DRAWS_PER_CALL / n));
    const chunk = Math.max(1, Math.min(nSamples, perCall));
    const out = layout.place(chunk * stride * 4);
    this.memory.reserve(layout.end);
    const placed = new Float32Array(this.memory.memory.buffer, rowsAt, n * stride);
    if (stride === width) placed.set(rows);
    else for (let i = 0; i < n; i++) placed.set(rows.subarray(i * width, (i + 1) * width), i * stride);
    const totals = new Float64Array(width);
    for (let from = 0; from < nSamples; from += chunk) {
      const count = Math.min(chunk, nSamples - from);
      this.put(bits, null);
      this.kernels.bootstrapSums(this.block, n, thresholdOf(n), rowsAt, stride, count, out);
      this.take(bits, null);
      const sums = new Float32Array(this.memory.memory.buffer, out, count * stride);
      for (let s = 0; s < count; s++) {
        for (let c = 0; c < width; c++) totals[c] = sums[s * stride + c];
        onSample(from + s, totals);
      }
    }
  }

  /**
   * sacreBLEU's approximate-randomization sums: `nTrials` swap masks of n bool draws from `bits` (one
   * `integers(2, (nTrials, n), dtype=bool)` call, starting with an empty bool buffer) and, per trial, the column
   * sums of pseudo-system `a` (baseline rows where the draw is 1, system rows elsewhere) and `b` (the opposite).
   * With `integral` (every statistic an integer, sums exact) `a` = sysTotal + Σ_{swapped}(bl − sys) and `b` =
   * (blTotal + sysTotal) − a; otherwise both are summed in segment order. `onTrial(t, a, b)` receives them in order
   * (reused arrays).
   */
  randomizationSums(
    bits: Pcg64State,
    bl: Float64Array,
    sys: Float64Array,
    width: number,
    nTrials: number,
    integral: boolean,
    onTrial: (trial: number, a: Float64Array, b: Float64Array) => void,
  ): void {
    const n = checkShape(bl.length, width, 'baseline rows');
    if (sys.length !== bl.length) throw new RangeError(`system rows: ${sys.length} values, expected ${bl.length}`);
    const blTotal = new Float64Array(width);
    const sysTotal = new Float64Array(width);
    for (let i = 0; i < bl.length; i += width) {
      for (let c = 0; c < width; c++) {
        blTotal[c] += bl[i + c];
        sysTotal[c] += sys[i + c];
      }
    }
    const mode = !integral ? Mode.General : fitsI32(bl, sys, width) ? Mode.IntegralI32 : Mode.Integral;
    // The kernel adds whole v128 lanes (two f64 or four i32 columns): rows and totals are padded with zero columns.
    const lanes = mode === Mode.IntegralI32 ? 4 : 2;
    const stride = Math.ceil(width / lanes) * lanes;
    const bytes = mode === Mode.IntegralI32 ? 4 : 8;
    const layout = this.layout();
    // The integral paths read only the differences, the other only the two systems' rows.
    const rowBytes = n * stride * bytes;
    const blAt = layout.place(mode === Mode.General ? rowBytes : 0);
    const sysAt = layout.place(mode === Mode.General ? rowBytes : 0);
    const deltaAt = layout.place(mode === Mode.General ? 0 : rowBytes);
    const blTotalAt = layout.place(stride * bytes);
    const sysTotalAt = layout.place(stride * bytes);
    const perCall = Math.min(Math.floor(this.chunkValues / (2 * stride)), Math.floor(DRAWS_PER_CALL / n));
    const chunk = Math.max(1, Math.min(nTrials, perCall));
    const out = layout.place(chunk * 2 * stride * 8);
    this.memory.reserve(layout.end);
    const buffer = this.memory.memory.buffer;
    const view = (at: number, count: number): Float64Array | Int32Array =>
      mode === Mode.IntegralI32 ? new Int32Array(buffer, at, count) : new Float64Array(buffer, at, count);
    const place = (at: number, rows: Float64Array, minus: Float64Array | null): void => {
      const dest = view(at, (rows.length / width) * stride);
      dest.fill(0);
      for (let i = 0, k = 0; k < rows.length; i += stride, k += width) {
        for (let c = 0; c < width; c++) dest[i + c] = minus === null ? rows[k + c] : rows[k + c] - minus[k + c];
      }
    };
    if (mode === Mode.General) {
      place(blAt, bl, null);
      place(sysAt, sys, null);
    } else {
      place(deltaAt, bl, sys);
    }
    place(blTotalAt, blTotal, null);
    place(sysTotalAt, sysTotal, null);
    const bools: BoolBuffer = { word: 0, left: 0 };
    const a = new Float64Array(width);
    const b = new Float64Array(width);
    for (let from = 0; from < nTrials; from += chunk) {
      const count = Math.min(chunk, nTrials - from);
      this.put(bits, bools);
      this.kernels.randomizationSums(
        this.block, n, stride, count, blAt, sysAt, deltaAt, blTotalAt, sysTotalAt, mode, out,
      );
      this.take(bits, bools);
      const sums = this.memory.f64;
      for (let t = 0; t < count; t++) {
        const base = (out >>> 3) + t * 2 * stride;
        for (let c = 0; c < width; c++) {
          a[c] = sums[base + c];
          b[c] = sums[base + stride + c];
        }
        onTrial(from + t, a, b);
      }
    }
  }
}

let shared: Pcg64Engine | null = null;

/**
 * The process-wide engine on its own kernel instance, created on first use.
 * @throws PaletteError `E_WASM` when the build predates the PCG64 kernels (run npm run build).
 */
export function defaultPcg64Engine(): Pcg64Engine {
  if (shared === null) {
    const kernels = instantiateKernels();
    if (!hasPcg64Kernels(kernels)) {
      throw new PaletteError('E_WASM', 'the WebAssembly build has no PCG64 kernels (run npm run build)');
    }
    shared = new Pcg64Engine(kernels);
  }
  return shared;
}
