/**
 * Corpus scoring of several systems through the engine: what `palette score` runs for every output that needs
 * the statistics rows of systems (corpus scores, paired tests, confidence intervals, `-sl` rows). Systems are
 * hypothesis streams of one test set (`systems[k][s]`: system k's hypothesis of segment s) scored against one set of
 * references under several metrics.
 *
 * - Each distinct (segment, hypothesis) pair is scored once per metric and its row copied to every system that has
 *   it (./distinct.ts). That holds for every metric: a row depends only on its hypothesis and the prepared
 *   references (for most metrics only the segment's own references; for NIST, whose descriptor says
 *   `wholeReference`, the whole set, which is the same for every system), never on the other hypotheses.
 * - The work is one task per metric and run of segments (./task.ts). With `workers: N` and a pool (the Node
 *   adapter's `corpusWorkerPool`), N threads run them: the calling one and N − 1 pool workers, which build the same
 *   metrics from their ids and settings. Small runs stay in the calling thread (a pool costs more to start than it
 *   saves there). Rows are identical for any number of threads.
 * - Errors: when a metric refuses a hypothesis (an `InputError`), the systems are scored again one by one, in the
 *   order `errorOrder` gives, with plain `segmentStats` calls, and the first refusal is thrown as a
 *   {@link SystemRowsError} naming the system and the metric: the error a caller scoring the systems one by one in
 *   that order would meet first, with the same message and line.
 *
 * @example
 * ```ts
 * import { corpusWorkerPool, readLines, scoreSystemRows } from 'palette-mt';
 * const { rows } = await scoreSystemRows([readLines('a.de'), readLines('b.de')], {
 *   metrics: ['bleu', 'chrf', 'ter'],
 *   references: [readLines('ref.de')],
 *   workers: 2,
 *   pool: corpusWorkerPool,
 * });
 * // rows[m][k]: metric m's statistics rows of system k (segments × width, row-major)
 * ```
 */
import { InputError } from '../../errors.js';
import type { Metric, PreparedReferences } from '../../metrics/metric.js';
import type { MetricRegistry, MetricSettings } from '../../metrics/registry.js';
import { distinctHypotheses, systemRowsOf, type DistinctHypotheses } from './distinct.js';
import { CorpusTaskMetric, type CorpusTaskInput } from './task.js';

export { distinctHypotheses, type DistinctHypotheses } from './distinct.js';
export { CorpusTaskMetric, type CorpusTaskInput } from './task.js';

/** A task as a runner receives it: metric `metric` (index into the run's ids) over a run of segments. */
export interface CorpusTask extends CorpusTaskInput {
  readonly metric: number;
}

/** A metric's refusal of a task's input, as data (an error thrown across threads loses its class). */
export interface CorpusTaskError {
  readonly code: string;
  readonly message: string;
  readonly line?: number;
}

/** A task's outcome: its rows, or the input error that stopped it. */
export type CorpusTaskResult =
  | { readonly ok: true; readonly rows: Float64Array }
  | { readonly ok: false; readonly error: CorpusTaskError };

/** What runs tasks away from the calling thread (a worker pool). */
export interface CorpusTaskRunner {
  /** Tasks the runner holds at once without queueing. */
  readonly capacity: number;
  /** Tasks handed to {@link run} and not yet settled. */
  readonly inFlight: number;
  /** Runs one task; a metric's input error comes back as data. */
  run(task: CorpusTask): Promise<CorpusTaskResult>;
  /** Stops the workers; tasks still running are abandoned (the calling thread has their rows by then). */
  close(): Promise<void>;
}

/** What a runner's workers need to build the run's metrics exactly as the calling thread did (plain data). */
export interface CorpusRunnerSetup {
  /** Worker threads (the calling thread is one more). */
  readonly workers: number;
  /** Canonical metric ids, as {@link CorpusRowsOptions.metrics}. */
  readonly ids: readonly string[];
  readonly settings: MetricSettings;
  /** Reference streams, `references[j][s]`. */
  readonly references: readonly (readonly string[])[];
}

/** Starts a runner for a run (src/pool/corpus-pool.ts: workers of the one pool). */
export type CorpusRunnerFactory = (setup: CorpusRunnerSetup) => CorpusTaskRunner | Promise<CorpusTaskRunner>;

/**
 * Work (distinct hypotheses × metrics) below which a run stays in the calling thread whatever `workers` says. A
 * pool worker must load the metrics, prepare references and warm up before its first row: measured on a 2-core
 * machine, 0.3–0.5 s when idle and about 1 s beside a busy calling thread, while this thread scores BLEU, chrF and
 * TER rows at about 20 µs a (hypothesis, metric) on average (WMT21 en-de, 20 systems: 44,565 units in ≈ 1 s, where
 * `-j 2` took 0.4–0.8 s longer than `-j 1`). A worker can only pay for itself on several seconds of work.
 */
export const MIN_POOL_WORK = 150_000;

/** Options of {@link scoreSystemRows}. */
export interface CorpusRowsOptions {
  /**
   * Metric ids (each once): `-m` names the registry knows. Pool workers build them with the default registry; give
   * canonical ids (`registry.resolve`) so that every thread builds the same metric.
   */
  readonly metrics: readonly string[];
  /** Reference streams, `references[j][s]` = reference j of segment s; every stream of the same length. */
  readonly references: readonly (readonly string[])[];
  /** Settings of the metrics, as the registry takes them. @default {} */
  readonly settings?: MetricSettings;
  /** The registry the calling thread builds metrics with. @default the default registry (loaded on first use) */
  readonly registry?: MetricRegistry;
  /**
   * The metrics already built (`registry.create(metrics[k], settings).metric`) with their references prepared from
   * `references`, to use in the calling thread instead of building and preparing them again.
   */
  readonly built?: { readonly metrics: readonly Metric[]; readonly prepared: readonly PreparedReferences[] };
  /** Scoring threads: the calling one and `workers − 1` of `pool`. @default 1 */
  readonly workers?: number;
  /** The pool for `workers > 1` (Node: `corpusWorkerPool`). */
  readonly pool?: CorpusRunnerFactory;
  /** Work below which no pool starts (see {@link MIN_POOL_WORK}). @default MIN_POOL_WORK */
  readonly minPoolWork?: number;
  /**
   * The order in which systems are scored again to find the first refusal of a hypothesis: every metric of a
   * system before the next system (`systems`), or every system under a metric before the next metric (`metrics`).
   * @default 'systems'
   */
  readonly errorOrder?: 'systems' | 'metrics';
  /**
   * Told, after each task whose rows are in, how many (hypothesis, metric) units of `total` are done (a page's
   * progress bar). It only listens: the rows are the same with it or without it.
   */
  readonly onProgress?: (done: number, total: number) => void;
}

/** The rows of a run. */
export interface CorpusRows {
  /** `rows[m][k]`: metric m's rows of system k, `segments × widths[m]` numbers, row-major. */
  readonly rows: readonly (readonly Float64Array[])[];
  /** Row width of each metric. */
  readonly widths: readonly number[];
  /** Distinct (segment, hypothesis) pairs scored per metric. */
  readonly distinct: number;
  /** Threads that scored (1: the calling thread alone). */
  readonly threads: number;
}

/** The refusal of a hypothesis by a metric, found by scoring the systems one by one (see the file comment). */
export class SystemRowsError extends Error {
  /**
   * @param system index of the system.
   * @param metric index of the metric in {@link CorpusRowsOptions.metrics}.
   * @param cause the metric's error, as its `segmentStats` threw it for that system.
   */
  constructor(
    readonly system: number,
    readonly metric: number,
    override readonly cause: InputError,
  ) {
    super(cause.message);
    this.name = 'SystemRowsError';
  }
}

/**
 * Cuts every metric's segments into tasks of about `perTask` hypotheses (whole segments); a metric that `whole`
 * says must be scored in one piece gets one task.
 */
function cutTasks(
  distinct: DistinctHypotheses,
  metrics: number,
  perTask: number,
  whole: (m: number) => boolean = () => true,
): CorpusTask[] {
  const tasks: CorpusTask[] = [];
  const { groupStarts, segments, hyps } = distinct;
  for (let m = 0; m < metrics; m++) {
    let from = 0;
    while (from < segments) {
      let to = from + 1;
      while (to < segments && (whole(m) || groupStarts[to] - groupStarts[from] < perTask)) to++;
      const base = groupStarts[from];
      tasks.push({
        metric: m,
        from,
        hyps: hyps.slice(base, groupStarts[to]),
        groupStarts: groupStarts.slice(from, to + 1).map((x) => x - base),
      });
      from = to;
    }
    if (segments === 0) tasks.push({ metric: m, from: 0, hyps: [], groupStarts: Int32Array.of(0) });
  }
  return tasks;
}

/** A worker's input error as the error the calling thread would have thrown. */
function inputErrorOf(error: CorpusTaskError): InputError {
  return new InputError(error.code as InputError['code'], error.message, { line: error.line });
}

/** Lets the event loop take the pool's replies between two tasks of the calling thread. */
function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Scores the first refusal of a hypothesis again, system by system: the {@link SystemRowsError} to throw, or
 * undefined when no metric refuses (then the original error stands).
 */
function locateRefusal(
  metrics: readonly CorpusTaskMetric[],
  systems: readonly (readonly string[])[],
  order: 'systems' | 'metrics',
): SystemRowsError | undefined {
  const outer = order === 'systems' ? systems.length : metrics.length;
  const inner = order === 'systems' ? metrics.length : systems.length;
  for (let i = 0; i < outer; i++) {
    for (let j = 0; j < inner; j++) {
      const [k, m] = order === 'systems' ? [i, j] : [j, i];
      try {
        metrics[m].metric.segmentStats(systems[k], metrics[m].prepared());
      } catch (err) {
        if (err instanceof InputError) return new SystemRowsError(k, m, err);
        throw err;
      }
    }
  }
  return undefined;
}

/**
 * Statistics rows of every system under every metric (see the file comment).
 * @throws SystemRowsError when a metric refuses a hypothesis; InputError for an unknown metric, a bad setting, bad
 * references or a system whose length differs from the references'; PoolTaskError when a pool task fails twice.
 */
export async function scoreSystemRows(
  systems: readonly (readonly string[])[],
  options: CorpusRowsOptions,
): Promise<CorpusRows> {
  const settings = options.settings ?? {};
  const ids = options.metrics;
  const references = options.references;
  const segments = references[0]?.length ?? 0;
  let registry = options.registry;
  const registryNow = async (): Promise<MetricRegistry> => {
    registry ??= (await import('../../metrics/registry.js')).defaultRegistry;
    return registry;
  };
  const built = options.built;
  const metrics: CorpusTaskMetric[] = [];
  for (let m = 0; m < ids.length; m++) {
    const reg = await registryNow();
    const metric = built?.metrics[m] ?? reg.create(ids[m], settings).metric;
    const whole = reg.describe?.(ids[m])?.wholeReference === true;
    metrics.push(new CorpusTaskMetric(metric, references, whole, built?.prepared[m]));
  }
  const distinct = distinctHypotheses(systems, segments);
  const distinctRows: Float64Array[] = metrics.map((m) => new Float64Array(distinct.hyps.length * m.metric.statsWidth));

  const workers = options.workers ?? 1;
  const work = distinct.hyps.length * ids.length;
  const pooled = workers > 1 && options.pool !== undefined && work >= (options.minPoolWork ?? MIN_POOL_WORK);
  let failure: unknown;
  let unitsDone = 0;
  const progress = (task: CorpusTask): void => {
    unitsDone += task.hyps.length;
    options.onProgress?.(unitsDone, work);
  };
  if (!pooled) {
    try {
      for (const task of cutTasks(distinct, ids.length, Infinity)) {
        distinctRows[task.metric] = metrics[task.metric].rows(task);
        progress(task);
      }
    } catch (err) {
      failure = err;
    }
  } else {
    // About eight tasks per thread and metric: small enough that no thread waits long for the last one.
    const perTask = Math.max(64, Math.ceil(distinct.hyps.length / (8 * workers)));
    // A metric scored in layers against every reference (NIST) pays a whole layer per task: one task for it.
    const tasks = cutTasks(distinct, ids.length, perTask, (m) => !metrics[m].splits);
    const runner = await options.pool!({ workers: workers - 1, ids, settings, references });
    const store = (task: CorpusTask, rows: Float64Array): void => {
      distinctRows[task.metric].set(rows, distinct.groupStarts[task.from] * metrics[task.metric].metric.statsWidth);
    };
    // A task's rows are kept from whichever thread gives them first (they are the same from every thread).
    const finished = new Uint8Array(tasks.length);
    const finish = (i: number, rows: () => Float64Array): void => {
      if (finished[i] === 1) return;
      finished[i] = 1;
      try {
        store(tasks[i], rows());
        progress(tasks[i]);
      } catch (err) {
        failure ??= err;
      }
    };
    try {
      // The calling thread takes tasks from the front, the pool from the back, until they meet.
      let front = 0;
      let back = tasks.length;
      while (front < back && failure === undefined) {
        if (runner.inFlight < runner.capacity) {
          const i = --back;
          runner.run(tasks[i]).then(
            (result) => {
              if (result.ok) finish(i, () => result.rows);
              else if (finished[i] === 0) failure ??= inputErrorOf(result.error);
            },
            (err: unknown) => {
              if (finished[i] === 0) failure ??= err;
            },
          );
          continue;
        }
        const i = front++;
        finish(i, () => metrics[tasks[i].metric].rows(tasks[i]));
        await yieldToEvents();
      }
      // Then it takes the pool's unfinished tasks, the latest posted first, so that a worker slow to start or to
      // finish never holds the run up.
      for (let i = back; i < tasks.length && failure === undefined; i++) {
        if (finished[i] === 0) finish(i, () => metrics[tasks[i].metric].rows(tasks[i]));
        await yieldToEvents();
      }
    } finally {
      await runner.close();
    }
  }
  if (failure !== undefined) {
    if (failure instanceof InputError) {
      throw locateRefusal(metrics, systems, options.errorOrder ?? 'systems') ?? failure;
    }
    throw failure;
  }
  return {
    rows: metrics.map((m, k) => systemRowsOf(distinct, distinctRows[k], m.metric.statsWidth)),
    widths: metrics.map((m) => m.metric.statsWidth),
    distinct: distinct.hyps.length,
    threads: pooled ? workers : 1,
  };
}
