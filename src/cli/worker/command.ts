/**
 * `palette worker --redis URL [--concurrency N] [--workers N] [--allow-dir DIR ...] [--lock-ms MS] [-q]`: a
 * long-running process that takes shard jobs of queue runs (`palette nbest … --queue URL`, `palette score … --queue
 * URL`, `palette mbr … --queue URL`) from Redis through BullMQ and scores them on the engine
 * (src/node/queue/nbest-shard-runner.ts, src/node/queue/score-jobs.ts, src/node/queue/mbr-jobs.ts), `--concurrency`
 * shards at a time.
 *
 * - BullMQ holds a lock on each job while it runs and renews it every half `--lock-ms` (default 30 s) from this
 *   process's event loop, which the scoring loop gives a turn between its chunks: a long shard keeps its lock, and
 *   the shard of a worker that died (SIGKILL, a lost machine) is taken back after its lock ran out and handed to
 *   another worker (BullMQ's stalled-job recovery).
 * - SIGTERM or SIGINT: no new shard is taken, the shards in hand are finished and acknowledged, then the process
 *   exits 0. A second signal stops at once; the unfinished shards go back to the queue when their locks run out.
 * - Only Palette's shard jobs are run, and only when every path they name (list, systems, references, result folder) lies in
 *   one of the `--allow-dir` folders (default: the folder the worker was started in).
 * - The URL's password never appears in its messages (src/node/queue/connection.ts).
 */
import { resolve } from 'node:path';
import type { Job } from 'bullmq';
import { bullmq } from '../../node/queue/packages.js';
import { InputError } from '../../errors.js';
import { formatOptionHelp, parseArgs, type OptionSpec } from '../args.js';
import { EXIT_INPUT, EXIT_OK, type CliIo } from '../io.js';
import { integerValue, optionValues, sharedOption } from '../shared-options.js';
import { connectRedis, redactSecrets, redactUrl, stopReconnecting } from '../../node/queue/connection.js';
import { checkShardJob, RefusedJobError, SHARD_JOB, SHARD_QUEUE, type ShardOutcome } from '../../node/queue/nbest-jobs.js';
import { NbestShardRunner } from '../../node/queue/nbest-shard-runner.js';
import { checkScoreShardJob, SCORE_SHARD_JOB, ScoreShardRunner, type ScoreShardOutcome } from '../../node/queue/score-jobs.js';
import { checkMbrShardJob, MBR_SHARD_JOB, MbrShardRunner, type MbrNbestShardOutcome, type MbrShardOutcome } from '../../node/queue/mbr-jobs.js';
import type { LastingMbrPool } from '../../pool/mbr-pool.js';

const GROUP = 'palette worker options';
const SPECS: readonly OptionSpec[] = [
  sharedOption('help', GROUP),
  sharedOption('quiet', GROUP, 'no line per shard on standard error'),
  { key: 'redis', names: ['--redis'], arity: 'one', metavar: 'URL', help: 'the queue\'s Redis: redis://[user:password@]host[:port][/db] or rediss:// (TLS) (required)', group: GROUP },
  { key: 'concurrency', names: ['--concurrency', '-c'], arity: 'one', metavar: 'N', help: 'shards run at once (default 1)', group: GROUP },
  sharedOption('workers', GROUP, 'scoring threads per shard: this one and N-1 pool workers (default 1)'),
  { key: 'allow', names: ['--allow-dir'], arity: 'some', metavar: 'DIR', help: 'folders whose files jobs may read and write (default: the current folder)', group: GROUP },
  { key: 'lock', names: ['--lock-ms'], arity: 'one', metavar: 'MS', help: 'lock of a running shard, renewed every half of it; a dead worker\'s shard is retried after it (default 30000)', group: GROUP },
];

function help(): string {
  return (
    'usage: palette worker --redis URL [--concurrency N] [--workers N] [--allow-dir DIR ...] [--lock-ms MS] [-q]\n\n' +
    'Takes shard jobs of queue runs (palette nbest|score|mbr ... --queue URL) from Redis and scores them, until SIGTERM or\n' +
    'SIGINT (the shards in hand are finished first).\n' +
    formatOptionHelp(SPECS) +
    '\n'
  );
}

/** Runs `palette worker` with `argv` until it is stopped by a signal; returns the exit status. */
export async function runWorkerCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let url: string;
  let concurrency: number;
  let workers: number;
  let allowDirs: string[];
  let lockMs: number;
  let quiet: boolean;
  try {
    const { values, positionals } = parseArgs(argv, SPECS);
    if (values.has('help')) {
      io.stdout.write(help());
      return EXIT_OK;
    }
    if (positionals.length > 0) throw new InputError('E_BAD_OPTION', `unexpected argument ${JSON.stringify(positionals[0])}`);
    const v = optionValues(values);
    quiet = values.has('quiet');
    const given = v.str('redis');
    if (given === undefined) throw new InputError('E_BAD_OPTION', 'the queue\'s Redis is required (--redis URL)');
    url = given;
    const c = v.str('concurrency');
    concurrency = c === undefined ? 1 : integerValue('--concurrency', c, 1, 256);
    const w = v.str('workers');
    workers = w === undefined ? 1 : integerValue('--workers', w, 1, 256);
    const l = v.str('lock');
    lockMs = l === undefined ? 30_000 : integerValue('--lock-ms', l, 1000, 3_600_000);
    allowDirs = (v.list('allow') ?? [process.cwd()]).map((d) => resolve(d));
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`palette worker: error: ${err.message}\n`);
    return EXIT_INPUT;
  }
  const log = (line: string): void => {
    if (!quiet) io.stderr.write(`palette worker: ${redactSecrets(line, url)}\n`);
  };
  let redis;
  try {
    redis = await connectRedis(url, { option: '--redis' });
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`palette worker: error: ${err.message}\n`);
    return EXIT_INPUT;
  }
  const runner = new NbestShardRunner(workers);
  // The corpus pool's module loads only when a score shard asks for more than one thread.
  const scoreRunner = new ScoreShardRunner(
    workers,
    workers > 1 ? async (setup) => (await import('../../pool/corpus-pool.js')).corpusWorkerPool(setup) : undefined,
  );
  // One MBR pool for the worker's life: its module loads when an MBR shard asks for more than one thread, its
  // threads start with the first shard big enough for them, and every later shard of any run uses them (a pool
  // per shard started threads, loaded the code and warmed up again each time); closed when the worker stops.
  let mbrPool: Promise<LastingMbrPool> | undefined;
  const mbrRunner = new MbrShardRunner(
    workers,
    workers > 1
      ? async (setup, _threads, onRun) => {
        mbrPool ??= import('../../pool/mbr-pool.js').then((m) => new m.LastingMbrPool(
          workers,
          () => log(`MBR pool of ${workers - 1} worker thread${workers === 2 ? '' : 's'} started (with this one, ${workers} threads; kept until this worker stops)`),
        ));
        await (await mbrPool).decide(setup, onRun);
      }
      : undefined,
  );
  const processor = async (job: Job): Promise<ShardOutcome | ScoreShardOutcome | MbrShardOutcome | MbrNbestShardOutcome> => {
    if (job.name === MBR_SHARD_JOB) {
      // As for score shards: a path outside this worker's folders may be inside another worker's (retried).
      const data = checkMbrShardJob(job.data, allowDirs);
      const started = performance.now();
      const outcome = await mbrRunner.run(data);
      const ms = Math.round(performance.now() - started);
      const what = 'nbest' in data ? `${data.shard.length} bytes of the list` : `segments ${data.from + 1}-${data.to}`;
      log(`run ${data.runId} shard ${data.index}: ${outcome.ok ? what : 'bad input'} in ${ms} ms`);
      return outcome;
    }
    if (job.name === SCORE_SHARD_JOB) {
      // A path outside this worker's folders may be inside another worker's: an ordinary failure (retried).
      const data = checkScoreShardJob(job.data, allowDirs);
      const started = performance.now();
      const outcome = await scoreRunner.run(data);
      const ms = Math.round(performance.now() - started);
      log(`run ${data.runId} shard ${data.index}: ${outcome.ok ? `segments ${data.from + 1}-${data.to}` : 'bad input'} in ${ms} ms`);
      return outcome;
    }
    let data;
    try {
      data = checkShardJob(job.name, job.data, allowDirs);
    } catch (err) {
      // A job of another kind is never Palette's to run, on any worker; a path outside this worker's folders may
      // be inside another worker's, so that refusal is an ordinary failure (retried, maybe elsewhere).
      if (err instanceof RefusedJobError && job.name !== SHARD_JOB) throw new bullmq.UnrecoverableError(err.message);
      throw err;
    }
    const started = performance.now();
    const outcome = await runner.run(data);
    const ms = Math.round(performance.now() - started);
    log(`run ${data.runId} shard ${data.shard.index}: ${outcome.ok ? `${outcome.hyps} hyps` : 'bad input'} in ${ms} ms`);
    return outcome;
  };
  const worker = new bullmq.Worker(SHARD_QUEUE, processor, {
    connection: redis,
    concurrency,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    maxStalledCount: 1,
    autorun: true,
  });
  let lastError = 0;
  worker.on('error', (err) => {
    // Connection trouble repeats every retry: one line every 10 s is enough.
    if (performance.now() - lastError < 10_000) return;
    lastError = performance.now();
    log(`Redis: ${err.message}`);
  });
  worker.on('failed', (job, err) => {
    if (job !== undefined) log(`job ${job.id} failed: ${err.message}`);
  });
  log(`taking shards from ${redactUrl(url)} (concurrency ${concurrency}, ${workers} scoring thread${workers === 1 ? '' : 's'} each; folders: ${allowDirs.join(', ')})`);
  const status = await new Promise<number>((done) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) {
        // A second signal: stop now; BullMQ takes the unfinished shards back when their locks run out. Closing
        // waits for Redis, and BullMQ's connections go on retrying while it is away: a second later the process
        // ends whatever is still pending (a stop asked for twice is a stop).
        const status = signal === 'SIGINT' ? 130 : 143;
        stopReconnecting(redis);
        void worker.close(true).finally(() => done(status));
        setTimeout(() => process.exit(status), 1000);
        return;
      }
      stopping = true;
      log(`${signal}: finishing the shards in hand`);
      void worker.close().then(() => done(EXIT_OK), () => done(EXIT_OK));
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  await runner.close();
  await mbrPool?.then((pool) => pool.close());
  stopReconnecting(redis);
  return status;
}
