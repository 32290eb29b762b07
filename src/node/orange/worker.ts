/**
 * The piscina worker of the ORANGE pool (./pool.ts): it installs the compiled kernels it gets in `workerData`
 * (never compiling the `.wasm` again), reads and interns the references once into its own {@link OrangeScorer},
 * and turns each block of sentences it is sent into per-sentence ORANGE terms (src/meta/orange/block-terms.ts). Its
 * kernel instances are its own (one private linear memory per thread). The Node adapter is installed here too: a
 * worker is a fresh module graph, and its metrics may load a paraphrase table file or compromise.
 */
import '../install.js';
import { workerData } from 'piscina';
import { useWasmModule } from '../../wasm/load.js';
import { blockTerms, type OrangeBlock } from '../../meta/orange/block-terms.js';
import { OrangeScorer } from '../../meta/orange/scorer.js';
import type { OrangeVariant } from '../../meta/orange/variants.js';
import { InputError } from '../../errors.js';
import type { MetricSettings } from '../../metrics/registry.js';

/** What the pool passes to every worker. */
export interface OrangeWorkerData {
  /** The compiled kernels. */
  readonly module: WebAssembly.Module;
  /** The variants to score. */
  readonly variants: readonly OrangeVariant[];
  /** `refStreams[j][s]`: reference j of sentence s. */
  readonly refStreams: readonly (readonly string[])[];
  /** Settings of the Metric-API variants (the main thread has checked them). */
  readonly settings: MetricSettings;
}

/** An input error of a block, as data (an error thrown across threads comes back as a plain `Error`). */
export interface OrangeWorkerError {
  readonly inputError: { readonly code: string; readonly message: string; readonly file?: string; readonly line?: number };
}

const data = workerData as OrangeWorkerData;
useWasmModule(data.module);
const scorer = new OrangeScorer(data.variants, data.refStreams, data.settings);

/** Scores one block; the terms' buffers are transferred back, not copied. */
export default function orangeWorker(block: OrangeBlock | null): Float64Array[] | OrangeWorkerError {
  // `null` is the pool's start-up ping: the scorer above is ready once it answers.
  if (block === null) return [];
  try {
    return blockTerms(scorer, block);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { inputError: { code: err.code, message: err.message, file: err.file, line: err.line } };
  }
}
