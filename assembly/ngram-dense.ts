/**
 * Clipped n-gram counts (BLEU) of orders 1..4 without weights for a segment that many hypotheses share (an n-best
 * list): the references' n-grams as a trie of dense arrays over segment-local token ids, so that a hypothesis is
 * walked without hashing, without probe loops and without a branch that depends on its tokens.
 *
 * Keys: the references' distinct tokens are numbered 1..U, and a token's key is 64 × its number (the byte offset of
 * its records) in a direct map (`localIds[token - firstId]`, u16, 0 = in no reference; one entry more than the span,
 * always 0, is what ids outside the span read), filled for the segment and cleared after it. The trie: n-gram ids
 * 1..N_n per order, keys 64 × id; order 1's key is the token's. A cell of the child arrays maps (key of the
 * (n-1)-gram that follows the n-gram's first token, number of that token) to the n-gram's key, 0 when no reference
 * has it: an n-gram is found as a child of the (n-1)-gram one position to its right, which the walk (right to left)
 * found one step earlier, so the four look-ups of a position depend on its token and the previous step only, not on
 * each other. The three orders 2..4 share one array of 8-byte cells (a u16 per order), rows a multiple of 8 cells
 * (R = 64 × rowScale bytes), so that key × rowScale is a row's offset; row 0 and column 0 stay 0, so an absent token
 * or suffix gives 0 for every longer order with no test. An id's records are 64 bytes at its key, one 16-byte record
 * per order: a mark (the stamp of the text that used the record last and its uses by that text, in one u64, read
 * and written once per use) and the n-gram's largest count in one reference; id 0's records have count 0, so an
 * absent n-gram is counted against them and adds nothing. Hypotheses are stamped with increasing generations, so
 * nothing is cleared between them. One base address for all records and one for all cells keep the walk's live
 * values few enough for registers.
 *
 * The cells take up to 8 (T + 1)(T + 8) bytes for T reference tokens, cleared once per segment: the path pays only
 * when enough hypotheses share them ({@link DENSE_MIN_HYPS}); other segments take the hash-table trie of
 * `ngram-table`.
 */
import { mosesReferenceLength } from './common/moses-reference-length';

/** log2 of the bytes of an id's records: one 16-byte record per order 1..4, so a key is 64 × its id. */
const DENSE_KEY_SHIFT: u32 = 6;
/** log2 of the bytes of one order's record. */
const DENSE_ORDER_SHIFT: u32 = 4;

/** u64 of a record: (stamp of the text that used it last << 32) | its uses by that text. */
const DENSE_MARK: u32 = 0;
/** u32 of a record: the largest count of its n-gram in one reference. */
const DENSE_COUNT: u32 = 8;

/** Largest order of the dense trie. */
export const DENSE_MAX_ORDER: i32 = 4;
/** Fewest hypotheses of a segment for which the dense trie is built. */
export const DENSE_MIN_HYPS: i32 = 16;
/**
 * Most reference tokens of a segment for the dense trie (its arrays grow with the square; keys, 64 × ids of at most
 * this many, fit a u16).
 */
export const DENSE_MAX_TOKENS: i32 = 1023;

/** Bytes of the segment tables of references holding `tokens` tokens in all: an upper bound of what is used. */
// @ts-ignore: decorator
@inline
function denseBytesFor(tokens: i32): usize {
  const t = usize(tokens) + 1;
  // Positions' keys (2 × i32 per token), 4 orders of records per id, at most t rows of t + 7 cells of 8 bytes.
  return (usize(tokens) << 3) + (t << DENSE_KEY_SHIFT) + ((t * (t + 8)) << 3);
}

/** Number of reference tokens of references `r0 .. r1`. */
// @ts-ignore: decorator
@inline
function referenceTokens(refOffsets: usize, r0: i32, r1: i32): i32 {
  return load<i32>(refOffsets + (usize(r1) << 2)) - load<i32>(refOffsets + (usize(r0) << 2));
}

/**
 * Scratch bytes the dense trie needs for the largest segment of a batch that takes it (see `clippedNgramCounts` in
 * `ngram`), 0 when none does. `hypSegments` as there (0: one hypothesis per segment, so none does).
 */
export function planDenseScratch(
  hypSegments: usize, nHyps: i32, refOffsets: usize, segRefOffsets: usize, maxOrder: i32,
): f64 {
  if (!hypSegments || maxOrder < 1 || maxOrder > DENSE_MAX_ORDER) return 0;
  let largest: usize = 0;
  for (let h = 0; h < nHyps;) {
    const s = load<i32>(hypSegments + (usize(h) << 2));
    let end = h + 1;
    while (end < nHyps && load<i32>(hypSegments + (usize(end) << 2)) == s) end++;
    const tokens = referenceTokens(
      refOffsets, load<i32>(segRefOffsets + (usize(s) << 2)), load<i32>(segRefOffsets + (usize(s) << 2), 4),
    );
    if (end - h >= DENSE_MIN_HYPS && tokens <= DENSE_MAX_TOKENS) largest = max(largest, denseBytesFor(tokens));
    h = end;
  }
  return f64(largest);
}

/** Counts one more occurrence of a record's n-gram in reference `stamp`; its COUNT is the max over references. */
// @ts-ignore: decorator
@inline
function countInReference(record: usize, stamp: i32): void {
  const used = useMark(record, u64(stamp) << 32);
  if (used >= load<u32>(record, DENSE_COUNT)) store<u32>(record, used + 1, DENSE_COUNT);
}

/**
 * Counts one more use of a record by the text whose mark base is `base` (its stamp in the high word) and returns
 * how many uses it had before. Stamps only grow while a table is in use, so a mark below `base` is another text's:
 * it restarts at `base` (no use yet).
 */
// @ts-ignore: decorator
@inline
function useMark(record: usize, base: u64): u32 {
  const mark = load<u64>(record, DENSE_MARK);
  const current = select<u64>(mark, base, mark > base);
  store<u64>(record, current + 1, DENSE_MARK);
  return u32(current);
}

/**
 * Uses one occurrence of a record's n-gram in the hypothesis whose mark base is `base`: 1 while the hypothesis has
 * used it fewer times than its reference maximum (a clipped match), else 0. No branch: most records are record 0
 * (absent n-grams, count 0) or used once.
 */
// @ts-ignore: decorator
@inline
function useOnce(record: usize, base: u64): i32 {
  return i32(useMark(record, base) < load<u32>(record, DENSE_COUNT));
}

/**
 * Clipped counts of hypotheses `h0 .. h1` of one segment (rows `width` bytes apart at `out`, every value of their
 * columns written; with `refLength` ≥ 0 the Moses rows of `mosesBleuRows` in `ngram`) against references `r0 .. r1`
 * through the dense trie, built in the `scratchBytes` at `scratch`. `localIds` is the
 * zeroed direct map of `idCount` + 1 u16 for token ids from `firstId`, which must cover every reference token; it is
 * zeroed again on return. Returns false, having written nothing, when the segment does not take this path (too few
 * hypotheses, too many reference tokens, or tables larger than the scratch). Requires 1 ≤ maxOrder ≤ 4.
 */
export function clippedDense(
  hypTokens: usize, hypOffsets: usize, h0: i32, h1: i32, refTokens: usize, refOffsets: usize, r0: i32, r1: i32,
  maxOrder: i32, scratch: usize, scratchBytes: usize, localIds: usize, firstId: i32, idCount: u32, out: usize,
  width: usize, refLength: i32,
): bool {
  const tokens = referenceTokens(refOffsets, r0, r1);
  if (h1 - h0 < DENSE_MIN_HYPS || tokens > DENSE_MAX_TOKENS || denseBytesFor(tokens) > scratchBytes) return false;
  const refFrom = load<i32>(refOffsets + (usize(r0) << 2));
  // Per reference position: its local key, then (updated order by order) the key of the n-gram starting there.
  const locals = scratch;
  const nodes = locals + (usize(tokens) << 2);
  const records = nodes + (usize(tokens) << 2);
  let next: u32 = 1;
  for (let p = 0; p < tokens; p++) {
    const at = localIds + (usize(u32(load<i32>(refTokens + (usize(refFrom + p) << 2)) - firstId)) << 1);
    let key = u32(load<u16>(at));
    if (key == 0) {
      key = next++ << DENSE_KEY_SHIFT;
      store<u16>(at, u16(key));
    }
    store<u32>(locals + (usize(p) << 2), key);
    store<u32>(nodes + (usize(p) << 2), key);
  }
  // Every order's records of the ids below `next`; higher ids are cleared as orders 2..4 claim them.
  memory.fill(records, 0, usize(next) << DENSE_KEY_SHIFT);
  // Cells per row of the child arrays, a multiple of 8 so that a key (id × 64) times `rowScale` is its row's offset.
  const rowScale = usize((next + 7) >> 3);
  const rowBytes = rowScale << DENSE_KEY_SHIFT;
  for (let r = r0; r < r1; r++) {
    const from = load<i32>(refOffsets + (usize(r) << 2)) - refFrom;
    const to = load<i32>(refOffsets + (usize(r) << 2), 4) - refFrom;
    for (let p = from; p < to; p++) countInReference(records + usize(load<u32>(locals + (usize(p) << 2))), r - r0 + 1);
  }
  // Orders 2..maxOrder, each from the keys of the previous one: `nodes[p]` becomes the key of the n-gram at p. Rows
  // are cleared (every order's cell) when an order first needs them: a row cleared earlier has only lower orders'
  // cells written.
  const cells = records + (usize(tokens + 1) << DENSE_KEY_SHIFT);
  let rows = usize(next);
  let cleared: usize = 0;
  for (let n = 2; n <= maxOrder; n++) {
    if (rows > cleared) {
      memory.fill(cells + cleared * rowBytes, 0, (rows - cleared) * rowBytes);
      cleared = rows;
    }
    const lane = cells + (usize(n - 2) << 1);
    const order = records + (usize(n - 1) << DENSE_ORDER_SHIFT);
    let ids: u32 = 0;
    for (let r = r0; r < r1; r++) {
      const from = load<i32>(refOffsets + (usize(r) << 2)) - refFrom;
      const to = load<i32>(refOffsets + (usize(r) << 2), 4) - refFrom;
      for (let p = from; p + n <= to; p++) {
        const at = nodes + (usize(p) << 2);
        const first = usize(load<u32>(locals + (usize(p) << 2)));
        const cell = lane + usize(load<u32>(at, 4)) * rowScale + (first >> 3);
        let key = u32(load<u16>(cell));
        if (key == 0) {
          key = ++ids << DENSE_KEY_SHIFT;
          store<u16>(cell, u16(key));
          if (ids >= next) {
            store<u64>(order + usize(key), 0);
            store<u64>(order + usize(key), 0, 8);
          }
        }
        store<u32>(at, key);
        countInReference(order + usize(key), r - r0 + 1);
      }
    }
    rows = usize(ids) + 1;
  }
  // Orders and layouts as constants: the walk's per-order tests fold away (4, BLEU's, is the order that matters).
  const stamp = r1 - r0;
  if (maxOrder == 4 && refLength >= 0) {
    walkDense(
      hypTokens, hypOffsets, h0, h1, stamp, localIds, firstId, idCount, records, cells, rowScale, 4, out, width, true,
      refOffsets, r0, r1, refLength,
    );
  } else if (maxOrder == 4) {
    walkDense(
      hypTokens, hypOffsets, h0, h1, stamp, localIds, firstId, idCount, records, cells, rowScale, 4, out, width, false,
      refOffsets, r0, r1, refLength,
    );
  } else {
    walkDense(
      hypTokens, hypOffsets, h0, h1, stamp, localIds, firstId, idCount, records, cells, rowScale, maxOrder, out,
      width, refLength >= 0, refOffsets, r0, r1, refLength,
    );
  }
  for (let p = 0; p < tokens; p++) {
    store<u16>(localIds + (usize(u32(load<i32>(refTokens + (usize(refFrom + p) << 2)) - firstId)) << 1), 0);
  }
  return true;
}

/**
 * The clipped counts of hypotheses `h0 .. h1` through a built dense trie (see `clippedDense`): `correct_1..N
 * total_1..N`, or with `moses` the Moses rows `m_1 t_1 … m_N t_N reflen` (reference length by `refLength`, see
 * `mosesReferenceLength`).
 */
// @ts-ignore: decorator
@inline
function walkDense(
  hypTokens: usize, hypOffsets: usize, h0: i32, h1: i32, stamp: i32, localIds: usize, firstId: i32, idCount: u32,
  records: usize, cells: usize, rowScale: usize, maxOrder: i32, out: usize, width: usize, moses: bool,
  refOffsets: usize, r0: i32, r1: i32, refLength: i32,
): void {
  let generation = stamp;
  for (let h = h0; h < h1; h++) {
    generation++;
    const base = u64(generation) << 32;
    const from = load<i32>(hypOffsets + (usize(h) << 2));
    const to = load<i32>(hypOffsets + (usize(h) << 2), 4);
    const row = out + usize(h) * width;
    let c1 = 0, c2 = 0, c3 = 0, c4 = 0;
    // Keys of the unigram, bigram and trigram starting one token to the right (0 past the end): the n-grams
    // starting at j are their children by token j.
    let a1: usize = 0, a2: usize = 0, a3: usize = 0;
    for (let j = to - 1; j >= from; j--) {
      const index = u32(load<i32>(hypTokens + (usize(j) << 2)) - firstId);
      const key = usize(load<u16>(localIds + (usize(select<u32>(index, idCount, index < idCount)) << 1)));
      const column = cells + (key >> 3);
      c1 += useOnce(records + key, base);
      if (maxOrder > 1) {
        const k2 = usize(load<u16>(column + a1 * rowScale));
        c2 += useOnce(records + k2 + 16, base);
        if (maxOrder > 2) {
          const k3 = usize(load<u16>(column + a2 * rowScale, 2));
          c3 += useOnce(records + k3 + 32, base);
          if (maxOrder > 3) {
            const k4 = usize(load<u16>(column + a3 * rowScale, 4));
            c4 += useOnce(records + k4 + 48, base);
          }
          a3 = k3;
        }
        a2 = k2;
      }
      a1 = key;
    }
    const length = to - from;
    if (moses) {
      store<f64>(row, f64(c1));
      if (maxOrder > 1) store<f64>(row, f64(c2), 16);
      if (maxOrder > 2) store<f64>(row, f64(c3), 32);
      if (maxOrder > 3) store<f64>(row, f64(c4), 48);
      for (let n = 0; n < maxOrder; n++) store<f64>(row + (usize(n) << 4), f64(max(0, length - n)), 8);
      store<f64>(row + (usize(maxOrder) << 4), mosesReferenceLength(refOffsets, r0, r1, length, refLength));
    } else {
      store<f64>(row, f64(c1));
      if (maxOrder > 1) store<f64>(row, f64(c2), 8);
      if (maxOrder > 2) store<f64>(row, f64(c3), 16);
      if (maxOrder > 3) store<f64>(row, f64(c4), 24);
      const totals = row + (usize(maxOrder) << 3);
      for (let n = 0; n < maxOrder; n++) store<f64>(totals + (usize(n) << 3), f64(max(0, length - n)));
    }
  }
}
