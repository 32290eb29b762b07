/**
 * Plain oracle of one sentence's envelope walk (src/tuning/mert/line-search.ts `envelope`, Moses'
 * `Optimizer::LineOptimize`): from the line of lowest slope (of those the highest intercept, the first on a tie),
 * every step scans every line of greater slope, computes its intersection with the current line in single
 * precision (a non-finite one is FLT_MAX) and moves to the leftmost; on equal intersections the line of greater
 * slope, then the later one. No prefilter and no shortcut.
 */

const FLT_MAX = 3.4028234663852886e38;
const f32 = Math.fround;

/** The first 1-best (`rows[0]`) and each later change: at `xs[k]`, line `rows[k]` takes over (`xs[0]` unused). */
export function plainEnvelopeWalk(slope: ArrayLike<number>, f0: ArrayLike<number>, begin: number, end: number): { xs: number[]; rows: number[] } {
  let cur = begin;
  for (let j = begin + 1; j < end; j++) {
    if (slope[j] < slope[cur] || (slope[j] === slope[cur] && f0[j] > f0[cur])) cur = j;
  }
  const xs = [NaN];
  const rows = [cur];
  for (;;) {
    let next = -1;
    let nextX = FLT_MAX;
    for (let j = begin; j < end; j++) {
      if (!(slope[j] > slope[cur])) continue;
      let x = f32(f32(f0[j] - f0[cur]) / f32(slope[cur] - slope[j]));
      if (!Number.isFinite(x)) x = FLT_MAX;
      if (x < nextX || (x === nextX && (next < 0 || slope[j] >= slope[next]))) {
        next = j;
        nextX = x;
      }
    }
    if (next < 0) return { xs, rows };
    xs.push(nextX);
    rows.push(next);
    cur = next;
  }
}
