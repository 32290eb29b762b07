/**
 * Experiment 2: ORANGE (seed 002) of the metric list on the real n-best lists of ../shared/data, through the
 * library entry point of `palette orange` (src/node/orange/evaluate.ts, then src/meta/orange/orange.ts for the mean and
 * the bootstrap interval over sentences with numpy's `default_rng` draws). BLEUS1–9 replace BLEU1/4/12 as in the
 * seed; GTM is seed 000's (exponent 1, the best F over each leave-one-out set). A list whose references cannot be ranked (ORANGE needs at least two per
 * sentence) is reported with the library's own message instead of a number.
 */
import { join } from 'node:path';
import { readLines } from '../../src/node/read-lines.js';
import { InputError } from '../../src/errors.js';
import { bootstrapMeanInterval, numpyResampler, orangeOfTerms, type ConfidenceInterval } from '../../src/meta/orange/orange.js';
import { evaluateOrange } from '../../src/node/orange/evaluate.js';
import { lowerIsBetter, parseOrangeMetrics, type OrangeVariant } from '../../src/meta/orange/variants.js';
import type { MetricSettings } from '../../src/metrics/registry.js';
import { JOSHUA_DIR, MOSES_DIR } from './data.js';

/** The `-m` names of the variants: seed 002's BLEUS1–9, then the rest of seed 000's list in its order. */
export const ORANGE_METRICS = ['bleus1-9', 'nist', 'wer', 'per', 'gtm', 'rouge-l', 'rouge-w-1.2', 'rouge-s*', 'rouge-s4', 'rouge-s9'];

/**
 * The beyond-surface metrics of issue 7, scored through their Metric API in the same pass: ParaEval with a paraphrase
 * table (precision, text and phrases lowercased and 13a-tokenized), IMPACT and the NP-chunk metric with the seed's
 * parameters and the compromise chunker.
 */
export const ORANGE_EXTRA_METRICS = ['paraeval', 'impact', 'npchunk'];

/** `palette score`'s settings for {@link ORANGE_EXTRA_METRICS}. */
export function orangeExtraSettings(paraphraseTable: string): MetricSettings {
  return { paraeval: { table: paraphraseTable, tokenize: '13a', lowercase: true } };
}

/** One n-best list and its references. */
export interface OrangeInput {
  /** Label in the table (`Joshua bn-en output.gold`). */
  readonly label: string;
  readonly nbest: string;
  readonly refs: readonly string[];
}

/** ORANGE of every variant on one list, or why there is none. */
export interface OrangeResult {
  readonly input: OrangeInput;
  /** Set when the list could be ranked. */
  readonly rows?: readonly { readonly variant: OrangeVariant; readonly orange: number; readonly ci?: ConfidenceInterval }[];
  readonly sentences?: number;
  readonly candidates?: number;
  readonly referencesPerSentence?: number;
  /**
   * Reference points of the scale, from the candidates per sentence: the ORANGE of a metric that puts every
   * reference first, and the expected ORANGE of a uniformly random ranking (means over sentences).
   */
  readonly perfect?: number;
  readonly chance?: number;
  /** The library's message when it refused the input. */
  readonly refused?: string;
  readonly ms: number;
}

/** The Joshua lists (4 references) and the five Moses MERT lists (1 reference). */
export function orangeInputs(dataRoot: string): OrangeInput[] {
  const joshua = join(dataRoot, JOSHUA_DIR);
  const joshuaRefs = [0, 1, 2, 3].map((j) => join(joshua, `reference.en.${j}`));
  const moses = join(dataRoot, MOSES_DIR);
  return [
    { label: 'Joshua bn-en output.gold', nbest: join(joshua, 'output.gold'), refs: joshuaRefs },
    { label: 'Joshua bn-en output-classlm.gold', nbest: join(joshua, 'output-classlm.gold'), refs: joshuaRefs },
    ...[1, 2, 3, 4, 5].map((k) => ({ label: `Moses MERT nbest.${k}`, nbest: join(moses, `nbest.${k}`), refs: [join(moses, 'reference')] })),
  ];
}

/** ORANGE of {@link ORANGE_METRICS} (or `metrics`) on one input; every variant resamples the same sentences. */
export async function orangeOf(
  input: OrangeInput,
  bootstrap: { resamples: number; seed: number },
  metrics: readonly string[] = ORANGE_METRICS,
  settings: MetricSettings = {},
): Promise<OrangeResult> {
  const t0 = performance.now();
  const variants = parseOrangeMetrics(metrics);
  try {
    const result = await evaluateOrange({ nbest: input.nbest, refs: input.refs, variants, settings });
    const rows = result.variants.map((variant, i) => ({
      variant,
      orange: orangeOfTerms(result.terms[i]),
      ci: bootstrap.resamples > 0 ? bootstrapMeanInterval(result.terms[i], bootstrap.resamples, numpyResampler(bootstrap.seed)) : undefined,
    }));
    const { perfect, chance } = scalePoints(input.nbest, result.referencesPerSentence);
    return {
      input,
      rows,
      perfect,
      chance,
      sentences: result.sentences.length,
      candidates: result.candidates,
      referencesPerSentence: result.referencesPerSentence,
      ms: performance.now() - t0,
    };
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { input, refused: err.message, ms: performance.now() - t0 };
  }
}

/**
 * With N_i candidates and u references in sentence i, ranks run over N_i + u texts: references ranked first average
 * rank (u + 1)/2, a random order (N_i + u + 1)/2; each divided by N_i + 1 and averaged over sentences as ORANGE is.
 * Candidates are counted per id of the n-best list (the first field of each line).
 */
export function scalePoints(nbest: string, references: number): { perfect: number; chance: number } {
  const counts = new Map<string, number>();
  for (const line of readLines(nbest)) {
    const bar = line.indexOf('|||');
    if (bar < 0) continue;
    const id = line.slice(0, bar).trim();
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  let perfect = 0;
  let chance = 0;
  for (const n of counts.values()) {
    perfect += (references + 1) / 2 / (n + 1);
    chance += (n + references + 1) / 2 / (n + 1);
  }
  return { perfect: perfect / counts.size, chance: chance / counts.size };
}

/** Whether a lower score of the variant is better (WER, PER), for the page's notes. */
export { lowerIsBetter };
