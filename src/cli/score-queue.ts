/**
 * `palette score … --queue URL`: the statistics rows of every system under every metric are scored by `palette
 * worker` processes through the queue (../node/queue/score-jobs.ts), shard by shard, and put back together here in
 * segment order; everything `palette score` does with the rows afterwards (corpus scores, signatures, `-sl` rows,
 * `--confidence`, `--paired-bs`/`--paired-ar` resampling) runs in this process on the merged rows, which are the
 * rows the single-machine run computes: its output is the same, byte for byte.
 *
 * Shards are runs of `--shard-lines` consecutive segments of every system and reference at once (they are aligned
 * by line). The flow, its merge, resubmission and Redis outages are those of every queue run (./queue/flow.ts).
 * When a metric refuses a hypothesis or reference in a shard, the rows are scored here instead, as without a queue,
 * so that the error reported is the one the single-machine run reports (its system, metric, file and line).
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../errors.js';
import type { MetricRegistry, MetricSettings } from '../metrics/registry.js';
import { runIdOf } from '../node/queue/nbest-jobs.js';
import {
  SCORE_JOB_VERSION, SCORE_SHARD_JOB, type ScoreShardJob, type ScoreShardOutcome, type ScoreStream,
} from '../node/queue/score-jobs.js';
import { readShardResult, sha1Of, shardResultPath } from '../node/queue/shards.js';
import type { CliIo } from './io.js';
import { createProgress } from './progress.js';
import { InOrderMerge, QueueRunError, runFlow } from './queue/flow.js';
import type { ScoreQueueOptions } from './score-options.js';

/** A stream as the submitter holds it: its lines, and the file they were read from when every worker may read it. */
export interface QueuedStream {
  readonly lines: readonly string[];
  /** The file, when its lines are its whole content as read (right-stripped); undefined: the lines travel in the jobs. */
  readonly path?: string;
}

/** What {@link queuedRows} scores. */
export interface QueuedRowsInput {
  readonly queue: ScoreQueueOptions;
  /** Canonical metric ids, in the order of the rows, their settings and row widths. */
  readonly ids: readonly string[];
  readonly settings: MetricSettings;
  readonly widths: readonly number[];
  /** The registry the ids come from (workers build the metrics from their canonical ids with the default one). */
  readonly registry: MetricRegistry;
  readonly systems: readonly QueuedStream[];
  readonly references: readonly QueuedStream[];
  readonly encoding: string;
  readonly quiet: boolean;
  readonly io: CliIo;
}

/**
 * The rows `rows[m][k]` (metric m, system k) scored through the queue; undefined when a metric refused an input in
 * some shard (the caller scores the rows itself, which reports that refusal as the single-machine run does).
 * @throws InputError for an unusable Redis, result folder or metric (one whose rows need the whole corpus);
 * QueueRunError when a shard failed twice, the run's jobs vanished or Redis stayed away too long.
 */
export async function queuedRows(input: QueuedRowsInput): Promise<Float64Array[][] | undefined> {
  const { queue, ids, registry } = input;
  for (const id of ids) {
    // NIST's rows weigh n-grams by their counts in every reference of the corpus: a shard's rows would differ.
    if (registry.describe?.(id)?.wholeReference === true) {
      throw new InputError('E_BAD_OPTION', `--queue: the statistics rows of ${id} depend on every reference of the corpus, so they cannot be scored in shards: score ${id} without --queue`);
    }
  }
  const segments = input.references[0]?.lines.length ?? 0;
  if (segments === 0) return undefined;
  const streamOf = (s: QueuedStream): ScoreStream | undefined => {
    if (s.path === undefined) return undefined;
    const path = resolve(s.path);
    let st;
    try {
      st = statSync(path);
    } catch {
      return undefined;
    }
    return st.isFile() ? { file: path, size: st.size, mtimeMs: st.mtimeMs, encoding: input.encoding } : undefined;
  };
  const systemStreams = input.systems.map(streamOf);
  const referenceStreams = input.references.map(streamOf);
  // How a stream enters the run id: its file as planned, or a hash of its lines.
  const identity = (stream: ScoreStream | undefined, s: QueuedStream): unknown =>
    stream ?? { sha1: sha1Of(new TextEncoder().encode(s.lines.join('\n'))), n: s.lines.length };
  const cuts: [number, number][] = [];
  for (let from = 0; from < segments; from += queue.shardLines) cuts.push([from, Math.min(segments, from + queue.shardLines)]);
  const dir = resolve(queue.dir);
  const runId = runIdOf({
    v: SCORE_JOB_VERSION,
    kind: SCORE_SHARD_JOB,
    ids,
    settings: input.settings,
    systems: input.systems.map((s, k) => identity(systemStreams[k], s)),
    references: input.references.map((s, j) => identity(referenceStreams[j], s)),
    cuts,
    dir,
  });
  // Named as every run's result folder ends (`palette queue clean RUN` removes it by that name).
  const resultDir = join(dir, `.score.palette-run-${runId}`);
  const slice = (stream: ScoreStream | undefined, s: QueuedStream, from: number, to: number): ScoreStream =>
    stream ?? { lines: s.lines.slice(from, to) };
  const child = (index: number): ScoreShardJob => {
    const [from, to] = cuts[index];
    return {
      kind: SCORE_SHARD_JOB,
      version: SCORE_JOB_VERSION,
      runId,
      index,
      ids,
      settings: input.settings,
      systems: input.systems.map((s, k) => slice(systemStreams[k], s, from, to)),
      references: input.references.map((s, j) => slice(referenceStreams[j], s, from, to)),
      from,
      to,
      resultDir,
    };
  };
  const merge = new RowsMerge(runId, cuts, resultDir, input.widths, input.systems.length, segments);
  const progress = createProgress(input.io.stderr, { label: 'palette score', unit: 'shards', quiet: input.quiet });
  let cleanUp: () => Promise<void>;
  try {
    cleanUp = await runFlow({
      url: queue.url,
      option: '--queue',
      runId,
      shards: cuts.length,
      resultDir,
      shardJob: SCORE_SHARD_JOB,
      child,
      merge,
      where: (index) => `segments ${cuts[index][0] + 1}-${cuts[index][1]}`,
      redisTimeoutMs: queue.redisTimeoutMs,
      note: (line) => {
        if (!input.quiet) input.io.stderr.write(`palette score: ${line}\n`);
      },
      progress,
    });
  } finally {
    progress.clear();
  }
  await cleanUp();
  return merge.refused ? undefined : merge.rows;
}

/** The shards' rows copied into the whole corpus's, in shard order, each shard once (see ./queue/flow.ts). */
class RowsMerge extends InOrderMerge<ScoreShardOutcome> {
  /** Whether a shard reported a metric's refusal (the rows are then scored without the queue). */
  refused = false;
  readonly rows: Float64Array[][];

  constructor(
    runId: string,
    private readonly cuts: readonly (readonly [number, number])[],
    private readonly resultDir: string,
    private readonly widths: readonly number[],
    private readonly systems: number,
    segments: number,
  ) {
    super(runId, cuts.length);
    this.rows = widths.map((w) => Array.from({ length: systems }, () => new Float64Array(segments * w)));
  }

  override finish(): void {
    if (!this.refused) super.finish();
  }

  protected apply(index: number, outcome: ScoreShardOutcome): void {
    if (!outcome.ok) {
      // Merging stops here; the caller scores the rows itself, which reports the refusal.
      this.refused = true;
      throw new RefusedShard();
    }
    this.copy(index, outcome);
  }

  private copy(index: number, outcome: ScoreShardOutcome & { ok: true }): void {
    const file = shardResultPath(this.resultDir, index, 'out');
    const [from, to] = this.cuts[index];
    const n = to - from;
    const expected = this.widths.reduce((sum, w) => sum + w * n * this.systems * 8, 0);
    const bytes = readShardResult(file, outcome);
    if (bytes === undefined || bytes.length !== expected) {
      throw new QueueRunError(`run ${this.runId}: the result file of shard ${index} (${file}) is missing or not the rows its job reported: submit the run again`);
    }
    // Copied into an aligned buffer: a file's bytes need not start at a multiple of 8.
    const values = new Float64Array(expected / 8);
    new Uint8Array(values.buffer).set(bytes);
    let at = 0;
    this.widths.forEach((w, m) => {
      for (let k = 0; k < this.systems; k++) {
        this.rows[m][k].set(values.subarray(at, at + n * w), from * w);
        at += n * w;
      }
    });
  }
}

/** Stops the merge at a shard whose metric refused an input (not an error of the run). */
class RefusedShard extends Error {}
