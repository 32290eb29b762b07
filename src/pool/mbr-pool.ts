/**
 * `palette mbr -j N`: MBR decoding on N workers of the one pool (./task-pool.ts, mbr kind: ./kinds/mbr.ts).
 *
 * Tasks, cut as the run goes ({@link MbrTaskCursor}): runs of whole segments while one segment is at most two
 * thirds of a worker's share of the pairs left, then blocks of one segment's rows, each about an eighth of that
 * share (a segment's choice is made here once its last block is back: `mbrBest` over the rows' utilities, which
 * are those of the whole segment). Segments differ in cost by their lengths (4× between the shortest and the
 * longest of eight 1,024-sample segments): whole segments dealt to the workers in turn left one of two with 60 % of
 * the work. Blocks only at the end, because a thread prepares each segment it gets a block of (its texts' n-gram
 * index: 5–25 % of the time of its pairs), and each task costs a round trip to this thread (piscina's worker
 * answers the tasks it holds together, then waits for more: on a loaded machine a scheduler's delay each).
 *
 * Scheduling: a worker holds one run, or {@link TASKS_IN_WORKER} blocks, and gets more as its results come back,
 * whichever task they belong to; the results go to the caller in segment order, at most {@link HELD_TASKS} tasks
 * ahead of the oldest one not yet back, so memory stays bounded by those tasks (their matrices included when
 * `--matrix` asks for them) and one segment's.
 */
import { mbrBest } from '../engine/pairwise/index.js';
import { InputError } from '../errors.js';
import { createHandler, type MbrHandler, type MbrTask, type MbrTaskResult, type MbrWorkerSetup } from './kinds/mbr.js';
import { TaskPool } from './task-pool.js';

/** Pairs of a task, about: at least `min` (a block of rows, ≥ 1 row), at most `max` (a run of ≥ 1 segment). */
export interface MbrTaskPairs {
  readonly min: number;
  readonly max: number;
}

/**
 * The default: at 32k pairs a chrF block takes ≈ 20 ms on one core, so the last blocks, on one worker while the
 * other has none left, cost little, and a task's posting and result are well under 1 % of it; at 2M pairs
 * (≈ 1.5 s) a task's matrix, when `--matrix` asks for it, is 16 MB.
 */
const TASK_PAIRS: MbrTaskPairs = { min: 1 << 15, max: 1 << 21 };

/** A task is about this fraction of the pairs left per worker (guided self-scheduling). */
const SHARE_OF_LEFT = 1 / 8;

/**
 * Blocks a worker holds at once (runs: one). Piscina's worker takes every task waiting in its port before it answers
 * any (so their results come back together): two keep it busy across a round trip; more would lengthen the tail
 * (the last blocks all on one worker while the other has none).
 */
const TASKS_IN_WORKER = 2;

/** Tasks decided (or being decided) beyond the oldest one not yet handed to the caller, at most. */
const HELD_TASKS = 64;

/** Options of {@link mbrOnPool}. */
export interface MbrPoolOptions {
  /** The pairs of a task, about (see {@link MbrTaskCursor}). */
  readonly taskPairs?: MbrTaskPairs;
}

/** One run of segments' decisions. */
export type MbrRun = Extract<MbrTaskResult, { ok: true }>;

/**
 * Cuts `segments` segments of `rows` samples × `columns` pseudo-references into tasks, in order, each of about the
 * pairs asked for: at a segment's start, a run of whole segments when one fits (at least one segment), else a
 * block of that segment's rows (at least one row) up to its end. With `aggregate` (linear in the samples, and
 * decided per segment) every task is a run of whole segments.
 */
export class MbrTaskCursor {
  private segment = 0;
  private row = 0;
  private readonly pairs: number;

  constructor(
    private readonly segments: number,
    private readonly rows: number,
    private readonly columns: number,
    private readonly aggregate: boolean,
  ) {
    this.pairs = Math.max(1, rows * columns);
  }

  /** Whether every segment has been handed out. */
  get done(): boolean {
    return this.segment >= this.segments;
  }

  /** Pairs not yet handed out. */
  get pairsLeft(): number {
    return (this.segments - this.segment) * this.pairs - this.row * this.columns;
  }

  /** Whether the next task would be a run of whole segments, were it of about `pairs` pairs. */
  runFits(pairs: number): boolean {
    return this.row === 0 && (this.aggregate || this.rows < 2 || this.pairs <= pairs);
  }

  /** The next task: a run of about `pairs` pairs when one segment fits ({@link runFits}), else a block of about `blockPairs`. */
  next(pairs: number, blockPairs = pairs): MbrTask {
    if (this.done) throw new RangeError('every segment has been handed out');
    const from = this.segment;
    if (this.runFits(pairs)) {
      this.segment = Math.min(this.segments, from + Math.max(1, Math.floor(pairs / this.pairs)));
      return { from, to: this.segment };
    }
    const r0 = this.row;
    const r1 = Math.min(this.rows, r0 + Math.max(1, Math.floor(blockPairs / Math.max(1, this.columns))));
    if (r1 === this.rows) {
      this.segment++;
      this.row = 0;
    } else {
      this.row = r1;
    }
    return { from, to: from + 1, rows: [r0, r1] };
  }
}

/**
 * Decides every segment of `setup.samples` on `workers` threads and hands each run of segments to `onRun` in
 * segment order (a segment cut into blocks of rows as one run of one segment).
 * @throws InputError the first input error of a segment (its line counted in the whole input).
 */
export async function mbrOnPool(
  setup: MbrWorkerSetup,
  workers: number,
  onRun: (from: number, to: number, run: MbrRun) => void,
  options: MbrPoolOptions = {},
): Promise<void> {
  const taskPairs = options.taskPairs ?? TASK_PAIRS;
  const rows = setup.samples.length;
  const columns = setup.pseudoRefs?.length ?? rows;
  const segments = setup.samples[0]?.length ?? 0;
  if (segments === 0) return;
  const cursor = new MbrTaskCursor(segments, rows, columns, setup.aggregate);
  // No more workers than smallest tasks.
  const pool = new TaskPool({ kind: 'mbr', workers: Math.max(1, Math.min(workers, Math.ceil(cursor.pairsLeft / taskPairs.min))), setup });
  const clamp = (pairs: number): number => Math.min(taskPairs.max, Math.max(taskPairs.min, pairs));
  // Whole segments while one is at most two thirds of a worker's share of what is left; then blocks of an eighth of
  // it (a segment cut into blocks is prepared by each thread that gets one of them: 5–25 % of its pairs' time).
  const runPairs = (): number => clamp(((cursor.pairsLeft / pool.workers) * 2) / 3);
  const blockPairs = (): number => clamp((cursor.pairsLeft / pool.workers) * SHARE_OF_LEFT);
  // Tasks handed out so far, and their results until handed to the caller (a pool task's failure as `failed`).
  const tasks: MbrTask[] = [];
  const results: (MbrTaskResult | { failed: unknown } | undefined)[] = [];
  let wake: (() => void) | undefined;
  const settled = (): void => {
    wake?.();
    wake = undefined;
  };
  let local: MbrHandler | undefined;
  // The segment being put together from its blocks of rows.
  let segment: { utilities: Float64Array; matrix: Float64Array | null } | undefined;
  let direction: 'higher' | 'lower' | undefined;
  let handed = 0;
  const hand = (): void => {
    for (let r = results[handed]; r !== undefined; r = results[++handed]) {
      results[handed] = undefined;
      if ('failed' in r) throw r.failed;
      if (!r.ok) throw new InputError(r.error.code, r.error.message, { line: r.error.line });
      const task = tasks[handed];
      if (task.rows === undefined) {
        onRun(task.from, task.to, r);
        continue;
      }
      const [r0, r1] = task.rows;
      if (r0 === 0) segment = { utilities: new Float64Array(rows), matrix: setup.matrices ? new Float64Array(rows * columns) : null };
      segment!.utilities.set(r.utilities, r0);
      if (segment!.matrix !== null && r.matrices !== null) segment!.matrix.set(r.matrices, r0 * columns);
      if (r1 === rows) {
        direction ??= (local ??= createHandler(setup)).direction();
        const { utilities, matrix } = segment!;
        segment = undefined;
        onRun(task.from, task.to, { ok: true, choices: Int32Array.of(mbrBest(utilities, direction)), utilities, matrices: matrix });
      }
    }
  };
  try {
    while (!(cursor.done && handed === tasks.length)) {
      const room = (): boolean => !cursor.done && tasks.length < handed + HELD_TASKS;
      // One whole run a worker (the next one is posted when it is back: a run it holds could be the last), or
      // two blocks.
      while (room() && pool.inFlight < pool.workers * (cursor.runFits(runPairs()) ? 1 : TASKS_IN_WORKER)) {
        const task = cursor.next(runPairs(), blockPairs());
        const t = tasks.push(task) - 1;
        const label = task.rows === undefined ? `MBR segments ${task.from + 1}..${task.to}` : `MBR segment ${task.from + 1}, samples ${task.rows[0] + 1}..${task.rows[1]}`;
        pool.run(task, { label: () => label }).then(
          (o) => ((results[t] = o.result), settled()),
          (failed: unknown) => ((results[t] = { failed }), settled()),
        );
      }
      hand();
      if (handed < tasks.length) await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    await pool.close();
  }
}
