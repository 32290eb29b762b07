/**
 * Reference implementations (oracles) of the edit kernels of `src/wasm/edit.ts` and of the PER statistics: plain
 * programs written from the definitions, slow on purpose (full tables, one array per row, string-keyed maps).
 * Property tests assert that the kernels give exactly these values.
 *
 * - Levenshtein: the textbook O(mn) table D (reference as rows, unit costs).
 * - Alignment (jiwer 4.0's counts, i.e. RapidFuzz's `Levenshtein.editops(reference, hypothesis)`): cut the common
 *   prefix, then the common suffix of what is left; on the middle's table walk back from (m, n): a deletion when
 *   D[i][j] − D[i-1][j] = +1; otherwise step j back and take an insertion when D[i][j] − D[i-1][j] = −1 at the new j
 *   (for j > 0), else step back diagonally (a substitution when the tokens differ). This is RapidFuzz's rule read
 *   on the table instead of its bit vectors; note that it is not "insertion whenever D[i][j-1] + 1 = D[i][j]".
 * - GTM: every diagonal of free hits enumerated cell by cell each round; the longest is taken (smallest hypothesis
 *   start, then smallest reference start, on ties).
 * - PER: multiset intersection of the token lists.
 */
import type { Csr } from '../../src/text/csr.js';
import type { EditBatch, EditDistances, GtmRunStats } from '../../src/wasm/edit.js';

/** Sequence `i` of a CSR store as a plain array. */
export function rowOf(csr: Csr, i: number): number[] {
  return Array.from(csr.tokens.subarray(csr.offsets[i], csr.offsets[i + 1]));
}

/** The Levenshtein table: d[i][j] = distance of ref[0 .. i] and hyp[0 .. j]. */
export function levenshteinTable(ref: readonly number[], hyp: readonly number[]): number[][] {
  const d = Array.from({ length: ref.length + 1 }, (_, i) => {
    const row = new Array<number>(hyp.length + 1).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j <= hyp.length; j++) d[0][j] = j;
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= hyp.length; j++) {
      const diagonal = d[i - 1][j - 1] + (ref[i - 1] === hyp[j - 1] ? 0 : 1);
      d[i][j] = Math.min(diagonal, d[i - 1][j] + 1, d[i][j - 1] + 1);
    }
  }
  return d;
}

/** Levenshtein distance of two token lists. */
export function levenshtein(ref: readonly number[], hyp: readonly number[]): number {
  return levenshteinTable(ref, hyp)[ref.length][hyp.length];
}

/** Alignment counts of a pair, as RapidFuzz's editops give them (see the file comment). */
export interface AlignmentCounts {
  hits: number;
  substitutions: number;
  deletions: number;
  insertions: number;
}

/** jiwer 4.0's hits, substitutions, deletions and insertions of `hyp` against `ref`. */
export function rapidfuzzAlignment(ref: readonly number[], hyp: readonly number[]): AlignmentCounts {
  let prefix = 0;
  while (prefix < ref.length && prefix < hyp.length && ref[prefix] === hyp[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < ref.length - prefix && suffix < hyp.length - prefix &&
    ref[ref.length - 1 - suffix] === hyp[hyp.length - 1 - suffix]
  ) suffix++;
  const a = ref.slice(prefix, ref.length - suffix);
  const b = hyp.slice(prefix, hyp.length - suffix);
  const d = levenshteinTable(a, b);
  let i = a.length;
  let j = b.length;
  let substitutions = 0;
  let deletions = 0;
  let insertions = 0;
  while (i > 0 && j > 0) {
    if (d[i][j] - d[i - 1][j] === 1) {
      deletions++;
      i--;
    } else {
      j--;
      if (d[i][j] - d[i - 1][j] === -1) {
        insertions++;
      } else {
        i--;
        if (a[i] !== b[j]) substitutions++;
      }
    }
  }
  deletions += i;
  insertions += j;
  return { hits: ref.length - substitutions - deletions, substitutions, deletions, insertions };
}

/** Row offsets of a batch: one row per (hypothesis, reference of its segment). */
function pairRowOffsets(batch: EditBatch): Int32Array {
  const nHyps = batch.hyps.offsets.length - 1;
  const rowOffsets = new Int32Array(nHyps + 1);
  for (let h = 0; h < nHyps; h++) {
    const s = batch.hypSegment === null ? h : batch.hypSegment[h];
    rowOffsets[h + 1] = rowOffsets[h] + batch.segRefOffsets[s + 1] - batch.segRefOffsets[s];
  }
  return rowOffsets;
}

/** The references of hypothesis `h`'s segment as plain arrays. */
function referencesOf(batch: EditBatch, h: number): number[][] {
  const s = batch.hypSegment === null ? h : batch.hypSegment[h];
  const refs: number[][] = [];
  for (let r = batch.segRefOffsets[s]; r < batch.segRefOffsets[s + 1]; r++) refs.push(rowOf(batch.refs, r));
  return refs;
}

/** Distances of every pair, and (with `alignment`) the counts against each hypothesis' closest reference. */
export function editDistances(batch: EditBatch, alignment: boolean): EditDistances {
  const rowOffsets = pairRowOffsets(batch);
  const nHyps = rowOffsets.length - 1;
  const distances = new Int32Array(rowOffsets[nHyps]);
  const ops = alignment ? new Int32Array(5 * nHyps) : null;
  for (let h = 0; h < nHyps; h++) {
    const hyp = rowOf(batch.hyps, h);
    const refs = referencesOf(batch, h);
    let best = -1;
    refs.forEach((ref, r) => {
      distances[rowOffsets[h] + r] = levenshtein(ref, hyp);
      if (best < 0 || distances[rowOffsets[h] + r] < distances[rowOffsets[h] + best]) best = r;
    });
    if (ops) {
      const counts = best < 0 ? { hits: 0, substitutions: 0, deletions: 0, insertions: 0 } : rapidfuzzAlignment(refs[best], hyp);
      ops.set([best, counts.hits, counts.substitutions, counts.deletions, counts.insertions], 5 * h);
    }
  }
  return { distances, rowOffsets, ops };
}

/**
 * GTM's greedy runs of a pair: the lengths of the runs taken, in the order taken (see the file comment).
 */
export function gtmRuns(ref: readonly number[], hyp: readonly number[]): number[] {
  const rowUsed = new Array<boolean>(hyp.length).fill(false);
  const colUsed = new Array<boolean>(ref.length).fill(false);
  const free = (i: number, j: number): boolean =>
    i < hyp.length && j < ref.length && !rowUsed[i] && !colUsed[j] && hyp[i] === ref[j];
  const runs: number[] = [];
  for (;;) {
    let longest = 0;
    let startI = 0;
    let startJ = 0;
    for (let i = 0; i < hyp.length; i++) {
      for (let j = 0; j < ref.length; j++) {
        let length = 0;
        while (free(i + length, j + length)) length++;
        if (length > longest) {
          longest = length;
          startI = i;
          startJ = j;
        }
      }
    }
    if (longest === 0) return runs;
    for (let k = 0; k < longest; k++) {
      rowUsed[startI + k] = true;
      colUsed[startJ + k] = true;
    }
    runs.push(longest);
  }
}

/** GTM rows `[Σ L^e, Σ L]` of every pair, the weights summed in the order the runs are taken. */
export function gtmRunStats(batch: EditBatch, exponent: number): GtmRunStats {
  const rowOffsets = pairRowOffsets(batch);
  const nHyps = rowOffsets.length - 1;
  const rows = new Float64Array(2 * rowOffsets[nHyps]);
  for (let h = 0; h < nHyps; h++) {
    const hyp = rowOf(batch.hyps, h);
    referencesOf(batch, h).forEach((ref, r) => {
      let sum = 0;
      let matched = 0;
      for (const length of gtmRuns(ref, hyp)) {
        sum += Math.pow(length, exponent);
        matched += length;
      }
      rows[2 * (rowOffsets[h] + r)] = sum;
      rows[2 * (rowOffsets[h] + r) + 1] = matched;
    });
  }
  return { rows, rowOffsets };
}

/** Size of the multiset intersection of two token lists (PER's `correct`, GTM's MMS for e = 1). */
export function multisetIntersection(a: readonly number[], b: readonly number[]): number {
  const counts = new Map<string, number>();
  for (const t of a) counts.set(String(t), (counts.get(String(t)) ?? 0) + 1);
  let common = 0;
  for (const t of b) {
    const left = counts.get(String(t)) ?? 0;
    if (left > 0) {
      common++;
      counts.set(String(t), left - 1);
    }
  }
  return common;
}
