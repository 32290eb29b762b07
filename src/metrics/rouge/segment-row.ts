/**
 * A segment's statistics row from its (hypothesis, reference) pairs: the multi-reference combination of the
 * flavor, optionally jackknifed (Lin & Och 2004 §5), computed by the row kernel (src/wasm/rouge-rows.ts, the one
 * definition of each rule) for every hypothesis of a batch at once.
 *
 * Row columns ({@link ROUGE_STATS_COLUMNS}), documented once here:
 * 0 `hit`, 1 `hyp`, 2 `ref` — the combined counts (summed over references for `pool` and ROUGE-1.5.5's `-f A`,
 *   those of the chosen reference otherwise; of the best-F reference for `max`); ROUGE-W's are weighted (see
 *   ./pair-stats.ts);
 * 3 `precision`, 4 `recall`, 5 `fmeasure` — the segment's scores (rounded to 5 decimals as ROUGE-1.5.5 rounds
 *   them in the rouge155 flavor; jackknife averages when jackknifing);
 * 6 `segments` — 1, so that column sums give the number of segments for averaging.
 */
import type { RougeRowSettings } from '../../wasm/rouge-rows.js';
import type { ResolvedRougeOptions } from './options.js';

/** Names of the row columns. */
export const ROUGE_STATS_COLUMNS = ['hit', 'hyp', 'ref', 'precision', 'recall', 'fmeasure', 'segments'] as const;
/** Width of a row. */
export const ROUGE_STATS_WIDTH = ROUGE_STATS_COLUMNS.length;

/**
 * The row kernel's settings for `options`: ROUGE-1.5.5's `-f B` is `best-recall`, its `-f A` every other rule (it
 * knows only the two); ROUGE-W's ratios go through f⁻¹.
 */
export function rougeRowSettings(options: ResolvedRougeOptions): RougeRowSettings {
  const { flavor, multiReference, weighting, type, jackknife } = options;
  const rule =
    flavor === 'rouge155' ? (multiReference === 'best-recall' ? 'rouge155-B' : 'rouge155-A') : multiReference;
  const param = weighting.form === 'alpha' ? weighting.alpha : weighting.form === 'beta' ? weighting.beta : 0;
  return { rule, form: weighting.form, param, weight: type.kind === 'w' ? type.weight : 0, jackknife };
}
