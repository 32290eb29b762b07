/**
 * TER's cost model, edit operations and result type, shared by both TER flavors (sacreBLEU's and tercom 0.10.0's).
 *
 * Naming follows tercom (and its output columns): the edits turn the hypothesis into the reference, and an
 * *insertion* is a hypothesis word with no reference counterpart (tercom's `I`), a *deletion* a reference word
 * the hypothesis lacks (tercom's `D`). So `hypLength - ins + del = refLength`. sacreBLEU's `lib_ter` labels the
 * two the other way round inside its matrix and flips its trace before reading it; the counts are the same.
 */

/** Cost of one substitution, insertion, deletion or shift: every TER edit costs 1 (sacreBLEU and tercom alike). */
export const TER_EDIT_COST = 1;

/** Operation codes of an alignment trace (one byte per step, in order). */
export const TerOp = {
  /** Hypothesis word equals the reference word (tercom `' '`). */
  Match: 0,
  /** Hypothesis word replaced by the reference word (tercom `S`). */
  Sub: 1,
  /** Hypothesis word with no reference counterpart (tercom `I`). */
  Ins: 2,
  /** Reference word missing from the hypothesis (tercom `D`). */
  Del: 3,
} as const;
/** One of {@link TerOp}. */
export type TerOpCode = (typeof TerOp)[keyof typeof TerOp];

/**
 * One block move. Positions refer to the hypothesis as it was just before this shift: the `length` words at
 * `start` are taken out and put back so that they start before the word that was at `target` (sacreBLEU's
 * convention; tercom's "after `newloc`" is `target = newloc + 1`). See `performShift` for the exact result,
 * including targets inside the moved block.
 */
export interface TerShift {
  /** First moved word. */
  readonly start: number;
  /** Number of moved words. */
  readonly length: number;
  /** Insertion point (before this index of the unshifted hypothesis). */
  readonly target: number;
}

/** How the hypothesis was aligned to one reference: what `--detail` shows. */
export interface TerAlignment {
  /** The shifts, in the order they were applied. */
  readonly shifts: readonly TerShift[];
  /** For each word of the shifted hypothesis, its position in the original hypothesis. */
  readonly hypOrder: Int32Array;
  /**
   * The edit operations ({@link TerOp}) of the shifted hypothesis against the reference, left to right:
   * `Match`/`Sub` consume one word of each, `Ins` one hypothesis word, `Del` one reference word.
   */
  readonly ops: Uint8Array;
}

/** TER of one hypothesis against one reference. */
export interface TerResult {
  /** Total edits: `shifts + ins + del + sub` (all costs are 1). */
  readonly edits: number;
  /** Number of reference words. */
  readonly refLength: number;
  /** Hypothesis words with no reference counterpart. */
  readonly ins: number;
  /** Reference words missing from the hypothesis. */
  readonly del: number;
  /** Substituted words. */
  readonly sub: number;
  /** Number of shifts. */
  readonly shifts: number;
  /** The alignment, when it was asked for (null otherwise: it costs a copy per segment). */
  readonly alignment: TerAlignment | null;
}

/** Counts of each operation of a trace. */
export interface TerOpCounts {
  /** `Match` steps. */
  matches: number;
  /** `Sub` steps. */
  sub: number;
  /** `Ins` steps. */
  ins: number;
  /** `Del` steps. */
  del: number;
}

/** Counts the operations of a trace. */
export function countOps(ops: Uint8Array): TerOpCounts {
  const counts: TerOpCounts = { matches: 0, sub: 0, ins: 0, del: 0 };
  for (let k = 0; k < ops.length; k++) {
    switch (ops[k]) {
      case TerOp.Match:
        counts.matches++;
        break;
      case TerOp.Sub:
        counts.sub++;
        break;
      case TerOp.Ins:
        counts.ins++;
        break;
      default:
        counts.del++;
    }
  }
  return counts;
}

/**
 * What the shift search needs to know about the current alignment (tercom's `FindAlignErr`, sacreBLEU's
 * `trace_to_alignment`), written into caller-provided arrays:
 * - `hypErr[h]` = 1 when hypothesis word `h` is not matched (substituted or inserted), else 0;
 * - `refErr[r]` = 1 when reference word `r` is not matched (substituted or deleted), else 0;
 * - `refAlign[r]` = the hypothesis position aligned to reference word `r`: its own position for a match or
 *   substitution, the position of the last hypothesis word before it (-1 at the start) for a deletion.
 * @returns the number of operations read (`ops.length`).
 */
export function alignmentErrors(ops: Uint8Array, hypErr: Uint8Array, refErr: Uint8Array, refAlign: Int32Array): number {
  let h = -1;
  let r = -1;
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k];
    if (op === TerOp.Match || op === TerOp.Sub) {
      h++;
      r++;
      const err = op === TerOp.Sub ? 1 : 0;
      hypErr[h] = err;
      refErr[r] = err;
      refAlign[r] = h;
    } else if (op === TerOp.Ins) {
      h++;
      hypErr[h] = 1;
    } else {
      r++;
      refErr[r] = 1;
      refAlign[r] = h;
    }
  }
  return ops.length;
}
