/**
 * Statistics of every (hypothesis, reference) pair for one ROUGE type and flavor, from the kernels of
 * src/wasm/ngram.ts and src/wasm/rouge.ts. A pair gives four numbers:
 *
 * - `hit`: clipped matches (ROUGE-N/S/SU); the LCS or (clipped) union hits (ROUGE-L, Lsum); Σ f(run) over the
 *   traced masks (ROUGE-W, rouge155); the WLCS value c[m][n] (ROUGE-W, paper);
 * - `hyp`: hypothesis units or tokens; f(tokens) for ROUGE-W;
 * - `ref`: reference units or tokens; f(Σ f(sentence length)) for ROUGE-1.5.5's ROUGE-W, f(m) for the paper's;
 * - `select`: the recall (rouge155 ROUGE-N/S/SU: `%07.5f`-rounded), except ROUGE-1.5.5's ROUGE-W:
 *   f⁻¹(hit / Σ f(sentence length)); 0 unless the multi-reference rule is `best-recall`, the only rule that reads
 *   it (the rounding is a large part of the cost of a pair).
 *
 * Recall and precision are `inverse(hit / ref)` and `inverse(hit / hyp)` (0 for a zero count), `inverse` being
 * f⁻¹ for ROUGE-W and the identity otherwise. `select` is what `best-recall` (ROUGE-1.5.5 `-f B`) compares.
 * Summary-level hits are clipped by the whole-summary unigram counts except in the paper flavor (Lin 2004's union
 * LCS has no clipping). A reference without tokens makes ROUGE-1.5.5's ROUGE-W die; here its pair is all zeros.
 */
import type { Csr } from '../../text/csr.js';
import { perReferenceNgramCounts } from '../../wasm/ngram.js';
import {
  lcsLengths,
  lcsRows,
  lcsUnionMasks,
  skipBigramCounts,
  skipBigramRows,
  wlcsPairStats,
  wlcsUnionMasks,
  wlcsWeight,
  wlcsWeightInverse,
  type RougeBatch,
  type SkipBigramOptions,
} from '../../wasm/rouge.js';
import { roundedRecall } from '../rouge155/score.js';
import { pairRowsBuffer, type RougeRowSettings } from '../../wasm/rouge-rows.js';
import type { ResolvedRougeOptions, RougeFlavor } from './options.js';
import type { RougeType } from './rouge-type.js';
import { clippedLcsHits, rouge155WlcsHitWeight } from './summary-hits.js';
import type { SummaryStore } from './summary-text.js';
import { UnigramBudget } from './unigram-budget.js';

/** Columns of a pair row. */
export const PAIR_WIDTH = 4;

/** Pair rows of a batch (recall and precision are their ratios, through f⁻¹ for ROUGE-W). */
export interface PairStats {
  /**
   * {@link PAIR_WIDTH} numbers per pair, hypothesis-major, references in order: a view of the row kernel's memory
   * (../../wasm/rouge-rows.ts), valid until its next call (reduce them at once).
   */
  readonly rows: Float64Array;
  /** Pairs of hypothesis `h` are `rowOffsets[h] .. rowOffsets[h + 1]`. */
  readonly rowOffsets: Int32Array;
}

const identity = (x: number): number => x;

/** The skip-bigram kernel's options for ROUGE-S/SU in a flavor. */
function skipBigramOptions(type: Extract<RougeType, { kind: 's' }>, flavor: RougeFlavor): SkipBigramOptions {
  return { maxGap: type.maxGap, unigrams: !type.unigrams ? 'none' : flavor === 'rouge155' ? 'rouge155' : 'all' };
}

/**
 * Writes the segment rows of a batch (hypothesis `h` of segment `hypSegment[h]`) straight from a kernel's pair rows,
 * which then never leave WebAssembly memory, where those are the pair rows: ROUGE-S/SU, and ROUGE-L outside the
 * rouge155 flavor (whose ROUGE-L reads sentences), without `best-recall` (the only rule that reads the select
 * column, 0 here). Row `h` goes to `out[h · stride + column ..]`. Returns false, having written nothing, for other
 * options: their pair rows come from {@link rougePairStats}.
 */
export function writeKernelRows(
  hyps: Csr,
  refs: Csr,
  segRefOffsets: Int32Array,
  hypSegment: Int32Array,
  options: ResolvedRougeOptions,
  settings: RougeRowSettings,
  out: Float64Array,
  column: number,
  stride: number,
): boolean {
  const { type, flavor, multiReference } = options;
  if (multiReference === 'best-recall') return false;
  const batch: RougeBatch = { hyps, hypSegment, refs, segRefOffsets };
  if (type.kind === 's') {
    skipBigramRows(batch, skipBigramOptions(type, flavor), settings, out, column, stride);
    return true;
  }
  if (type.kind === 'l' && flavor !== 'rouge155') {
    lcsRows(batch, settings, out, column, stride);
    return true;
  }
  return false;
}

/** Number of ids a vocabulary-indexed scratch array needs for these stores. */
function idBound(...stores: Csr[]): number {
  let max = 0;
  for (const s of stores) {
    const n = s.offsets[s.offsets.length - 1];
    for (let i = 0; i < n; i++) if (s.tokens[i] > max) max = s.tokens[i];
  }
  return max + 1;
}

/** Row offsets of a batch whose hypothesis `h` belongs to segment `hypSegment[h]` (`h` when null). */
function pairOffsets(nHyps: number, segRefOffsets: Int32Array, hypSegment: Int32Array | null): Int32Array {
  const offsets = new Int32Array(nHyps + 1);
  for (let h = 0; h < nHyps; h++) {
    const s = hypSegment === null ? h : hypSegment[h];
    offsets[h + 1] = offsets[h] + segRefOffsets[s + 1] - segRefOffsets[s];
  }
  return offsets;
}

/**
 * Pair rows from count rows of `width` numbers (hit at `hitAt`, hypothesis and reference counts at `hypAt` and
 * `refAt`), select 0: the kernels' outputs become pair rows in one plain loop (no closure per pair), as the
 * fast path needs for its million candidates.
 */
function countPairs(counts: Float64Array, width: number, hitAt: number, hypAt: number, refAt: number, nPairs: number, rows: Float64Array): void {
  for (let p = 0, at = 0, from = 0; p < nPairs; p++, at += PAIR_WIDTH, from += width) {
    rows[at] = counts[from + hitAt];
    rows[at + 1] = counts[from + hypAt];
    rows[at + 2] = counts[from + refAt];
  }
}

/**
 * Pair statistics of hypothesis `h` against the references of segment `s = hypSegment[h]` (`h` when null): rows
 * `segRefOffsets[s] .. segRefOffsets[s + 1]` of `refs` (many hypotheses per segment, as an n-best list has them).
 * With sentence units, reference row `r`'s sentences are `refs.sentenceOffsets[r] .. [r + 1]` whatever the map.
 */
export function rougePairStats(
  hyps: SummaryStore,
  refs: SummaryStore,
  segRefOffsets: Int32Array,
  options: ResolvedRougeOptions,
  hypSegment: Int32Array | null = null,
): PairStats {
  const nHyps = hyps.tokens.offsets.length - 1;
  const rowOffsets = pairOffsets(nHyps, segRefOffsets, hypSegment);
  const nPairs = rowOffsets[nHyps];
  // In the row kernel's memory, where the reduction that follows reads them without a copy.
  const rows = pairRowsBuffer(nHyps, nPairs);
  const batch: RougeBatch = { hyps: hyps.tokens, hypSegment, refs: refs.tokens, segRefOffsets };
  const firstRef = (h: number): number => segRefOffsets[hypSegment === null ? h : hypSegment[h]];
  const { type, flavor } = options;
  const rouge155 = flavor === 'rouge155';
  const set = (pair: number, hit: number, hyp: number, ref: number, select: number): void => {
    const at = pair * PAIR_WIDTH;
    rows[at] = hit;
    rows[at + 1] = hyp;
    rows[at + 2] = ref;
    rows[at + 3] = select;
  };
  const withSelect = options.multiReference === 'best-recall';
  const recall = (hit: number, ref: number): number =>
    (!withSelect ? 0 : rouge155 ? roundedRecall(hit, ref) : ref > 0 ? hit / ref : 0);

  if (!withSelect && type.kind === 'n') {
    // Without `best-recall` the select column stays 0: the counts are copied as they are.
    countPairs(perReferenceNgramCounts(batch, type.n).rows, 3 * type.n, type.n - 1, 2 * type.n - 1, 3 * type.n - 1, nPairs, rows);
    return { rows, rowOffsets };
  }

  if (type.kind === 'n') {
    const n = type.n;
    const counts = perReferenceNgramCounts(batch, n).rows;
    for (let p = 0; p < nPairs; p++) {
      const at = p * 3 * n;
      const hit = counts[at + n - 1];
      const ref = counts[at + 3 * n - 1];
      set(p, hit, counts[at + 2 * n - 1], ref, recall(hit, ref));
    }
    return { rows, rowOffsets };
  }

  if (type.kind === 's') {
    const counts = skipBigramCounts(batch, skipBigramOptions(type, flavor)).rows;
    for (let p = 0; p < nPairs; p++) {
      const hit = counts[3 * p];
      const ref = counts[3 * p + 2];
      set(p, hit, counts[3 * p + 1], ref, recall(hit, ref));
    }
    return { rows, rowOffsets };
  }

  if (type.kind === 'w' && !rouge155) {
    const w = type.weight;
    const f = (x: number): number => wlcsWeight(x, w);
    const inverse = (x: number): number => wlcsWeightInverse(x, w);
    const stats = wlcsPairStats(batch, w).rows;
    for (let h = 0; h < nHyps; h++) {
      const n = hyps.tokens.offsets[h + 1] - hyps.tokens.offsets[h];
      for (let p = rowOffsets[h], r = firstRef(h); p < rowOffsets[h + 1]; p++, r++) {
        const m = refs.tokens.offsets[r + 1] - refs.tokens.offsets[r];
        const hit = stats[3 * p + 2];
        const ref = f(m);
        set(p, hit, f(n), ref, withSelect && ref > 0 ? inverse(hit / ref) : 0);
      }
    }
    return { rows, rowOffsets };
  }

  if (type.kind === 'l' && !rouge155) {
    const lcs = lcsLengths(batch).rows;
    for (let h = 0; h < nHyps; h++) {
      const n = hyps.tokens.offsets[h + 1] - hyps.tokens.offsets[h];
      for (let p = rowOffsets[h], r = firstRef(h); p < rowOffsets[h + 1]; p++, r++) {
        const m = refs.tokens.offsets[r + 1] - refs.tokens.offsets[r];
        set(p, lcs[p], n, m, withSelect && m > 0 ? lcs[p] / m : 0);
      }
    }
    return { rows, rowOffsets };
  }

  return summaryLevel(hyps, refs, firstRef, rowOffsets, rows, options, withSelect, set);
}

/** Union-mask types: summary-level ROUGE-L (all flavors) and ROUGE-1.5.5's ROUGE-L and ROUGE-W. */
function summaryLevel(
  hyps: SummaryStore,
  refs: SummaryStore,
  firstRef: (h: number) => number,
  rowOffsets: Int32Array,
  rows: Float64Array,
  options: ResolvedRougeOptions,
  withSelect: boolean,
  set: (pair: number, hit: number, hyp: number, ref: number, select: number) => void,
): PairStats {
  const hs = hyps.sentences!;
  const hso = hyps.sentenceOffsets!;
  const rs = refs.sentences!;
  const rso = refs.sentenceOffsets!;
  const nHyps = hso.length - 1;
  const nPairs = rowOffsets[nHyps];
  const units = new Int32Array(4 * nPairs);
  for (let h = 0; h < nHyps; h++) {
    for (let p = rowOffsets[h], r = firstRef(h); p < rowOffsets[h + 1]; p++, r++) {
      units[4 * p] = rso[r];
      units[4 * p + 1] = rso[r + 1];
      units[4 * p + 2] = hso[h];
      units[4 * p + 3] = hso[h + 1];
    }
  }
  const { type, flavor } = options;
  const clip = flavor !== 'paper';
  const wlcs = type.kind === 'w';
  const w = wlcs ? type.weight : 1;
  const f = (x: number): number => wlcsWeight(x, w);
  const inverse = wlcs ? (x: number): number => wlcsWeightInverse(x, w) : identity;
  const input = { hyps: hs, refs: rs, units };
  const { masks, maskOffsets } = wlcs ? wlcsUnionMasks(input, w) : lcsUnionMasks(input);
  const bound = clip ? idBound(hyps.tokens, refs.tokens) : 0;
  const refBudget = new UnigramBudget(bound);
  const hypBudget = new UnigramBudget(bound);
  const ht = hyps.tokens;
  const rt = refs.tokens;
  for (let h = 0; h < nHyps; h++) {
    const n = ht.offsets[h + 1] - ht.offsets[h];
    for (let p = rowOffsets[h], r = firstRef(h); p < rowOffsets[h + 1]; p++, r++) {
      const from = rso[r];
      const to = rso[r + 1];
      if (clip) {
        refBudget.fill(rt.tokens, rt.offsets[r], rt.offsets[r + 1]);
        hypBudget.fill(ht.tokens, ht.offsets[h], ht.offsets[h + 1]);
      }
      if (wlcs) {
        // ROUGE-1.5.5: Σ f(|sentence|) in sentence order, f applied to it once more for the model count.
        let base = 0;
        for (let s = from; s < to; s++) base += f(rs.offsets[s + 1] - rs.offsets[s]);
        if (base === 0) {
          set(p, 0, f(n), 0, 0);
          continue;
        }
        const hit = rouge155WlcsHitWeight(rs, from, to, masks, maskOffsets[p], refBudget, hypBudget, f);
        set(p, hit, f(n), f(base), withSelect ? inverse(hit / base) : 0);
        continue;
      }
      const m = rs.offsets[to] - rs.offsets[from];
      let hit = 0;
      if (clip) {
        hit = clippedLcsHits(rs, from, to, masks, maskOffsets[p], refBudget, hypBudget);
      } else {
        for (let i = maskOffsets[p]; i < maskOffsets[p + 1]; i++) hit += masks[i];
      }
      set(p, hit, n, m, withSelect && m > 0 ? hit / m : 0);
    }
  }
  return { rows, rowOffsets };
}
