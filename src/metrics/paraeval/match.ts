/**
 * ParaEval's two-tier matching of one segment (seed 001 §3.3), over token ids, with reusable scratch arrays.
 *
 * The paper gives the tiers and the clipping but not the search; Palette's exact procedure:
 *
 * 1. Occurrences. Every n-gram of a side (candidate or reference) that is a phrase of the table is an occurrence of
 *    that phrase's set. Identical phrases are occurrences too (Fig. 4 counts the reference's "bombing" for the
 *    candidate's "bombing"): tier 1 matches any two phrases of one set.
 * 2. Which occurrences may be used. A candidate occurrence counts only if its set occurs (as any occurrence) in the
 *    reference(s) it is matched against, a reference occurrence only if its set occurs in the candidate, so that a
 *    phrase that cannot match never blocks one that can.
 * 3. Greedy selection, longest first, then leftmost, never overlapping: each side keeps the usable occurrences in
 *    that order whose words are all still free.
 * 4. Clipping. With c_s selected candidate occurrences of set s and r_s selected reference occurrences, min(c_s, r_s)
 *    of them match on each side: the first ones in selection order. Different phrases of one set count as
 *    occurrences of one phrase (Fig. 4: the clip of {blown up, bombing, explosion} is 2 in Ref 1).
 * 5. Tier 2: the words outside matched occurrences (unmatched selected occurrences give their words back) match as
 *    clipped unigrams, min(count in candidate, count in reference) per word.
 *
 * Precision with u references is BLEU's modified precision (§3.3): the candidate's selection uses the sets of any
 * reference (step 2), a set's clip is its largest r_s over the references, and a leftover candidate word's clip is its
 * largest count among the words each reference leaves over after its own matches against the candidate. Recall is
 * against a single reference (§5.1): reference j is matched as if it were the only one (steps 1–5 with reference j
 * alone), and the statistics add up the references' matched and total words. With one reference both are one match.
 *
 * Statistics row (`PARAEVAL_STATS_COLUMNS`): matched candidate words, of those matched by paraphrases (tier 1),
 * candidate words; matched reference words, of those by paraphrases, reference words (the last three summed over
 * the references).
 */
import type { ParaphraseTable } from '../../text/paraphrase/index.js';

/** Column names of a ParaEval statistics row. */
export const PARAEVAL_STATS_COLUMNS = [
  'hypMatched',
  'hypParaphrase',
  'hypLength',
  'refMatched',
  'refParaphrase',
  'refLength',
] as const;

/** Width of a ParaEval statistics row. */
export const PARAEVAL_STATS_WIDTH = PARAEVAL_STATS_COLUMNS.length;

/** A counter per id (set or word) reset in O(1) by bumping a generation. */
class StampedCounts {
  private stamps: Int32Array;
  private values: Int32Array;
  private gen = 0;

  constructor(size: number) {
    this.stamps = new Int32Array(Math.max(1, size));
    this.values = new Int32Array(Math.max(1, size));
  }

  reset(): void {
    if (++this.gen === 0x7fffffff) {
      this.stamps.fill(0);
      this.gen = 1;
    }
  }

  get(i: number): number {
    return this.stamps[i] === this.gen ? this.values[i] : 0;
  }

  set(i: number, v: number): void {
    this.stamps[i] = this.gen;
    this.values[i] = v;
  }

  add(i: number, d: number): void {
    this.set(i, this.get(i) + d);
  }
}

/** Table-phrase occurrences in one token sequence, in (start, length) order, plus their selection order. */
class Occurrences {
  start = new Int32Array(64);
  len = new Int32Array(64);
  set = new Int32Array(64);
  count = 0;
  /** Occurrence indices, longest first, then leftmost. */
  order = new Int32Array(64);

  push(start: number, len: number, set: number): void {
    if (this.count === this.start.length) {
      const n = this.count * 2;
      this.start = growInt32(this.start, n);
      this.len = growInt32(this.len, n);
      this.set = growInt32(this.set, n);
      this.order = new Int32Array(n);
    }
    this.start[this.count] = start;
    this.len[this.count] = len;
    this.set[this.count] = set;
    this.count++;
  }
}

function growInt32(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(n);
  out.set(a);
  return out;
}

/** Matched words of one pairing: candidate and reference, all and by paraphrase. */
interface PairCounts {
  candMatched: number;
  candParaphrase: number;
  refMatched: number;
  refParaphrase: number;
}

/**
 * Matches segments against a {@link ParaphraseTable}. Token ids below `table.vocab.size` are the table's; larger
 * ones are other words (they only ever match in tier 2); negative ids match nothing.
 */
export class ParaEvalMatcher {
  private readonly table: ParaphraseTable;
  private readonly tableWords: number;
  private readonly candHas: StampedCounts;
  private readonly refHas: StampedCounts;
  private readonly counts: StampedCounts;
  private readonly otherCounts: StampedCounts;
  private readonly maxRef: StampedCounts;
  private readonly refCounts: StampedCounts;
  private readonly wordCounts: StampedCounts;
  private readonly wordMax: StampedCounts;
  private readonly cand = new Occurrences();
  private refs: Occurrences[] = [];
  private candSel = new Int32Array(64);
  private refSel: Int32Array[] = [];
  private refSelCount = new Int32Array(4);
  private candFree = new Uint8Array(256);
  private refFree = new Uint8Array(256);
  private lengthStarts = new Int32Array(2);
  private readonly pair: PairCounts = { candMatched: 0, candParaphrase: 0, refMatched: 0, refParaphrase: 0 };

  /** @param wordIds the size of the id space of the words to be matched (table words and others) */
  constructor(table: ParaphraseTable, wordIds: number) {
    this.table = table;
    this.tableWords = table.vocab.size;
    const sets = table.setCount;
    this.candHas = new StampedCounts(sets);
    this.refHas = new StampedCounts(sets);
    this.counts = new StampedCounts(sets);
    this.otherCounts = new StampedCounts(sets);
    this.maxRef = new StampedCounts(sets);
    this.refCounts = new StampedCounts(sets);
    this.wordCounts = new StampedCounts(wordIds);
    this.wordMax = new StampedCounts(wordIds);
    this.lengthStarts = new Int32Array(table.maxLength + 2);
  }

  /**
   * Writes the statistics row of candidate `tokens[candStart, candEnd)` against the references
   * `refTokens[refOffsets[r], refOffsets[r + 1])` for `r` in `[refFirst, refLast)` into `out[at .. at + 6)`.
   */
  match(
    tokens: Int32Array,
    candStart: number,
    candEnd: number,
    refTokens: Int32Array,
    refOffsets: Int32Array,
    refFirst: number,
    refLast: number,
    out: Float64Array,
    at: number,
  ): void {
    const nRefs = refLast - refFirst;
    const candLength = candEnd - candStart;
    this.ensureRefs(nRefs);
    this.candHas.reset();
    this.refHas.reset();
    this.findOccurrences(tokens, candStart, candEnd, this.cand, this.candHas);
    let refLength = 0;
    for (let j = 0; j < nRefs; j++) {
      const from = refOffsets[refFirst + j];
      const to = refOffsets[refFirst + j + 1];
      refLength += to - from;
      // `refHas` collects the sets of every reference: the candidate's filter for precision.
      this.findOccurrences(refTokens, from, to, this.refs[j], this.refHas);
      if (this.refSel[j].length < this.refs[j].count) this.refSel[j] = new Int32Array(this.refs[j].order.length);
      this.refSelCount[j] = this.select(this.refs[j], this.candHas, to - from, this.refSel[j]);
    }
    const pair = this.pair;
    if (nRefs === 1) {
      const candSelected = this.selectCandidate(candLength, this.refHas);
      this.matchPair(tokens, candStart, candEnd, candSelected, refTokens, refOffsets[refFirst], refOffsets[refFirst + 1], 0);
      out[at] = pair.candMatched;
      out[at + 1] = pair.candParaphrase;
      out[at + 3] = pair.refMatched;
      out[at + 4] = pair.refParaphrase;
    } else {
      this.precision(tokens, candStart, candEnd, refTokens, refOffsets, refFirst, nRefs, out, at);
      let refMatched = 0;
      let refParaphrase = 0;
      for (let j = 0; j < nRefs; j++) {
        const from = refOffsets[refFirst + j];
        const to = refOffsets[refFirst + j + 1];
        // The candidate's selection as if reference j were the only one.
        this.refHas.reset();
        const occ = this.refs[j];
        for (let k = 0; k < occ.count; k++) this.refHas.set(occ.set[k], 1);
        const candSelected = this.selectCandidate(candLength, this.refHas);
        this.matchPair(tokens, candStart, candEnd, candSelected, refTokens, from, to, j);
        refMatched += pair.refMatched;
        refParaphrase += pair.refParaphrase;
      }
      out[at + 3] = refMatched;
      out[at + 4] = refParaphrase;
    }
    out[at + 2] = candLength;
    out[at + 5] = refLength;
  }

  private ensureRefs(n: number): void {
    while (this.refs.length < n) {
      this.refs.push(new Occurrences());
      this.refSel.push(new Int32Array(64));
    }
    if (this.refSelCount.length < n) this.refSelCount = new Int32Array(n * 2);
  }

  /** Lists the table phrases of `tokens[from, to)` (starts relative to `from`) and marks their sets in `has`. */
  private findOccurrences(tokens: Int32Array, from: number, to: number, occ: Occurrences, has: StampedCounts): void {
    const { trie, setOf } = this.table;
    const tableWords = this.tableWords;
    occ.count = 0;
    for (let i = from; i < to; i++) {
      let node = 0;
      for (let k = i; k < to; k++) {
        const t = tokens[k];
        if (t < 0 || t >= tableWords) break;
        node = trie.child(node, t);
        if (node < 0) break;
        const s = setOf[node];
        if (s >= 0) {
          occ.push(i - from, k - i + 1, s);
          has.set(s, 1);
        }
      }
    }
    this.orderByLength(occ);
  }

  /** Counting sort of the occurrences by length, longest first; stable, so leftmost first within a length. */
  private orderByLength(occ: Occurrences): void {
    const starts = this.lengthStarts;
    const maxLength = this.table.maxLength;
    starts.fill(0);
    // Bucket b holds length maxLength - b: longest first.
    for (let k = 0; k < occ.count; k++) starts[maxLength - occ.len[k] + 1]++;
    for (let b = 1; b < starts.length; b++) starts[b] += starts[b - 1];
    for (let k = 0; k < occ.count; k++) occ.order[starts[maxLength - occ.len[k]]++] = k;
  }

  /**
   * Greedy selection (steps 2–3) of the occurrences of `occ` whose set `usable` marks, over a sequence of `length`
   * words; writes the chosen indices, in selection order, to `selected` and returns how many.
   */
  private select(occ: Occurrences, usable: StampedCounts, length: number, selected: Int32Array): number {
    const taken = this.clearedMarks(length, false);
    let n = 0;
    for (let o = 0; o < occ.count; o++) {
      const k = occ.order[o];
      if (usable.get(occ.set[k]) === 0) continue;
      const start = occ.start[k];
      const end = start + occ.len[k];
      let ok = true;
      for (let w = start; w < end; w++) {
        if (taken[w] !== 0) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      for (let w = start; w < end; w++) taken[w] = 1;
      selected[n++] = k;
    }
    return n;
  }

  /** The candidate's selection against the sets `usable` marks, into `candSel`; returns its size. */
  private selectCandidate(length: number, usable: StampedCounts): number {
    if (this.candSel.length < this.cand.count) this.candSel = new Int32Array(this.cand.order.length);
    return this.select(this.cand, usable, length, this.candSel);
  }

  /** A zeroed mark array of at least `length` entries (the reference's or the candidate's). */
  private clearedMarks(length: number, candidate: boolean): Uint8Array {
    let marks = candidate ? this.candFree : this.refFree;
    if (marks.length < length) {
      marks = new Uint8Array(Math.max(length, marks.length * 2));
      if (candidate) this.candFree = marks;
      else this.refFree = marks;
    } else marks.fill(0, 0, length);
    return marks;
  }

  /**
   * Marks in `matched` the words of the first quota(s) selected occurrences of each set s (all of them when there
   * are fewer): `quota` holds the other side's counts, or the clips. Returns the number of words marked.
   */
  private markMatched(
    occ: Occurrences,
    selected: Int32Array,
    nSelected: number,
    quota: StampedCounts,
    matched: Uint8Array,
  ): number {
    const used = this.otherCounts;
    used.reset();
    let words = 0;
    for (let o = 0; o < nSelected; o++) {
      const k = selected[o];
      const s = occ.set[k];
      const u = used.get(s);
      if (u >= quota.get(s)) continue;
      used.set(s, u + 1);
      const start = occ.start[k];
      const end = start + occ.len[k];
      for (let w = start; w < end; w++) matched[w] = 1;
      words += end - start;
    }
    return words;
  }

  /**
   * The word-level match of step 5: each candidate word of `tokens[candStart, candEnd)` outside the matched
   * paraphrases (`candMatched`) and known to the references (id ≥ 0) takes one of its remaining counts in
   * `available`. Returns how many words did.
   */
  private matchWords(
    tokens: Int32Array,
    candStart: number,
    candEnd: number,
    candMatched: Uint8Array,
    available: StampedCounts,
  ): number {
    let matched = 0;
    for (let w = candStart; w < candEnd; w++) {
      const t = tokens[w];
      if (candMatched[w - candStart] !== 0 || t < 0) continue;
      const n = available.get(t);
      if (n > 0) {
        available.set(t, n - 1);
        matched++;
      }
    }
    return matched;
  }

  /** Steps 4–5 for the candidate against reference `refTokens[from, to)` (index `j`), into `this.pair`. */
  private matchPair(
    tokens: Int32Array,
    candStart: number,
    candEnd: number,
    nCandSelected: number,
    refTokens: Int32Array,
    from: number,
    to: number,
    j: number,
  ): void {
    const candCount = this.counts;
    candCount.reset();
    for (let o = 0; o < nCandSelected; o++) candCount.add(this.cand.set[this.candSel[o]], 1);
    const refCount = this.maxRef;
    refCount.reset();
    const occ = this.refs[j];
    const sel = this.refSel[j];
    const nSel = this.refSelCount[j];
    for (let o = 0; o < nSel; o++) refCount.add(occ.set[sel[o]], 1);
    const refMatched = this.clearedMarks(to - from, false);
    const refParaphrase = this.markMatched(occ, sel, nSel, candCount, refMatched);
    const candMatched = this.clearedMarks(candEnd - candStart, true);
    const candParaphrase = this.markMatched(this.cand, this.candSel, nCandSelected, refCount, candMatched);
    const left = this.wordCounts;
    left.reset();
    for (let w = from; w < to; w++) if (refMatched[w - from] === 0) left.add(refTokens[w], 1);
    const unigrams = this.matchWords(tokens, candStart, candEnd, candMatched, left);
    const pair = this.pair;
    pair.candParaphrase = candParaphrase;
    pair.candMatched = candParaphrase + unigrams;
    pair.refParaphrase = refParaphrase;
    pair.refMatched = refParaphrase + unigrams;
  }

  /** Modified precision against several references (see the file comment) into `out[at]`, `out[at + 1]`. */
  private precision(
    tokens: Int32Array,
    candStart: number,
    candEnd: number,
    refTokens: Int32Array,
    refOffsets: Int32Array,
    refFirst: number,
    nRefs: number,
    out: Float64Array,
    at: number,
  ): void {
    const nCand = this.selectCandidate(candEnd - candStart, this.refHas);
    const candCount = this.counts;
    candCount.reset();
    for (let o = 0; o < nCand; o++) candCount.add(this.cand.set[this.candSel[o]], 1);
    const clip = this.maxRef;
    clip.reset();
    const wordMax = this.wordMax;
    wordMax.reset();
    const refCount = this.refCounts;
    for (let j = 0; j < nRefs; j++) {
      const from = refOffsets[refFirst + j];
      const to = refOffsets[refFirst + j + 1];
      const occ = this.refs[j];
      const sel = this.refSel[j];
      const nSel = this.refSelCount[j];
      refCount.reset();
      for (let o = 0; o < nSel; o++) {
        const s = occ.set[sel[o]];
        refCount.add(s, 1);
        if (refCount.get(s) > clip.get(s)) clip.set(s, refCount.get(s));
      }
      const matched = this.clearedMarks(to - from, false);
      this.markMatched(occ, sel, nSel, candCount, matched);
      const left = this.wordCounts;
      left.reset();
      for (let w = from; w < to; w++) {
        if (matched[w - from] !== 0) continue;
        const t = refTokens[w];
        left.add(t, 1);
        if (left.get(t) > wordMax.get(t)) wordMax.set(t, left.get(t));
      }
    }
    const candMatched = this.clearedMarks(candEnd - candStart, true);
    const candParaphrase = this.markMatched(this.cand, this.candSel, nCand, clip, candMatched);
    const unigrams = this.matchWords(tokens, candStart, candEnd, candMatched, wordMax);
    out[at] = candParaphrase + unigrams;
    out[at + 1] = candParaphrase;
  }
}
