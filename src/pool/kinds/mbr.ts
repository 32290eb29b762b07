/**
 * MBR decoding in a pool worker (the main side is ../mbr-pool.ts): each worker builds the utility from its `-m`
 * metrics, weights and settings, then decides runs of segments exactly as the calling thread would (src/engine/pairwise,
 * `mbrDecode` on those segments), so a segment's choice and utilities do not depend on the thread or the thread
 * count. A segment's bad input (weights that sum to zero) comes back as data, its line counted in the whole input.
 */
import '../../node/install.js';
import { mbrDecode, utilityFromSpecs, type UtilitySpec } from '../../engine/pairwise/index.js';
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

/** Segments `[from, to)`. */
export interface MbrTask {
  readonly from: number;
  readonly to: number;
}

/** The decisions of a run of segments, or the input error of one of them. */
export type MbrTaskResult =
  | {
    readonly ok: true;
    /** Chosen sample of each segment. */
    readonly choices: Int32Array;
    /** Utilities, segment after segment (samples each). */
    readonly utilities: Float64Array;
    /** Matrices, segment after segment (samples × pseudo-references each), when asked for. */
    readonly matrices: Float64Array | null;
  }
  | { readonly ok: false; readonly error: { readonly code: PaletteErrorCode; readonly message: string; readonly line: number | undefined } };

/** The MBR kind. */
export interface MbrKind {
  readonly setup: MbrWorkerSetup;
  readonly task: MbrTask;
  readonly result: MbrTaskResult;
}

/** Sets the kind up in a worker. */
export function createHandler(setup: MbrWorkerSetup): TaskHandler<MbrTask, MbrTaskResult> {
  const utility = utilityFromSpecs(setup.utility, (id) => defaultRegistry.create(id, setup.settings).metric);
  const rows = setup.samples.length;
  const columns = setup.pseudoRefs?.length ?? rows;
  const slice = <T>(streams: readonly (readonly T[])[] | undefined, from: number, to: number) => streams?.map((s) => s.slice(from, to));
  return {
    run: ({ from, to }) => {
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
        if (!(err instanceof InputError)) throw err;
        const line = err.line === undefined ? undefined : err.line + from;
        return { ok: false, error: { code: err.code, message: err.message.replace(/^segment \d+: /, `segment ${line}: `), line } };
      }
    },
    transfer: (result) => (result.ok ? [result.choices.buffer, result.utilities.buffer, ...(result.matrices ? [result.matrices.buffer] : [])] as ArrayBuffer[] : []),
  };
}
