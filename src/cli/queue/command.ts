/**
 * `palette queue status|clean RUN --redis URL`: what a queue run (`palette nbest|score|mbr … --queue URL`, which prints its
 * run id) has pending, running, failed and done, and, with `clean`, its jobs removed from Redis and its shards' result
 * folder (beside the output, or in `--queue-dir`) removed (a run that was given up; a finished run removes its own). The URL's password never appears in the output.
 */
import { existsSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import type { Queue } from 'bullmq';
import { bullmq } from '../../node/queue/packages.js';
import { InputError } from '../../errors.js';
import { formatOptionHelp, parseArgs, type OptionSpec } from '../args.js';
import { EXIT_INPUT, EXIT_OK, type CliIo } from '../io.js';
import { optionValues, sharedOption } from '../shared-options.js';
import { connectRedis, redactUrl } from '../../node/queue/connection.js';
import { RUN_ID, SHARD_QUEUE, mergeQueueName, shardJobId } from '../../node/queue/nbest-jobs.js';

const GROUP = 'palette queue options';
const SPECS: readonly OptionSpec[] = [
  sharedOption('help', GROUP),
  { key: 'redis', names: ['--redis'], arity: 'one', metavar: 'URL', help: 'the queue\'s Redis (required)', group: GROUP },
];

function help(): string {
  return (
    'usage: palette queue status|clean RUN --redis URL\n\n' +
    'status: the shards of queue run RUN by state (waiting, active, failed with their errors, completed) and its merge.\n' +
    'clean: removes the run\'s jobs from Redis.\n' +
    formatOptionHelp(SPECS) +
    '\n'
  );
}

/** Runs `palette queue` with `argv`; returns the exit status. */
export async function runQueueCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let action: string;
  let runId: string;
  let url: string;
  try {
    const { values, positionals } = parseArgs(argv, SPECS);
    if (values.has('help')) {
      io.stdout.write(help());
      return EXIT_OK;
    }
    const [a, r, ...rest] = positionals;
    if (a !== 'status' && a !== 'clean') throw new InputError('E_BAD_OPTION', `expected status or clean (got ${JSON.stringify(a ?? '')})`);
    if (r === undefined || !RUN_ID.test(r)) throw new InputError('E_BAD_OPTION', `expected a run id (16 hex digits, as palette nbest|score|mbr --queue prints it), got ${JSON.stringify(r ?? '')}`);
    if (rest.length > 0) throw new InputError('E_BAD_OPTION', `unexpected argument ${JSON.stringify(rest[0])}`);
    const given = optionValues(values).str('redis');
    if (given === undefined) throw new InputError('E_BAD_OPTION', 'the queue\'s Redis is required (--redis URL)');
    [action, runId, url] = [a, r, given];
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`palette queue: error: ${err.message}\n`);
    return EXIT_INPUT;
  }
  let redis;
  try {
    redis = await connectRedis(url, { option: '--redis' });
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`palette queue: error: ${err.message}\n`);
    return EXIT_INPUT;
  }
  const shardQueue = new bullmq.Queue(SHARD_QUEUE, { connection: redis });
  const mergeQueue = new bullmq.Queue(mergeQueueName(runId), { connection: redis });
  try {
    const parent = await mergeQueue.getJob(runId);
    const shardCount = (parent?.data as { shards?: number } | undefined)?.shards;
    if (parent === undefined || shardCount === undefined) {
      io.stdout.write(`run ${runId}: no such run on ${redactUrl(url)} (never submitted, finished and removed, or cleaned)\n`);
      return action === 'clean' ? EXIT_OK : EXIT_INPUT;
    }
    if (action === 'clean') {
      let removed = 0;
      let resultDir: string | undefined;
      for (let i = 0; i < shardCount; i++) {
        const job = await shardQueue.getJob(shardJobId(runId, i));
        if (job === undefined) continue;
        resultDir ??= (job.data as { resultDir?: unknown }).resultDir as string | undefined;
        // An active shard's lock belongs to its worker: removing it would leave that worker writing for nothing.
        if ((await job.getState()) === 'active') continue;
        await job.remove({ removeChildren: false });
        removed++;
      }
      await parent.remove({ removeChildren: false }).catch(() => {});
      await mergeQueue.obliterate({ force: true });
      // The shards' result folder, when it is on this machine and named as a run's folder is (nothing else).
      let folder = '';
      if (typeof resultDir === 'string' && basename(resultDir).endsWith(`.palette-run-${runId}`) && existsSync(resultDir)) {
        rmSync(resultDir, { recursive: true, force: true });
        folder = ` and the result folder ${resultDir}`;
      }
      io.stdout.write(`run ${runId}: removed the merge job and ${removed} of ${shardCount} shard jobs${folder}\n`);
      return EXIT_OK;
    }
    const byState = new Map<string, number>();
    const failures: string[] = [];
    for (let i = 0; i < shardCount; i++) {
      const job = await shardQueue.getJob(shardJobId(runId, i));
      const state = job === undefined ? 'missing' : await job.getState();
      byState.set(state, (byState.get(state) ?? 0) + 1);
      if (state === 'failed' && job !== undefined) failures.push(`  shard ${i}: ${job.failedReason}`);
    }
    const order = ['completed', 'active', 'waiting', 'delayed', 'waiting-children', 'prioritized', 'failed', 'missing', 'unknown'];
    const states = [...byState.entries()].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0])).map(([s, n]) => `${n} ${s}`);
    io.stdout.write(`run ${runId}: ${shardCount} shards: ${states.join(', ')}; merge ${await parent.getState()}\n`);
    for (const line of failures) io.stdout.write(`${line}\n`);
    return EXIT_OK;
  } finally {
    await shardQueue.close().catch(() => {});
    await mergeQueue.close().catch(() => {});
    redis.disconnect();
  }
}
