/**
 * Typed bindings of the WebAssembly kernels (`assembly/index.ts`). Pointers are byte addresses in the instance's
 * linear memory; counts and capacities are plain integers. Kernels never allocate and never validate: callers lay
 * out inputs, scratch and outputs above {@link KernelExports.heapBase} and pass consistent arguments.
 */
export interface KernelExports {
  /** The instance's linear memory (grown by the caller; grows detach JS views). */
  readonly memory: WebAssembly.Memory;
  /** First byte above the module's static data. */
  heapBase(): number;
  /** Slots of a hash table for at most `entries` distinct keys (load factor ≤ 2/3). */
  tableSlots(entries: number): number;
  /**
   * Writes the table capacity (u32 slots) of each segment to `capacity` and returns the largest; a value of
   * 2^32 - 1 means the batch is too large.
   */
  planSegmentTables(refOffsets: number, segRefOffsets: number, nSegments: number, maxOrder: number, capacity: number): number;
  /** Slots of the global count table of references `0 .. nRefs` (2^32 - 1: too large). */
  planCountTable(refOffsets: number, nRefs: number, maxOrder: number): number;
  /** Bytes of an n-gram counting table of `slots` slots (keys, records and weights). */
  ngramTableBytes(slots: number): number;
  /**
   * Clipped counts: `nHyps` rows of `(weights ? 3 : 2) * maxOrder` f64 at `out`. `table` has `tableBytes` bytes;
   * `localIds` (0 = none) has `idCount` + 1 u16 and every reference token id t has `t - firstId` in `[0, idCount)`.
   */
  clippedNgramCounts(
    hypTokens: number, hypOffsets: number, nHyps: number, hypSegments: number,
    refTokens: number, refOffsets: number, segRefOffsets: number, capacities: number, maxOrder: number,
    weights: number, weightsCapacity: number, table: number, tableBytes: number, localIds: number, firstId: number,
    idCount: number, out: number,
  ): void;
  /**
   * Moses BLEU rows `m_1 t_1 … m_N t_N reflen`: `nHyps` rows of `2 * maxOrder + 1` f64 at `out`, `width` bytes
   * apart (the rest of wider rows untouched); inputs as {@link clippedNgramCounts} without weights; `refLength` 0
   * closest, 1 shortest, 2 average.
   */
  mosesBleuRows(
    hypTokens: number, hypOffsets: number, nHyps: number, hypSegments: number,
    refTokens: number, refOffsets: number, segRefOffsets: number, capacities: number, maxOrder: number,
    table: number, tableBytes: number, localIds: number, firstId: number, idCount: number, refLength: number,
    out: number, width: number,
  ): void;
  /**
   * Scratch bytes the dense path of {@link clippedNgramCounts} needs for the largest segment of a batch that takes
   * it (many hypotheses per segment, orders 1..4), 0 when none does.
   */
  planDenseScratch(hypSegments: number, nHyps: number, refOffsets: number, segRefOffsets: number, maxOrder: number): number;
  /** Per-reference counts: `rowOffsets[nHyps]` rows of `(weights ? 4 : 3) * maxOrder` f64 at `out`. */
  perReferenceNgramCounts(
    hypTokens: number, hypOffsets: number, nHyps: number, hypSegments: number,
    refTokens: number, refOffsets: number, segRefOffsets: number, capacities: number, maxOrder: number,
    weights: number, weightsCapacity: number, rowOffsets: number, table: number, counts: number, list: number,
    out: number,
  ): void;
  /** Counts all n-grams of references `0 .. nRefs` into a counting table; returns the number of distinct n-grams. */
  countReferenceNgrams(
    refTokens: number, refOffsets: number, nRefs: number, maxOrder: number, table: number, capacity: number,
    order: number,
  ): number;
  /** Turns a counting table of `capacity` slots into the compact NIST weights table. */
  compactNgramWeights(
    table: number, capacity: number, order: number, distinct: number, totalTokens: number, weights: number,
    weightsCapacity: number,
  ): void;
  /** Weight of the n-gram of `n` i32 token ids at `tokens`, 0 when absent. */
  ngramWeight(tokens: number, n: number, weights: number, weightsCapacity: number): number;
  /** `log(numerator / denominator) / log(2)` with the kernels' own `log` (the weights' formula). */
  log2Ratio(numerator: number, denominator: number): number;
}
