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
  const n = words.length;
  const end = start + length;
  if (target < start) {
    out.set(words.subarray(0, target), 0);
    out.set(words.subarray(start, end), target);
    out.set(words.subarray(target, start), target + length);
    out.set(words.subarray(end), end);
  } else if (target > end) {
    out.set(words.subarray(0, start), 0);
    out.set(words.subarray(end, target), start);
    out.set(words.subarray(start, end), target - length);
    out.set(words.subarray(target), target);
  } else {
    const after = Math.min(n, length + target);
    out.set(words.subarray(0, start), 0);
    out.set(words.subarray(end, after), start);
    out.set(words.subarray(start, end), start + after - end);
    out.set(words.subarray(after), after);
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
