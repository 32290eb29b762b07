/**
 * jiwer 4.0's measures from alignment counts (Morris, Maier & Green 2004, "From WER and RIL to MER and WIL"), with
 * the same IEEE operations in the same order as jiwer's `process_words`, and jiwer 4.0's defined values where a
 * denominator is zero (its README, "A note on empty references", and tests/test_empty_ref.py): an empty reference
 * counts every hypothesis word as an insertion and WER is then the number of edits itself (`wer('', 'a b') == 2`);
 * two empty sides give WER 0, MER 0, WIP 1, WIL 0.
 */

/** The four measures jiwer reports, as fractions. */
export interface JiwerMeasures {
  /** Word error rate (S + D + I) / (H + S + D); the edit count itself when the reference side is empty. */
  readonly wer: number;
  /** Match error rate (S + D + I) / (H + S + D + I); 0 when both sides are empty. */
  readonly mer: number;
  /** Word information lost, 1 − WIP. */
  readonly wil: number;
  /** Word information preserved (H / N_ref) · (H / N_hyp); 1 when both sides are empty, 0 when only one is. */
  readonly wip: number;
}

/** jiwer's measures of pooled counts (one line's or a corpus' hits, substitutions, deletions, insertions). */
export function jiwerMeasures(hits: number, substitutions: number, deletions: number, insertions: number): JiwerMeasures {
  const edits = substitutions + deletions + insertions;
  const refWords = hits + substitutions + deletions;
  const hypWords = hits + substitutions + insertions;
  const wer = refWords > 0 ? edits / refWords : edits;
  const mer = refWords + insertions > 0 ? edits / (refWords + insertions) : 0;
  let wip: number;
  if (refWords > 0 && hypWords > 0) wip = (hits / refWords) * (hits / hypWords);
  else wip = refWords === 0 && hypWords === 0 ? 1 : 0;
  return { wer, mer, wil: 1 - wip, wip };
}
