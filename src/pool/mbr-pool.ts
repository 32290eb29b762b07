/**
 * `palette mbr -j N`: MBR decoding on N threads, this one and N − 1 workers of the one pool (./task-pool.ts, mbr
 * kind: ./kinds/mbr.ts).
 *
 * This thread decides segments too ("caller runs", as `palette nbest` does): with a pool of N workers it sat idle
 * while one thread more started, loaded the code, warmed up and shared the cores (about a quarter of a second of
 * CPU here, a tenth of a 1,024-sample segment's pairs). Its own tasks are small, and it goes back to the event
 * loop after each, so that the workers' results are taken and their next tasks posted without waiting long.
 *
 * Tasks, cut as the run goes ({@link MbrTaskCursor}), for two sides, this thread and the pool: each side works
 * through segments of its own. The pool takes runs of whole segments while one segment is at most two thirds of a
 * thread's share of the pairs left, then one segment at a time in blocks of rows of about an eighth of that share;
 * this thread takes one segment at a time, in blocks of {@link MbrTaskPairs.min} pairs. A thread prepares each
 * segment it gets a block of (its texts' n-gram index: 5–25 % of the time of its pairs), so a segment is prepared
 * by one thread, except at the end: once every segment has been started, a side with nothing left takes blocks
 * from the end of the other side's segment while what is left there is worth preparing that segment again. A
 * segment cut into blocks is decided here once all its rows are back (`mbrBest` over the rows' utilities, which
 * are those of the whole segment). Segments differ in cost by their lengths (4× between the shortest and the
 * longest of eight 1,024-sample segments): whole segments dealt to the threads in turn left one of two with 60 %
 * of the work.
 *
 * Scheduling: a worker holds one run, or {@link TASKS_IN_WORKER} blocks, and gets more as its results come back.
 * Piscina's worker runs every task waiting in its port before it answers any, so while this thread has work of its
 * own it posts one task a turn: the next one then lands in the port while the worker runs the one before, and the
 * worker does not wait for a round trip. The results go to the caller in segment order, at most
 * {@link HELD_UNITS} runs or segments ahead of the oldest one not yet back, so memory stays bounded by those
 * (their matrices included when `--matrix` asks for them).
 *
 * `palette worker` decides shard after shard, of any run, with one pool that lives as long as the process
 * ({@link LastingMbrPool}): set up with no input, it gets each pool task's part of the input with the task
 * (./kinds/mbr.ts); this thread's own tasks work on the whole input as above.
 */
import { mbrBest } from '../engine/pairwise/index.js';
import { InputError } from '../errors.js';
import { createHandler, type MbrTask, type MbrTaskPart, type MbrTaskResult, type MbrWorkerSetup } from './kinds/mbr.js';
import { TaskPool } from './task-pool.js';

/** Pairs of a task, about: at least `min` (a block of rows, ≥ 1 row), at most `max` (a run of ≥ 1 segment). */
export interface MbrTaskPairs {
  readonly min: number;
  readonly max: number;
}

/**
 * The default: at 32k pairs a chrF block takes ≈ 20 ms on one core, so the last blocks, on one thread while the
 * other has none left, cost little, a task's posting and result are well under 1 % of it, and this thread's blocks
 * hold the workers' results up that long at most; at 2M pairs (≈ 1.5 s) a task's matrix, when `--matrix` asks for
 * it, is 16 MB.
 */
const TASK_PAIRS: MbrTaskPairs = { min: 1 << 15, max: 1 << 21 };

/** A pool task is about this fraction of the pairs left per thread (guided self-scheduling). */
const SHARE_OF_LEFT = 1 / 8;

/**
 * Blocks a worker holds at once (runs: one). Two keep it busy across a round trip; more would lengthen the tail
 * (the last blocks all on one worker while the other threads have none).
 */
const TASKS_IN_WORKER = 2;

/** Runs or segments decided (or being decided) beyond the oldest one not yet handed to the caller, at most. */
const HELD_UNITS = 64;

/**
 * What preparing a text costs (tokenizing it, counting its n-grams, its part of the references' index), in pairs'
 * time, about: 1,024 chrF samples take ≈ 60 ms to prepare, and ≈ 0.7 µs a pair.
 */
const PREP_PAIRS_PER_TEXT = 48;

/** Options of {@link mbrOnPool}. */
export interface MbrPoolOptions {
  /** The pairs of a task, about (see {@link MbrTaskCursor}). */
  readonly taskPairs?: MbrTaskPairs;
  /**
   * What preparing a text costs, in pairs: a side takes rows of the other side's segment, which it has not
   * prepared, only while they are worth twice the segment's preparation (see {@link MbrTaskCursor}). @default 48
   */
  readonly prepPairsPerText?: number;
  /**
   * The pool of a {@link LastingMbrPool}, set up with no input (each task then carries its part of it), started on
   * first use and left open; none: a pool of `threads − 1` workers is set up with the input for this call and
   * closed at its end.
   */
  readonly lasting?: LastingMbrPool;
}

/** Numbers the calls that send their tasks' parts to a lasting pool (a part's key names its call). */
let partCalls = 0;

/**
 * An MBR pool that outlives one input: started by the first input that needs more than one thread, kept for the
 * next inputs (a worker process's shards, whatever their run), closed by {@link close}. Its threads load the
 * metrics' code and warm up once, not once per input.
 */
export class LastingMbrPool {
  private pool: TaskPool<'mbr'> | undefined;
  /** Times a pool was started (one, however many inputs, until closed). */
  starts = 0;

  /**
   * @param threads threads of a call: this one and `threads − 1` pool workers
   * @param onStart called when the pool starts
   */
  constructor(
    readonly threads: number,
    private readonly onStart: () => void = () => {},
  ) {
    if (!Number.isInteger(threads) || threads < 2) throw new RangeError(`a lasting MBR pool needs threads ≥ 2 (got ${threads})`);
  }

  /** The pool, started when there is none (for {@link mbrOnPool}). */
  taskPool(): TaskPool<'mbr'> {
    if (this.pool === undefined) {
      this.pool = new TaskPool({ kind: 'mbr', workers: this.threads - 1, setup: null });
      this.starts++;
      this.onStart();
    }
    return this.pool;
  }

  /** Decides every segment of `setup.samples` as {@link mbrOnPool} does, on this pool's threads. */
  decide(setup: MbrWorkerSetup, onRun: (from: number, to: number, run: MbrRun) => void, options: Omit<MbrPoolOptions, 'lasting'> = {}): Promise<MbrPoolInfo> {
    return mbrOnPool(setup, this.threads, onRun, { ...options, lasting: this });
  }

  /** Stops the pool's threads (a later {@link decide} starts a new pool). */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }
}

/** How a run went. */
export interface MbrPoolInfo {
  /** Threads that decided segments: this one and the pool's workers (fewer than asked for a small input). */
  readonly threads: number;
  /** Tasks run by this thread and by the pool. */
  readonly tasks: { readonly here: number; readonly pool: number };
  /** Rows each side took from the end of the other side's segment. */
  readonly rowsTaken: { readonly here: number; readonly pool: number };
}

/** One run of segments' decisions. */
export type MbrRun = Extract<MbrTaskResult, { ok: true }>;

/** The two sides that take tasks: the pool's workers, and the thread that runs the pool. */
export type MbrSide = 'pool' | 'here';

/** Rows `[lo, hi)` of one segment, not yet handed out. */
interface OpenSegment {
  readonly segment: number;
  lo: number;
  hi: number;
}

/**
 * Cuts `segments` segments of `rows` samples × `columns` pseudo-references into tasks for two sides, the pool
 * ({@link next}) and this thread ({@link nextHere}), each of about the pairs asked for. A side takes, in this order:
 * the rows of its open segment, a block from their start; the next segment no side has started, as a run of
 * whole segments when one fits (at least one segment), else as its open segment; once every segment has been
 * started, a block from the end of the other side's open segment, when the side holds that segment prepared (its
 * last block was of it) or the rows left there are worth at least twice its preparation (`prepPairsPerText` per
 * text; the two sides then meet in the middle). Every row of every segment is handed out once; with one side
 * alone, in order. With `aggregate` (linear in the samples, and decided per segment) every task is a run of whole
 * segments.
 */
export class MbrTaskCursor {
  private segment = 0;
  private readonly pairs: number;
  private readonly open: Record<MbrSide, OpenSegment | undefined> = { pool: undefined, here: undefined };
  /** The segment of each side's last block. */
  private readonly prepared: Record<MbrSide, number> = { pool: -1, here: -1 };
  /** Rows each side took from the other side's segment. */
  readonly rowsTaken: Record<MbrSide, number> = { pool: 0, here: 0 };

  constructor(
    private readonly segments: number,
    private readonly rows: number,
    private readonly columns: number,
    private readonly aggregate: boolean,
    private readonly prepPairsPerText = PREP_PAIRS_PER_TEXT,
  ) {
    this.pairs = Math.max(1, rows * columns);
  }

  /** Whether every row of every segment has been handed out. */
  get done(): boolean {
    return this.segment >= this.segments && this.rowsOpen('pool') === 0 && this.rowsOpen('here') === 0;
  }

  /** Pairs not yet handed out. */
  get pairsLeft(): number {
    return (this.segments - this.segment) * this.pairs + (this.rowsOpen('pool') + this.rowsOpen('here')) * this.columns;
  }

  /** Whether the pool's next task would be a run of whole segments, were it of about `pairs` pairs. */
  runFits(pairs: number): boolean {
    return this.rowsOpen('pool') === 0 && this.segment < this.segments && this.wholeFits(pairs);
  }

  /**
   * The pool's next task: a run of about `pairs` pairs when one segment fits ({@link runFits}), else a block of about
   * `blockPairs`; undefined when there is nothing for it. With `start` false, no run or segment is started.
   */
  next(pairs: number, blockPairs = pairs, start = true): MbrTask | undefined {
    return this.take('pool', pairs, blockPairs, start);
  }

  /** This thread's next task, of about `pairs` pairs (a run of whole segments that fit, or a block); as {@link next}. */
  nextHere(pairs: number, start = true): MbrTask | undefined {
    return this.take('here', pairs, pairs, start);
  }

  private rowsOpen(side: MbrSide): number {
    const o = this.open[side];
    return o === undefined ? 0 : o.hi - o.lo;
  }

  private wholeFits(pairs: number): boolean {
    return this.aggregate || this.rows < 2 || this.pairs <= pairs;
  }

  private blockRows(pairs: number): number {
    return Math.max(1, Math.floor(pairs / Math.max(1, this.columns)));
  }

  private take(side: MbrSide, runPairs: number, blockPairs: number, start: boolean): MbrTask | undefined {
    if (start && this.rowsOpen(side) === 0 && this.segment < this.segments) {
      const from = this.segment;
      if (this.wholeFits(runPairs)) {
        this.segment = Math.min(this.segments, from + Math.max(1, Math.floor(runPairs / this.pairs)));
        return { from, to: this.segment };
      }
      this.open[side] = { segment: from, lo: 0, hi: this.rows };
      this.segment++;
    }
    const own = this.open[side];
    if (own !== undefined && own.hi > own.lo) {
      const r0 = own.lo;
      own.lo = Math.min(own.hi, r0 + this.blockRows(blockPairs));
      this.prepared[side] = own.segment;
      return { from: own.segment, to: own.segment + 1, rows: [r0, own.lo] };
    }
    const other = this.open[side === 'pool' ? 'here' : 'pool'];
    if (this.segment < this.segments || other === undefined || other.hi === other.lo) return undefined;
    const worth = (other.hi - other.lo) * this.columns >= 2 * this.prepPairsPerText * (this.rows + this.columns);
    if (this.prepared[side] !== other.segment && !worth) return undefined;
    const r1 = other.hi;
    other.hi = Math.max(other.lo, r1 - this.blockRows(blockPairs));
    this.prepared[side] = other.segment;
    this.rowsTaken[side] += r1 - other.hi;
    return { from: other.segment, to: other.segment + 1, rows: [other.hi, r1] };
  }
}

/** A task's outcome: its result, or the failure of a pool task (or of this thread's run of it). */
type Outcome = MbrTaskResult | { readonly failed: unknown };

/** A run of segments, or one segment cut into blocks of rows, from its first task until it is handed on. */
type Unit =
  | { readonly kind: 'run'; readonly from: number; readonly to: number; outcome?: Outcome }
  | {
    readonly kind: 'segment';
    readonly from: number;
    readonly to: number;
    rowsLeft: number;
    readonly utilities: Float64Array;
    readonly matrix: Float64Array | null;
    /** The failure of the failed block with the lowest rows: what one thread would have met first. */
    failure?: { readonly row: number; readonly outcome: Outcome };
  };

/** Throws a failed outcome: a pool failure as it is, bad input as an InputError (its line in the whole input). */
function throwFailure(outcome: Outcome): never {
  if ('failed' in outcome) throw outcome.failed;
  if (outcome.ok) throw new RangeError('not a failure');
  throw new InputError(outcome.error.code, outcome.error.message, { line: outcome.error.line });
}

/**
 * Decides every segment of `setup.samples` on `threads` threads (this one and `threads − 1` pool workers) and hands
 * each run of segments to `onRun` in segment order (a segment cut into blocks of rows as one run of one segment).
 * @throws InputError the first input error of a segment (its line counted in the whole input).
 */
export async function mbrOnPool(
  setup: MbrWorkerSetup,
  threads: number,
  onRun: (from: number, to: number, run: MbrRun) => void,
  options: MbrPoolOptions = {},
): Promise<MbrPoolInfo> {
  const taskPairs = options.taskPairs ?? TASK_PAIRS;
  const rows = setup.samples.length;
  const columns = setup.pseudoRefs?.length ?? rows;
  const segments = setup.samples[0]?.length ?? 0;
  const cursor = new MbrTaskCursor(segments, rows, columns, setup.aggregate, options.prepPairsPerText);
  // No more threads than smallest tasks.
  const n = Math.max(1, Math.min(threads, Math.ceil(cursor.pairsLeft / taskPairs.min)));
  const tasks = { here: 0, pool: 0 };
  if (segments === 0) return { threads: 0, tasks, rowsTaken: cursor.rowsTaken };
  const lasting = options.lasting;
  const pool = n > 1 ? (lasting?.taskPool() ?? new TaskPool({ kind: 'mbr', workers: n - 1, setup })) : undefined;
  // A lasting pool's task carries its segments' lines (a block: its segment's, under the segment's key, so that a
  // thread prepares the segment once for all the blocks of it that it gets).
  const call = ++partCalls;
  const cut = <T>(streams: readonly (readonly T[])[] | undefined, task: MbrTask) => streams?.map((s) => s.slice(task.from, task.to));
  const partOf = (task: MbrTask): MbrTaskPart => ({
    key: `${call}:${task.from}-${task.to}`,
    setup: { ...setup, samples: cut(setup.samples, task)!, pseudoRefs: cut(setup.pseudoRefs, task), weightStreams: cut(setup.weightStreams, task) },
  });
  // Pool tasks of this call not yet back: a lasting pool may hold other calls' tasks too (a worker deciding shards
  // at once), so this call counts its own, against the workers it would have had. Counted with the others', a call
  // with none of its own out and nothing to do here would go round this loop without ever letting a result in.
  const held = (): number => (lasting === undefined ? pool!.inFlight : unsettled);
  const here = createHandler(setup);
  const clamp = (pairs: number): number => Math.min(taskPairs.max, Math.max(taskPairs.min, pairs));
  // The pool: whole segments while one is at most two thirds of a thread's share of what is left; then blocks of
  // an eighth of it.
  const runPairs = (): number => clamp(((cursor.pairsLeft / n) * 2) / 3);
  const blockPairs = (): number => clamp((cursor.pairsLeft / n) * SHARE_OF_LEFT);
  // Runs and segments started and not yet handed to the caller, by their first segment: always segments
  // handed .. handed + units.size, since the cursor starts them in order.
  const units = new Map<number, Unit>();
  let handed = 0;
  let direction: 'higher' | 'lower' | undefined;
  let unsettled = 0;
  let wake: (() => void) | undefined;

  const unitOf = (task: MbrTask): Unit => {
    let unit = units.get(task.from);
    if (unit === undefined) {
      unit = task.rows === undefined
        ? { kind: 'run', from: task.from, to: task.to }
        : { kind: 'segment', from: task.from, to: task.to, rowsLeft: rows, utilities: new Float64Array(rows), matrix: setup.matrices ? new Float64Array(rows * columns) : null };
      units.set(task.from, unit);
    }
    return unit;
  };
  const settle = (task: MbrTask, unit: Unit, outcome: Outcome): void => {
    if (unit.kind === 'run') {
      unit.outcome = outcome;
      return;
    }
    const [r0, r1] = task.rows!;
    unit.rowsLeft -= r1 - r0;
    if ('failed' in outcome || !outcome.ok) {
      if (unit.failure === undefined || r0 < unit.failure.row) unit.failure = { row: r0, outcome };
      return;
    }
    unit.utilities.set(outcome.utilities, r0);
    if (unit.matrix !== null && outcome.matrices !== null) unit.matrix.set(outcome.matrices, r0 * columns);
  };
  const hand = (): void => {
    for (let unit = units.get(handed); unit !== undefined; unit = units.get(handed)) {
      if (unit.kind === 'run' ? unit.outcome === undefined : unit.rowsLeft > 0) return;
      units.delete(handed);
      handed = unit.to;
      if (unit.kind === 'run') {
        const outcome = unit.outcome!;
        if ('failed' in outcome || !outcome.ok) throwFailure(outcome);
        onRun(unit.from, unit.to, outcome);
        continue;
      }
      if (unit.failure !== undefined) throwFailure(unit.failure.outcome);
      direction ??= here.direction();
      const { utilities, matrix } = unit;
      onRun(unit.from, unit.to, { ok: true, choices: Int32Array.of(mbrBest(utilities, direction)), utilities, matrices: matrix });
    }
  };
  const post = (task: MbrTask): void => {
    const unit = unitOf(task);
    const label = task.rows === undefined ? `MBR segments ${task.from + 1}..${task.to}` : `MBR segment ${task.from + 1}, samples ${task.rows[0] + 1}..${task.rows[1]}`;
    tasks.pool++;
    unsettled++;
    const settled = (outcome: Outcome): void => {
      unsettled--;
      settle(task, unit, outcome);
      wake?.();
      wake = undefined;
    };
    pool!.run(lasting === undefined ? task : { ...task, part: partOf(task) }, { label: () => label }).then((o) => settled(o.result), (failed: unknown) => settled({ failed }));
  };
  const runHere = (task: MbrTask): void => {
    const unit = unitOf(task);
    tasks.here++;
    let outcome: Outcome;
    try {
      outcome = here.run(task);
    } catch (failed) {
      outcome = { failed };
    }
    settle(task, unit, outcome);
  };

  try {
    for (;;) {
      hand();
      if (cursor.done && units.size === 0) break;
      const mine = cursor.nextHere(taskPairs.min, units.size < HELD_UNITS);
      // With work of its own here, one task a turn (see the file comment); else as many as the workers hold.
      for (let posted = 0; pool !== undefined && (mine === undefined || posted < 1); posted++) {
        if (held() >= (n - 1) * (cursor.runFits(runPairs()) ? 1 : TASKS_IN_WORKER)) break;
        const task = cursor.next(runPairs(), blockPairs(), units.size < HELD_UNITS);
        if (task === undefined) break;
        post(task);
      }
      if (mine !== undefined) {
        runHere(mine);
        // Back to the event loop: the workers' results come in, and their next tasks go out.
        if (pool !== undefined) await new Promise<void>((resolve) => setImmediate(resolve));
      } else if (unsettled > 0) {
        await new Promise<void>((resolve) => (wake = resolve));
      }
    }
  } finally {
    if (lasting === undefined) await pool?.close();
  }
  return { threads: n, tasks, rowsTaken: cursor.rowsTaken };
}
