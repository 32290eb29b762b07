/**
 * The options a command's queue run shares (`palette score --queue`, `palette mbr --queue`): the Redis URL, segments
 * per shard, the folder of the shards' results and how long Redis may be away.
 */
import { badOption, InputError } from '../../errors.js';
import type { OptionSpec } from '../args.js';
import { integerValue, type OptionValues } from '../shared-options.js';

/** `--queue URL`, `--shard-lines`, `--queue-dir`, `--redis-timeout`. */
export interface QueueOptions {
  readonly url: string;
  readonly shardLines: number;
  /** Folder of the shards' result files. */
  readonly dir: string;
  readonly redisTimeoutMs: number;
}

/**
 * The option specs, in the help group `group`; `work` says what the workers do ("score the segments"),
 * `defaultShardLines` the default of --shard-lines (a number, or how it is found).
 */
export function queueOptionSpecs(group: string, work: string, defaultShardLines: number | string): OptionSpec[] {
  return [
    { key: 'queue', names: ['--queue'], arity: 'one', metavar: 'URL', group,
      help: `${work} on palette workers through a BullMQ queue on Redis: redis://[user:password@]host[:port][/db] or rediss:// (TLS); the output is the same` },
    { key: 'shardLines', names: ['--shard-lines'], arity: 'one', metavar: 'N', group,
      help: `segments per shard of a queue run (default ${defaultShardLines})` },
    { key: 'queueDir', names: ['--queue-dir'], arity: 'one', metavar: 'DIR', group,
      help: 'folder of the shards\' results, which the workers write and this process reads (default: the current folder)' },
    { key: 'redisTimeout', names: ['--redis-timeout'], arity: 'one', metavar: 'SECONDS', group,
      help: 'a queue run whose Redis does not answer for this long ends with nothing printed; back sooner, the run goes on (default 60)' },
  ];
}

/**
 * The queue options; undefined without `--queue`.
 * @throws InputError `E_BAD_OPTION` for another queue option without `--queue`, or a bad value.
 */
export function readQueueOptions(v: OptionValues, defaultShardLines: number): QueueOptions | undefined {
  const url = v.str('queue');
  for (const [key, flag] of [['shardLines', '--shard-lines'], ['queueDir', '--queue-dir'], ['redisTimeout', '--redis-timeout']] as const) {
    if (url === undefined && v.str(key) !== undefined) throw new InputError('E_BAD_OPTION', `${flag} needs --queue URL`);
  }
  if (url === undefined) return undefined;
  const shardLines = v.str('shardLines') === undefined ? defaultShardLines : integerValue('--shard-lines', v.str('shardLines')!, 1);
  const timeoutText = v.str('redisTimeout');
  const timeout = timeoutText === undefined ? 60 : Number(timeoutText);
  if (!(Number.isFinite(timeout) && timeout >= 1 && timeout <= 86_400)) {
    throw badOption('--redis-timeout', 'a number of seconds from 1 to 86400', timeoutText);
  }
  return { url, shardLines, dir: v.str('queueDir') ?? '.', redisTimeoutMs: timeout * 1000 };
}
