/**
 * The F-measures of the ROUGE flavors as functions, each with its implementation's operation order (the last bits
 * of the result depend on it), computed by the row kernel (src/wasm/rouge-rows.ts), whose rows use the same F:
 * - α-form (ROUGE-1.5.5 `-p`): F = P·R / ((1−α)P + αR), 0 when the denominator is not positive;
 * - β-form (Lin & Och 2004 eq. 6): F = (1+β²)·R·P / (R + β²P), 0 when the denominator is not positive;
 * - F1 (rouge-score `scoring.fmeasure`): 2·P·R / (P + R), 0 when P + R = 0.
 */
import { rougeFMeasure } from '../../wasm/rouge-rows.js';
import type { ResolvedRougeOptions } from './options.js';

/** F from precision and recall. */
export type FMeasure = (precision: number, recall: number) => number;

/** ROUGE-1.5.5's F = P·R / ((1−α)P + αR). */
export function alphaFMeasure(alpha: number): FMeasure {
  return (p, r) => rougeFMeasure('alpha', alpha, p, r);
}

/** Lin & Och's F = (1+β²)RP / (R + β²P). */
export function betaFMeasure(beta: number): FMeasure {
  return (p, r) => rougeFMeasure('beta', beta, p, r);
}

/** rouge-score's F1 = 2PR / (P + R). */
export const f1Measure: FMeasure = (p, r) => rougeFMeasure('f1', 0, p, r);

/** The F-measure a resolved option set asks for. */
export function fMeasureOf(weighting: ResolvedRougeOptions['weighting']): FMeasure {
  switch (weighting.form) {
    case 'alpha':
      return alphaFMeasure(weighting.alpha);
    case 'beta':
      return betaFMeasure(weighting.beta);
    case 'f1':
      return f1Measure;
  }
}

/**
 * A pair's recall or precision: `inverse(hit / count)`, 0 for a zero count (ORANGE's pair scores; the rows' own
 * ratios are the row kernel's). `inverse` is f⁻¹ for ROUGE-W and the identity otherwise.
 */
export function pairRatio(hit: number, count: number, inverse?: (x: number) => number): number {
  if (!(count > 0)) return 0;
  return inverse === undefined ? hit / count : inverse(hit / count);
}
