/** Batches of one string per input record, as the TSV and JSONL readers yield them. */

/** Consecutive values read from a file, one per record. */
export interface StringBatch {
  /** Number of values. */
  readonly count: number;
  /** The values, in file order. */
  readonly values: string[];
  /** 1-based file line of each value (for messages of later checks). */
  readonly lines: Int32Array;
}
