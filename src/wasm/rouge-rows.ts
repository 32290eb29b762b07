/**
 * ROUGE's segment rows from pair statistics in WebAssembly (`assembly/rouge-rows.ts`, the one definition of the
 * flavors' combinations, the F-measures and ROUGE-1.5.5's `%7.5f` rounding): every hypothesis of a batch in one
 * kernel call, with no object, closure or string per pair.
 */
import type { KernelExports } from './kernels.js';
import { LinearMemory, alignUp } from './linear-memory.js';
import { instantiateKernels } from './load.js';

export interface RougeRowExports extends KernelExports {
  rougeRows(
    pairs: number, rowOffsets: number, nRows: number, rule: number, form: number, param: number, w: number,
    jackknife: number, scratch: number, out: number, outStride: number,
  ): void;
  perlRound5(x: number): number;
  rougeFMeasure(form: number, param: number, p: number, r: number): number;
}

/**
 * How a segment's pairs are combined: ROUGE-1.5.5's models (`-f A` sums them, `-f B` keeps the best select), or
 * rouge-score's and Lin & Och's rules (`best-f`, `max`, `pool`, `best-recall`).
 */
export type RougeRowRule = 'rouge155-A' | 'rouge155-B' | 'best-f' | 'max' | 'pool' | 'best-recall';

/** F-measure of P and R: ROUGE-1.5.5's α form, Lin & Och's β form, rouge-score's F1. */
export type RougeFForm = 'alpha' | 'beta' | 'f1';

/** Everything a reduction of pairs to rows depends on. */
export interface RougeRowSettings {
  readonly rule: RougeRowRule;
  /** The F form (ROUGE-1.5.5's rules always use the α form: α = 0.5 unless the form is `alpha`). */
  readonly form: RougeFForm;
  /** α or β of the form (unused for F1). */
  readonly param: number;
  /** ROUGE-W's weight (ratios go through f⁻¹ = x^(1/w)); 0 for the other types. */
  readonly weight: number;
  /** P, R and F as the means over the leave-one-pair-out combinations (segments with at least 2 pairs). */
  readonly jackknife: boolean;
}

const RULES: Record<RougeRowRule, number> = { 'rouge155-A': 0, 'rouge155-B': 1, 'best-f': 2, max: 3, pool: 4, 'best-recall': 5 };
const FORMS: Record<RougeFForm, number> = { alpha: 0, beta: 1, f1: 2 };

/** Numbers of a pair row and of a segment row. */
const PAIR_WIDTH = 4;
export const ROW_WIDTH = 7;

/** The thread's kernel instance of the row reductions, made on first use. */
let instance: { kernels: RougeRowExports; memory: LinearMemory; base: number } | undefined;

function rowKernels(): { kernels: RougeRowExports; memory: LinearMemory; base: number } {
  if (instance === undefined) {
    const kernels = instantiateKernels() as RougeRowExports;
    instance = { kernels, memory: new LinearMemory(kernels.memory), base: alignUp(kernels.heapBase(), 16) };
  }
  return instance;
}

/** Where a call lays out its offsets, pairs, scratch and rows for `count` hypotheses and `nPairs` pairs. */
function layout(base: number, count: number, nPairs: number): { pairsAt: number; scratchAt: number; outAt: number; end: number } {
  const pairsAt = alignUp(base + 4 * (count + 1), 16);
  const scratchAt = pairsAt + 8 * PAIR_WIDTH * nPairs;
  const outAt = scratchAt + 8 * ROW_WIDTH;
  return { pairsAt, scratchAt, outAt, end: outAt + 8 * ROW_WIDTH * count };
}

/**
 * Zeroed room for the pair rows of `count` hypotheses with `nPairs` pairs in all, in the kernel's memory, where
 * {@link writeRougeRows} reads them without copying: valid until the next call of this module (a caller fills it
 * and reduces it at once).
 */
export function pairRowsBuffer(count: number, nPairs: number): Float64Array {
  const { memory, base } = rowKernels();
  const { pairsAt, end } = layout(base, count, nPairs);
  memory.reserve(end);
  const rows = memory.f64.subarray(pairsAt >> 3, (pairsAt >> 3) + PAIR_WIDTH * nPairs);
  rows.fill(0);
  return rows;
}

/**
 * Writes the 7-number row of each of `count` hypotheses at `out[h · stride + column ..]`: hypothesis `h`'s pairs
 * are rows `rowOffsets[h] .. rowOffsets[h + 1]` of `pairs` (4 numbers each: hit, hypothesis count, reference
 * count, select), reduced by `settings`. Pairs in a {@link pairRowsBuffer} of as many hypotheses and pairs are
 * read where they are.
 */
export function writeRougeRows(
  pairs: Float64Array,
  rowOffsets: Int32Array,
  count: number,
  settings: RougeRowSettings,
  out: Float64Array,
  column: number,
  stride: number,
): void {
  if (count === 0) return;
  const { kernels, memory, base } = rowKernels();
  const first = rowOffsets[0];
  const nPairs = rowOffsets[count] - first;
  const offsetsAt = base;
  const { pairsAt, scratchAt, outAt, end } = layout(base, count, nPairs);
  // A grow would detach `pairs` if it were a view of this memory, so whether it is one is asked first.
  const inPlace = first === 0 && pairs.buffer === memory.memory.buffer && pairs.byteOffset === pairsAt;
  memory.reserve(end);
  const { i32, f64 } = memory;
  const o = offsetsAt >> 2;
  if (first === 0) i32.set(rowOffsets.subarray(0, count + 1), o);
  else for (let h = 0; h <= count; h++) i32[o + h] = rowOffsets[h] - first;
  if (!inPlace) f64.set(pairs.subarray(first * PAIR_WIDTH, (first + nPairs) * PAIR_WIDTH), pairsAt >> 3);
  const [rule, form, param, w, jackknife] = rowKernelArgs(settings);
  kernels.rougeRows(pairsAt, offsetsAt, count, rule, form, param, w, jackknife, scratchAt, outAt, 8 * ROW_WIDTH);
  copyRows(f64, outAt >> 3, count, out, column, stride);
}

/** The row kernel's arguments `rule, form, param, w, jackknife` for `settings`. */
export function rowKernelArgs(settings: RougeRowSettings): [number, number, number, number, number] {
  return [RULES[settings.rule], FORMS[settings.form], settings.param, settings.weight, settings.jackknife ? 1 : 0];
}

/** Copies `count` rows of {@link ROW_WIDTH} numbers from `rows[at ..]` to `out[h · stride + column ..]`. */
export function copyRows(rows: Float64Array, at: number, count: number, out: Float64Array, column: number, stride: number): void {
  if (stride === ROW_WIDTH && column === 0) {
    out.set(rows.subarray(at, at + ROW_WIDTH * count));
    return;
  }
  for (let h = 0, to = column; h < count; h++, to += stride, at += ROW_WIDTH) {
    out[to] = rows[at];
    out[to + 1] = rows[at + 1];
    out[to + 2] = rows[at + 2];
    out[to + 3] = rows[at + 3];
    out[to + 4] = rows[at + 4];
    out[to + 5] = rows[at + 5];
    out[to + 6] = rows[at + 6];
  }
}

/**
 * ROUGE-1.5.5's `%7.5f` rounding as a number, `Number(sprintf("%7.5f", x))`: x rounded to 5 decimals from its exact
 * binary value, exact ties to even (`Number(perlFixed5(x))`, without the string).
 */
export function perlRound5(x: number): number {
  return rowKernels().kernels.perlRound5(x);
}

/** The F-measure of `form` (with its α or β `param`) of precision `p` and recall `r`. */
export function rougeFMeasure(form: RougeFForm, param: number, p: number, r: number): number {
  return rowKernels().kernels.rougeFMeasure(FORMS[form], param, p, r);
}
