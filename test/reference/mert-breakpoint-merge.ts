/**
 * Plain oracle of the breakpoint merge of the MERT line search (src/tuning/mert/breakpoints.ts; Moses'
 * `Optimizer::LineOptimize`, its `thresholdmap`): an ordered map from x to the list of changes (sentence, new
 * 1-best row), filled sentence by sentence as Moses fills it, with plain arrays and a Map. Keys are as a Map
 * keeps them (−0 as +0).
 */

const FLT_MAX = 3.4028234663852886e38;
const f32 = Math.fround;
const MIN_INTERVAL = f32(0.0001);

/** One sentence's envelope walk: its changes, in walk order (x, new row). */
export interface SentenceSteps {
  readonly xs: readonly number[];
  readonly rows: readonly number[];
}

/** The merged map: its x in increasing order, each with its changes as [sentence, row] pairs. */
export function plainBreakpointMerge(sentences: readonly SentenceSteps[]): { keys: number[]; changes: [number, number][][] } {
  const map = new Map<number, [number, number][]>();
  map.set(-FLT_MAX, []);
  sentences.forEach(({ xs, rows }, s) => {
    let prevKey = -FLT_MAX;
    for (let k = 0; k < xs.length; k++) {
      const x = xs[k];
      const change: [number, number] = [s, rows[k]];
      const prev = map.get(prevKey)!;
      if (f32(x - prevKey) < MIN_INTERVAL) {
        // Too close to the sentence's previous breakpoint: its whole list goes to x, after what is already
        // there, and the sentence's last change becomes this one.
        if (x !== prevKey) {
          const there = map.get(x);
          map.delete(prevKey);
          if (there === undefined) map.set(x, prev);
          else there.push(...prev.splice(0));
          prevKey = x;
        }
        // The list ends with the sentence's own change, but for the list at −FLT_MAX, which only a walk reaching
        // x = −FLT_MAX touches (Moses stops there with an error): only the row is replaced.
        const list = map.get(prevKey)!;
        if (list.length > 0) list[list.length - 1] = [list[list.length - 1][0], rows[k]];
      } else {
        const there = map.get(x);
        if (there === undefined) map.set(x, [change]);
        else if (there.length > 0 && there[there.length - 1][0] === s) there[there.length - 1] = change;
        else there.push(change);
        prevKey = x;
      }
    }
  });
  const keys = [...map.keys()].sort((a, b) => a - b);
  return { keys, changes: keys.map((x) => map.get(x)!) };
}
