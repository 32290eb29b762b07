/**
 * Summary-level hits from union masks (the kernels' `lcsUnionMasks` / `wlcsUnionMasks`): the marked reference
 * tokens, sentence by sentence and left to right, each counted only while the whole-summary unigram budgets of
 * both sides allow it (ROUGE-1.5.5's `lcs`/`wlcs` subs, rouge-score's `_summary_level_lcs`).
 */
import type { Csr } from '../../text/csr.js';
import type { UnigramBudget } from './unigram-budget.js';

/**
 * Clipped summary-level LCS hits of one reference summary (sentences `refFrom .. refTo` of `refs`), whose masks
 * are `masks[maskAt ..]` back to back. Spends the budgets.
 */
export function clippedLcsHits(
  refs: Csr,
  refFrom: number,
  refTo: number,
  masks: Uint8Array,
  maskAt: number,
  refBudget: UnigramBudget,
  hypBudget: UnigramBudget,
): number {
  const { tokens, offsets } = refs;
  let hits = 0;
  let at = maskAt;
  for (let i = offsets[refFrom]; i < offsets[refTo]; i++, at++) {
    const t = tokens[i];
    if (masks[at] !== 0 && refBudget.available(t) > 0 && hypBudget.available(t) > 0) {
      hits++;
      refBudget.spend(t);
      hypBudget.spend(t);
    }
  }
  return hits;
}

/**
 * ROUGE-1.5.5's summary-level ROUGE-W hit of one model summary: with the clipping of {@link clippedLcsHits},
 * f(run) is added at a counted position whose next position in the sentence is unmarked, or that ends the
 * sentence. Exactly as the Perl does it, a run goes on across marked positions that fail the clipping, and a run
 * whose last counted position is followed only by such positions up to the end of the sentence is never added.
 * The sum runs left to right (floating-point order matters for the printed counts).
 */
export function rouge155WlcsHitWeight(
  refs: Csr,
  refFrom: number,
  refTo: number,
  masks: Uint8Array,
  maskAt: number,
  refBudget: UnigramBudget,
  hypBudget: UnigramBudget,
  f: (k: number) => number,
): number {
  const { tokens, offsets } = refs;
  let hit = 0;
  let at = maskAt;
  for (let s = refFrom; s < refTo; s++) {
    const start = offsets[s];
    const end = offsets[s + 1];
    let run = 0;
    for (let i = start; i < end; i++, at++) {
      const t = tokens[i];
      if (masks[at] === 0 || !(refBudget.available(t) > 0 && hypBudget.available(t) > 0)) continue;
      run++;
      if (i + 1 === end || masks[at + 1] === 0) {
        hit += f(run);
        run = 0;
      }
      refBudget.spend(t);
      hypBudget.spend(t);
    }
  }
  return hit;
}
