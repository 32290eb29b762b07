/**
 * Word boundaries of a line as the NP-chunk metric reads it: maximal runs of non-whitespace (Python `str.split()`,
 * the same split the metric's interning uses), so a chunker's word indices and the metric's tokens agree.
 */
import { TokenBounds } from '../tokenizers/token-bounds.js';
import { scanNone } from '../tokenizers/tokenizer-none.js';

/** Scratch bounds, refilled by every call (the split is sacrebleu's `none` scanner, one copy of the loop). */
const scratch = new TokenBounds();

/**
 * The `[start, end)` code-unit bounds of every word of `line`, flat (`[s0, e0, s1, e1, …]`).
 */
export function wordBounds(line: string): Int32Array {
  scanNone(line, scratch);
  const bounds = new Int32Array(2 * scratch.count);
  for (let k = 0; k < scratch.count; k++) {
    bounds[2 * k] = scratch.start(k);
    bounds[2 * k + 1] = scratch.end(k);
  }
  return bounds;
}
