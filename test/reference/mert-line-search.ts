/**
 * Plain oracle of the MERT line search (src/tuning/mert/line-search.ts): no envelopes. Every pairwise intersection
 * of two candidates' lines within a sentence is a possible breakpoint; the objective is evaluated (in double
 * precision, each sentence's 1-best by brute force) at a point inside every interval between consecutive
 * breakpoints and beyond both ends. The best of those is the line's optimum.
 */

/** A line search problem in plain arrays. */
export interface PlainLineProblem {
  /** Per sentence, per candidate: the feature vector. */
  readonly features: number[][][];
  /** Per sentence, per candidate: the statistics row. */
  readonly stats: number[][][];
  readonly score: (totals: Float64Array) => number;
}

const dotOf = (w: readonly number[], f: readonly number[]): number => w.reduce((s, v, i) => s + v * f[i], 0);

/** The objective at `origin + x · direction`: each sentence's candidate of highest model score (first on a tie). */
export function scoreAt(p: PlainLineProblem, origin: readonly number[], direction: readonly number[], x: number): number {
  const width = p.stats[0][0].length;
  const totals = new Float64Array(width);
  const w = origin.map((o, i) => o + x * direction[i]);
  p.features.forEach((cands, s) => {
    let best = 0;
    let bestV = -Infinity;
    cands.forEach((f, j) => {
      const v = dotOf(w, f);
      if (v > bestV) {
        bestV = v;
        best = j;
      }
    });
    p.stats[s][best].forEach((v, c) => (totals[c] += v));
  });
  return p.score(totals);
}

/** Every breakpoint candidate of the line, sorted and distinct. */
export function breakpoints(p: PlainLineProblem, origin: readonly number[], direction: readonly number[]): number[] {
  const xs: number[] = [];
  for (const cands of p.features) {
    const m = cands.map((f) => dotOf(direction, f));
    const b = cands.map((f) => dotOf(origin, f));
    for (let i = 0; i < cands.length; i++) {
      for (let j = i + 1; j < cands.length; j++) {
        if (m[i] !== m[j]) xs.push((b[j] - b[i]) / (m[i] - m[j]));
      }
    }
  }
  return [...new Set(xs)].sort((a, c) => a - c);
}

/** The best score over every interval of the line, and the points evaluated. */
export function bruteForceLineSearch(
  p: PlainLineProblem,
  origin: readonly number[],
  direction: readonly number[],
): { score: number; points: number[] } {
  const xs = breakpoints(p, origin, direction);
  const points: number[] = [];
  if (xs.length === 0) points.push(0);
  else {
    points.push(xs[0] - 1);
    for (let k = 0; k + 1 < xs.length; k++) points.push((xs[k] + xs[k + 1]) / 2);
    points.push(xs[xs.length - 1] + 1);
  }
  let score = -Infinity;
  for (const x of points) score = Math.max(score, scoreAt(p, origin, direction, x));
  return { score, points };
}
