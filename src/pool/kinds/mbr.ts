/**
 * MBR decoding in a pool worker (the main side is ../mbr-pool.ts): each worker builds the utility from its `-m`
 * metrics, weights and settings, then decides runs of segments exactly as the calling thread would (src/engine/pairwise,
 * `mbrDecode` on those segments), so a segment's choice and utilities do not depend on the thread or the thread
 * count. A big segment comes as blocks of its rows instead (`UtilityRows` and `mbrRowUtilities`, the same entries
 * and utilities): the segment's texts are prepared once per thread and kept for its next block. A segment's bad
 * input (weights that sum to zero) comes back as data, its line counted in the whole input.
 */
import '../../node/install.js';
import {
  mbrDecode, mbrRowUtilities, resolvedUtilityOf, utilityFromSpecs, UtilityRows, type UtilitySpec,
} from '../../engine/pairwise/index.js';
import { InputError, type PaletteErrorCode } from '../../errors.js';
import { defaultRegistry, type MetricSettings } from '../../metrics/registry.js';
import type { TaskHandler } from './handler.js';

/** What every MBR worker receives once. */
export interface MbrWorkerSetup {
  /** The utility's metrics as `-m` names them, with their weights, and the metrics' settings. */
  readonly utility: readonly UtilitySpec[];
  readonly settings: MetricSettings;
  /** Sample streams (`samples[k][s]`), pseudo-reference streams (undefined: the samples), weight streams. */
  readonly samples: readonly (readonly string[])[];
  readonly pseudoRefs: readonly (readonly string[])[] | undefined;
  readonly weightStreams: readonly (readonly number[])[] | undefined;
  readonly direction: 'higher' | 'lower';
  readonly includeSelf: boolean;
  /** Reference aggregation instead of the pairs. */
  readonly aggregate: boolean;
  /** Whether to send each segment's matrix back (`--matrix`). */
  readonly matrices: boolean;
}

/** Segments `[from, to)`; or, with `rows`, rows `[rows[0], rows[1])` of segment `from` alone (`to = from + 1`). */
export interface MbrTask {
  readonly from: number;
  readonly to: number;
  readonly rows?: readonly [number, number];
}

/** The decisions of a run of segments, or the input error of one of them. */
export type MbrTaskResult =
  | {
    readonly ok: true;
    /** Chosen sample of each segment (none for a block of rows: the choice needs every row). */
    readonly choices: Int32Array;
    /** Utilities, segment after segment (samples each; a block of rows: those rows'). */
    readonly utilities: Float64Array;
    /** Matrices, segment after segment (samples × pseudo-references each; a block of rows: those rows), when asked for. */
    readonly matrices: Float64Array | null;
  }
  | { readonly ok: false; readonly error: { readonly code: PaletteErrorCode; readonly message: string; readonly line: number | undefined } };

/** The MBR kind. */
export interface MbrKind {
  readonly setup: MbrWorkerSetup;
  readonly task: MbrTask;
  readonly result: MbrTaskResult;
}

/** The kind's handler, and the direction of its utility (which utilities are better: the choice of a segment cut into blocks of rows is made by the caller). */
export interface MbrHandler extends TaskHandler<MbrTask, MbrTaskResult> {
  /** @throws InputError for utility weights that sum to zero or are not non-negative numbers. */
  direction(): 'higher' | 'lower';
}

/** Sets the kind up in a worker (or in the calling thread, for the tasks it decides itself). */
export function createHandler(setup: MbrWorkerSetup): MbrHandler {
  const utility = utilityFromSpecs(setup.utility, (id) => defaultRegistry.create(id, setup.settings).metric);
  const rows = setup.samples.length;
  const columns = setup.pseudoRefs?.length ?? rows;
  const slice = <T>(streams: readonly (readonly T[])[] | undefined, from: number, to: number) => streams?.map((s) => s.slice(from, to));
  const includeSelf = setup.pseudoRefs !== undefined || setup.includeSelf;
  // The segment of the last block of rows, prepared: a thread usually gets several blocks of one segment.
  let prepared: { segment: number; rows: UtilityRows } | undefined;
  const failure = (err: unknown, from: number): MbrTaskResult => {
    if (!(err instanceof InputError)) throw err;
    const line = err.line === undefined ? undefined : err.line + from;
    return { ok: false, error: { code: err.code, message: err.message.replace(/^segment \d+: /, `segment ${line}: `), line } };
  };
  const block = (s: number, r0: number, r1: number): MbrTaskResult => {
    const weights = setup.weightStreams === undefined ? undefined : Float64Array.from(setup.weightStreams, (stream) => stream[s]);
    try {
      if (prepared?.segment !== s) {
        prepared = undefined;
        const hyps = setup.samples.map((stream) => stream[s]);
        const refs = setup.pseudoRefs === undefined ? hyps : setup.pseudoRefs.map((stream) => stream[s]);
        prepared = { segment: s, rows: new UtilityRows(resolvedUtilityOf(utility, setup.direction), hyps, refs) };
      }
      const matrix = prepared.rows.scoreRows(r0, r1);
      const utilities = mbrRowUtilities(matrix, r0, r1, rows, columns, { includeSelf, weights });
      return { ok: true, choices: new Int32Array(0), utilities, matrices: setup.matrices ? matrix : null };
    } catch (err) {
      // A row whose weights sum to zero, reported as mbrDecode reports it (its segment's line).
      if (err instanceof RangeError && weights !== undefined) return failure(new InputError('E_BAD_INPUT', `segment 1: ${err.message}`, { line: 1 }), s);
      return failure(err, s);
    }
  };
  return {
    direction: () => resolvedUtilityOf(utility, setup.direction).direction,
    run: ({ from, to, rows: range }) => {
      if (range !== undefined) return block(from, range[0], range[1]);
      const matrices = setup.matrices ? new Float64Array((to - from) * rows * columns) : null;
      try {
        const choices = mbrDecode(utility, slice(setup.samples, from, to)!, {
          direction: setup.direction,
          includeSelf: setup.includeSelf,
          aggregate: setup.aggregate,
          pseudoRefs: slice(setup.pseudoRefs, from, to),
          weightStreams: slice(setup.weightStreams, from, to),
          onMatrix: matrices === null ? undefined : (s, matrix) => matrices.set(matrix, s * rows * columns),
        });
        const utilities = new Float64Array((to - from) * rows);
        choices.forEach((c, s) => utilities.set(c.utilities, s * rows));
        return { ok: true, choices: Int32Array.from(choices, (c) => c.choice), utilities, matrices };
      } catch (err) {
        return failure(err, from);
      }
    },
    transfer: (result) => (result.ok ? [result.choices.buffer, result.utilities.buffer, ...(result.matrices ? [result.matrices.buffer] : [])] as ArrayBuffer[] : []),
  };
}
