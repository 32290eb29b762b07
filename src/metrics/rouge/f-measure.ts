/**
 * The F-measures of the ROUGE flavors, each with its implementation's operation order (the last bits of the
 * result depend on it):
 * - α-form (ROUGE-1.5.5 `-p`): F = P·R / ((1−α)P + αR), 0 when the denominator is not positive;
 * - β-form (Lin & Och 2004 eq. 6): F = (1+β²)·R·P / (R + β²P), 0 when the denominator is not positive;
 * - F1 (rouge-score `scoring.fmeasure`): 2·P·R / (P + R), 0 when P + R = 0.
 */
import type { ResolvedRougeOptions } from './options.js';

/** F from precision and recall. */
export type FMeasure = (precision: number, recall: number) => number;

/** ROUGE-1.5.5's F = P·R / ((1−α)P + αR). */
export function alphaFMeasure(alpha: number): FMeasure {
  return (p, r) => {
    const denominator = (1 - alpha) * p + alpha * r;
    return denominator > 0 ? (p * r) / denominator : 0;
  };
}

/** Lin & Och's F = (1+β²)RP / (R + β²P). */
export function betaFMeasure(beta: number): FMeasure {
  const b2 = beta * beta;
  return (p, r) => {
    const denominator = r + b2 * p;
    return denominator > 0 ? ((1 + b2) * r * p) / denominator : 0;
  };
}

/** rouge-score's F1 = 2PR / (P + R). */
export const f1Measure: FMeasure = (p, r) => (p + r > 0 ? (2 * p * r) / (p + r) : 0);

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
