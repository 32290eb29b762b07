/**
 * N-gram statistics over interned token ids: the calling contract every n-gram metric (BLEU, chrF, NIST) uses,
 * computed by the WebAssembly kernels (`assembly/ngram.ts`) on this thread's default kernel instance.
 *
 * The results are defined by the plain reference implementation in `test/reference/ngram.ts`; property tests check
 * that the kernels give exactly its rows. NIST weights are `log(x) / log(2)` with the kernels' own `log` (musl's,
 * the algorithm of glibc's `log` that Python calls), i.e. Python's `math.log(x, 2)` as NLTK computes it.
 */
import type { Csr } from '../text/csr.js';
import { instantiateKernels } from './load.js';
import { NgramEngine, type NgramBatch, type NgramReferenceSet, type NgramWeights } from './ngram-engine.js';

/** The engine, reference-set and weights classes, for callers that manage their own kernel instances. */
export { KernelNgramWeights, NgramEngine, NgramReferenceSet } from './ngram-engine.js';
/** The calling contract, declared beside the engine that implements it. */
export type { NgramBatch, NgramWeights } from './ngram-engine.js';

let defaultEngine: NgramEngine | null = null;

/**
 * The engine the functions below use: one kernel instance per thread, created on first use from the default build
 * (on Node, the one `PALETTE_WASM` selects). Its memory grows to the largest batch seen and stays that size.
 */
export function defaultNgramEngine(): NgramEngine {
  defaultEngine ??= new NgramEngine(instantiateKernels());
  return defaultEngine;
}

/**
 * Clipped n-gram counts against references max-merged per n-gram (BLEU, mteval NIST).
 * Row per hypothesis, `2 * maxOrder` columns (or `3 * maxOrder` with `weights`):
 * `correct_1..N`, `total_1..N`, then `info_1..N` = Σ weight(g) · clipped count(g).
 * @throws RangeError/TypeError for inconsistent offsets or segment indices; TypeError for weights not made by
 * {@link ngramWeights}.
 */
export function clippedNgramCounts(batch: NgramBatch, maxOrder: number, weights?: NgramWeights): Float64Array {
  return defaultNgramEngine().clippedNgramCounts(batch, maxOrder, weights);
}

/**
 * Clipped n-gram counts against each reference separately (chrF, NLTK NIST).
 * One row per (hypothesis, reference of its segment), hypothesis-major, references in order; `3 * maxOrder`
 * columns (`4 * maxOrder` with `weights`): `match_1..N`, `hypTotal_1..N`, `refTotal_1..N`, then `info_1..N`.
 * Returns the rows and `rowOffsets` (rows of hypothesis `h` are `rowOffsets[h] .. rowOffsets[h + 1]`).
 * @throws as {@link clippedNgramCounts}.
 */
export function perReferenceNgramCounts(
  batch: NgramBatch,
  maxOrder: number,
  weights?: NgramWeights,
): { rows: Float64Array; rowOffsets: Int32Array } {
  return defaultNgramEngine().perReferenceNgramCounts(batch, maxOrder, weights);
}

/** Builds NIST information weights from every reference of a test set (all rows of `refs`). */
export function ngramWeights(refs: Csr, maxOrder: number): NgramWeights {
  return defaultNgramEngine().ngramWeights(refs, maxOrder);
}

/**
 * References prepared once for many calls (e.g. every system of a test set): copied into the default engine's
 * memory on first use and kept there while consecutive calls use them, instead of being copied with every batch.
 * `segRefOffsets` is as in {@link NgramBatch}; the set copies both arrays.
 */
export function prepareNgramReferences(refs: Csr, segRefOffsets: Int32Array): NgramReferenceSet {
  return defaultNgramEngine().prepareReferences(refs, segRefOffsets);
}
