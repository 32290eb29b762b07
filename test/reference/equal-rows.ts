/**
 * Plain oracle of the equal rows of n-best statistics (src/wasm/task-rows.ts `equalRows`, the kernel
 * `assembly/row-hash.ts`): rows compared value by value as duplicate removal compares them (-0 equals 0, any NaN
 * equals any NaN), each row's latest earlier equal row found by a scan.
 */

/** Whether rows `i` and `j` of `stats` (`width` numbers a row) are equal value for value. */
export function sameRow(stats: ArrayLike<number>, width: number, i: number, j: number): boolean {
  for (let k = 0; k < width; k++) {
    const a = stats[i * width + k];
    const b = stats[j * width + k];
    if (!(a === b || (Number.isNaN(a) && Number.isNaN(b)))) return false;
  }
  return true;
}

/** For each row of `from .. to`, the latest earlier row of the range equal to it (-1 for none), relative to `from`. */
export function equalRowLinks(stats: ArrayLike<number>, width: number, from: number, to: number): number[] {
  const links: number[] = [];
  for (let i = from; i < to; i++) {
    let link = -1;
    for (let j = i - 1; j >= from && link < 0; j--) if (sameRow(stats, width, i, j)) link = j - from;
    links.push(link);
  }
  return links;
}
