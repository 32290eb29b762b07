/**
 * Real Redis servers for the queue tests, one per suite: `redis-server` on 127.0.0.1 on a free port, its data in a
 * temporary folder, stopped by its process id. Whether the suites run is decided here once: without a
 * `redis-server` on the PATH (.ci/run installs Debian's) they skip with {@link REDIS_SKIP_REASON} as their name.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The version `redis-server --version` reports, or undefined when there is none to run. */
function installedVersion(): string | undefined {
  const r = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0) return undefined;
  return /v=([0-9.]+)/.exec(r.stdout)?.[1] ?? 'unknown';
}

const VERSION = installedVersion();

/** Whether a `redis-server` can be started. */
export const HAVE_REDIS = VERSION !== undefined;

/** Why the queue suites skip (or run): part of their names in the report. */
export const REDIS_SKIP_REASON = HAVE_REDIS
  ? `redis-server ${VERSION}`
  : 'skipped: no redis-server on the PATH (install Debian\'s redis-server, as .ci/run does)';

/** A free TCP port on 127.0.0.1 (bound and released; the server binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether a Redis answers PING on the port (with the password, when given). */
function pings(port: number, password: string | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let data = '';
    socket.setTimeout(500, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(false));
    socket.on('connect', () => socket.write(password === undefined ? 'PING\r\n' : `AUTH ${password}\r\nPING\r\n`));
    socket.on('data', (chunk) => {
      data += chunk.toString();
      if (data.includes('+PONG')) {
        socket.destroy();
        resolve(true);
      }
    });
  });
}

/** Options of {@link startRedis}. */
export interface RedisServerOptions {
  /** Append-only file, fsync'ed on every write: a restart finds every job. @default false (nothing kept) */
  readonly persistence?: boolean;
  readonly password?: string;
  /** Also a TLS port with this certificate and key (PEM files); {@link RedisServer.tlsUrl} names it. */
  readonly tls?: { readonly cert: string; readonly key: string };
}

/** A running server of a suite. */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:PORT` (with the password when one is set). */
  readonly url: string;
  /** `rediss://localhost:TLS_PORT` (with the password) when started with `tls`. */
  readonly tlsUrl: string | undefined;
  /** Its process id. */
  pid(): number;
  /** Stops it (SIGTERM, by pid) and waits for the process to end. */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  dispose(): Promise<void>;
}

/** Starts a server (see the file comment). */
export async function startRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  const port = await freePort();
  const tlsPort = options.tls === undefined ? undefined : await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'palette-redis-'));
  let child: ChildProcess | undefined;
  const args = [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--pidfile', join(dir, 'redis.pid'),
    '--save', '', '--maxmemory-policy', 'noeviction', '--logfile', join(dir, 'redis.log'),
    ...(options.persistence ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
    ...(options.password === undefined ? [] : ['--requirepass', options.password]),
    ...(options.tls === undefined
      ? []
      : ['--tls-port', String(tlsPort), '--tls-cert-file', options.tls.cert, '--tls-key-file', options.tls.key, '--tls-auth-clients', 'no']),
  ];
  const start = async (): Promise<void> => {
    child = spawn('redis-server', args, { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (await pings(port, options.password)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server did not answer on port ${port} (log: ${join(dir, 'redis.log')})`);
  };
  const stop = async (): Promise<void> => {
    const c = child;
    child = undefined;
    if (c === undefined || c.exitCode !== null || c.pid === undefined) return;
    const ended = new Promise<void>((r) => c.once('exit', () => r()));
    process.kill(c.pid, 'SIGTERM');
    await ended;
  };
  await start();
  const auth = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`;
  return {
    port,
    url: `redis://${auth}127.0.0.1:${port}`,
    tlsUrl: tlsPort === undefined ? undefined : `rediss://${auth}localhost:${tlsPort}`,
    pid: () => child?.pid ?? -1,
    stop,
    start,
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
