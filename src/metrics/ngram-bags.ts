/**
 * Bags of n-grams for all-pairs scoring: every text's n-grams of every order as (n-gram id, count) pairs, the ids
 * shared by all texts of one pairwise problem, and an inverted index of the references (for each n-gram id, the
 * references that have it and how often).
 *
 * An n-gram metric whose pair statistics are "per order: hypothesis n-grams, reference n-grams, Σ min(hyp count,
 * ref count)" (chrF, chrF++, single-reference BLEU) then scores one hypothesis against every reference in one pass
 * over its distinct n-grams and their postings: the work per pair is the number of n-grams the two texts share,
 * never the texts' lengths, and each text is tokenized and counted once however many pairs it is in. The counts are
 * integers, so the matches are exactly the ones a per-pair count gives.
 *
 * The same bags give reference aggregation (Vamvas & Sennrich 2024): the weighted mean of the references' bags,
 * against which a hypothesis's matches are `Σ min(hyp count, mean ref count)` (fractional).
 */
import type { Csr } from '../text/csr.js';

/** One token stream of the texts (code points, words, …) and the n-gram orders 1..maxOrder taken from it. */
export interface NgramChannel {
  /** Token ids, one CSR row per text. */
  readonly tokens: Csr;
  /** Highest n-gram order (0: the channel contributes no column). */
  readonly maxOrder: number;
}

const EMPTY = -1;

/**
 * Dense ids of n-grams, interned as (id of the (n-1)-gram prefix, last token); a unigram's prefix is the
 * channel's own negative marker, so the ids of different channels and orders never meet. Open addressing in typed
 * arrays: no object per n-gram.
 */
export class NgramIds {
  // Slot s is table[3s .. 3s + 3) = prefix, last token, id (EMPTY when free): one cache line per probe.
  private table: Int32Array;
  private mask: number;
  /** Number of ids given out (ids are 0 .. size - 1). */
  size = 0;

  constructor(capacity = 1 << 12) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.table = new Int32Array(3 * cap).fill(EMPTY);
    this.mask = cap - 1;
  }

  private slot(prefix: number, last: number): number {
    let h = Math.imul(prefix ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(last ^ 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    const table = this.table;
    const mask = this.mask;
    let s = h & mask;
    for (;;) {
      const at = 3 * s;
      if (table[at + 2] === EMPTY || (table[at] === prefix && table[at + 1] === last)) return at;
      s = (s + 1) & mask;
    }
  }

  /** The id of (prefix, last), given a new one if it has none. */
  intern(prefix: number, last: number): number {
    const at = this.slot(prefix, last);
    const table = this.table;
    if (table[at + 2] !== EMPTY) return table[at + 2];
    const id = this.size++;
    table[at] = prefix;
    table[at + 1] = last;
    table[at + 2] = id;
    if (this.size * 2 > this.mask) this.grow();
    return id;
  }

  /** The id of (prefix, last), or -1 when it has none. */
  find(prefix: number, last: number): number {
    return this.table[this.slot(prefix, last) + 2];
  }

  private grow(): void {
    const old = this.table;
    this.table = new Int32Array(2 * old.length).fill(EMPTY);
    this.mask = 2 * (this.mask + 1) - 1;
    for (let at = 0; at < old.length; at += 3) {
      if (old[at + 2] === EMPTY) continue;
      const to = this.slot(old[at], old[at + 1]);
      this.table[to] = old[at];
      this.table[to + 1] = old[at + 1];
      this.table[to + 2] = old[at + 2];
    }
  }
}

/**
 * Every text's bags: column `k` is one (channel, order), channels in the order given and orders 1..maxOrder in
 * each. Text `t`'s column `k` holds the pairs `grams[2q], grams[2q + 1]` (n-gram id, count) for `q` in
 * `offsets[t·columns + k] .. offsets[t·columns + k + 1]`, each id once, and `totals[t·columns + k]` is its number
 * of n-grams of that order (with repeats, whether or not they have ids).
 */
export interface NgramBags {
  readonly count: number;
  readonly columns: number;
  readonly totals: Int32Array;
  readonly offsets: Int32Array;
  readonly grams: Int32Array;
}

/** Number of columns of channels. */
export function ngramColumns(channels: readonly NgramChannel[]): number {
  let k = 0;
  for (const c of channels) k += c.maxOrder;
  return k;
}

/**
 * Counts every text's n-grams. With `insert`, n-grams without an id get one (the references); without it, they are
 * left out of the bags (a hypothesis's n-gram no reference has matches nothing) but still counted in the totals.
 * @throws RangeError when the channels do not hold the same number of texts.
 */
export function ngramBags(channels: readonly NgramChannel[], ids: NgramIds, insert: boolean): NgramBags {
  const count = channels.length === 0 ? 0 : channels[0].tokens.offsets.length - 1;
  for (const c of channels) {
    if (c.tokens.offsets.length - 1 !== count) throw new RangeError('every channel must hold the same texts');
  }
  const columns = ngramColumns(channels);
  const totals = new Int32Array(count * columns);
  const offsets = new Int32Array(count * columns + 1);
  let grams = new Int32Array(1024);
  let nGrams = 0;
  let counter = new Int32Array(Math.max(1024, ids.size * 2));
  let touched = new Int32Array(256);
  let cur = new Int32Array(256);
  for (let t = 0; t < count; t++) {
    let k = t * columns;
    for (let c = 0; c < channels.length; c++) {
      const { tokens: csr, maxOrder } = channels[c];
      const from = csr.offsets[t];
      const len = csr.offsets[t + 1] - from;
      if (cur.length < len) cur = new Int32Array(len * 2);
      if (touched.length < len) touched = new Int32Array(len * 2);
      const tokens = csr.tokens;
      for (let n = 1; n <= maxOrder; n++, k++) {
        const span = len - n + 1;
        let distinct = 0;
        if (span > 0) {
          totals[k] = span;
          for (let p = 0; p < span; p++) {
            const prefix = n === 1 ? -1 - c : cur[p];
            let id = -1;
            if (prefix !== -1 || n === 1) {
              const last = tokens[from + p + n - 1];
              id = insert ? ids.intern(prefix, last) : ids.find(prefix, last);
            }
            cur[p] = id;
            if (id < 0) continue;
            if (id >= counter.length) {
              const grown = new Int32Array(Math.max(id + 1, counter.length * 2));
              grown.set(counter);
              counter = grown;
            }
            if (counter[id]++ === 0) touched[distinct++] = id;
          }
        }
        if (nGrams + 2 * distinct > grams.length) {
          const grown = new Int32Array(Math.max(nGrams + 2 * distinct, grams.length * 2));
          grown.set(grams.subarray(0, nGrams));
          grams = grown;
        }
        for (let q = 0; q < distinct; q++) {
          const id = touched[q];
          grams[nGrams++] = id;
          grams[nGrams++] = counter[id];
          counter[id] = 0;
        }
        offsets[k + 1] = nGrams >> 1;
      }
    }
  }
  return { count, columns, totals, offsets, grams: grams.slice(0, nGrams) };
}

/**
 * Inverted index of reference bags: the references that have n-gram id `g` are `ref[p]` with count `count[p]`, for
 * `p` in `start[g] .. start[g + 1]`, in reference order.
 */
export interface NgramPostings {
  readonly start: Int32Array;
  readonly ref: Int32Array;
  readonly count: Int32Array;
}

/** The inverted index of `refs`, whose ids are below `idCount`. */
export function ngramPostings(refs: NgramBags, idCount: number): NgramPostings {
  const start = new Int32Array(idCount + 1);
  const { grams } = refs;
  const pairs = grams.length >> 1;
  for (let q = 0; q < pairs; q++) start[grams[2 * q] + 1]++;
  for (let g = 0; g < idCount; g++) start[g + 1] += start[g];
  const fill = start.slice(0, idCount);
  const ref = new Int32Array(pairs);
  const count = new Int32Array(pairs);
  const K = refs.columns;
  for (let t = 0; t < refs.count; t++) {
    for (let q = refs.offsets[t * K]; q < refs.offsets[(t + 1) * K]; q++) {
      const at = fill[grams[2 * q]]++;
      ref[at] = t;
      count[at] = grams[2 * q + 1];
    }
  }
  return { start, ref, count };
}

/**
 * Matches of hypothesis `i` against every reference: `acc[k·refCount + j]` = Σ over the n-grams of column `k` of
 * min(hypothesis count, count in reference `j`), for the `refCount` references of the postings.
 */
export function rowMatches(hyps: NgramBags, i: number, postings: NgramPostings, refCount: number, acc: Int32Array): void {
  const K = hyps.columns;
  acc.fill(0, 0, refCount * K);
  const { grams, offsets } = hyps;
  const { start, ref, count } = postings;
  for (let k = 0; k < K; k++) {
    const base = k * refCount;
    const end = offsets[i * K + k + 1];
    for (let q = offsets[i * K + k]; q < end; q++) {
      const id = grams[2 * q];
      const c = grams[2 * q + 1];
      const pEnd = start[id + 1];
      // Most n-grams occur once in the hypothesis: then each reference that has it matches exactly one.
      if (c === 1) {
        for (let p = start[id]; p < pEnd; p++) acc[base + ref[p]]++;
      } else {
        for (let p = start[id]; p < pEnd; p++) {
          const rc = count[p];
          acc[base + ref[p]] += rc < c ? rc : c;
        }
      }
    }
  }
}

/**
 * The references aggregated (Vamvas & Sennrich 2024): per n-gram id, `Σ_j w_j · count_j` over every reference `j`,
 * and per column `Σ_j w_j · total_j`; `W = Σ_j w_j`. With `weights` undefined every weight is 1 (the sums are then
 * integers, exact in doubles).
 */
export interface AggregatedReferences {
  readonly counts: Float64Array;
  readonly totals: Float64Array;
  readonly weightSum: number;
}

/** Sums the reference bags (see {@link AggregatedReferences}). */
export function aggregateReferences(refs: NgramBags, idCount: number, weights?: ArrayLike<number>): AggregatedReferences {
  const K = refs.columns;
  const counts = new Float64Array(idCount);
  const totals = new Float64Array(K);
  let weightSum = 0;
  for (let t = 0; t < refs.count; t++) {
    const w = weights === undefined ? 1 : weights[t];
    weightSum += w;
    for (let k = 0; k < K; k++) totals[k] += w * refs.totals[t * K + k];
    for (let q = refs.offsets[t * K]; q < refs.offsets[(t + 1) * K]; q++) counts[refs.grams[2 * q]] += w * refs.grams[2 * q + 1];
  }
  return { counts, totals, weightSum };
}

/**
 * Hypothesis `i` against the aggregate reference: per column `k`, `out[3k]` = the hypothesis's n-grams, `out[3k + 1]`
 * = the aggregate's (`Σ w_j total_j / W`), `out[3k + 2]` = Σ over the hypothesis's distinct n-grams of
 * min(its count, `Σ w_j count_j / W`). With `leaveOut` (a reference index), that reference is taken out of both sums
 * (`(Σ − w_r · x_r) / (W − w_r)`): reference `leaveOut`'s own bag is read from `refs`, so it need not be the
 * hypothesis's text. `scratch` is a zeroed array of `idCount` doubles, left zeroed.
 * @throws RangeError when the weights left sum to zero.
 */
export function aggregateMatches(
  hyps: NgramBags, i: number, refs: NgramBags, agg: AggregatedReferences, weights: ArrayLike<number> | undefined,
  leaveOut: number, scratch: Float64Array, out: Float64Array,
): void {
  const K = hyps.columns;
  const wOut = leaveOut < 0 ? 0 : weights === undefined ? 1 : weights[leaveOut];
  const denom = agg.weightSum - wOut;
  if (!(denom > 0)) throw new RangeError('the weights of the pseudo-references sum to zero');
  if (leaveOut >= 0) {
    for (let q = refs.offsets[leaveOut * K]; q < refs.offsets[(leaveOut + 1) * K]; q++) {
      scratch[refs.grams[2 * q]] = refs.grams[2 * q + 1];
    }
  }
  const { grams, offsets } = hyps;
  for (let k = 0; k < K; k++) {
    const ownTotal = leaveOut < 0 ? 0 : refs.totals[leaveOut * K + k];
    let match = 0;
    for (let q = offsets[i * K + k]; q < offsets[i * K + k + 1]; q++) {
      const id = grams[2 * q];
      const c = grams[2 * q + 1];
      const r = (agg.counts[id] - wOut * scratch[id]) / denom;
      match += r < c ? r : c;
    }
    out[3 * k] = hyps.totals[i * K + k];
    out[3 * k + 1] = (agg.totals[k] - wOut * ownTotal) / denom;
    out[3 * k + 2] = match;
  }
  if (leaveOut >= 0) {
    for (let q = refs.offsets[leaveOut * K]; q < refs.offsets[(leaveOut + 1) * K]; q++) scratch[refs.grams[2 * q]] = 0;
  }
}

/**
 * The references' n-grams as bit sets, for groups of near-identical texts (MBR's samples of one segment), where
 * most n-grams are in most references and the postings would be walked reference by reference: for n-gram id `g`
 * and threshold `t` (1 .. the largest count of `g` in a reference), row `first[g] + t - 1` of `bits` (`words`
 * 32-bit words) has bit `j` set when reference `j` holds `g` at least `t` times. Σ over `t ≤ c` of those bits is
 * min(c, count in reference `j`), so a hypothesis's matches with every reference are sums of bit rows, added 32
 * references at a time in bit-sliced counters.
 */
export interface NgramBitsets {
  readonly words: number;
  readonly first: Int32Array;
  readonly bits: Int32Array;
}

/** Bit-set words a bit-set index of `refs` would take (to choose it only where it is no bigger than the postings' work). */
export function ngramBitsetWords(refs: NgramBags, idCount: number): number {
  const maxCount = new Int32Array(idCount);
  const { grams } = refs;
  for (let q = 0; q < grams.length; q += 2) if (grams[q + 1] > maxCount[grams[q]]) maxCount[grams[q]] = grams[q + 1];
  let rows = 0;
  for (let g = 0; g < idCount; g++) rows += maxCount[g];
  return rows * Math.ceil(refs.count / 32);
}

/** The bit-set index of `refs` (ids below `idCount`). */
export function ngramBitsets(refs: NgramBags, idCount: number): NgramBitsets {
  const first = new Int32Array(idCount + 1);
  const { grams } = refs;
  for (let q = 0; q < grams.length; q += 2) if (grams[q + 1] > first[grams[q] + 1]) first[grams[q] + 1] = grams[q + 1];
  for (let g = 0; g < idCount; g++) first[g + 1] += first[g];
  const words = Math.ceil(refs.count / 32);
  const bits = new Int32Array(first[idCount] * words);
  const K = refs.columns;
  for (let t = 0; t < refs.count; t++) {
    const word = t >> 5;
    const bit = 1 << (t & 31);
    for (let q = refs.offsets[t * K]; q < refs.offsets[(t + 1) * K]; q++) {
      const row = first[grams[2 * q]];
      for (let u = 0; u < grams[2 * q + 1]; u++) bits[(row + u) * words + word] |= bit;
    }
  }
  return { words, first, bits };
}

/**
 * {@link rowMatches} through the bit-set index: the same `acc[k·refCount + j]`. `planes` is scratch of at least
 * `40 · words` numbers.
 */
export function rowMatchesBits(
  hyps: NgramBags, i: number, index: NgramBitsets, refCount: number, acc: Int32Array, planes: Int32Array,
): void {
  const K = hyps.columns;
  const { grams, offsets, totals } = hyps;
  const { words: W, first, bits } = index;
  for (let k = 0; k < K; k++) {
    // A reference matches at most the hypothesis's n-grams of this order: that many bits per counter suffice.
    const levels = 32 - Math.clz32(totals[i * K + k]);
    planes.fill(0, 0, levels * W);
    const end = offsets[i * K + k + 1];
    for (let q = offsets[i * K + k]; q < end; q++) {
      const g = grams[2 * q];
      const rowEnd = Math.min(first[g] + grams[2 * q + 1], first[g + 1]);
      for (let row = first[g]; row < rowEnd; row++) {
        const base = row * W;
        for (let w = 0; w < W; w++) {
          // Adds one bit per reference to the bit-sliced counters: sum and carry, plane by plane.
          let carry = bits[base + w];
          for (let at = w; carry !== 0; at += W) {
            const p = planes[at];
            planes[at] = p ^ carry;
            carry = p & carry;
          }
        }
      }
    }
    const out = k * refCount;
    if (levels <= 8) {
      // Counts below 256: four references' counts side by side in the bytes of one number, each plane's bits
      // spread four at a time (SPREAD) and added at their weight — no byte overflows into the next.
      const packed = planes.subarray(levels * W, levels * W + 8 * W);
      packed.fill(0);
      for (let b = 0; b < levels; b++) {
        for (let w = 0; w < W; w++) {
          const x = planes[b * W + w];
          if (x === 0) continue;
          for (let nib = 0; nib < 8; nib++) packed[8 * w + nib] += SPREAD[(x >>> (4 * nib)) & 15] << b;
        }
      }
      for (let j = 0; j < refCount; j++) acc[out + j] = (packed[j >> 2] >>> ((j & 3) << 3)) & 255;
      continue;
    }
    for (let j = 0; j < refCount; j++) {
      const word = j >> 5;
      const shift = j & 31;
      let v = 0;
      for (let b = 0; b < levels; b++) v |= ((planes[b * W + word] >>> shift) & 1) << b;
      acc[out + j] = v;
    }
  }
}

/** Bit `i` of a nibble moved to the low bit of byte `i`. */
const SPREAD = Int32Array.from({ length: 16 }, (_, n) => (n & 1) | (((n >> 1) & 1) << 8) | (((n >> 2) & 1) << 16) | (((n >> 3) & 1) << 24));

/** A row matcher ({@link rowMatcher}) and what it was built for. */
interface CachedMatcher {
  readonly refs: NgramBags;
  readonly idCount: number;
  readonly match: (hyps: NgramBags, i: number, acc: Int32Array) => void;
}

/**
 * The matcher of each inverted index, kept while the index lives: its bit sets take as long to build as a few dozen
 * rows take to match (1,024 MBR samples), and a matrix scored a block of rows at a time (pool tasks) would build
 * them again for every block.
 */
const matchers = new WeakMap<NgramPostings, CachedMatcher>();

/**
 * The matches of a hypothesis against every reference ({@link rowMatches}' `acc`), through the bit-set index where
 * it is at most half the size of the postings (references that share most of their n-grams: MBR's samples), else
 * through the postings (references that share few: unrelated sentences, where bit sets would be mostly zeros).
 * Built once per index (and id count); its scratch is its own, so one matcher serves one row at a time.
 */
export function rowMatcher(
  refs: NgramBags, postings: NgramPostings, idCount: number,
): (hyps: NgramBags, i: number, acc: Int32Array) => void {
  const cached = matchers.get(postings);
  if (cached !== undefined && cached.refs === refs && cached.idCount === idCount) return cached.match;
  const m = refs.count;
  let match: CachedMatcher['match'];
  if (2 * ngramBitsetWords(refs, idCount) <= postings.ref.length) {
    const index = ngramBitsets(refs, idCount);
    const planes = new Int32Array(40 * index.words);
    match = (hyps, i, acc) => rowMatchesBits(hyps, i, index, m, acc, planes);
  } else {
    match = (hyps, i, acc) => rowMatches(hyps, i, postings, m, acc);
  }
  matchers.set(postings, { refs, idCount, match });
  return match;
}

/** A set of references counted into bags: the ids, the bags and their inverted index. */
export interface NgramIndex {
  readonly ids: NgramIds;
  readonly bags: NgramBags;
  readonly postings: NgramPostings;
}

/**
 * Pairs per text from which counting every text into bags (tens of microseconds a text) pays for itself against
 * the per-reference kernel's pair-by-pair hashing (a few microseconds a pair, measured on WMT21 en-de).
 */
const PAIRS_PER_TEXT = 32;

/**
 * Whether `hyps` × `refs` pairs are worth bags: at least {@link PAIRS_PER_TEXT} pairs per text prepared (the
 * references alone when the hypotheses are the references themselves).
 */
export function worthBags(hyps: number, refs: number, self: boolean): boolean {
  return hyps * refs >= PAIRS_PER_TEXT * (self ? refs : hyps + refs);
}

/**
 * What a pairwise stage built on bags supplies to {@link bagPairStats} and {@link bagScoreRows}: its reference
 * index, its hypotheses' bags and how one pair's statistics row follows from the matches `acc` that
 * {@link rowMatches} (or {@link rowMatcher}) left for hypothesis `i` (`accWidth` columns per reference).
 */
export interface BagPairing {
  readonly index: NgramIndex;
  readonly hyps: NgramBags;
  readonly statsWidth: number;
  readonly accWidth: number;
  pairRow(out: Float64Array, at: number, i: number, j: number, acc: Int32Array): void;
}

/** Statistics rows of hypotheses `hypFrom .. hypTo` × references `refFrom .. refTo`, row-major, through the bags. */
export function bagPairStats(p: BagPairing, hypFrom: number, hypTo: number, refFrom: number, refTo: number): Float64Array {
  const m = refTo - refFrom;
  const refCount = p.index.bags.count;
  const out = new Float64Array((hypTo - hypFrom) * m * p.statsWidth);
  const acc = new Int32Array(refCount * p.accWidth);
  for (let i = hypFrom; i < hypTo; i++) {
    rowMatches(p.hyps, i, p.index.postings, refCount, acc);
    for (let j = refFrom; j < refTo; j++) p.pairRow(out, ((i - hypFrom) * m + j - refFrom) * p.statsWidth, i, j, acc);
  }
  return out;
}

/**
 * Sentence scores of hypotheses `from .. to` against every reference into `out` from `at`, row-major, through the
 * bags: one statistics row at a time, so nothing grows with the number of pairs.
 */
export function bagScoreRows(
  p: BagPairing, from: number, to: number, score: (row: Float64Array, at: number) => number, out: Float64Array, at: number,
): void {
  const m = p.index.bags.count;
  const acc = new Int32Array(m * p.accWidth);
  const row = new Float64Array(p.statsWidth);
  const matches = rowMatcher(p.index.bags, p.index.postings, p.index.ids.size);
  for (let i = from; i < to; i++) {
    matches(p.hyps, i, acc);
    for (let j = 0; j < m; j++) {
      p.pairRow(row, 0, i, j, acc);
      out[at++] = score(row, 0);
    }
  }
}

/**
 * Sentence scores of hypotheses `from .. to` against `refCount` references into `out` from `at`, row-major, from
 * statistics rows a kernel gives for a block of references (`pairRows(j0, j1)`: (to − from) × (j1 − j0) rows of
 * `width`): the references a tile of `tileColumns` at a time, so the rows stay bounded however many there are.
 */
export function tiledPairScores(
  pairRows: (j0: number, j1: number) => Float64Array, width: number, tileColumns: number, from: number, to: number,
  refCount: number, score: (rows: Float64Array, at: number) => number, out: Float64Array, at: number,
): void {
  for (let j0 = 0; j0 < refCount; j0 += tileColumns) {
    const j1 = Math.min(refCount, j0 + tileColumns);
    const rows = pairRows(j0, j1);
    for (let i = from; i < to; i++) {
      for (let j = j0; j < j1; j++) out[at + (i - from) * refCount + j] = score(rows, ((i - from) * (j1 - j0) + j - j0) * width);
    }
  }
}
