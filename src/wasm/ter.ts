/**
 * sacreBLEU TER edit counts computed by the WebAssembly kernel `assembly/ter-sacrebleu.ts`: the whole greedy shift
 * search of every (hypothesis, reference) pair in one call. Results are those of the TypeScript search
 * (`src/metrics/ter/shift-search.ts`) and of the plain port of sacreBLEU's lib_ter (`test/reference/ter.ts`);
 * property tests check both equalities. The alignment itself (for `--detail`) stays in TypeScript.
 *
 * Each {@link TerEngine} owns a kernel instance (its own linear memory); every call lays its inputs, scratch and
 * outputs out from the heap base and copies the edit counts out.
 */
import type { Csr } from '../text/csr.js';
import { PaletteError } from '../errors.js';
import { checkCsr } from './check-input.js';
import type { KernelExports } from './kernels.js';
import { Layout, LinearMemory } from './linear-memory.js';
import { instantiateKernels } from './load.js';

/** Limits of the shift search and of the beam edit distance (sacreBLEU's: src/metrics/ter/limits.ts). */
export interface TerSearchLimits {
  /** Longest block a shift may move, in words. */
  readonly maxShiftSize: number;
  /** Largest `|refStart - hypStart|` of a matching block that may be shifted. */
  readonly maxShiftDist: number;
  /**
   * Shift candidates whose edit distance is computed, over all rounds of one (hypothesis, reference) pair; when
   * the budget runs out the search stops and the best shift of that round is not applied.
   */
  readonly maxCandidates: number;
  /** Half-width of the band of the edit-distance matrix around its (length-ratio) diagonal. */
  readonly beamWidth: number;
}

/** The TER kernels' exports (pointers are byte addresses in the instance's memory; see the kernel file). */
export interface TerKernelExports extends KernelExports {
  /** Bytes of scratch one pair of `n` hypothesis and `m` reference words needs, with blocks of up to `maxShiftSize`. */
  terScratchBytes(n: number, m: number, beamWidth: number, maxShiftSize: number): number;
  /** Edit counts of hypothesis `h` against references `h·nRefs .. h·nRefs + nRefs − 1`: `nHyps·nRefs` i32 at `out`. */
  terSacrebleuEdits(
    hypTokens: number, hypOffsets: number, nHyps: number, refTokens: number, refOffsets: number, nRefs: number,
    maxShiftSize: number, maxShiftDist: number, maxCandidates: number, beamWidth: number, scratch: number, out: number,
  ): void;
}

/** Whether a kernel instance has the TER kernels (a build made before they existed does not). */
export function hasTerKernels(kernels: KernelExports): kernels is TerKernelExports {
  const k = kernels as Partial<TerKernelExports>;
  return typeof k.terSacrebleuEdits === 'function' && typeof k.terScratchBytes === 'function';
}

function checkLimit(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min || value > 0x7fffffff) {
    throw new RangeError(`limits.${name} must be an integer in [${min}, 2^31) (got ${value})`);
  }
}

/** The TER kernel bound to one kernel instance. */
export class TerEngine {
  /** The instance's memory. */
  readonly memory: LinearMemory;
  private readonly base: number;

  /** Binds the kernels of one instance (see {@link defaultTerEngine} for the shared one). */
  constructor(
    /** The instance's exports. */
    readonly kernels: TerKernelExports,
  ) {
    this.memory = new LinearMemory(kernels.memory);
    this.base = kernels.heapBase();
  }

  /**
   * sacreBLEU TER edits of hypothesis `h` (row `h` of `hyps`) against each of its `nRefs` references (rows
   * `h·nRefs .. h·nRefs + nRefs − 1` of `refs`): `nHyps·nRefs` counts, hypothesis-major. Token ids are compared for
   * equality only (any negative id for words that no reference has).
   * @throws TypeError / RangeError for inconsistent arguments.
   */
  sacrebleuEdits(hyps: Csr, refs: Csr, nRefs: number, limits: TerSearchLimits): Int32Array {
    checkCsr('hyps', hyps);
    checkCsr('refs', refs);
    const nHyps = hyps.offsets.length - 1;
    if (!Number.isInteger(nRefs) || nRefs < 1) throw new RangeError(`nRefs must be a positive integer (got ${nRefs})`);
    if (refs.offsets.length - 1 !== nHyps * nRefs) {
      throw new RangeError(`refs must have ${nHyps * nRefs} rows (${nHyps} hypotheses × ${nRefs}), got ${refs.offsets.length - 1}`);
    }
    checkLimit('maxShiftSize', limits.maxShiftSize, 0);
    checkLimit('maxShiftDist', limits.maxShiftDist, 0);
    checkLimit('maxCandidates', limits.maxCandidates, 0);
    checkLimit('beamWidth', limits.beamWidth, 0);
    const k = this.kernels;
    let scratch = 0;
    for (let h = 0; h < nHyps; h++) {
      const n = hyps.offsets[h + 1] - hyps.offsets[h];
      for (let j = 0; j < nRefs; j++) {
        const row = h * nRefs + j;
        const bytes = k.terScratchBytes(n, refs.offsets[row + 1] - refs.offsets[row], limits.beamWidth, limits.maxShiftSize);
        if (bytes > scratch) scratch = bytes;
      }
    }
    const hypCount = hyps.offsets[nHyps];
    const refCount = refs.offsets[nHyps * nRefs];
    const layout = new Layout(this.base);
    const hypTokens = layout.place(4 * hypCount);
    const hypOffsets = layout.place(4 * (nHyps + 1));
    const refTokens = layout.place(4 * refCount);
    const refOffsets = layout.place(4 * (nHyps * nRefs + 1));
    const out = layout.place(4 * nHyps * nRefs);
    const scratchAt = layout.place(scratch);
    if (!(layout.end < 2 ** 32)) throw new RangeError(`a TER batch of ${layout.end} bytes does not fit in WebAssembly memory: split it`);
    this.memory.reserve(layout.end);
    const i32 = this.memory.i32;
    i32.set(hyps.tokens.subarray(0, hypCount), hypTokens >> 2);
    i32.set(hyps.offsets, hypOffsets >> 2);
    i32.set(refs.tokens.subarray(0, refCount), refTokens >> 2);
    i32.set(refs.offsets, refOffsets >> 2);
    k.terSacrebleuEdits(
      hypTokens, hypOffsets, nHyps, refTokens, refOffsets, nRefs,
      limits.maxShiftSize, limits.maxShiftDist, limits.maxCandidates, limits.beamWidth, scratchAt, out,
    );
    return this.memory.i32.slice(out >> 2, (out >> 2) + nHyps * nRefs);
  }
}

let shared: TerEngine | null | undefined;

/**
 * The process-wide engine on the default kernel build, created on first use; `null` when the kernels cannot be
 * loaded or predate the TER kernel (callers then use the TypeScript search, which gives the same numbers).
 */
export function defaultTerEngine(): TerEngine | null {
  if (shared === undefined) {
    try {
      const kernels = instantiateKernels();
      shared = hasTerKernels(kernels) ? new TerEngine(kernels) : null;
    } catch (e) {
      if (!(e instanceof PaletteError && e.code === 'E_WASM')) throw e;
      shared = null;
    }
  }
  return shared;
}
