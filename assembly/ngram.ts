/**
 * Batched n-gram statistics kernels (BLEU, chrF, NIST) over CSR token ids.
 *
 * All hypotheses of a batch go in one call, grouped by segment: a segment's reference table (`ngram-table`) is
 * built once, when the segment changes, and reused by all of its hypotheses. Each hypothesis is walked left to
 * right; at every position the n-grams of orders 1, 2, … are probed by extending the previous order's key, and the
 * walk stops at the first order that misses, since no extension of an n-gram absent from the references can be
 * present. Clipping uses a generation stamp per hypothesis in each table entry instead of a per-hypothesis table,
 * so nothing is cleared between hypotheses (the scheme of Palette's PERFORMANCE.md).
 *
 * Per-reference counts of up to 4 references without weights keep every reference's count of an entry in one
 * `i32x4`, so one probe and one vector compare per hypothesis n-gram update all references' matches at once.
 *
 * Output rows are f64, in the column order of `src/wasm/ngram.ts`. Float sums (NIST information) are accumulated in
 * the same order as the reference implementation there; integer columns are exact in any order. So every column is
 * bit-identical to it.
 */
import { ROOT, ngramKey, prefixCode } from './common/hash';
import { COUNT, KEY_SHIFT, STAMP, USED, recordAddress, weightAddress } from './common/ngram-layout';
import { findSlot } from './common/table';
import { mosesReferenceLength } from './common/moses-reference-length';
import { DENSE_MAX_ORDER, clippedDense } from './ngram-dense';
import { buildClippedTable, buildPerReferenceTable } from './ngram-table';

/** Adds `value` to the f64 at `at`. */
// @ts-ignore: decorator
@inline
function addF64(at: usize, value: f64): void {
  store<f64>(at, load<f64>(at) + value);
}

/** Writes `max(0, length - n + 1)` for n = 1..maxOrder: the number of n-grams of each order. */
// @ts-ignore: decorator
@inline
function writeTotals(at: usize, length: i32, maxOrder: i32): void {
  for (let n = 0; n < maxOrder; n++) store<f64>(at + (usize(n) << 3), f64(max(0, length - n)));
}

/**
 * How many times the current hypothesis (`generation`) has used the entry at `record` so far; an entry last touched
 * by another hypothesis is re-stamped and counts as unused (its USED is stale, not cleared).
 */
// @ts-ignore: decorator
@inline
function usesThisGeneration(record: usize, generation: i32): i32 {
  if (load<i32>(record, STAMP) == generation) return load<i32>(record, USED);
  store<i32>(record, generation, STAMP);
  return 0;
}

/**
 * Clipped counts of one hypothesis into a zeroed row: `correct_n` (+1 for each occurrence while fewer than the
 * reference maximum were used), `total_n`, and with weights `info_n` += the weight of each clipped occurrence, in
 * position order within each order.
 */
// @ts-ignore: decorator
@inline
function countClipped(
  table: usize, capacity: u32, generation: i32, hypTokens: usize, from: i32, to: i32, maxOrder: i32,
  withWeights: bool, row: usize,
): void {
  writeTotals(row + (usize(maxOrder) << 3), to - from, maxOrder);
  const info = row + (usize(maxOrder) << 4);
  for (let i = from; i < to; i++) {
    let parent = ROOT;
    const last = min(to, i + maxOrder);
    for (let j = i; j < last; j++) {
      const slot = findSlot(table, capacity, ngramKey(parent, load<u32>(hypTokens + (usize(j) << 2))), KEY_SHIFT);
      if (slot < 0) break;
      const record = recordAddress(table, capacity, u32(slot));
      const used = usesThisGeneration(record, generation);
      // Every entry has COUNT >= 1, so a fresh stamp always takes this branch and resets USED.
      if (used < load<i32>(record, COUNT)) {
        store<i32>(record, used + 1, USED);
        const n = usize(j - i) << 3;
        addF64(row + n, 1.0);
        if (withWeights) addF64(info + n, load<f64>(weightAddress(table, capacity, u32(slot))));
      }
      parent = prefixCode(u32(slot));
    }
  }
}

/**
 * Clipped n-gram counts of a batch (see `clippedNgramCounts` in `src/wasm/ngram.ts`).
 *
 * Hypothesis `h` is `hypTokens[hypOffsets[h] .. hypOffsets[h + 1]]` of segment `hypSegments[h]` (or `h` when
 * `hypSegments` is 0); segment `s` has references `segRefOffsets[s] .. segRefOffsets[s + 1]` of the reference CSR and
 * a table of `capacities[s]` slots (`planSegmentTables`) in the scratch at `table`, of `tableBytes` bytes (at least
 * the largest table's, and `planDenseScratch` for the dense path). `weights` (0 = none) is a weights table of
 * `weightsCapacity` slots. `localIds` (0 = none) is scratch for `idCount` + 1 u16 (the dense path's token map) where
 * every reference token id t has `t - firstId` in `[0, idCount)`; without it, or with weights or orders above 4,
 * every segment takes the hash-table trie. `out` receives `nHyps` rows of `(weights ? 3 : 2) * maxOrder` f64.
 */
export function clippedNgramCounts(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize, capacities: usize, maxOrder: i32,
  weights: usize, weightsCapacity: u32, table: usize, tableBytes: usize, localIds: usize, firstId: i32,
  idCount: u32, out: usize,
): void {
  clippedRows(
    hypTokens, hypOffsets, nHyps, hypSegments, refTokens, refOffsets, segRefOffsets, capacities, maxOrder, weights,
    weightsCapacity, table, tableBytes, localIds, firstId, idCount, out, usize((weights ? 3 : 2) * maxOrder) << 3,
  );
}

/**
 * Moses BLEU rows (`BleuScorer`'s statistics) of a batch: `m_1 t_1 … m_N t_N reflen` (`2 · maxOrder + 1` f64 per
 * hypothesis at `out`, rows `width` bytes apart; the other bytes of wider rows are left as they are), the clipped
 * counts of {@link clippedNgramCounts} (no weights; other inputs as there) and the reference length by Moses'
 * strategy `refLength`: 0 closest to the hypothesis' length (the shorter on a tie), 1 shortest, 2 average (the
 * single-precision quotient, truncated). A segment without references gets NaN (closest, average) or +Infinity
 * (shortest), what those formulas give over no lengths.
 */
export function mosesBleuRows(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize, capacities: usize, maxOrder: i32,
  table: usize, tableBytes: usize, localIds: usize, firstId: i32, idCount: u32, refLength: i32, out: usize,
  width: usize,
): void {
  clippedRows(
    hypTokens, hypOffsets, nHyps, hypSegments, refTokens, refOffsets, segRefOffsets, capacities, maxOrder, 0, 0,
    table, tableBytes, localIds, firstId, idCount, out, width, refLength,
  );
}

/**
 * Turns rows `h0 .. h1` of clipped counts (`correct_1..N total_1..N`) of segment references `r0 .. r1` into Moses
 * rows in place (see {@link mosesBleuRows}).
 */
function mosesLayout(
  hypOffsets: usize, h0: i32, h1: i32, refOffsets: usize, r0: i32, r1: i32, maxOrder: i32, refLength: i32,
  out: usize, width: usize,
): void {
  for (let h = h0; h < h1; h++) {
    const row = out + usize(h) * width;
    const length = load<i32>(hypOffsets + (usize(h) << 2), 4) - load<i32>(hypOffsets + (usize(h) << 2));
    // Matches move from the top down, so that none is overwritten before it is read; totals come from the length.
    for (let n = maxOrder - 1; n >= 0; n--) {
      const at = row + (usize(n) << 4);
      store<f64>(at, load<f64>(row + (usize(n) << 3)));
      store<f64>(at, f64(max(0, length - n)), 8);
    }
    store<f64>(row + (usize(maxOrder) << 4), mosesReferenceLength(refOffsets, r0, r1, length, refLength));
  }
}

/**
 * {@link clippedNgramCounts} with rows `width` bytes apart (its columns first), or with `refLength` ≥ 0 (no weights)
 * the Moses rows of {@link mosesBleuRows}.
 */
function clippedRows(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize, capacities: usize, maxOrder: i32,
  weights: usize, weightsCapacity: u32, table: usize, tableBytes: usize, localIds: usize, firstId: i32,
  idCount: u32, out: usize, width: usize, refLength: i32 = -1,
): void {
  const dense = localIds != 0 && !weights && maxOrder >= 1 && maxOrder <= DENSE_MAX_ORDER;
  if (dense) memory.fill(localIds, 0, usize(idCount + 1) << 1);
  for (let h = 0; h < nHyps;) {
    const s = hypSegments ? load<i32>(hypSegments + (usize(h) << 2)) : h;
    const end = segmentRunEnd(hypSegments, h, nHyps, s);
    const r0 = load<i32>(segRefOffsets + (usize(s) << 2));
    const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
    if (
      !dense || !clippedDense(
        hypTokens, hypOffsets, h, end, refTokens, refOffsets, r0, r1, maxOrder, table, tableBytes, localIds, firstId,
        idCount, out, width, refLength,
      )
    ) {
      // The dense path writes every value of its rows; this one adds to zeroed rows (their own columns only: rows
      // may be wider).
      const columns = usize((weights ? 3 : 2) * maxOrder) << 3;
      if (columns == width) memory.fill(out + usize(h) * width, 0, usize(end - h) * width);
      else for (let k = h; k < end; k++) memory.fill(out + usize(k) * width, 0, columns);
      clippedSegment(
        hypTokens, hypOffsets, h, end, s, refTokens, refOffsets, segRefOffsets, capacities, maxOrder, weights,
        weightsCapacity, table, out, width,
      );
      if (refLength >= 0) mosesLayout(hypOffsets, h, end, refOffsets, r0, r1, maxOrder, refLength, out, width);
    }
    h = end;
  }
}

/**
 * The end of the run of hypotheses from `h` on that belong to segment `s` (`hypSegments` 0: hypothesis `h` is
 * segment `h`, a run of one).
 */
// @ts-ignore: decorator
@inline
function segmentRunEnd(hypSegments: usize, h: i32, nHyps: i32, s: i32): i32 {
  let end = h + 1;
  if (hypSegments) while (end < nHyps && load<i32>(hypSegments + (usize(end) << 2)) == s) end++;
  return end;
}

/**
 * `clippedNgramCounts` of hypotheses `h0 .. h1`, all of segment `s`: builds the segment's table, then counts each
 * hypothesis. A function of its own (and too large for the optimizer to inline), called once per segment: V8 runs
 * a WebAssembly function first in its baseline code and switches to optimized code only at a later call, so the
 * work of a batch must lie in a function called many times, not in the one call of the export.
 */
function clippedSegment(
  hypTokens: usize, hypOffsets: usize, h0: i32, h1: i32, s: i32, refTokens: usize, refOffsets: usize,
  segRefOffsets: usize, capacities: usize, maxOrder: i32, weights: usize, weightsCapacity: u32, table: usize,
  out: usize, width: usize,
): void {
  const r0 = load<i32>(segRefOffsets + (usize(s) << 2));
  const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
  const capacity = load<u32>(capacities + (usize(s) << 2));
  assert(r0 <= r1 && capacity > 0);
  buildClippedTable(table, capacity, refTokens, refOffsets, r0, r1, maxOrder, weights, weightsCapacity);
  let generation = r1 - r0;
  for (let h = h0; h < h1; h++) {
    generation++;
    const from = load<i32>(hypOffsets + (usize(h) << 2));
    const to = load<i32>(hypOffsets + (usize(h) << 2), 4);
    const row = out + usize(h) * width;
    if (weights) countClipped(table, capacity, generation, hypTokens, from, to, maxOrder, true, row);
    else countClipped(table, capacity, generation, hypTokens, from, to, maxOrder, false, row);
  }
}

/**
 * Per-reference counts of one hypothesis into `k` zeroed rows starting at `rows` (`width` bytes each), the general
 * path (NIST weights, or more than 4 references). The walk counts each entry's occurrences under the hypothesis'
 * generation and lists entries at their first occurrence (with their order); then, per reference, `match_n` +=
 * min(hypothesis count, reference count) and `info_n` += that minimum × weight, in first-occurrence order, as the
 * reference implementation sums them. Reference counts are `counts[slot * stride + r]`.
 */
// @ts-ignore: decorator
@inline
function countPerReference(
  table: usize, capacity: u32, counts: usize, stride: i32, k: i32, generation: i32, hypTokens: usize, from: i32,
  to: i32, maxOrder: i32, withWeights: bool, rows: usize, width: usize, list: usize,
): void {
  let listed = 0;
  for (let i = from; i < to; i++) {
    let parent = ROOT;
    const last = min(to, i + maxOrder);
    for (let j = i; j < last; j++) {
      const slot = findSlot(table, capacity, ngramKey(parent, load<u32>(hypTokens + (usize(j) << 2))), KEY_SHIFT);
      if (slot < 0) break;
      const record = recordAddress(table, capacity, u32(slot));
      if (load<i32>(record, STAMP) == generation) {
        store<i32>(record, load<i32>(record, USED) + 1, USED);
      } else {
        store<i32>(record, generation, STAMP);
        store<i32>(record, 1, USED);
        store<u32>(list + (usize(listed) << 3), u32(slot));
        store<i32>(list + (usize(listed) << 3), j - i, 4);
        listed++;
      }
      parent = prefixCode(u32(slot));
    }
  }
  const n8 = usize(maxOrder) << 3;
  for (let e = 0; e < listed; e++) {
    const slot = load<u32>(list + (usize(e) << 3));
    const n = usize(load<i32>(list + (usize(e) << 3), 4)) << 3;
    const used = load<i32>(recordAddress(table, capacity, slot), USED);
    const refCounts = counts + ((usize(slot) * usize(stride)) << 2);
    for (let r = 0; r < k; r++) {
      const m = min(used, load<i32>(refCounts + (usize(r) << 2)));
      if (m > 0) {
        const row = rows + usize(r) * width;
        addF64(row + n, f64(m));
        if (withWeights) addF64(row + 3 * n8 + n, f64(m) * load<f64>(weightAddress(table, capacity, slot)));
      }
    }
  }
}

/**
 * Per-reference matches of one hypothesis against at most 4 references whose counts are one `i32x4` per entry
 * (`counts[slot * 4 + r]`), into `acc`: one `i32x4` per order, lane r = `match_n` of reference r. The k-th occurrence
 * of an n-gram in the hypothesis matches in reference r exactly when `k ≤ count_r`, so one probe per hypothesis
 * n-gram and one vector compare add every reference's clipped count at once: Σ_k [k ≤ c] = min(occurrences, c).
 * Integer sums, so the order of accumulation cannot change the f64 written from them.
 */
// @ts-ignore: decorator
@inline
function countPackedReferences(
  table: usize, capacity: u32, counts: usize, generation: i32, hypTokens: usize, from: i32, to: i32, orders: i32,
  acc: usize,
): void {
  for (let n = 0; n < orders; n++) v128.store(acc + (usize(n) << 4), i32x4.splat(0));
  for (let i = from; i < to; i++) {
    let parent = ROOT;
    const last = min(to, i + orders);
    for (let j = i; j < last; j++) {
      const slot = findSlot(table, capacity, ngramKey(parent, load<u32>(hypTokens + (usize(j) << 2))), KEY_SHIFT);
      if (slot < 0) break;
      const record = recordAddress(table, capacity, u32(slot));
      const used = usesThisGeneration(record, generation);
      store<i32>(record, used + 1, USED);
      const at = acc + (usize(j - i) << 4);
      // `lt_s` is -1 in every lane whose reference still has an unused occurrence: subtracting it adds 1 there.
      const fresh = i32x4.lt_s(i32x4.splat(used), v128.load(counts + (usize(slot) << 4)));
      v128.store(at, i32x4.sub(v128.load(at), fresh));
      parent = prefixCode(u32(slot));
    }
  }
}

/**
 * Writes the `k` complete rows of a hypothesis from `countPackedReferences`' accumulators: `match_n` (0 for orders
 * at or above `orders`, which no reference is long enough to hold), `hypTotal_n` and `refTotal_n`.
 */
// @ts-ignore: decorator
@inline
function writePackedRows(
  rows: usize, width: usize, k: i32, acc: usize, orders: i32, maxOrder: i32, hypLength: i32, refOffsets: usize,
  r0: i32,
): void {
  const n8 = usize(maxOrder) << 3;
  for (let r = 0; r < k; r++) {
    const row = rows + usize(r) * width;
    const lane = acc + (usize(r) << 2);
    for (let n = 0; n < orders; n++) store<f64>(row + (usize(n) << 3), f64(load<i32>(lane + (usize(n) << 4))));
    for (let n = orders; n < maxOrder; n++) store<f64>(row + (usize(n) << 3), 0);
    writeTotals(row + n8, hypLength, maxOrder);
    const refFrom = load<i32>(refOffsets + (usize(r0 + r) << 2));
    writeTotals(row + 2 * n8, load<i32>(refOffsets + (usize(r0 + r) << 2), 4) - refFrom, maxOrder);
  }
}

/**
 * Per-reference n-gram counts of a batch (see `perReferenceNgramCounts` in `src/wasm/ngram.ts`). Inputs as for
 * `clippedNgramCounts`, plus `rowOffsets` (rows of hypothesis `h` start at row `rowOffsets[h]`), the scratch
 * `counts` for `max(capacity × max(references, 4))` i32 (16-byte aligned) and `list` for `max(capacity)` pairs of
 * i32 (16-byte aligned). `out` receives `rowOffsets[nHyps]` rows of `(weights ? 4 : 3) * maxOrder` f64.
 *
 * A segment of at most 4 references without weights takes the packed path (one probe per hypothesis n-gram gives
 * every reference's count; `list` holds the per-order accumulators); others take the general path.
 */
export function perReferenceNgramCounts(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize, capacities: usize, maxOrder: i32,
  weights: usize, weightsCapacity: u32, rowOffsets: usize, table: usize, counts: usize, list: usize, out: usize,
): void {
  for (let h = 0; h < nHyps;) {
    const s = hypSegments ? load<i32>(hypSegments + (usize(h) << 2)) : h;
    const end = segmentRunEnd(hypSegments, h, nHyps, s);
    perReferenceSegment(
      hypTokens, hypOffsets, h, end, s, refTokens, refOffsets, segRefOffsets, capacities, maxOrder, weights,
      weightsCapacity, rowOffsets, table, counts, list, out,
    );
    h = end;
  }
}

/**
 * `perReferenceNgramCounts` of hypotheses `h0 .. h1`, all of segment `s`: builds the segment's table, then counts
 * each hypothesis. A function called once per segment for the reason given at `clippedSegment`.
 */
function perReferenceSegment(
  hypTokens: usize, hypOffsets: usize, h0: i32, h1: i32, s: i32, refTokens: usize, refOffsets: usize,
  segRefOffsets: usize, capacities: usize, maxOrder: i32, weights: usize, weightsCapacity: u32, rowOffsets: usize,
  table: usize, counts: usize, list: usize, out: usize,
): void {
  const width = usize((weights ? 4 : 3) * maxOrder) << 3;
  const n8 = usize(maxOrder) << 3;
  const r0 = load<i32>(segRefOffsets + (usize(s) << 2));
  const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
  const capacity = load<u32>(capacities + (usize(s) << 2));
  assert(r0 <= r1 && capacity > 0);
  const stride = max(4, r1 - r0);
  buildPerReferenceTable(
    table, capacity, counts, stride, refTokens, refOffsets, r0, r1, maxOrder, weights, weightsCapacity,
  );
  // No n-gram longer than every reference is in the table: the packed walk stops there (capacity, at least
  // 4.5 slots per reference n-gram, leaves `list` room for that many accumulators).
  let longest = 0;
  for (let r = r0; r < r1; r++) {
    longest = max(longest, load<i32>(refOffsets + (usize(r) << 2), 4) - load<i32>(refOffsets + (usize(r) << 2)));
  }
  const orders = min(maxOrder, longest);
  const k = r1 - r0;
  if (k == 0) return;
  let generation = 0;
  for (let h = h0; h < h1; h++) {
    generation++;
    const from = load<i32>(hypOffsets + (usize(h) << 2));
    const to = load<i32>(hypOffsets + (usize(h) << 2), 4);
    const rows = out + usize(load<i32>(rowOffsets + (usize(h) << 2))) * width;
    if (!weights && k <= 4) {
      countPackedReferences(table, capacity, counts, generation, hypTokens, from, to, orders, list);
      writePackedRows(rows, width, k, list, orders, maxOrder, to - from, refOffsets, r0);
      continue;
    }
    memory.fill(rows, 0, usize(k) * width);
    for (let r = 0; r < k; r++) {
      const row = rows + usize(r) * width;
      writeTotals(row + n8, to - from, maxOrder);
      const refFrom = load<i32>(refOffsets + (usize(r0 + r) << 2));
      writeTotals(row + 2 * n8, load<i32>(refOffsets + (usize(r0 + r) << 2), 4) - refFrom, maxOrder);
    }
    if (weights) {
      countPerReference(
        table, capacity, counts, stride, k, generation, hypTokens, from, to, maxOrder, true, rows, width, list,
      );
    } else {
      countPerReference(
        table, capacity, counts, stride, k, generation, hypTokens, from, to, maxOrder, false, rows, width, list,
      );
    }
  }
}
