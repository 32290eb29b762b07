/**
 * `palette score --queue` with `palette worker` processes on a real Redis (test/helpers/redis-server.ts): stdout is
 * byte-identical to `palette score` without a queue for 1 and 3 workers (several systems, BLEU, chrF, TER and ROUGE,
 * corpus scores, `-sl` rows, a paired test, a confidence interval on the merged rows); a worker refuses a shard whose
 * files lie outside its --allow-dir and the run fails with that refusal; a metric's refusal of a hypothesis in a
 * shard is reported as without a queue (file, line, exit status 2); an unreachable Redis and a metric whose rows
 * need the whole corpus (NIST) are one clear line and exit status 2. The processes are the real executable
 * (bin/palette runs dist/: `npm run build:ts`).
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killAll, spawnPalette, type PaletteProcess as Proc } from './helpers/palette-process.js';
import { HAVE_REDIS, REDIS_SKIP_REASON, freePort, startRedis, type RedisServer } from './helpers/redis-server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const palette = spawnPalette;

const SYSTEMS = ['sys/LIUM-NMT.4900.de', 'sys/online-B.0.de', 'sys/uedin-nmt.4722.de'];
/** The command lines compared (300 segments each; 40 per shard gives 8 shards). */
const CASES: Record<string, string[]> = {
  'three systems, corpus scores': ['score', 'ref.de', '-i', ...SYSTEMS, '-m', 'bleu', 'chrf', 'ter', 'rouge-l'],
  'three systems, -sl rows': ['score', 'ref.de', '-i', ...SYSTEMS, '-m', 'bleu', 'chrf', 'ter', 'rouge-2', '-sl'],
  'paired bootstrap on the merged rows': ['score', 'ref.de', '-i', ...SYSTEMS, '-m', 'bleu', 'chrf', '--paired-bs', '--paired-bs-n', '50'],
  'one system, confidence interval, text': ['score', 'ref.de', '-i', SYSTEMS[1], '-m', 'bleu', 'ter', 'rouge-l', '-ci', '-cin', '50', '-f', 'text'],
  'one system, one metric, -sl lines': ['score', 'ref.de', '-i', SYSTEMS[0], '-m', 'chrf', '-sl'],
};
const SHARD = ['--shard-lines', '40'];

/** Shard lines of a worker's log (one per shard it finished). */
function shardLines(log: string): string[] {
  return log.split('\n').filter((l) => / shard \d+: /.test(l));
}

describe.skipIf(!HAVE_REDIS)(`palette score --queue with palette worker (${REDIS_SKIP_REASON})`, () => {
  let dir: string;
  let redis: RedisServer;
  const single = new Map<string, string>();
  const workers: Proc[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'palette-score-queue-'));
    cpSync(join(ROOT, 'samples/wmt17-en-de'), dir, { recursive: true });
    const [server, ...runs] = await Promise.all([
      startRedis(),
      ...Object.entries(CASES).map(async ([name, args]) => [name, await palette([...args, '-q'], dir).done] as const),
    ]);
    redis = server as RedisServer;
    for (const [name, r] of runs as (readonly [string, { code: number | null; out: string; err: string }])[]) {
      expect(r.code, r.err).toBe(0);
      single.set(name, r.out);
    }
  }, 60_000);

  afterEach(async () => {
    await killAll(workers);
  });

  afterAll(async () => {
    await redis?.dispose();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  const worker = (...allow: string[]): Proc => {
    const w = palette(['worker', '--redis', redis.url, '--allow-dir', ...(allow.length > 0 ? allow : [dir])], dir);
    workers.push(w);
    return w;
  };

  it.each([1, 3])('%i worker process(es): stdout is byte-identical to palette score without a queue', async (n) => {
    const logs = Array.from({ length: n }, () => worker());
    // Submitted at once: the workers take the shards of five runs from one queue.
    const runs = await Promise.all(
      Object.entries(CASES).map(async ([name, args]) => [name, await palette([...args, '--queue', redis.url, ...SHARD], dir).done] as const),
    );
    for (const [name, r] of runs) {
      expect(r.code, `${name}: ${r.err}`).toBe(0);
      expect(r.out, name).toBe(single.get(name));
      expect(r.err).toContain('8 shards');
    }
    // Each shard ran exactly once (no worker died): nothing doubled.
    expect(logs.flatMap((w) => shardLines(w.err())).length).toBe(8 * runs.length);
    // The runs' result folders are gone once the output is printed.
    expect(readdirSync(dir).filter((f) => f.includes('palette-run-'))).toEqual([]);
  }, 60_000);

  it('a worker refuses a shard whose files lie outside its --allow-dir: the run fails with that refusal', async () => {
    const inner = join(dir, 'inner');
    mkdirSync(inner, { recursive: true });
    worker(inner);
    // The result folder is inside the worker's folder; the system and reference files are not.
    const r = await palette([...CASES['three systems, corpus scores'], '--queue', redis.url, '--queue-dir', inner], dir).done;
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/shard 0 \(segments 1-300\) failed after 2 attempts: refused: \S+\.de lies outside the folders this worker may use/);
  }, 30_000);

  it('a metric refusing a hypothesis in a shard: the message and exit status of the run without a queue', async () => {
    worker();
    // Pre-chunked input with an unclosed [NP on line 25 (the third shard of 10 lines).
    const good = '[NP the cat ] sat on [NP the mat ]\n';
    writeFileSync(join(dir, 'chunked.ref'), good.repeat(30));
    writeFileSync(join(dir, 'chunked.hyp'), good.repeat(24) + '[NP the cat sat\n' + good.repeat(5));
    const args = ['score', 'chunked.ref', '-i', 'chunked.hyp', '-m', 'npchunk', '--chunker', 'bracketed'];
    const plain = await palette(args, dir).done;
    expect(plain.code).toBe(2);
    expect(plain.err).toContain('chunked.hyp:25:');
    const r = await palette([...args, '--queue', redis.url, '--shard-lines', '10', '-q'], dir).done;
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(plain.err);
  }, 30_000);

  it('Redis unreachable: one clear line, exit status 2, nothing on stdout', async () => {
    const port = await freePort();
    const r = await palette([...CASES['three systems, corpus scores'], '--queue', `redis://127.0.0.1:${port}`], dir).done;
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(`palette: error: --queue: cannot use Redis at redis://127.0.0.1:${port}`);
  }, 30_000);

  it('NIST (rows that need every reference of the corpus) is refused before anything is submitted', async () => {
    const r = await palette(['score', 'ref.de', '-i', SYSTEMS[0], '-m', 'bleu', 'nist', '--queue', redis.url], dir).done;
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('--queue: the statistics rows of nist depend on every reference of the corpus');
  }, 30_000);
});

describe('palette score queue options', () => {
  it('--shard-lines, --queue-dir and --redis-timeout need --queue', async () => {
    for (const extra of [['--shard-lines', '10'], ['--queue-dir', '.'], ['--redis-timeout', '5']]) {
      const r = await palette(['score', 'samples/wmt17-en-de/ref.de', '-i', 'samples/wmt17-en-de/ref.de', ...extra], ROOT).done;
      expect(r.code).toBe(2);
      expect(r.err).toContain(`${extra[0]} needs --queue URL`);
    }
  }, 30_000);
});
