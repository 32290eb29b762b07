/**
 * `palette nbest --queue` with `palette worker` processes on a real Redis (test/helpers/redis-server.ts starts one
 * per suite): the merged output is byte-identical to `palette nbest` without a queue for 1 and 3 workers, and with
 * `--ffile` for the features too; a worker killed in the middle of a shard loses nothing and doubles nothing; a
 * Redis restart either resumes the run (persistence) or ends it with a clear message (none), and a Redis stopped for
 * good ends it after `--redis-timeout`, never with a wrong output; a shard that fails twice fails the run with that
 * shard's error; passwords never show; status and clean. The processes are the real executable (bin/palette runs
 * dist/: `npm run build:ts`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateNbestFiles } from '../bench/nbest-gen.js';
import { killAll, spawnPalette, type PaletteProcess as Proc } from './helpers/palette-process.js';
import { HAVE_REDIS, REDIS_SKIP_REASON, startRedis, type RedisServer } from './helpers/redis-server.js';


const palette = spawnPalette;

/** Whether `openssl` can make the self-signed certificate of the TLS test. */
const HAVE_OPENSSL = spawnSync('openssl', ['version']).status === 0;

const METRICS = ['-m', 'bleu', 'rouge-l', 'rouge-s4', 'wer', '--stats-format', 'msgpack'];
/** 64 KiB shards: the generated list (~1.3 MB) gives a dozen or so. */
const SHARD = ['--shard-size', String(1 << 16)];

/** A client of the test's own (errors while a server restarts are expected; commands wait for it). */
function redisClient(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: null });
  client.on('error', () => {});
  return client;
}

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Shard lines of a worker's log (one per shard it finished). */
function shardLines(log: string): string[] {
  return log.split('\n').filter((l) => / shard \d+: /.test(l));
}

/** The generated list, its references and the single-machine output, made once for both suites. */
interface Fixture {
  readonly dir: string;
  readonly nbest: string;
  readonly refs: string[];
  readonly single: Buffer;
}
let made: Promise<Fixture> | undefined;
function fixture(): Promise<Fixture> {
  made ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-queue-'));
    const gen = generateNbestFiles(dir, { segments: 60, hypsPerSegment: 150, refs: 4, length: 20, vocabulary: 5000, seed: 16 });
    const out = join(dir, 'single.msgpack');
    const r = await palette(['nbest', '--nbest', gen.nbest, '-r', ...gen.refs, ...METRICS, '--stats', out, '-j', '1'], dir).done;
    expect(r.code, r.err).toBe(0);
    return { dir, nbest: gen.nbest, refs: gen.refs, single: readFileSync(out) };
  })();
  return made;
}

afterAll(async () => {
  if (made !== undefined) rmSync((await made).dir, { recursive: true, force: true });
});

describe.skipIf(!HAVE_REDIS)(`palette nbest --queue with palette worker (${REDIS_SKIP_REASON})`, () => {
  let dir: string;
  let nbest: string;
  let refs: string[];
  let single: Buffer;
  let redis: RedisServer;
  const workers: Proc[] = [];

  beforeAll(async () => {
    ({ dir, nbest, refs, single } = await fixture());
    redis = await startRedis();
  }, 60_000);

  afterEach(async () => {
    await killAll(workers);
  });

  afterAll(async () => {
    await redis?.dispose();
  });

  const worker = (url: string, ...extra: string[]): Proc => {
    const w = palette(['worker', '--redis', url, '--allow-dir', dir, ...extra], dir);
    workers.push(w);
    return w;
  };
  const submit = (url: string, out: string, ...extra: string[]): Proc =>
    palette(['nbest', '--nbest', nbest, '-r', ...refs, ...METRICS, '--stats', out, '--queue', url, ...SHARD, ...extra], dir);

  it.each([1, 3])('%i worker process(es): the output is byte-identical to palette nbest without a queue', async (n) => {
    const logs = Array.from({ length: n }, () => worker(redis.url));
    const out = join(dir, `queue-${n}.msgpack`);
    const r = await submit(redis.url, out).done;
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(out).equals(single)).toBe(true);
    const shards = Number(/(\d+) shards/.exec(r.err)?.[1]);
    expect(shards).toBeGreaterThan(5);
    // Each shard ran exactly once (no worker died): nothing doubled.
    expect(logs.flatMap((w) => shardLines(w.err())).length).toBe(shards);
    // The run's result folder and jobs are gone once the output is committed.
    expect(readdirSync(dir).filter((f) => f.includes('palette-run-'))).toEqual([]);
    const client = redisClient(redis.url);
    expect(await client.keys('bull:palette-merge-*')).toEqual([]);
    expect(await client.keys('bull:palette-shards:*-shard-*')).toEqual([]);
    client.disconnect();
  }, 60_000);

  it('a worker killed in the middle of a shard: the shard runs again on another worker, nothing lost or doubled', async () => {
    const client = redisClient(redis.url);
    const a = worker(redis.url, '--lock-ms', '1000');
    const out = join(dir, 'killed.msgpack');
    const run = submit(redis.url, out);
    // Stop A while it holds a shard: frozen with the shard active (mid-shard, or done but not yet acknowledged).
    let held: string | undefined;
    await until('worker A holding a shard', async () => {
      const active = await client.lrange('bull:palette-shards:active', 0, -1);
      if (active.length === 0) return false;
      process.kill(a.child.pid!, 'SIGSTOP');
      const still = await client.lrange('bull:palette-shards:active', 0, -1);
      if (still.length > 0) {
        held = still[0];
        return true;
      }
      process.kill(a.child.pid!, 'SIGCONT');
      return false;
    });
    process.kill(a.child.pid!, 'SIGKILL');
    await a.done;
    const b = worker(redis.url, '--lock-ms', '1000');
    const r = await run.done;
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(out).equals(single)).toBe(true);
    // B ran the shard A was killed on.
    const index = Number(held!.split('-shard-')[1]);
    expect(shardLines(b.err()).some((l) => l.includes(` shard ${index}: `))).toBe(true);
    client.disconnect();
  }, 60_000);

  it('SIGTERM: a worker finishes and acknowledges the shard in hand and exits 0; the next worker does the rest, none twice', async () => {
    const client = redisClient(redis.url);
    const a = worker(redis.url);
    const out = join(dir, 'sigterm.msgpack');
    const run = submit(redis.url, out);
    let held = '';
    await until('worker A holding a shard', async () => {
      held = (await client.lrange('bull:palette-shards:active', 0, -1))[0] ?? '';
      return held !== '';
    });
    a.child.kill('SIGTERM');
    const stopped = await a.done;
    expect(stopped.code).toBe(0);
    expect(stopped.err).toContain('SIGTERM: finishing the shards in hand');
    // The shard it held was finished and acknowledged by A: none is left active with a lock of a gone worker.
    const index = Number(held.split('-shard-')[1]);
    expect(shardLines(stopped.err).some((l) => l.includes(` shard ${index}: `))).toBe(true);
    expect(await client.lrange('bull:palette-shards:active', 0, -1)).toEqual([]);
    const b = worker(redis.url);
    const r = await run.done;
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(out).equals(single)).toBe(true);
    const shards = Number(/(\d+) shards/.exec(r.err)?.[1]);
    expect(shardLines(stopped.err).length + shardLines(b.err()).length).toBe(shards);
    client.disconnect();
  }, 60_000);

  it('a run submitted again (its submitter killed) reuses the shards that finished: none runs twice', async () => {
    const client = redisClient(redis.url);
    const w = worker(redis.url);
    const out = join(dir, 'resubmitted.msgpack');
    const first = submit(redis.url, out);
    await until('two shards done', async () => (await client.zcard('bull:palette-shards:completed')) >= 2);
    first.child.kill('SIGKILL');
    await first.done;
    const runId = /run ([0-9a-f]{16})/.exec(first.err())![1];
    const again = await submit(redis.url, out).done;
    expect(again.code, again.err).toBe(0);
    expect(again.err).toContain(`run ${runId}:`);
    expect(readFileSync(out).equals(single)).toBe(true);
    const shards = Number(/(\d+) shards/.exec(again.err)?.[1]);
    expect(shardLines(w.err()).length).toBe(shards);
    client.disconnect();
  }, 60_000);

  it('a shard that fails twice fails the run with that shard\'s error; status shows it, clean removes the run', async () => {
    // A copy of the list whose third shard's last bytes are changed after the run was submitted (same length, the
    // modification time put back): only that shard's worker sees other bytes.
    const copy = join(dir, 'changed.txt');
    writeFileSync(copy, readFileSync(nbest));
    const planned = new Date(1_700_000_000_000);
    utimesSync(copy, planned, planned);
    const out = join(dir, 'failed.msgpack');
    const run = palette(['nbest', '--nbest', copy, '-r', ...refs, ...METRICS, '--stats', out, '--queue', redis.url, ...SHARD], dir);
    const client = redisClient(redis.url);
    await until('the run submitted', async () => (await client.keys('bull:palette-shards:*-shard-000002')).length > 0);
    const runId = /run ([0-9a-f]{16})/.exec(run.err())![1];
    const shard2 = await client.hgetall(`bull:palette-shards:${runId}-shard-000002`);
    const { offset, length } = JSON.parse(shard2.data).shard as { offset: number; length: number };
    const bytes = readFileSync(copy);
    const at = offset + length - 100;
    bytes[at] = bytes[at] === 0x61 ? 0x62 : 0x61;
    writeFileSync(copy, bytes);
    utimesSync(copy, planned, planned);
    worker(redis.url);
    const r = await run.done;
    expect(r.code).toBe(1);
    // The list's line of the shard's start, counted only for the message.
    expect(r.err).toContain(`shard 2 (from line ${bytes.subarray(0, offset).toString().split('\n').length}) failed`);
    expect(r.err).toMatch(/shard 2 \(from line \d+\) failed after 2 attempts: .*the bytes of shard 2 .* differ from those submitted \(its last bytes differ\)/);
    expect(existsSync(out)).toBe(false);
    const status = await palette(['queue', 'status', runId, '--redis', redis.url], dir).done;
    expect(status.code).toBe(0);
    expect(status.out).toMatch(new RegExp(`run ${runId}: \\d+ shards: .*1 failed; merge failed`));
    expect(status.out).toMatch(/shard 2: .*differ from those submitted/);
    const clean = await palette(['queue', 'clean', runId, '--redis', redis.url], dir).done;
    expect(clean.code, clean.err).toBe(0);
    expect(await client.keys(`bull:palette-shards:${runId}-*`)).toEqual([]);
    expect(clean.out).toContain(`.failed.msgpack.palette-run-${runId}`);
    expect(existsSync(join(dir, `.failed.msgpack.palette-run-${runId}`))).toBe(false);
    const after = await palette(['queue', 'status', runId, '--redis', redis.url], dir).done;
    expect(after.out).toContain('no such run');
    client.disconnect();
  }, 60_000);

  it('--ffile: statistics and FEATURES_TXT byte-identical to palette nbest --ffile without a queue', async () => {
    worker(redis.url);
    const plainStats = join(dir, 'ffile-plain.msgpack');
    const plainFeatures = join(dir, 'ffile-plain.features');
    const plain = await palette(['nbest', '--nbest', nbest, '-r', ...refs, ...METRICS, '--stats', plainStats, '--ffile', plainFeatures, '-j', '1'], dir).done;
    expect(plain.code, plain.err).toBe(0);
    const stats = join(dir, 'ffile-queue.msgpack');
    const features = join(dir, 'ffile-queue.features');
    const r = await submit(redis.url, stats, '--ffile', features).done;
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(stats).equals(readFileSync(plainStats))).toBe(true);
    expect(readFileSync(features).length).toBeGreaterThan(1000);
    expect(readFileSync(features).equals(readFileSync(plainFeatures))).toBe(true);
  }, 60_000);

  it('a worker refuses a job whose paths leave its folders', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'palette-queue-other-'));
    try {
      const w = palette(['worker', '--redis', redis.url, '--allow-dir', elsewhere], dir);
      workers.push(w);
      const out = join(dir, 'refused.msgpack');
      const r = await submit(redis.url, out).done;
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/failed after 2 attempts: refused: .* lies outside the folders this worker may use/);
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 60_000);

  it('bad input: the message and exit status of the run without a queue, no output, nothing left behind', async () => {
    const bad = join(dir, 'malformed.txt');
    const lines = readFileSync(nbest, 'utf8').split('\n');
    lines[6000] = lines[6000].replace('|||', '||');
    writeFileSync(bad, lines.join('\n'));
    const args = ['nbest', '--nbest', 'malformed.txt', '-r', ...refs, ...METRICS];
    const plain = await palette([...args, '--stats', join(dir, 'bad-plain.msgpack'), '-j', '1'], dir).done;
    expect(plain.code).toBe(2);
    expect(plain.err).toContain('malformed.txt:6001: malformed n-best line');
    worker(redis.url);
    const out = join(dir, 'bad-queue.msgpack');
    const r = await palette([...args, '--stats', out, '--queue', redis.url, ...SHARD], dir).done;
    expect(r.code).toBe(2);
    const [note, ...rest] = r.err.split('\n');
    const runId = /^palette nbest: run ([0-9a-f]{16}): /.exec(note)![1];
    expect(rest.join('\n')).toBe(plain.err);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('.bad-queue.msgpack'))).toEqual([]);
    const client = redisClient(redis.url);
    expect(await client.keys(`bull:palette-merge-${runId}:*`)).toEqual([]);
    expect(await client.keys(`bull:palette-shards:${runId}-*`)).toEqual([]);
    client.disconnect();
  }, 60_000);

  it('unreachable Redis: one clear line, exit 2, no output', async () => {
    const out = join(dir, 'unreachable.msgpack');
    const r = await submit('redis://127.0.0.1:1', out).done;
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^palette nbest: error: --queue: cannot use Redis at redis:\/\/127\.0\.0\.1:1: .*\n$/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('.unreachable.msgpack'))).toEqual([]);
    const w = await palette(['worker', '--redis', 'redis://127.0.0.1:1'], dir).done;
    expect(w.code).toBe(2);
    expect(w.err).toMatch(/cannot use Redis at redis:\/\/127\.0\.0\.1:1/);
  }, 30_000);
});

describe.skipIf(!HAVE_REDIS)(`queue runs across a Redis restart, and passwords (${REDIS_SKIP_REASON})`, () => {
  let dir: string;
  let nbest: string;
  let refs: string[];
  let single: Buffer;
  const servers: RedisServer[] = [];
  const procs: Proc[] = [];

  beforeAll(async () => {
    ({ dir, nbest, refs, single } = await fixture());
  }, 60_000);

  afterEach(async () => {
    await killAll(procs);
    for (const s of servers.splice(0)) await s.dispose();
  });

  const spawnTracked = (args: string[], env?: NodeJS.ProcessEnv): Proc => {
    const p = palette(args, dir, env);
    procs.push(p);
    return p;
  };
  const submitArgs = (url: string, out: string): string[] => ['nbest', '--nbest', nbest, '-r', ...refs, ...METRICS, '--stats', out, '--queue', url, ...SHARD];

  /** Starts a worker and a run, and restarts Redis once the first shards are done. */
  async function restartMidRun(server: RedisServer, out: string): Promise<{ code: number | null; err: string; workerLog: string }> {
    const client = redisClient(server.url);
    const w = spawnTracked(['worker', '--redis', server.url, '--allow-dir', dir, '--lock-ms', '2000']);
    const run = spawnTracked(submitArgs(server.url, out));
    await until('a shard done', async () => (await client.zcard('bull:palette-shards:completed')) >= 2);
    await server.stop();
    await new Promise((r) => setTimeout(r, 300));
    await server.start();
    const r = await run.done;
    client.disconnect();
    return { code: r.code, err: r.err, workerLog: w.err() };
  }

  it('with persistence (append-only file): the run resumes and the output is byte-identical', async () => {
    const server = await startRedis({ persistence: true });
    servers.push(server);
    const out = join(dir, 'resumed.msgpack');
    const r = await restartMidRun(server, out);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(out).equals(single)).toBe(true);
  }, 60_000);

  it('without persistence: the run ends with a clear message and no output', async () => {
    const server = await startRedis({ persistence: false });
    servers.push(server);
    const out = join(dir, 'lost.msgpack');
    const r = await restartMidRun(server, out);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/its jobs are gone from Redis at redis:\/\/127\.0\.0\.1:\d+\/? \(restarted without persistence/);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('Redis stopped for good mid-run: the run ends after --redis-timeout with a clear message and no output', async () => {
    const server = await startRedis();
    servers.push(server);
    const client = redisClient(server.url);
    spawnTracked(['worker', '--redis', server.url, '--allow-dir', dir]);
    const out = join(dir, 'away.msgpack');
    const run = spawnTracked([...submitArgs(server.url, out), '--redis-timeout', '2']);
    await until('a shard done', async () => (await client.zcard('bull:palette-shards:completed')) >= 1);
    client.disconnect();
    await server.stop();
    // Within the test's time limit rather than never: the submitter gives up on its own and exits.
    const r = await run.done;
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/run [0-9a-f]{16}: Redis at redis:\/\/127\.0\.0\.1:\d+\/? did not answer for 2 s \(--redis-timeout\): nothing was written/);
    expect(existsSync(out)).toBe(false);
    // Submitting to the stopped Redis: refused at once, exit 2.
    const again = await spawnTracked(submitArgs(server.url, join(dir, 'away-again.msgpack'))).done;
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/^palette nbest: error: --queue: cannot use Redis at redis:\/\/127\.0\.0\.1:\d+\/?: /);
  }, 60_000);

  it('a password in the URL works and never appears in any output; a wrong one is refused', async () => {
    const secret = 'pa55-w0rd-never-shown';
    const server = await startRedis({ password: secret });
    servers.push(server);
    expect(server.url).toContain(secret);
    const w = spawnTracked(['worker', '--redis', server.url, '--allow-dir', dir]);
    const out = join(dir, 'password.msgpack');
    const r = await spawnTracked(submitArgs(server.url, out)).done;
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(out).equals(single)).toBe(true);
    const wrong = await spawnTracked(submitArgs(server.url.replace(secret, 'not-the-password'), join(dir, 'wrong.msgpack'))).done;
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/cannot use Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+/);
    w.child.kill('SIGTERM');
    const stopped = await w.done;
    expect(stopped.code).toBe(0);
    for (const text of [r.err, r.out, wrong.err, wrong.out, stopped.err, stopped.out]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('not-the-password');
    }
    expect(stopped.err).toContain('redis://:***@127.0.0.1');
  }, 60_000);

  it.skipIf(!HAVE_OPENSSL)('rediss:// (TLS) with a password: the run works and nothing secret is printed', async () => {
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    const made = spawnSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', key, '-out', cert,
    ], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    const secret = 'tls-s3cret-pass';
    const server = await startRedis({ password: secret, tls: { cert, key } });
    servers.push(server);
    // The self-signed certificate is trusted the way Node trusts any extra CA.
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: cert };
    const url = server.tlsUrl!;
    const w = spawnTracked(['worker', '--redis', url, '--allow-dir', dir], env);
    const out = join(dir, 'tls.msgpack');
    const r = await spawnTracked(submitArgs(url, out), env).done;
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(out).equals(single)).toBe(true);
    expect(r.err).toMatch(/on rediss:\/\/:\*\*\*@localhost:\d+/);
    // Without the certificate trusted, the connection is refused with the reason.
    const untrusted = await spawnTracked(submitArgs(url, join(dir, 'untrusted.msgpack'))).done;
    expect(untrusted.code).toBe(2);
    expect(untrusted.err).toMatch(/cannot use Redis at rediss:\/\/:\*\*\*@localhost:\d+\/?: .*certificate/);
    w.child.kill('SIGTERM');
    const stopped = await w.done;
    for (const text of [r.err, untrusted.err, stopped.err]) expect(text).not.toContain(secret);
  }, 60_000);
});
