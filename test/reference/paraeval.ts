/**
 * Plain reference implementation of ParaEval (seed 001 §3.3, §5) as src/metrics/paraeval/match.ts documents it:
 * words as strings, phrases as space-joined strings, sets as labels in a Map, every step written out without typed
 * arrays, stamps or shortcuts (precision always takes the several-reference route, also for one reference). The
 * property tests compare the fast matcher and the table builder with this, row for row.
 */

/** A paraphrase table as the oracle sees it: phrase (tokens joined by one space) → set label. */
export type OracleTable = Map<string, number>;

/**
 * Builds the oracle table from phrase pairs: each pair joins one set; phrases shorter than `minWords` words are
 * left out; sets are merged by relabelling (no union-find).
 */
export function oracleTable(pairs: readonly (readonly [string, string])[], minWords = 1): OracleTable {
  const table: OracleTable = new Map();
  let next = 0;
  const words = (p: string): number => p.split(' ').length;
  for (const [a, b] of pairs) {
    const kept = [a, b].filter((p) => words(p) >= minWords);
    for (const p of kept) if (!table.has(p)) table.set(p, next++);
    if (kept.length === 2) {
      const from = table.get(kept[1])!;
      const to = table.get(kept[0])!;
      if (from !== to) for (const [p, label] of table) if (label === from) table.set(p, to);
    }
  }
  return table;
}

/** The sets of an oracle table as sorted lists of sorted phrases (for comparing partitions). */
export function oracleSets(table: OracleTable): string[][] {
  const groups = new Map<number, string[]>();
  for (const [p, label] of table) groups.set(label, [...(groups.get(label) ?? []), p]);
  return [...groups.values()].map((g) => g.sort()).sort((x, y) => (x[0] < y[0] ? -1 : 1));
}

interface Occurrence {
  start: number;
  len: number;
  set: number;
}

/** Every n-gram of `words` that is a phrase of the table. */
function occurrences(words: readonly string[], table: OracleTable): Occurrence[] {
  const out: Occurrence[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 1; j <= words.length; j++) {
      const set = table.get(words.slice(i, j).join(' '));
      if (set !== undefined) out.push({ start: i, len: j - i, set });
    }
  }
  return out;
}

/** Greedy selection: usable occurrences, longest first then leftmost, never overlapping. */
function select(occs: readonly Occurrence[], usable: ReadonlySet<number>, length: number): Occurrence[] {
  const sorted = occs.filter((o) => usable.has(o.set)).sort((x, y) => y.len - x.len || x.start - y.start);
  const taken = new Array<boolean>(length).fill(false);
  const chosen: Occurrence[] = [];
  for (const o of sorted) {
    let free = true;
    for (let w = o.start; w < o.start + o.len; w++) if (taken[w]) free = false;
    if (!free) continue;
    for (let w = o.start; w < o.start + o.len; w++) taken[w] = true;
    chosen.push(o);
  }
  return chosen;
}

function countBySet(occs: readonly Occurrence[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const o of occs) m.set(o.set, (m.get(o.set) ?? 0) + 1);
  return m;
}

/** The first `quota(set)` selected occurrences of each set: their word positions. */
function matchedPositions(selected: readonly Occurrence[], quota: (set: number) => number): Set<number> {
  const used = new Map<number, number>();
  const positions = new Set<number>();
  for (const o of selected) {
    const u = used.get(o.set) ?? 0;
    if (u >= quota(o.set)) continue;
    used.set(o.set, u + 1);
    for (let w = o.start; w < o.start + o.len; w++) positions.add(w);
  }
  return positions;
}

function bag(words: readonly string[], skip: ReadonlySet<number>): Map<string, number> {
  const m = new Map<string, number>();
  words.forEach((w, i) => {
    if (!skip.has(i)) m.set(w, (m.get(w) ?? 0) + 1);
  });
  return m;
}

/** One candidate against one reference: matched words on each side, all and by paraphrase. */
export function oraclePair(
  cand: readonly string[],
  ref: readonly string[],
  table: OracleTable,
): { candMatched: number; candParaphrase: number; refMatched: number; refParaphrase: number } {
  const candOcc = occurrences(cand, table);
  const refOcc = occurrences(ref, table);
  const candSel = select(candOcc, new Set(refOcc.map((o) => o.set)), cand.length);
  const refSel = select(refOcc, new Set(candOcc.map((o) => o.set)), ref.length);
  const c = countBySet(candSel);
  const r = countBySet(refSel);
  const quota = (s: number): number => Math.min(c.get(s) ?? 0, r.get(s) ?? 0);
  const candPos = matchedPositions(candSel, quota);
  const refPos = matchedPositions(refSel, quota);
  const refLeft = bag(ref, refPos);
  let unigrams = 0;
  cand.forEach((w, i) => {
    if (candPos.has(i)) return;
    const n = refLeft.get(w) ?? 0;
    if (n > 0) {
      refLeft.set(w, n - 1);
      unigrams++;
    }
  });
  return {
    candMatched: candPos.size + unigrams,
    candParaphrase: candPos.size,
    refMatched: refPos.size + unigrams,
    refParaphrase: refPos.size,
  };
}

/** Modified precision against all references: matched candidate words, all and by paraphrase. */
export function oraclePrecision(
  cand: readonly string[],
  refs: readonly (readonly string[])[],
  table: OracleTable,
): { matched: number; paraphrase: number } {
  const candOcc = occurrences(cand, table);
  const candSets = new Set(candOcc.map((o) => o.set));
  const refOccs = refs.map((ref) => occurrences(ref, table));
  const anyRefSets = new Set(refOccs.flat().map((o) => o.set));
  const candSel = select(candOcc, anyRefSets, cand.length);
  const c = countBySet(candSel);
  const clip = new Map<number, number>();
  const wordClip = new Map<string, number>();
  refs.forEach((ref, j) => {
    const refSel = select(refOccs[j], candSets, ref.length);
    const r = countBySet(refSel);
    for (const [s, n] of r) clip.set(s, Math.max(clip.get(s) ?? 0, n));
    const refPos = matchedPositions(refSel, (s) => Math.min(c.get(s) ?? 0, r.get(s) ?? 0));
    for (const [w, n] of bag(ref, refPos)) wordClip.set(w, Math.max(wordClip.get(w) ?? 0, n));
  });
  const candPos = matchedPositions(candSel, (s) => clip.get(s) ?? 0);
  let unigrams = 0;
  cand.forEach((w, i) => {
    if (candPos.has(i)) return;
    const n = wordClip.get(w) ?? 0;
    if (n > 0) {
      wordClip.set(w, n - 1);
      unigrams++;
    }
  });
  return { matched: candPos.size + unigrams, paraphrase: candPos.size };
}

/**
 * The ParaEval statistics row: hypMatched, hypParaphrase, hypLength, refMatched, refParaphrase, refLength (reference
 * columns summed over the references, each matched alone).
 */
export function oracleParaEvalRow(
  cand: readonly string[],
  refs: readonly (readonly string[])[],
  table: OracleTable,
): number[] {
  const p = oraclePrecision(cand, refs, table);
  let refMatched = 0;
  let refParaphrase = 0;
  let refLength = 0;
  for (const ref of refs) {
    const pair = oraclePair(cand, ref, table);
    refMatched += pair.refMatched;
    refParaphrase += pair.refParaphrase;
    refLength += ref.length;
  }
  return [p.matched, p.paraphrase, cand.length, refMatched, refParaphrase, refLength];
}
