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
 * Output rows are f64, in the column order of `src/wasm/ngram.ts`, and every sum is accumulated in the same order as
 * the reference implementation there, so float columns are bit-identical to it.
 */
import { ROOT, ngramKey, prefixCode } from './common/hash';
import { COUNT, KEY_SHIFT, STAMP, USED, recordAddress, weightAddress } from './common/ngram-layout';
import { findSlot } from './common/table';
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
      let used = 0;
      if (load<i32>(record, STAMP) == generation) used = load<i32>(record, USED);
      else store<i32>(record, generation, STAMP);
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
 * a table of `capacities[s]` slots (`planSegmentTables`) in the scratch at `table`. `weights` (0 = none) is a
 * weights table of `weightsCapacity` slots. `out` receives `nHyps` zeroed rows of `(weights ? 3 : 2) * maxOrder` f64.
 */
export function clippedNgramCounts(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize, capacities: usize, maxOrder: i32,
  weights: usize, weightsCapacity: u32, table: usize, out: usize,
): void {
  const width = usize((weights ? 3 : 2) * maxOrder) << 3;
  memory.fill(out, 0, usize(nHyps) * width);
  let segment = -1;
  let capacity: u32 = 0;
  let generation = 0;
  for (let h = 0; h < nHyps; h++) {
    const s = hypSegments ? load<i32>(hypSegments + (usize(h) << 2)) : h;
    if (s != segment) {
      segment = s;
      const r0 = load<i32>(segRefOffsets + (usize(s) << 2));
      const r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
      capacity = load<u32>(capacities + (usize(s) << 2));
      assert(r0 <= r1 && capacity > 0);
      buildClippedTable(table, capacity, refTokens, refOffsets, r0, r1, maxOrder, weights, weightsCapacity);
      generation = r1 - r0;
    }
    generation++;
    const from = load<i32>(hypOffsets + (usize(h) << 2));
    const to = load<i32>(hypOffsets + (usize(h) << 2), 4);
    const row = out + usize(h) * width;
    if (weights) countClipped(table, capacity, generation, hypTokens, from, to, maxOrder, true, row);
    else countClipped(table, capacity, generation, hypTokens, from, to, maxOrder, false, row);
  }
}

/**
 * Per-reference counts of one hypothesis into `k` zeroed rows starting at `rows` (`width` bytes each).
 * The walk counts each entry's occurrences under the hypothesis' generation and lists entries at their first
 * occurrence (with their order); then, per reference, `match_n` += min(hypothesis count, reference count) and
 * `info_n` += that minimum × weight, in first-occurrence order, as the reference implementation sums them.
 */
// @ts-ignore: decorator
@inline
function countPerReference(
  table: usize, capacity: u32, counts: usize, k: i32, generation: i32, hypTokens: usize, from: i32, to: i32,
  maxOrder: i32, withWeights: bool, rows: usize, width: usize, list: usize,
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
    const refCounts = counts + ((usize(slot) * usize(k)) << 2);
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
 * Per-reference n-gram counts of a batch (see `perReferenceNgramCounts` in `src/wasm/ngram.ts`). Inputs as for
 * `clippedNgramCounts`, plus `rowOffsets` (rows of hypothesis `h` start at row `rowOffsets[h]`), the scratch
 * `counts` for `max(capacity × references)` i32 and `list` for `max(capacity)` pairs of i32. `out` receives
 * `rowOffsets[nHyps]` rows of `(weights ? 4 : 3) * maxOrder` f64.
 */
export function perReferenceNgramCounts(
  hypTokens: usize, hypOffsets: usize, nHyps: i32, hypSegments: usize,
  refTokens: usize, refOffsets: usize, segRefOffsets: usize, capacities: usize, maxOrder: i32,
  weights: usize, weightsCapacity: u32, rowOffsets: usize, table: usize, counts: usize, list: usize, out: usize,
): void {
  const width = usize((weights ? 4 : 3) * maxOrder) << 3;
  const n8 = usize(maxOrder) << 3;
  memory.fill(out, 0, usize(load<i32>(rowOffsets + (usize(nHyps) << 2))) * width);
  let segment = -1;
  let capacity: u32 = 0;
  let generation = 0;
  let r0 = 0;
  let r1 = 0;
  for (let h = 0; h < nHyps; h++) {
    const s = hypSegments ? load<i32>(hypSegments + (usize(h) << 2)) : h;
    if (s != segment) {
      segment = s;
      r0 = load<i32>(segRefOffsets + (usize(s) << 2));
      r1 = load<i32>(segRefOffsets + (usize(s) << 2), 4);
      capacity = load<u32>(capacities + (usize(s) << 2));
      assert(r0 <= r1 && capacity > 0);
      buildPerReferenceTable(table, capacity, counts, refTokens, refOffsets, r0, r1, maxOrder, weights, weightsCapacity);
      generation = 0;
    }
    const k = r1 - r0;
    if (k == 0) continue;
    generation++;
    const from = load<i32>(hypOffsets + (usize(h) << 2));
    const to = load<i32>(hypOffsets + (usize(h) << 2), 4);
    const rows = out + usize(load<i32>(rowOffsets + (usize(h) << 2))) * width;
    for (let r = 0; r < k; r++) {
      const row = rows + usize(r) * width;
      writeTotals(row + n8, to - from, maxOrder);
      const refFrom = load<i32>(refOffsets + (usize(r0 + r) << 2));
      writeTotals(row + 2 * n8, load<i32>(refOffsets + (usize(r0 + r) << 2), 4) - refFrom, maxOrder);
    }
    if (weights) {
      countPerReference(table, capacity, counts, k, generation, hypTokens, from, to, maxOrder, true, rows, width, list);
    } else {
      countPerReference(table, capacity, counts, k, generation, hypTokens, from, to, maxOrder, false, rows, width, list);
    }
  }
}
