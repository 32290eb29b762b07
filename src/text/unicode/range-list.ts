/**
 * Helpers over the generated range tables: flat, sorted lists of inclusive [start, end] code point pairs.
 */

/** Whether code point `cp` lies in one of the ranges of `list` (binary search). */
export function inRangeList(list: readonly number[], cp: number): boolean {
  let lo = 0;
  let hi = (list.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < list[2 * mid]) hi = mid - 1;
    else if (cp > list[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/**
 * The body of a `u`-flag RegExp character class (without the brackets) matching exactly the code points of
 * `list`, so a regex built from it follows our tables rather than the runtime's Unicode version.
 */
export function rangeListToClass(list: readonly number[]): string {
  const esc = (cp: number): string => `\\u{${cp.toString(16)}}`;
  let out = '';
  for (let i = 0; i < list.length; i += 2) {
    out += list[i] === list[i + 1] ? esc(list[i]) : `${esc(list[i])}-${esc(list[i + 1])}`;
  }
  return out;
}

/** A byte per code point below `limit`: 1 where `list` contains it (a constant-time test for hot loops). */
export function rangeListToBitmap(list: readonly number[], limit: number): Uint8Array {
  const map = new Uint8Array(limit);
  for (let i = 0; i < list.length; i += 2) {
    if (list[i] >= limit) break;
    map.fill(1, list[i], Math.min(list[i + 1] + 1, limit));
  }
  return map;
}
