/**
 * Connections to the Redis server behind a Palette queue: the URL read (`redis://`, `rediss://` for TLS, with or
 * without a password), shown only with its password replaced (`redactUrl`: messages and logs never carry a secret),
 * the server reached once with a short timeout and its version checked before BullMQ is given the connection, so
 * that an unreachable or too old server is one clear line instead of BullMQ's endless reconnection attempts.
 */
import type { Redis, RedisOptions } from 'ioredis';
import { ioredis } from './packages.js';
import { InputError } from '../../errors.js';

/**
 * The oldest Redis a queue runs on. BullMQ itself refuses servers older than 5.0 and warns below 6.2, its
 * recommended minimum (its scripts rely on commands and behaviour of 6.2 for stalled-job recovery and flows); a
 * warning in the middle of a run is easily missed, so Palette refuses them outright.
 */
export const MIN_REDIS_VERSION = '6.2.0';

/** `redis://user:secret@host:6379/0` → `redis://user:***@host:6379/0`; anything unparsable is hidden whole. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '<unparsable Redis URL>';
  }
  if (parsed.password !== '') parsed.password = '***';
  else if (parsed.username !== '' && parsed.protocol.startsWith('redis')) {
    // `redis://secret@host` is read by ioredis as a password without a user name.
    parsed.username = '***';
  }
  return parsed.toString();
}

/** Replaces every occurrence of the URL's secrets in `text` (error messages of libraries may repeat them). */
export function redactSecrets(text: string, url: string): string {
  let out = text.split(url).join(redactUrl(url));
  try {
    const parsed = new URL(url);
    for (const secret of [parsed.password, parsed.username, decodeURIComponent(parsed.password)]) {
      if (secret.length >= 3) out = out.split(secret).join('***');
    }
  } catch {
    // An unparsable URL has already been replaced whole above.
  }
  return out;
}

/** Checks the URL's form (the scheme and a host). @throws InputError `E_BAD_OPTION` naming the option. */
export function checkRedisUrl(url: string, option: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InputError('E_BAD_OPTION', `${option}: not a URL (expected redis://[user:password@]host[:port][/db] or rediss://…)`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new InputError('E_BAD_OPTION', `${option}: ${redactUrl(url)} is not a redis:// or rediss:// URL`);
  }
  if (parsed.hostname === '') throw new InputError('E_BAD_OPTION', `${option}: ${redactUrl(url)} names no host`);
}

/** `a.b.c` ≥ `x.y.z`, numerically. */
export function versionAtLeast(version: string, minimum: string): boolean {
  const a = version.split('.').map((p) => Number.parseInt(p, 10) || 0);
  const b = minimum.split('.').map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

/** Options of {@link connectRedis}. */
export interface ConnectOptions {
  /** How long the first connection may take (ms). @default 5000 */
  readonly timeoutMs?: number;
  /** Name of the option the URL came from, in messages. */
  readonly option: string;
}

/**
 * A connection for BullMQ (`maxRetriesPerRequest: null`, as its workers need; later outages are retried for ever,
 * as BullMQ expects), opened and checked: reachable, authenticated, recent enough.
 * @throws InputError naming the redacted URL: unreachable, refused password, too old a server.
 */
export async function connectRedis(url: string, options: ConnectOptions): Promise<Redis> {
  checkRedisUrl(url, options.option);
  const shown = redactUrl(url);
  let connected = false;
  const done = { stopped: false };
  const redisOptions: RedisOptions = {
    maxRetriesPerRequest: null,
    lazyConnect: true,
    connectTimeout: options.timeoutMs ?? 5000,
    // The first connection fails at once (no retries: the checks below report it); once it has been made, a lost
    // connection is retried, so that BullMQ's workers and the submitter wait out a restart of the server, until
    // {@link stopReconnecting}. BullMQ's own connections are duplicates of this one and share this function.
    retryStrategy: (times) => (connected && !done.stopped ? Math.min(200 * times, 2000) : null),
  };
  const redis = new ioredis.Redis(url, redisOptions);
  stoppers.set(redis, done);
  // Connection errors are reported by the checks below and by the callers; an unhandled 'error' event would only
  // print ioredis' own line (which may name the host, never the password) to the terminal.
  let lastError: Error | undefined;
  redis.on('error', (err: Error) => {
    lastError = err;
  });
  try {
    await withTimeout(redis.connect(), options.timeoutMs ?? 5000);
    connected = true;
    const info = await withTimeout(redis.info('server'), options.timeoutMs ?? 5000);
    const version = /redis_version:([0-9.]+)/.exec(info)?.[1];
    if (version === undefined) throw new Error('the server did not report a Redis version');
    if (!versionAtLeast(version, MIN_REDIS_VERSION)) {
      throw new InputError('E_BAD_OPTION', `${options.option}: Redis at ${shown} is version ${version}; Palette's queue needs Redis ≥ ${MIN_REDIS_VERSION}`);
    }
    return redis;
  } catch (err) {
    redis.disconnect();
    if (err instanceof InputError) throw err;
    // ioredis rejects a refused connection with "Connection is closed."; the cause came as an 'error' event.
    const cause = err instanceof Error && /Connection is closed/.test(err.message) && lastError !== undefined ? lastError : err;
    const why = redactSecrets(cause instanceof Error ? cause.message : String(cause), url);
    throw new InputError('E_BAD_OPTION', `${options.option}: cannot use Redis at ${shown}: ${why}`);
  }
}

/** The flag each connection's retry strategy reads (the connection and every duplicate BullMQ makes of it). */
const stoppers = new WeakMap<Redis, { stopped: boolean }>();

/**
 * Ends the reconnection attempts of a connection from {@link connectRedis} and of the duplicates BullMQ made of it
 * (a worker's blocking connection): while Redis is away they would retry for ever and keep the process alive after
 * it gave up waiting. Each stops at its next attempt (within 2 s); then disconnects `redis` itself.
 */
export function stopReconnecting(redis: Redis): void {
  const flag = stoppers.get(redis);
  if (flag !== undefined) flag.stopped = true;
  redis.disconnect();
}

/** `promise`, or a rejection after `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
