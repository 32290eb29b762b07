/**
 * ORANGE blocks in a pool worker (the main side is ../orange-pool.ts): the references are read and interned once
 * into the worker's own {@link OrangeScorer}, and each block of whole sentences becomes its per-sentence ORANGE
 * terms (src/meta/orange/block-terms.ts), the unit of work of the in-thread run too. The Node adapter is installed
 * first: a worker is a fresh module graph, and its metrics may load a paraphrase table file or compromise.
 */
import '../../node/install.js';
import { InputError } from '../../errors.js';
import { blockTerms, type OrangeBlock } from '../../meta/orange/block-terms.js';
import { OrangeScorer } from '../../meta/orange/scorer.js';
import type { OrangeVariant } from '../../meta/orange/variants.js';
import type { MetricSettings } from '../../metrics/registry.js';
import type { TaskHandler } from './handler.js';

/** What every ORANGE worker receives once. */
export interface OrangeWorkerSetup {
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

/** The ORANGE kind: references and variants; a block; its terms per variant, or its input error. */
export interface OrangeKind {
  readonly setup: OrangeWorkerSetup;
  readonly task: OrangeBlock;
  readonly result: Float64Array[] | OrangeWorkerError;
}

/** Sets the kind up in a worker. */
export function createHandler(setup: OrangeWorkerSetup): TaskHandler<OrangeBlock, Float64Array[] | OrangeWorkerError> {
  const scorer = new OrangeScorer(setup.variants, setup.refStreams, setup.settings);
  return {
    run(block) {
      try {
        return blockTerms(scorer, block);
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        return { inputError: { code: err.code, message: err.message, file: err.file, line: err.line } };
      }
    },
  };
}
