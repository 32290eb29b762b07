/**
 * `palette mbr --samples … --queue URL`: the segments are decided by `palette worker` processes through the queue
 * (../../node/queue/mbr-jobs.ts), shard by shard, and handed back here in segment order, as `palette mbr -j N` hands
 * back its pool's runs: the command writes the chosen lines, `--scores` and `--matrix` from them as it does without
 * a queue, so its output is the same, byte for byte.
 *
 * Shards are runs of `--shard-lines` consecutive segments of every sample, pseudo-reference and weight stream. A
 * stream read from a plain file travels as the shard's byte range of that file (its offset found from the lines
 * this process read, each line's UTF-8 bytes and its line feed), with the SHA-1 of those bytes, which the worker
 * checks; other streams and the weights travel in the jobs. The flow, its merge, resubmission and Redis outages are
 * those of every queue run (../queue/flow.ts); the result files hold numbers only (utilities, matrices, choices).
 *
 * A segment's bad input in a shard (weights that sum to zero) is reported with its line in the whole input: the
 * shards are merged in order, so it is the first of the input, as without a queue.
 *
 * `--nbest LIST`: shards are byte ranges of the list cut at segment boundaries (`--shard-size` bytes, about), as for
 * `palette nbest --queue`; each worker hands back its groups' ids, choices, chosen hypotheses and utilities, and the
 * command writes them in order as it writes its own. Which bad input the streaming reader meets first depends on the
 * whole list, not on one shard: when a shard reports bad input (or the ids of two shards are out of order), the run
 * is given up and the command reads the list itself (./command.ts), which reports what `palette mbr` reports. A gzip
 * list is decompressed once, here, into the run's result folder and cut from that copy (../queue/list-copy.ts); gzip
 * data that cannot be decompressed gives the run up before it is submitted, for the same reading.
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../../errors.js';
import type { MbrWorkerSetup } from '../../pool/kinds/mbr.js';
import type { MbrRun } from '../../pool/mbr-pool.js';
import type { UtilitySpec } from '../../engine/pairwise/index.js';
import type { MetricSettings } from '../../metrics/registry.js';
import {
  MBR_JOB_VERSION, MBR_SHARD_JOB, parseMbrNbestResult, parseMbrResult, type MbrNbestGroupResult, type MbrNbestShardJob,
  type MbrNbestShardOutcome, type MbrShardJob, type MbrShardOutcome, type MbrStream,
} from '../../node/queue/mbr-jobs.js';
import { runIdOf } from '../../node/queue/nbest-jobs.js';
import { lineAtOffset, planShards, readShardResult, sha1Of, shardResultPath } from '../../node/queue/shards.js';
import { isGzipFile } from '../../node/segment-chunks.js';
import type { CliIo } from '../io.js';
import { createProgress } from '../progress.js';
import { InOrderMerge, QueueRunError, runFlow, type FlowMerge } from '../queue/flow.js';
import { ListCopy } from '../queue/list-copy.js';
import type { QueueOptions } from '../queue/options.js';

/** Pairs (sample × pseudo-reference) per shard when --shard-lines does not say: about 16 of the pool's tasks. */
const PAIRS_PER_SHARD = 1 << 22;

/** Segments per shard of a run with `rows` samples and `columns` pseudo-references, unless --shard-lines says. */
export function defaultShardLines(rows: number, columns: number): number {
  return Math.max(1, Math.floor(PAIRS_PER_SHARD / Math.max(1, rows * columns)));
}

/** What {@link mbrQueued} decides. */
export interface MbrQueuedInput {
  readonly queue: QueueOptions;
  /** Segments per shard (from --shard-lines, or {@link defaultShardLines}). */
  readonly shardLines: number;
  /** The decision, its inputs as read (the pool's setup). */
  readonly setup: MbrWorkerSetup;
  /** The files the sample and pseudo-reference streams were read from (same order). */
  readonly sampleFiles: readonly string[];
  readonly pseudoFiles: readonly string[] | undefined;
  readonly quiet: boolean;
  readonly io: CliIo;
}

/** How a stream read from `file` travels: as byte ranges of the file when it is a plain file holding those lines. */
function planStream(file: string, lines: readonly string[], cuts: readonly (readonly [number, number])[]): (index: number) => MbrStream {
  const path = resolve(file);
  const inJobs = (index: number): MbrStream => ({ lines: lines.slice(cuts[index][0], cuts[index][1]) });
  let st;
  try {
    st = statSync(path);
  } catch {
    return inJobs;
  }
  if (!st.isFile()) return inJobs;
  const encoder = new TextEncoder();
  // Each shard's bytes as the file holds them: its lines, each with its line feed (the last line may have none).
  const ranges = cuts.map(([from, to]) => encoder.encode(lines.slice(from, to).map((l) => `${l}\n`).join('')));
  const total = ranges.reduce((n, r) => n + r.length, 0);
  const unterminated = st.size === total - 1;
  if (st.size !== total && !unterminated) return inJobs;
  const streams: MbrStream[] = [];
  let offset = 0;
  ranges.forEach((range, index) => {
    const bytes = unterminated && index === ranges.length - 1 ? range.subarray(0, range.length - 1) : range;
    streams.push({ file: path, size: st.size, mtimeMs: st.mtimeMs, offset, length: bytes.length, sha1: sha1Of(bytes) });
    offset += bytes.length;
  });
  return (index) => streams[index];
}

/** How a stream enters the run id: its byte ranges, or a hash of its lines. */
function identity(plan: (index: number) => MbrStream, shards: number, lines: readonly string[]): unknown {
  const first = plan(0);
  if ('lines' in first) return { sha1: sha1Of(new TextEncoder().encode(lines.join('\n'))), n: lines.length };
  return Array.from({ length: shards }, (_, i) => plan(i));
}

/**
 * Decides every segment of `input.setup` through the queue and hands each shard's decisions to `onRun` in segment
 * order; returns what to do once the output is committed (remove the run's jobs and result files).
 * @throws InputError for a segment's bad input (its line in the whole input) and for an unusable Redis or result
 * folder; QueueRunError when a shard failed twice, the run's jobs vanished or Redis stayed away too long.
 */
export async function mbrQueued(
  input: MbrQueuedInput,
  onRun: (from: number, to: number, run: MbrRun) => void,
): Promise<() => Promise<void>> {
  const { setup, queue } = input;
  const segments = setup.samples[0]?.length ?? 0;
  const rows = setup.samples.length;
  const columns = setup.pseudoRefs?.length ?? rows;
  const cuts: [number, number][] = [];
  for (let from = 0; from < segments; from += input.shardLines) cuts.push([from, Math.min(segments, from + input.shardLines)]);
  const samplePlans = setup.samples.map((lines, k) => planStream(input.sampleFiles[k], lines, cuts));
  const pseudoPlans = setup.pseudoRefs?.map((lines, k) => planStream(input.pseudoFiles![k], lines, cuts));
  const dir = resolve(queue.dir);
  const decision = {
    utility: setup.utility, settings: setup.settings, direction: setup.direction, includeSelf: setup.includeSelf,
    aggregate: setup.aggregate, matrices: setup.matrices,
  };
  const runId = runIdOf({
    v: MBR_JOB_VERSION,
    kind: MBR_SHARD_JOB,
    ...decision,
    samples: samplePlans.map((p, k) => identity(p, cuts.length, setup.samples[k])),
    pseudoRefs: pseudoPlans?.map((p, k) => identity(p, cuts.length, setup.pseudoRefs![k])) ?? null,
    weights: setup.weightStreams === undefined ? null : sha1Of(new TextEncoder().encode(JSON.stringify(setup.weightStreams))),
    cuts,
    dir,
  });
  // Named as every run's result folder ends (`palette queue clean RUN` removes it by that name).
  const resultDir = join(dir, `.mbr.palette-run-${runId}`);
  const child = (index: number): MbrShardJob => {
    const [from, to] = cuts[index];
    return {
      kind: MBR_SHARD_JOB,
      version: MBR_JOB_VERSION,
      runId,
      index,
      ...decision,
      samples: samplePlans.map((p) => p(index)),
      pseudoRefs: pseudoPlans?.map((p) => p(index)) ?? null,
      weights: setup.weightStreams?.map((w) => w.slice(from, to)) ?? null,
      from,
      to,
      resultDir,
    };
  };
  const merge = new MbrMerge(runId, cuts, resultDir, rows, columns, setup.matrices, onRun);
  return mbrFlow(input, runId, resultDir, cuts.length, child, merge, (index) => `segments ${cuts[index][0] + 1}-${cuts[index][1]}`);
}

/** The shards' decisions handed on in segment order, each shard once (see ../queue/flow.ts). */
class MbrMerge extends InOrderMerge<MbrShardOutcome> {
  constructor(
    runId: string,
    private readonly cuts: readonly (readonly [number, number])[],
    private readonly resultDir: string,
    private readonly rows: number,
    private readonly columns: number,
    private readonly matrices: boolean,
    private readonly onRun: (from: number, to: number, run: MbrRun) => void,
  ) {
    super(runId, cuts.length);
  }

  protected apply(index: number, outcome: MbrShardOutcome): void {
    const [from, to] = this.cuts[index];
    if (!outcome.ok) {
      // The worker counted the shard's segments from 1.
      const { code, message, line } = outcome.error;
      const at = line === undefined ? undefined : line + from;
      throw new InputError(code, at === undefined ? message : message.replace(/^segment \d+: /, `segment ${at}: `), { line: at });
    }
    const file = shardResultPath(this.resultDir, index, 'out');
    const bytes = readShardResult(file, outcome);
    const run = bytes === undefined ? undefined : parseMbrResult(bytes, to - from, this.rows, this.columns, this.matrices);
    if (run === undefined) {
      throw new QueueRunError(`run ${this.runId}: the result file of shard ${index} (${file}) is missing or not the decisions its job reported: submit the run again`);
    }
    this.onRun(from, to, run);
  }
}

/** Bytes of the list per shard of a `--nbest` queue run, unless --shard-size says. */
export const DEFAULT_NBEST_SHARD_BYTES = 1 << 20;

/** What {@link mbrNbestQueued} decides. */
export interface MbrNbestQueuedInput {
  readonly queue: QueueOptions;
  readonly shardBytes: number;
  /** The list as the user named it. */
  readonly file: string;
  readonly utility: readonly UtilitySpec[];
  readonly settings: MetricSettings;
  readonly direction: 'higher' | 'lower';
  readonly includeSelf: boolean;
  readonly aggregate: boolean;
  readonly quiet: boolean;
  readonly io: CliIo;
}

/**
 * Decides the groups of an n-best list through the queue and hands each to `onGroup` in list order; returns what
 * to do once the output is committed, or undefined when the list must be read here instead (a shard's bad input,
 * ids out of order across shards, gzip data that cannot be decompressed: see the file comment), the run given up.
 * A gzip list's shards are cut from a copy decompressed here into the run's result folder (../queue/list-copy.ts),
 * removed once the run is over.
 * @throws InputError for an unusable Redis or result folder; QueueRunError when a shard failed twice, the run's
 * jobs vanished or Redis stayed away too long.
 */
export async function mbrNbestQueued(
  input: MbrNbestQueuedInput,
  onGroup: (group: MbrNbestGroupResult) => void,
): Promise<(() => Promise<void>) | undefined> {
  const { file, queue } = input;
  const dir = resolve(queue.dir);
  let copy: ListCopy | undefined;
  if (isGzipFile(file)) {
    try {
      copy = await ListCopy.of(file, dir, '.mbr');
    } catch (err) {
      // The list's own fault (its gzip data): read here, the list gives the message palette mbr gives for it, and
      // any bad line before the damage first, as the streaming reader meets it.
      if (err instanceof InputError && err.code === 'E_FILE_UNREADABLE') return undefined;
      throw err;
    }
  }
  try {
    return await submitNbest(input, dir, copy, onGroup);
  } finally {
    copy?.remove();
  }
}

async function submitNbest(
  input: MbrNbestQueuedInput,
  dir: string,
  copy: ListCopy | undefined,
  onGroup: (group: MbrNbestGroupResult) => void,
): Promise<(() => Promise<void>) | undefined> {
  const { file, queue } = input;
  let listPath = copy?.file ?? file;
  const plan = planShards(listPath, input.shardBytes);
  const { shards } = plan;
  const list = { size: plan.size, mtimeMs: plan.mtimeMs };
  const nbest = resolve(file);
  const decision = {
    utility: input.utility, settings: input.settings, direction: input.direction, includeSelf: input.includeSelf, aggregate: input.aggregate,
  };
  // A gzip list's run is that of its compressed file (its path, size and time) and of the copy's plan.
  const gzip = copy === undefined ? undefined : (({ size, mtimeMs }) => ({ size, mtimeMs }))(statSync(file));
  const runId = runIdOf({
    v: MBR_JOB_VERSION,
    kind: MBR_SHARD_JOB,
    ...decision,
    nbest,
    ...(gzip === undefined ? {} : { gzip }),
    name: file,
    list,
    shards: shards.map((s) => [s.offset, s.length, s.head, s.tail]),
    dir,
  });
  const resultDir = join(dir, `.mbr.palette-run-${runId}`);
  if (copy !== undefined) {
    copy.moveInto(resultDir);
    listPath = copy.file;
  }
  const listAbs = resolve(listPath);
  const child = (index: number): MbrNbestShardJob => ({
    kind: MBR_SHARD_JOB, version: MBR_JOB_VERSION, runId, index, ...decision, nbest: listAbs, name: file, list, shard: shards[index], resultDir,
  });
  const merge = new NbestGroupsMerge(runId, shards.length, resultDir, onGroup);
  try {
    return await mbrFlow(input, runId, resultDir, shards.length, child, merge, (index) => `from line ${lineAtOffset(listPath, shards[index].offset)}`);
  } catch (err) {
    if (merge.failed) return undefined;
    throw err;
  }
}

/** Runs one `palette mbr` flow of `shards` shards with its progress line on stderr (both kinds of input). */
async function mbrFlow(
  input: { readonly io: CliIo; readonly quiet: boolean; readonly queue: QueueOptions },
  runId: string,
  resultDir: string,
  shards: number,
  child: (index: number) => object,
  merge: FlowMerge,
  where: (index: number) => string,
): Promise<() => Promise<void>> {
  const progress = createProgress(input.io.stderr, { label: 'palette mbr', unit: 'shards', quiet: input.quiet });
  try {
    return await runFlow({
      url: input.queue.url,
      option: '--queue',
      runId,
      shards,
      resultDir,
      shardJob: MBR_SHARD_JOB,
      child,
      merge,
      where,
      redisTimeoutMs: input.queue.redisTimeoutMs,
      note: (line) => {
        if (!input.quiet) input.io.stderr.write(`palette mbr: ${line}\n`);
      },
      progress,
    });
  } finally {
    progress.clear();
  }
}

/** The shards' groups handed on in list order, each shard once (see ../queue/flow.ts). */
class NbestGroupsMerge extends InOrderMerge<MbrNbestShardOutcome> {
  private lastId = -1;

  constructor(
    runId: string,
    shards: number,
    private readonly resultDir: string,
    private readonly onGroup: (group: MbrNbestGroupResult) => void,
  ) {
    super(runId, shards);
  }

  protected apply(index: number, outcome: MbrNbestShardOutcome): void {
    // Bad input, or a shard whose first id does not follow the ids before it (out of order, or a group cut in
    // two): the list is read in the submitting process, which reports it as palette mbr does.
    if (!outcome.ok) throw new InputError(outcome.error.code, outcome.error.message);
    if (outcome.firstId >= 0 && outcome.firstId <= this.lastId) {
      throw new InputError('E_BAD_INPUT', `shard ${index} starts with id ${outcome.firstId} after id ${this.lastId}`);
    }
    const file = shardResultPath(this.resultDir, index, 'out');
    const bytes = readShardResult(file, outcome);
    const groups = bytes === undefined ? undefined : parseMbrNbestResult(bytes);
    if (groups === undefined) {
      throw new QueueRunError(`run ${this.runId}: the result file of shard ${index} (${file}) is missing or not the decisions its job reported: submit the run again`);
    }
    for (const group of groups) this.onGroup(group);
    if (outcome.lastId >= 0) this.lastId = outcome.lastId;
  }
}
