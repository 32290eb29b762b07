/**
 * Applying one TER block shift (sacreBLEU's `_perform_shift`, which matches tercom's `PerformShift` with
 * `target = newloc + 1`).
 */

/**
 * Writes `words` with the block `words[start, start + length)` moved before index `target` into `out` (same
 * length, distinct from `words`). Three cases, as both oracles have them:
 * - `target < start`: `words[:target] + block + words[target:start] + words[start+length:]`;
 * - `target > start + length`: `words[:start] + words[start+length:target] + block + words[target:]`;
 * - otherwise (a target inside the block or right after it): `words[:start] + words[start+length:length+target]
 *   + block + words[length+target:]`, slices clamped to the array; `target = start` changes nothing and
 *   `target = start + length` swaps the block with the `length` words after it.
 */
export function performShift(words: Int32Array, start: number, length: number, target: number, out: Int32Array): void {
  out.set(words);
  writeShiftWindow(words, start, length, target, out);
}

/**
 * Writes only the part of {@link performShift}'s result that can differ from `words`: `out[from, to)` of
 * {@link shiftSpan}. With `out` a copy of `words`, `out` becomes the shifted words.
 */
export function writeShiftWindow(words: Int32Array, start: number, length: number, target: number, out: Int32Array): void {
  // Plain loops: the windows are short, and views (subarray) would allocate per candidate.
  const end = start + length;
  if (target < start) {
    for (let k = 0; k < length; k++) out[target + k] = words[start + k];
    for (let k = target; k < start; k++) out[k + length] = words[k];
  } else if (target > end) {
    for (let k = end; k < target; k++) out[k - length] = words[k];
    for (let k = 0; k < length; k++) out[target - length + k] = words[start + k];
  } else {
    const after = Math.min(words.length, length + target);
    for (let k = end; k < after; k++) out[start + k - end] = words[k];
    const at = start + after - end;
    for (let k = 0; k < length; k++) out[at + k] = words[start + k];
  }
}

/**
 * The first position at which `performShift(words, start, length, target)` can differ from `words`, and one
 * past the last: the words outside `[from, to)` stay where they were.
 */
export function shiftSpan(n: number, start: number, length: number, target: number): { from: number; to: number } {
  const end = start + length;
  if (target < start) return { from: target, to: end };
  if (target > end) return { from: start, to: target };
  return { from: start, to: Math.min(n, length + target) };
}
