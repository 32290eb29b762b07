/**
 * MBR decoding in a pool worker (the main side is ../mbr-pool.ts): each worker builds the utility from its `-m`
 * metrics, weights and settings, then decides runs of segments exactly as the calling thread would (src/engine/pairwise,
 * `mbrDecode` on those segments), so a segment's choice and utilities do not depend on the thread or the thread
 * count. A big segment comes as blocks of its rows instead (`UtilityRows` and `mbrRowUtilities`, the same entries
 * and utilities): the segment's texts are prepared once per thread and kept for its next block. A segment's bad
 * input (weights that sum to zero) comes back as data, its line counted in the whole input.
 *
 * A pool that outlives one input (`palette worker`, which decides shard after shard of any run on one pool) is set
 * up with no input (`null`): each task then brings its own part of it (its segments' lines, and the utility and
 * options), named by a key, and a worker keeps the last few parts it set up, so the blocks of one segment that a
 * thread gets are prepared once as before.
 */
import '../../node/install.js';
import {
  mbrDecode, mbrRowUtilities, resolvedUtilityOf, utilityFromSpecs, UtilityRows, type Utility, type UtilitySpec,
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
  /** For a pool set up with no input: the task's part of it (see the file comment). */
  readonly part?: MbrTaskPart;
}

/** A task's part of the input: its segments' lines alone (`[from, to)` of each stream, as segments 0, 1, …). */
export interface MbrTaskPart {
  /** Names the part: tasks with the same key bring the same part. */
  readonly key: string;
  readonly setup: MbrWorkerSetup;
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

/** The MBR kind (no setup: each task brings its part of the input). */
export interface MbrKind {
  readonly setup: MbrWorkerSetup | null;
  readonly task: MbrTask;
  readonly result: MbrTaskResult;
}

/** The kind's handler, and the direction of its utility (which utilities are better: the choice of a segment cut into blocks of rows is made by the caller). */
export interface MbrHandler extends TaskHandler<MbrTask, MbrTaskResult> {
  /** @throws InputError for utility weights that sum to zero or are not non-negative numbers. */
  direction(): 'higher' | 'lower';
}

/** The buffers of a result, transferred to the main thread instead of copied. */
function transferOf(result: MbrTaskResult): ArrayBuffer[] {
  return result.ok ? [result.choices.buffer, result.utilities.buffer, ...(result.matrices ? [result.matrices.buffer] : [])] as ArrayBuffer[] : [];
}

/** The utility of a setup's `-m` metrics, weights and settings. */
function utilityOf(setup: MbrWorkerSetup): Utility {
  return utilityFromSpecs(setup.utility, (id) => defaultRegistry.create(id, setup.settings).metric);
}

/** Parts a worker of a pool without input keeps set up (a thread holds a few tasks at once). */
const KEPT_PARTS = 8;

/**
 * The handler of a pool set up with no input: each task is decided by the handler of its part (kept for the
 * part's next tasks), with the utility of the part's metrics and settings (kept while they stay the same).
 */
function partsHandler(): TaskHandler<MbrTask, MbrTaskResult> {
  const parts = new Map<string, MbrHandler>();
  let utility: { key: string; utility: Utility } | undefined;
  return {
    run: (task) => {
      const { part } = task;
      if (part === undefined) throw new Error('an MBR task without its part of the input, on a pool set up with none');
      let handler = parts.get(part.key);
      if (handler === undefined) {
        const key = JSON.stringify([part.setup.utility, part.setup.settings]);
        if (utility?.key !== key) utility = { key, utility: utilityOf(part.setup) };
        handler = handlerOf(part.setup, task.from, utility.utility);
        parts.set(part.key, handler);
        if (parts.size > KEPT_PARTS) parts.delete(parts.keys().next().value!);
      }
      return handler.run(task);
    },
    failed: () => parts.clear(),
    transfer: transferOf,
  };
}

/**
 * Sets the kind up in a worker (or in the calling thread, for the tasks it decides itself); `null`: a pool whose
 * tasks bring their part of the input. (A pool worker passes the kernels' module as a second argument: unused.)
 */
export function createHandler(setup: MbrWorkerSetup): MbrHandler;
export function createHandler(setup: MbrWorkerSetup | null): TaskHandler<MbrTask, MbrTaskResult>;
export function createHandler(setup: MbrWorkerSetup | null): MbrHandler | TaskHandler<MbrTask, MbrTaskResult> {
  return setup === null ? partsHandler() : handlerOf(setup, 0, utilityOf(setup));
}

/**
 * The handler of one input.
 * @param base the segment that the setup's streams start with (a task's part: its first segment)
 * @param utility the utility of the setup's metrics and settings
 */
function handlerOf(setup: MbrWorkerSetup, base: number, utility: Utility): MbrHandler {
  const rows = setup.samples.length;
  const columns = setup.pseudoRefs?.length ?? rows;
  const slice = <T>(streams: readonly (readonly T[])[] | undefined, from: number, to: number) => streams?.map((s) => s.slice(from - base, to - base));
  const includeSelf = setup.pseudoRefs !== undefined || setup.includeSelf;
  // The segment of the last block of rows, prepared: a thread usually gets several blocks of one segment.
  let prepared: { segment: number; rows: UtilityRows } | undefined;
  const failure = (err: unknown, from: number): MbrTaskResult => {
    if (!(err instanceof InputError)) throw err;
    const line = err.line === undefined ? undefined : err.line + from;
    return { ok: false, error: { code: err.code, message: err.message.replace(/^segment \d+: /, `segment ${line}: `), line } };
  };
  const block = (s: number, r0: number, r1: number): MbrTaskResult => {
    const weights = setup.weightStreams === undefined ? undefined : Float64Array.from(setup.weightStreams, (stream) => stream[s - base]);
    try {
      if (prepared?.segment !== s) {
        prepared = undefined;
        const hyps = setup.samples.map((stream) => stream[s - base]);
        const refs = setup.pseudoRefs === undefined ? hyps : setup.pseudoRefs.map((stream) => stream[s - base]);
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
    transfer: transferOf,
  };
}
