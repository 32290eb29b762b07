/**
 * A word-level Levenshtein alignment with its operations, for `palette score -m wer -d`. The `Wer` metric reports
 * only counts (its kernel keeps no trace), so the listing recomputes one alignment of the line against the reference
 * the metric chose. The common prefix and suffix are matches; the trace of what lies between is read back from the end of
 * its cost matrix preferring a deletion, then a substitution, then an insertion, then a match — what RapidFuzz's
 * `editops` gives, so that the split into substitutions, deletions and insertions is jiwer's (test/cli-edit-metrics.test.ts checks it
 * against the metric's own counts on every jiwer golden line of the fixture). Display only: no score depends on it.
 */
import { TerOp } from '../ter/alignment.js';

/**
 * The operations turning `hyp` into `ref`, left to right, as {@link TerOp} codes (`Ins` a hypothesis word with no
 * reference counterpart, `Del` a reference word the hypothesis lacks), with a minimal number of edits.
 */
export function alignWords(hyp: readonly string[], ref: readonly string[]): Uint8Array {
  // RapidFuzz matches the common prefix and suffix first; the trace covers what lies between.
  let prefix = 0;
  while (prefix < hyp.length && prefix < ref.length && hyp[prefix] === ref[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < hyp.length - prefix &&
    suffix < ref.length - prefix &&
    hyp[hyp.length - 1 - suffix] === ref[ref.length - 1 - suffix]
  ) {
    suffix++;
  }
  const m = ref.length - prefix - suffix;
  const n = hyp.length - prefix - suffix;
  const r = (i: number): string => ref[prefix + i];
  const h = (j: number): string => hyp[prefix + j];
  const w = n + 1;
  // cost[i·w + j]: distance of the middles' first i reference and j hypothesis words. Lines are short.
  const cost = new Int32Array((m + 1) * w);
  for (let j = 0; j <= n; j++) cost[j] = j;
  for (let i = 1; i <= m; i++) {
    cost[i * w] = i;
    for (let j = 1; j <= n; j++) {
      const diagonal = cost[(i - 1) * w + j - 1] + (r(i - 1) === h(j - 1) ? 0 : 1);
      cost[i * w + j] = Math.min(diagonal, cost[(i - 1) * w + j] + 1, cost[i * w + j - 1] + 1);
    }
  }
  const ops: number[] = new Array<number>(suffix).fill(TerOp.Match);
  let i = m;
  let j = n;
  // Backwards, preferring a deletion, then a substitution, then an insertion, then a match.
  while (i > 0 || j > 0) {
    const here = cost[i * w + j];
    const same = i > 0 && j > 0 && r(i - 1) === h(j - 1);
    if (i > 0 && cost[(i - 1) * w + j] + 1 === here) {
      ops.push(TerOp.Del);
      i--;
    } else if (i > 0 && j > 0 && !same && cost[(i - 1) * w + j - 1] + 1 === here) {
      ops.push(TerOp.Sub);
      i--;
      j--;
    } else if (j > 0 && cost[i * w + j - 1] + 1 === here) {
      ops.push(TerOp.Ins);
      j--;
    } else {
      ops.push(TerOp.Match);
      i--;
      j--;
    }
  }
  for (let k = 0; k < prefix; k++) ops.push(TerOp.Match);
  return Uint8Array.from(ops.reverse());
}
