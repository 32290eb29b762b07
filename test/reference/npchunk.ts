/**
 * Reference implementation (oracle) of the NP-chunk metric (src/metrics/npchunk/npchunk.ts, seed 003 §2): plain string
 * arrays and tables of objects, written from the paper's equations and Palette's documented readings, slow on
 * purpose. Property tests compare the flat implementation against it, and {@link bestRouteBruteForce} (every common
 * subsequence enumerated) checks that the route search finds the best (LCS, RS).
 *
 * Rules followed (the same as the flat code's documentation):
 * - NP similarity: γ-F of match/|h| and match/|r| (match = multiset intersection); a pair corresponds when its
 *   similarity is > 0 and the maximum of its row and its column; each phrase takes the first such free partner.
 * - Route choice: maximum LCS length, then maximum RS = Σ_runs (Σ weights)^β, runs maximal and adjacent in the
 *   original sentences; weight 2 for a pair inside one corresponding NP pair, else 1. Ties between routes: at cell
 *   (i, j) prefer skipping hypothesis word i, then reference word j, then the shortest final run.
 * - Rounds: remove matched words, repeat until LCS 0 or after round RN; round i adds α^i Σ_runs length^β.
 * - Word level R/P = (S / len^β)^{1/β}; several references: maxima of R and P; score_wd = γ-F.
 * - Phrase level: labels per NP (shared by a corresponding pair), the same rounds with unit weights,
 *   R_np = (S / (cnp·√max(1, m_no))^β)^{1/β}, P_np likewise; 0 without corresponding NPs; mean over references.
 * - Final: (score_wd + δ·score_np)/(1 + δ).
 */

/** Parameters. */
export interface NpChunkRefParams {
  alpha: number;
  beta: number;
  /** Last round counted; undefined = all. */
  rounds?: number;
  delta: number;
}

/** A chunked sentence: words and NP spans `[start, end)`. */
export interface RefSentence {
  words: string[];
  nps: [number, number][];
}

/** Eq. 5's F with γ = P/R (0 when either is 0). */
export function gammaFRef(r: number, p: number): number {
  if (r === 0 || p === 0) return 0;
  const g2 = (p / r) ** 2;
  return ((1 + g2) * r * p) / (r + g2 * p);
}

function bagMatch(a: string[], b: string[]): number {
  const left = [...b];
  let match = 0;
  for (const w of a) {
    const at = left.indexOf(w);
    if (at >= 0) {
      left.splice(at, 1);
      match++;
    }
  }
  return match;
}

/** Corresponding NPs: `hypPartner[x]` = index of the reference NP, or −1. */
export function correspondenceRef(hyp: RefSentence, ref: RefSentence): { hypPartner: number[]; refPartner: number[] } {
  const h = hyp.nps.map(([s, e]) => hyp.words.slice(s, e));
  const r = ref.nps.map(([s, e]) => ref.words.slice(s, e));
  const sim = h.map((hw) =>
    r.map((rw) => {
      const match = bagMatch(hw, rw);
      return match === 0 ? 0 : gammaFRef(match / rw.length, match / hw.length);
    }),
  );
  const rowMax = sim.map((row) => Math.max(0, ...row));
  const colMax = r.map((_, y) => Math.max(0, ...h.map((_, x) => sim[x][y])));
  const hypPartner = h.map(() => -1);
  const refPartner = r.map(() => -1);
  h.forEach((_, x) => {
    for (let y = 0; y < r.length; y++) {
      const s = sim[x][y];
      if (s > 0 && s === rowMax[x] && s === colMax[y] && refPartner[y] < 0) {
        hypPartner[x] = y;
        refPartner[y] = x;
        return;
      }
    }
  });
  return { hypPartner, refPartner };
}

/** One round's trace. */
export interface RoundRef {
  lcs: number;
  routeScore: number;
  sum: number;
}

/**
 * The rounds of common parts of `a` against `b` (items compared with ===), `weight(i, j)` the weight of a matched
 * pair in the route score.
 */
export function commonPartRoundsRef(
  a: readonly (string | number)[],
  b: readonly (string | number)[],
  weight: (i: number, j: number) => number,
  params: NpChunkRefParams,
): { total: number; rounds: RoundRef[] } {
  const n = a.length;
  const m = b.length;
  const usedA = a.map(() => false);
  const usedB = b.map(() => false);
  const rounds: RoundRef[] = [];
  let total = 0;
  const last = params.rounds ?? Infinity;
  for (let round = 0; round <= last; round++) {
    const match = (i: number, j: number) => !usedA[i] && !usedB[j] && a[i] === b[j];
    type Cell = { len: number; rs: number; choice: number };
    const t: Cell[][] = [];
    for (let i = 0; i <= n; i++) {
      t.push([]);
      for (let j = 0; j <= m; j++) {
        if (i === 0 || j === 0) {
          t[i].push({ len: 0, rs: 0, choice: 0 });
          continue;
        }
        let best: Cell = { len: t[i - 1][j].len, rs: t[i - 1][j].rs, choice: 0 };
        const up = t[i][j - 1];
        if (up.len > best.len || (up.len === best.len && up.rs > best.rs)) best = { len: up.len, rs: up.rs, choice: -1 };
        let w = 0;
        for (let k = 1; i - k >= 0 && j - k >= 0 && match(i - k, j - k); k++) {
          w += weight(i - k, j - k);
          const p = t[i - k][j - k];
          const len = p.len + k;
          const rs = p.rs + Math.pow(w, params.beta);
          if (len > best.len || (len === best.len && rs > best.rs)) best = { len, rs, choice: k };
        }
        t[i].push(best);
      }
    }
    const lcs = t[n][m].len;
    if (lcs === 0) break;
    // Traceback: the matched pairs, right to left.
    const pairs: [number, number][] = [];
    let i = n;
    let j = m;
    while (i > 0 && j > 0) {
      const c = t[i][j].choice;
      if (c === 0) i--;
      else if (c < 0) j--;
      else {
        for (let s = 1; s <= c; s++) pairs.push([i - s, j - s]);
        i -= c;
        j -= c;
      }
    }
    for (const [x, y] of pairs) {
      usedA[x] = true;
      usedB[y] = true;
    }
    // Maximal runs, right to left (the order the flat code sums them in).
    let sum = 0;
    let run = 0;
    pairs.forEach(([x, y], k) => {
      if (k > 0 && pairs[k - 1][0] === x + 1 && pairs[k - 1][1] === y + 1) run++;
      else {
        if (run > 0) sum += Math.pow(run, params.beta);
        run = 1;
      }
    });
    if (run > 0) sum += Math.pow(run, params.beta);
    const roundSum = Math.pow(params.alpha, round) * sum;
    rounds.push({ lcs, routeScore: t[n][m].rs, sum: roundSum });
    total += roundSum;
  }
  return { total, rounds };
}

/**
 * The best (LCS length, RS) over every common subsequence of `a` and `b`, by enumeration (tiny inputs only).
 */
export function bestRouteBruteForce(
  a: readonly (string | number)[],
  b: readonly (string | number)[],
  weight: (i: number, j: number) => number,
  beta: number,
): { lcs: number; routeScore: number } {
  let best = { lcs: 0, routeScore: 0 };
  const route: [number, number][] = [];
  const score = () => {
    let rs = 0;
    let w = 0;
    route.forEach(([x, y], k) => {
      if (k > 0 && route[k - 1][0] === x - 1 && route[k - 1][1] === y - 1) w += weight(x, y);
      else {
        if (w > 0) rs += Math.pow(w, beta);
        w = weight(x, y);
      }
    });
    return w > 0 ? rs + Math.pow(w, beta) : rs;
  };
  const visit = (i0: number, j0: number) => {
    const rs = score();
    if (route.length > best.lcs || (route.length === best.lcs && rs > best.routeScore)) best = { lcs: route.length, routeScore: rs };
    for (let i = i0; i < a.length; i++) {
      for (let j = j0; j < b.length; j++) {
        if (a[i] !== b[j]) continue;
        route.push([i, j]);
        visit(i + 1, j + 1);
        route.pop();
      }
    }
  };
  visit(0, 0);
  return best;
}

/** Word-level R or P. */
function ratio(sum: number, len: number, beta: number): number {
  return len === 0 ? 0 : Math.pow(sum / Math.pow(len, beta), 1 / beta);
}

/** Sentence values of the NP-chunk metric (`useNps` false: IMPACT). */
export function npChunkSentenceRef(
  hyp: RefSentence,
  refs: RefSentence[],
  params: NpChunkRefParams,
  useNps = true,
): { score: number; wordScore: number; phraseScore: number; wordRecall: number; wordPrecision: number } {
  let bestR = 0;
  let bestP = 0;
  let phraseTotal = 0;
  for (const ref of refs) {
    let weight = (_i: number, _j: number) => 1;
    if (useNps) {
      const { hypPartner, refPartner } = correspondenceRef(hyp, ref);
      const npOf = (nps: [number, number][], k: number) => nps.findIndex(([s, e]) => s <= k && k < e);
      weight = (i, j) => {
        const x = npOf(hyp.nps, i);
        const y = npOf(ref.nps, j);
        return x >= 0 && y >= 0 && hypPartner[x] === y ? 2 : 1;
      };
      const common = hypPartner.filter((y) => y >= 0).length;
      if (common > 0) {
        const labelsA = hypPartner.map((y, x) => (y >= 0 ? `c${y}` : `h${x}`));
        const labelsB = refPartner.map((x, y) => (x >= 0 ? `c${y}` : `r${y}`));
        const s = commonPartRoundsRef(labelsA, labelsB, () => 1, params).total;
        const b = params.beta;
        const r = Math.pow(s / Math.pow(common * Math.sqrt(Math.max(1, ref.nps.length - common)), b), 1 / b);
        const p = Math.pow(s / Math.pow(common * Math.sqrt(Math.max(1, hyp.nps.length - common)), b), 1 / b);
        phraseTotal += gammaFRef(r, p);
      }
    }
    const sum = commonPartRoundsRef(hyp.words, ref.words, weight, params).total;
    bestR = Math.max(bestR, ratio(sum, ref.words.length, params.beta));
    bestP = Math.max(bestP, ratio(sum, hyp.words.length, params.beta));
  }
  const wordScore = gammaFRef(bestR, bestP);
  const phraseScore = useNps && refs.length > 0 ? phraseTotal / refs.length : 0;
  const score = useNps ? (wordScore + params.delta * phraseScore) / (1 + params.delta) : wordScore;
  return { score, wordScore, phraseScore, wordRecall: bestR, wordPrecision: bestP };
}
