/**
 * Reference implementations (oracles) of the ROUGE kernels of `src/wasm/rouge.ts`: plain dynamic programs written
 * from the definitions, slow on purpose (full tables, string keys, one array per row). Property tests assert that
 * the kernels give exactly these values.
 *
 * - LCS: the O(mn) table with the reference as rows. Hits are traced twice, once the way ROUGE-1.5.5 does it
 *   (`lcs_inner` stores an arrow per cell while filling the table, `markLCS` follows them back) and once the way
 *   rouge-score does it (`_backtrack_norec` re-reads the finished table); tests check that the two agree.
 * - WLCS: ROUGE-1.5.5's `wlcs_inner` table (`(c + f(k+1)) - f(k)` on equal tokens, "up" when c[i-1][j] >= c[i][j-1])
 *   with its arrows, the traced mask, Σ f(run) over the mask's runs left to right, and the table's value c[m][n].
 *   f is a parameter so that tests can use the kernels' own `pow` and compare bit for bit.
 * - Skip-bigrams: every unit of each side in a Map, hits = Σ min(counts).
 */
import type { Csr } from '../../src/text/csr.js';
import type {
  PairRows, RougeBatch, SentenceUnits, SkipBigramOptions, UnionMasks,
} from '../../src/wasm/rouge.js';

/** Sequence `i` of a CSR store as a plain array. */
export function rowOf(csr: Csr, i: number): number[] {
  return Array.from(csr.tokens.subarray(csr.offsets[i], csr.offsets[i + 1]));
}

/** Row offsets of a pair batch: one row per (hypothesis, reference of its segment). */
function pairRowOffsets(batch: RougeBatch): Int32Array {
  const nHyps = batch.hyps.offsets.length - 1;
  const rowOffsets = new Int32Array(nHyps + 1);
  for (let h = 0; h < nHyps; h++) {
    const s = batch.hypSegment === null ? h : batch.hypSegment[h];
    rowOffsets[h + 1] = rowOffsets[h] + batch.segRefOffsets[s + 1] - batch.segRefOffsets[s];
  }
  return rowOffsets;
}

/** Calls `f(hypothesis, reference)` for every pair of a batch in row order. */
function forEachPair(batch: RougeBatch, f: (hyp: number[], ref: number[]) => void): void {
  const nHyps = batch.hyps.offsets.length - 1;
  for (let h = 0; h < nHyps; h++) {
    const s = batch.hypSegment === null ? h : batch.hypSegment[h];
    const hyp = rowOf(batch.hyps, h);
    for (let r = batch.segRefOffsets[s]; r < batch.segRefOffsets[s + 1]; r++) f(hyp, rowOf(batch.refs, r));
  }
}

/** The LCS table: c[i][j] = LCS length of ref[0 .. i] and hyp[0 .. j]. */
export function lcsTable(ref: readonly number[], hyp: readonly number[]): number[][] {
  const c = Array.from({ length: ref.length + 1 }, () => new Array<number>(hyp.length + 1).fill(0));
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= hyp.length; j++) {
      c[i][j] = ref[i - 1] === hyp[j - 1] ? c[i - 1][j - 1] + 1 : Math.max(c[i - 1][j], c[i][j - 1]);
    }
  }
  return c;
}

/** LCS length of every pair of a batch. */
export function lcsLengths(batch: RougeBatch): PairRows<Int32Array> {
  const rowOffsets = pairRowOffsets(batch);
  const rows = new Int32Array(rowOffsets[rowOffsets.length - 1]);
  let at = 0;
  forEachPair(batch, (hyp, ref) => {
    rows[at++] = lcsTable(ref, hyp)[ref.length][hyp.length];
  });
  return { rows, rowOffsets };
}

/** Arrows of a traceback table. */
type Arrow = 'diagonal' | 'up' | 'left';

/** Follows arrows back from (m, n) and returns the reference positions of the diagonal steps, ascending. */
function followArrows(arrows: Arrow[][], m: number, n: number): number[] {
  const hits: number[] = [];
  let i = m;
  let j = n;
  while (i > 0 && j > 0) {
    const arrow = arrows[i][j];
    if (arrow === 'diagonal') {
      i--;
      j--;
      hits.unshift(i);
    } else if (arrow === 'up') {
      i--;
    } else {
      j--;
    }
  }
  return hits;
}

/** ROUGE-1.5.5's LCS hits: the arrow of each cell is chosen while the table is filled, then followed back. */
export function lcsHitsRouge155(ref: readonly number[], hyp: readonly number[]): number[] {
  const m = ref.length;
  const n = hyp.length;
  const c = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
  const arrows = Array.from({ length: m + 1 }, () => new Array<Arrow>(n + 1).fill('left'));
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      if (ref[i - 1] === hyp[j - 1]) {
        c[i][j] = c[i - 1][j - 1] + 1;
        arrows[i][j] = 'diagonal';
      } else if (c[i - 1][j] >= c[i][j - 1]) {
        c[i][j] = c[i - 1][j];
        arrows[i][j] = 'up';
      } else {
        c[i][j] = c[i][j - 1];
        arrows[i][j] = 'left';
      }
    }
  }
  return followArrows(arrows, m, n);
}

/** rouge-score's LCS hits: the finished table is read back (left only when c[i][j-1] > c[i-1][j]). */
export function lcsHitsRougeScore(ref: readonly number[], hyp: readonly number[]): number[] {
  const t = lcsTable(ref, hyp);
  const hits: number[] = [];
  let i = ref.length;
  let j = hyp.length;
  while (i > 0 && j > 0) {
    if (ref[i - 1] === hyp[j - 1]) {
      hits.unshift(i - 1);
      i--;
      j--;
    } else if (t[i][j - 1] > t[i - 1][j]) {
      j--;
    } else {
      i--;
    }
  }
  return hits;
}

/** Union masks of summary units from a per-pair hit tracer. */
function unionMasks(input: SentenceUnits, hitsOf: (ref: number[], hyp: number[]) => number[]): UnionMasks {
  const { hyps, refs, units } = input;
  const nUnits = units.length / 4;
  const maskOffsets = new Int32Array(nUnits + 1);
  for (let u = 0; u < nUnits; u++) {
    maskOffsets[u + 1] = maskOffsets[u] + refs.offsets[units[4 * u + 1]] - refs.offsets[units[4 * u]];
  }
  const masks = new Uint8Array(maskOffsets[nUnits]);
  let at = 0;
  for (let u = 0; u < nUnits; u++) {
    for (let r = units[4 * u]; r < units[4 * u + 1]; r++) {
      const ref = rowOf(refs, r);
      for (let h = units[4 * u + 2]; h < units[4 * u + 3]; h++) {
        for (const i of hitsOf(ref, rowOf(hyps, h))) masks[at + i] = 1;
      }
      at += ref.length;
    }
  }
  return { masks, maskOffsets };
}

/** LCS union masks, traced as ROUGE-1.5.5 (`rouge155`) or rouge-score (`rouge-score`) traces them. */
export function lcsUnionMasks(input: SentenceUnits, flavor: 'rouge155' | 'rouge-score' = 'rouge155'): UnionMasks {
  return unionMasks(input, flavor === 'rouge155' ? lcsHitsRouge155 : lcsHitsRougeScore);
}

/** What ROUGE-1.5.5's WLCS gives for one (reference, hypothesis) pair. */
export interface WlcsPair {
  /** Σ f(run) over the runs of consecutive marked reference positions, left to right. */
  readonly hitWeight: number;
  /** Marked reference positions. */
  readonly hits: number;
  /** c[m][n]: the textbook WLCS value. */
  readonly wlcs: number;
  /** The marked reference positions, ascending. */
  readonly marked: number[];
}

/** ROUGE-1.5.5's `wlcs_inner` + `markLCS` for one pair, with weighting function f. */
export function wlcsPair(ref: readonly number[], hyp: readonly number[], f: (k: number) => number): WlcsPair {
  const m = ref.length;
  const n = hyp.length;
  if (m === 0 || n === 0) return { hitWeight: 0, hits: 0, wlcs: 0, marked: [] };
  const c = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
  const l = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
  const arrows = Array.from({ length: m + 1 }, () => new Array<Arrow>(n + 1).fill('left'));
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      if (ref[i - 1] === hyp[j - 1]) {
        const k = l[i - 1][j - 1];
        c[i][j] = c[i - 1][j - 1] + f(k + 1) - f(k);
        l[i][j] = k + 1;
        arrows[i][j] = 'diagonal';
      } else if (c[i - 1][j] >= c[i][j - 1]) {
        c[i][j] = c[i - 1][j];
        arrows[i][j] = 'up';
      } else {
        c[i][j] = c[i][j - 1];
        arrows[i][j] = 'left';
      }
    }
  }
  const marked = followArrows(arrows, m, n);
  const mask = new Array<boolean>(m).fill(false);
  for (const i of marked) mask[i] = true;
  let hitWeight = 0;
  let run = 0;
  for (let i = 0; i < m; i++) {
    if (!mask[i]) continue;
    run++;
    if (i + 1 === m || !mask[i + 1]) {
      hitWeight += f(run);
      run = 0;
    }
  }
  return { hitWeight, hits: marked.length, wlcs: c[m][n], marked };
}

/** WLCS rows `[hitWeight, hits, wlcs]` of every pair of a batch. */
export function wlcsPairStats(batch: RougeBatch, f: (k: number) => number): PairRows<Float64Array> {
  const rowOffsets = pairRowOffsets(batch);
  const rows = new Float64Array(3 * rowOffsets[rowOffsets.length - 1]);
  let at = 0;
  forEachPair(batch, (hyp, ref) => {
    const p = wlcsPair(ref, hyp, f);
    rows.set([p.hitWeight, p.hits, p.wlcs], at);
    at += 3;
  });
  return { rows, rowOffsets };
}

/** WLCS union masks of summary units. */
export function wlcsUnionMasks(input: SentenceUnits, f: (k: number) => number): UnionMasks {
  return unionMasks(input, (ref, hyp) => wlcsPair(ref, hyp, f).marked);
}

/** The skip-bigram units of a sequence with their counts (keys: `a,b` for pairs, `a` for unigrams). */
export function skipBigramUnits(tokens: readonly number[], options: SkipBigramOptions): Map<string, number> {
  const { maxGap, unigrams = 'none' } = options;
  const units = new Map<string, number>();
  const add = (key: string): void => {
    units.set(key, (units.get(key) ?? 0) + 1);
  };
  const n = tokens.length;
  for (let i = 0; i < n; i++) {
    if (unigrams === 'all' || (unigrams === 'rouge155' && i < n - 1)) add(`${tokens[i]}`);
    for (let j = i + 1; j < n && (maxGap < 0 || j <= i + maxGap + 1); j++) add(`${tokens[i]},${tokens[j]}`);
  }
  return units;
}

/** Skip-bigram rows `[hits, hypUnits, refUnits]` of every pair of a batch. */
export function skipBigramCounts(batch: RougeBatch, options: SkipBigramOptions): PairRows<Float64Array> {
  const rowOffsets = pairRowOffsets(batch);
  const rows = new Float64Array(3 * rowOffsets[rowOffsets.length - 1]);
  const total = (units: Map<string, number>): number => {
    let sum = 0;
    for (const c of units.values()) sum += c;
    return sum;
  };
  let at = 0;
  forEachPair(batch, (hyp, ref) => {
    const h = skipBigramUnits(hyp, options);
    const r = skipBigramUnits(ref, options);
    let hits = 0;
    for (const [key, c] of h) hits += Math.min(c, r.get(key) ?? 0);
    rows.set([hits, total(h), total(r)], at);
    at += 3;
  });
  return { rows, rowOffsets };
}

/** Occurrences of each token of some sentences. */
function tokenCounts(sentences: readonly (readonly number[])[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const s of sentences) for (const t of s) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/**
 * Summary-level LCS hits of one reference summary as ROUGE-1.5.5 (`lcs`) and rouge-score (`_summary_level_lcs`)
 * count them from the union masks of its sentences: a marked token counts while both summaries still have an
 * unused occurrence of it (whole-summary unigram counts, decremented on use), sentence by sentence, left to right.
 * `masks` holds the reference sentences' masks back to back (as a unit's `UnionMasks` slice).
 */
export function clippedUnionHits(
  refSentences: readonly (readonly number[])[], masks: ArrayLike<number>, hypSentences: readonly (readonly number[])[],
): number {
  const refCounts = tokenCounts(refSentences);
  const hypCounts = tokenCounts(hypSentences);
  let hits = 0;
  let at = 0;
  for (const sentence of refSentences) {
    for (const t of sentence) {
      if (masks[at++] && (refCounts.get(t) ?? 0) > 0 && (hypCounts.get(t) ?? 0) > 0) {
        hits++;
        refCounts.set(t, refCounts.get(t)! - 1);
        hypCounts.set(t, hypCounts.get(t)! - 1);
      }
    }
  }
  return hits;
}

/**
 * Summary-level ROUGE-W hit of one model summary as ROUGE-1.5.5 (`wlcs`) computes it from the union WLCS masks:
 * the clipping of {@link clippedUnionHits}, and f(run) added at a counted position whose next position is unmarked
 * or ends the sentence. A run therefore goes on over marked positions that fail the clipping, and a run whose last
 * counted position is followed by such positions up to the end of the sentence is never added — ROUGE-1.5.5's
 * behaviour, kept here.
 */
export function rouge155WlcsHit(
  modelSentences: readonly (readonly number[])[], masks: ArrayLike<number>,
  peerSentences: readonly (readonly number[])[], f: (k: number) => number,
): number {
  const modelCounts = tokenCounts(modelSentences);
  const peerCounts = tokenCounts(peerSentences);
  let hit = 0;
  let at = 0;
  for (const sentence of modelSentences) {
    let run = 0;
    for (let j = 0; j < sentence.length; j++) {
      const t = sentence[j];
      if (!masks[at + j] || !((modelCounts.get(t) ?? 0) > 0 && (peerCounts.get(t) ?? 0) > 0)) continue;
      run++;
      if (j + 1 === sentence.length || !masks[at + j + 1]) {
        hit += f(run);
        run = 0;
      }
      modelCounts.set(t, modelCounts.get(t)! - 1);
      peerCounts.set(t, peerCounts.get(t)! - 1);
    }
    at += sentence.length;
  }
  return hit;
}
