/**
 * The `lin-och` flavor: smoothed sentence BLEU "BLEUS" (Lin & Och 2004, ORANGE; seed paper 002): one is added to
 * the matched and the total n-gram counts of every order n > 1, the brevity penalty is BLEU's. ORANGE uses
 * BLEUS1 … BLEUS9 (max order 1–9).
 *
 * This is exactly sacrebleu's `add-k` smoothing with k = 1 and effective order off (sacrebleu generalised Chen &
 * Cherry's method 2 from Lin & Och), so the flavor is that configuration of {@link Bleu} and shares its arithmetic,
 * statistics rows and signature (`smooth:add-k[1.00]|eff:no`). Scores are on sacrebleu's 0–100 scale.
 */
import { Bleu, type BleuOptions } from './bleu.js';
import { bleuFromStats, type BleuReduction, type BleuResult } from './bleu-score.js';

/** The BLEUS reduction for max order `n`. */
export function linOchReduction(n: number): BleuReduction {
  return { maxNgramOrder: n, smoothMethod: 'add-k', smoothValue: 1, effectiveOrder: false };
}

/**
 * BLEUS of one statistics row `[hyp_len, ref_len, correct_1..N, total_1..N]` (or column sums), N = `maxNgramOrder`.
 * @param offset index of `hyp_len` in `stats`.
 */
export function linOchBleuFromStats(stats: ArrayLike<number>, maxNgramOrder = 4, offset = 0): BleuResult {
  return bleuFromStats(stats, linOchReduction(maxNgramOrder), offset);
}

/**
 * A {@link Bleu} computing BLEUS-N (default N = 4) at sentence and corpus level.
 * @param options tokenizer, case and order; smoothing and effective order are fixed by the flavor.
 */
export function linOchBleu(options: Omit<BleuOptions, 'smoothMethod' | 'smoothValue' | 'effectiveOrder'> = {}): Bleu {
  return new Bleu({ ...options, smoothMethod: 'add-k', smoothValue: 1, effectiveOrder: false });
}
