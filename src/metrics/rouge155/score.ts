/**
 * How ROUGE-1.5.5 turns one unit's per-model statistics into its R, P and F (the tail of each `compute*Score`
 * sub): `-f A` sums hits, model counts and peer counts over the models, `-f B` keeps the model whose recall
 * `score` is best (the first on ties); R and P are rounded with `%7.5f`, and F = P·R / ((1−α)P + αR) is computed
 * from the rounded values and rounded again.
 */
import { perlRound5Fast } from '../rouge/perl-round5.js';
import { perlFixed5 } from './perl-format.js';

/** One model's statistics for one type of one unit. */
export interface ModelStats {
  /** Matches (Σ f(run) for ROUGE-W). */
  readonly hit: number;
  /** Model units (f(Σ f(|sentence|)) for ROUGE-W). */
  readonly modelCount: number;
  /** Peer units (f(|peer|) for ROUGE-W). */
  readonly peerCount: number;
  /**
   * The recall `-f B` compares: rounded to 5 decimals for ROUGE-N/S/BE, hit/Σ|sentence| for ROUGE-L,
   * f⁻¹(hit/Σ f(|sentence|)) for ROUGE-W (not the recall that is reported: f is applied once less).
   */
  readonly score: number;
}

/** A unit's combined statistics and ROUGE's rounded scores, as the strings it prints. */
export interface Rouge155Scores {
  readonly hit: number;
  readonly modelCount: number;
  readonly peerCount: number;
  /** `%7.5f` of R (of f⁻¹ of the ratio for ROUGE-W). */
  readonly recall: string;
  /** `%7.5f` of P. */
  readonly precision: string;
  /** `%7.5f` of F computed from the rounded R and P. */
  readonly fmeasure: string;
}

/**
 * Combines the models' statistics with `-f` and computes ROUGE's rounded R, P, F.
 * @param inverse f⁻¹ for ROUGE-W, the identity otherwise.
 */
export function rouge155Scores(
  perModel: readonly ModelStats[],
  formula: 'A' | 'B',
  alpha: number,
  inverse: (x: number) => number = (x) => x,
): Rouge155Scores {
  let hit = 0;
  let modelCount = 0;
  let peerCount = 0;
  if (formula === 'B') {
    let best = -1;
    for (const m of perModel) {
      // Strictly better only: the first model keeps a tie, as the Perl's `>` does.
      if (m.score > best) {
        best = m.score;
        hit = m.hit;
        modelCount = m.modelCount;
        peerCount = m.peerCount;
      }
    }
  } else {
    for (const m of perModel) {
      hit += m.hit;
      modelCount += m.modelCount;
      peerCount += m.peerCount;
    }
  }
  const recall = perlFixed5(modelCount !== 0 ? inverse(hit / modelCount) : 0);
  const precision = perlFixed5(peerCount !== 0 ? inverse(hit / peerCount) : 0);
  const r = Number(recall);
  const p = Number(precision);
  const denominator = (1 - alpha) * p + alpha * r;
  const fmeasure = perlFixed5(denominator > 0 ? (p * r) / denominator : 0);
  return { hit, modelCount, peerCount, recall, precision, fmeasure };
}

/** `ngramScore`'s recall (ROUGE-N/S/BE's `-f B` score): rounded with `%07.5f`, 0 without model units. */
export function roundedRecall(hit: number, modelCount: number): number {
  return modelCount !== 0 ? perlRound5Fast(hit / modelCount) : 0;
}
