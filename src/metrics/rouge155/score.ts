/**
 * A unit's per-model statistics as ROUGE-1.5.5 gathers them before combining the models (the combination itself,
 * `-f A`/`-f B` and the `%7.5f` rounding of R, P and F, is the row kernel's: src/wasm/rouge-rows.ts), and the rounded recall that
 * `-f B` compares.
 */
import { perlRound5 } from '../../wasm/rouge-rows.js';

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

/** `ngramScore`'s recall (ROUGE-N/S/BE's `-f B` score): rounded with `%07.5f`, 0 without model units. */
export function roundedRecall(hit: number, modelCount: number): number {
  return modelCount !== 0 ? perlRound5(hit / modelCount) : 0;
}
