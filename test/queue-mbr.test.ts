/**
 * `palette mbr --queue` with `palette worker` processes on a real Redis (test/helpers/redis-server.ts): the chosen
 * lines, `--scores` (JSON lines and MessagePack) and `--matrix` are byte-identical to `palette mbr` without a queue
 * for 1 and 2 workers (20 segments × 8 samples, the last sample file without a final line feed, chrF, BLEU and
 * chrF+BLEU with pseudo-references and weights); `palette worker --workers 2` decides shards of 80 samples of three
 * runs with one MBR pool, started by its first shard and closed on SIGTERM, as without a queue; a run submitted
 * again after its submitter died reuses the shards that finished; a segment's bad input (weights that sum to zero)
 * and the inputs' own errors are reported as without a queue (message, exit status 2, no output file); a worker
 * refuses a shard whose files leave its --allow-dir; a sample file changed after submission fails the shard instead
 * of merging other lines; an unreachable Redis is one line and exit status 2. `--nbest` lists, cut into byte ranges:
 * the same chosen lines (ids without hypotheses included) and scores, and bad input met in a shard reported as
 * `palette mbr` reports it; a gzip list (decompressed once by the submitter) gives the chosen lines and scores of
 * `palette mbr` on it without a queue and of the plain list, and leaves no decompressed copy behind; a truncated
 * gzip list gives palette mbr's message. The processes are the real executable
 * (bin/palette runs dist/: `npm run build:ts`).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from './helpers/mulberry32.js';
import { killAll, spawnPalette, type PaletteProcess as Proc } from './helpers/palette-process.js';
import { HAVE_REDIS, REDIS_SKIP_REASON, freePort, startRedis, type RedisServer } from './helpers/redis-server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const palette = spawnPalette;

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

const SEGMENTS = 20;
const SAMPLES = 8;
const SAMPLE_FILES = Array.from({ length: SAMPLES }, (_, k) => `sample-${k}.txt`);
const WEIGHT_FILES = ['w0.txt', 'w1.txt', 'w2.txt'];

/**
 * 20 segments × 8 samples: the first 20 lines of the reference and the three systems of samples/wmt17-en-de (German,
 * non-ASCII), and four variants of them with words dropped and swapped (seeded); the last file has no final line feed.
 */
function writeFixture(dir: string): void {
  const source = ['ref.de', 'sys/LIUM-NMT.4900.de', 'sys/online-B.0.de', 'sys/uedin-nmt.4722.de'].map((f) =>
    readFileSync(join(ROOT, 'samples/wmt17-en-de', f), 'utf8').split('\n').slice(0, SEGMENTS),
  );
  const random = mulberry32(16);
  const variant = (line: string): string => {
    const words = line.split(' ').filter(() => random() > 0.15);
    for (let i = 0; i + 1 < words.length; i++) if (random() < 0.2) [words[i], words[i + 1]] = [words[i + 1], words[i]];
    return words.join(' ');
  };
  const samples = [...source, ...source.map((lines) => lines.map(variant))];
  samples.forEach((lines, k) => writeFileSync(join(dir, SAMPLE_FILES[k]), lines.join('\n') + (k === SAMPLES - 1 ? '' : '\n')));
  WEIGHT_FILES.forEach((f, j) => writeFileSync(join(dir, f), Array.from({ length: SEGMENTS }, (_, s) => `${((s + j) % 4) * 0.75}\n`).join('')));
  // The same samples as a Moses n-best list, ids 5 and 17 without hypotheses (empty output lines).
  const nbest: string[] = [];
  for (let s = 0; s < SEGMENTS; s++) {
    if (s === 5 || s === 17) continue;
    samples.forEach((lines, k) => nbest.push(`${s} ||| ${lines[s]} ||| f= ${k} ||| -${k}.5`));
  }
  writeFileSync(join(dir, NBEST), `${nbest.join('\n')}\n`);
}

const NBEST = 'samples.nbest';
/** About 2 KB per shard of the list (about 20 KB): 8 shards, a few groups each. */
const NBEST_SHARD = ['--shard-size', '2000'];

/** The command lines compared (each writes its outputs under the prefix given). */
const CASES: Record<string, (p: string) => string[]> = {
  'chrF, --scores': (p) => ['-m', 'chrf', '--scores', `${p}.jsonl`, '-o', `${p}.out`],
  'BLEU, --scores msgpack, stdout': (p) => ['-m', 'bleu', '--scores', `${p}.msgpack`, '--scores-format', 'msgpack'],
  'chrF+BLEU, pseudo-references, weights, --matrix': (p) => [
    '-m', 'chrf:0.5', 'bleu:0.5', '--pseudo-refs', ...SAMPLE_FILES.slice(2, 5), '--weights', ...WEIGHT_FILES,
    '--matrix', `${p}.npy`, '--scores', `${p}.jsonl`, '-o', `${p}.out`,
  ],
};
/** 6 segments a shard: 4 shards (the last of 2). */
const SHARD = ['--shard-lines', '6'];

/** The files a case wrote under `prefix`, by extension, and its stdout. */
function outputs(dir: string, prefix: string, stdout: string): Record<string, Buffer> {
  const found: Record<string, Buffer> = { stdout: Buffer.from(stdout) };
  for (const f of readdirSync(dir)) if (f.startsWith(`${prefix}.`)) found[f.slice(prefix.length)] = readFileSync(join(dir, f));
  return found;
}

describe.skipIf(!HAVE_REDIS)(`palette mbr --queue with palette worker (${REDIS_SKIP_REASON})`, () => {
  let dir: string;
  let redis: RedisServer;
  const single = new Map<string, Record<string, Buffer>>();
  const workers: Proc[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'palette-mbr-queue-'));
    writeFixture(dir);
    const [server, ...runs] = await Promise.all([
      startRedis(),
      ...Object.entries(CASES).map(async ([name, args], c) => {
        const r = await palette(['mbr', '--samples', ...SAMPLE_FILES, ...args(`single${c}`)], dir).done;
        return [name, c, r] as const;
      }),
    ]);
    redis = server as RedisServer;
    for (const [name, c, r] of runs as (readonly [string, number, { code: number | null; out: string; err: string }])[]) {
      expect(r.code, r.err).toBe(0);
      single.set(name, outputs(dir, `single${c}`, r.out));
    }
  }, 60_000);

  afterEach(async () => {
    await killAll(workers);
  });

  afterAll(async () => {
    await redis?.dispose();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  const worker = (args: readonly string[] = [], ...allow: string[]): Proc => {
    const w = palette(['worker', '--redis', redis.url, ...args, '--allow-dir', ...(allow.length > 0 ? allow : [dir])], dir);
    workers.push(w);
    return w;
  };

  it.each([1, 2])('%i worker process(es): chosen lines, --scores and --matrix byte-identical to palette mbr without a queue', async (n) => {
    // The second worker asks for two threads; these shards are too small for more than one (the lasting-pool test
    // below has shards big enough for two).
    const logs = Array.from({ length: n }, (_, i) => worker(i === 1 ? ['--workers', '2'] : []));
    const runs = await Promise.all(
      Object.entries(CASES).map(async ([name, args], c) => {
        const prefix = `queued${n}-${c}`;
        const r = await palette(['mbr', '--samples', ...SAMPLE_FILES, ...args(prefix), '--queue', redis.url, ...SHARD], dir).done;
        return [name, prefix, r] as const;
      }),
    );
    for (const [name, prefix, r] of runs) {
      expect(r.code, `${name}: ${r.err}`).toBe(0);
      expect(r.err).toContain('4 shards');
      const got = outputs(dir, prefix, r.out);
      const want = single.get(name)!;
      expect(Object.keys(got).sort(), name).toEqual(Object.keys(want).sort());
      for (const [what, bytes] of Object.entries(want)) expect(got[what].equals(bytes), `${name}: ${what}`).toBe(true);
    }
    // Each shard ran exactly once (no worker died): nothing doubled.
    expect(logs.flatMap((w) => shardLines(w.err())).length).toBe(4 * runs.length);
    // The runs' result folders are gone once the output is written.
    expect(readdirSync(dir).filter((f) => f.includes('palette-run-'))).toEqual([]);
  }, 90_000);

  it('palette worker --workers 2: one MBR pool for the worker\'s life, started by its first shard, kept across shards and runs; the worker stops on SIGTERM (exit 0)', async () => {
    // Shards big enough for two threads (6 segments × 80 samples: 38,400 pairs, over one thread's smallest task):
    // the shards of the fixture above are decided in the worker's own thread, with no pool.
    const big = join(dir, 'big');
    mkdirSync(big, { recursive: true });
    const source = ['ref.de', 'sys/LIUM-NMT.4900.de', 'sys/online-B.0.de', 'sys/uedin-nmt.4722.de'].map((f) =>
      readFileSync(join(ROOT, 'samples/wmt17-en-de', f), 'utf8').split('\n').slice(0, 12),
    );
    const random = mulberry32(61);
    const files = Array.from({ length: 80 }, (_, k) => {
      const lines = source[k % 4].map((line) => line.split(' ').filter(() => random() > 0.2).join(' '));
      const file = join('big', `s${k}.txt`);
      writeFileSync(join(dir, file), `${lines.join('\n')}\n`);
      return file;
    });
    const cases: [string, (p: string) => string[]][] = [
      ['chrF, --scores', (p) => ['-m', 'chrf', '--scores', `${p}.jsonl`, '-o', `${p}.out`]],
      ['BLEU, --scores msgpack, stdout', (p) => ['-m', 'bleu', '--scores', `${p}.msgpack`, '--scores-format', 'msgpack']],
      ['chrF++, --matrix', (p) => ['-m', 'chrf', '--chrf-word-order', '2', '--matrix', `${p}.npy`, '-o', `${p}.out`]],
    ];
    const w = worker(['--workers', '2']);
    for (const [c, [name, args]] of cases.entries()) {
      const [one, queued] = await Promise.all([
        palette(['mbr', '--samples', ...files, ...args(`big/one${c}`)], dir).done,
        palette(['mbr', '--samples', ...files, ...args(`big/lasting${c}`), '--queue', redis.url, ...SHARD], dir).done,
      ]);
      expect(one.code, `${name}: ${one.err}`).toBe(0);
      expect(queued.code, `${name}: ${queued.err}`).toBe(0);
      expect(queued.err).toContain('2 shards');
      const want = outputs(big, `one${c}`, one.out);
      const got = outputs(big, `lasting${c}`, queued.out);
      expect(Object.keys(got).sort(), name).toEqual(Object.keys(want).sort());
      for (const [what, bytes] of Object.entries(want)) expect(got[what].equals(bytes), `${name}: ${what}`).toBe(true);
    }
    // 6 shards of 3 runs, one pool.
    expect(shardLines(w.err())).toHaveLength(2 * cases.length);
    expect(w.err().match(/MBR pool of 1 worker thread started/g), w.err()).toHaveLength(1);
    w.child.kill('SIGTERM');
    const end = await w.done;
    expect(end.code, end.err).toBe(0);
  }, 90_000);

  it('a run submitted again (its submitter killed) reuses the shards that finished: none runs twice', async () => {
    const args = ['mbr', '--samples', ...SAMPLE_FILES, ...CASES['chrF, --scores']('again'), '--queue', redis.url, ...SHARD];
    const client = new Redis(redis.url, { maxRetriesPerRequest: null });
    try {
      // No worker yet: the submitter queues the flow and waits; killed then, its shards stay queued.
      const first = palette(args, dir);
      await until('the shards queued', async () => (await client.llen('bull:palette-shards:wait')) >= 4);
      first.child.kill('SIGKILL');
      await first.done;
      const w = worker();
      await until('the shards done', () => shardLines(w.err()).length >= 4);
      const again = await palette(args, dir).done;
      expect(again.code, again.err).toBe(0);
      expect(again.err).toContain(/run ([0-9a-f]{16})/.exec(first.err())![0]);
      const got = outputs(dir, 'again', again.out);
      const want = single.get('chrF, --scores')!;
      for (const [what, bytes] of Object.entries(want)) expect(got[what].equals(bytes), what).toBe(true);
      expect(shardLines(w.err()).length).toBe(4);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  it('weights that sum to zero in a segment of the third shard: the message and exit status of palette mbr, no output file', async () => {
    worker();
    writeFileSync(join(dir, 'zero.txt'), Array.from({ length: SEGMENTS }, (_, s) => (s === 13 ? '0\n' : '1\n')).join(''));
    const args = ['mbr', '--samples', ...SAMPLE_FILES, '--pseudo-refs', SAMPLE_FILES[0], SAMPLE_FILES[1], '--weights', 'zero.txt', 'zero.txt', '-m', 'chrf'];
    const plain = await palette([...args, '-o', 'zero-plain.out', '--scores', 'zero-plain.jsonl'], dir).done;
    expect(plain.code).toBe(2);
    expect(plain.err).toContain('zero.txt:14:');
    const r = await palette([...args, '-o', 'zero-queued.out', '--scores', 'zero-queued.jsonl', '--queue', redis.url, ...SHARD, '-q'], dir).done;
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(plain.err);
    expect(readdirSync(dir).filter((f) => f.startsWith('zero-') || f.includes('palette-run-'))).toEqual([]);
  }, 30_000);

  it('the inputs\' own errors (sample files of different lengths, a bad weight) are those of palette mbr, before anything is submitted', async () => {
    writeFileSync(join(dir, 'short.txt'), 'ein Satz\nnoch einer\n');
    writeFileSync(join(dir, 'bad-weight.txt'), Array.from({ length: SEGMENTS }, (_, s) => (s === 4 ? 'x\n' : '1\n')).join(''));
    for (const args of [
      ['mbr', '--samples', SAMPLE_FILES[0], 'short.txt', '-m', 'bleu'],
      ['mbr', '--samples', SAMPLE_FILES[0], SAMPLE_FILES[1], '--weights', 'bad-weight.txt', WEIGHT_FILES[0], '-m', 'chrf'],
    ]) {
      const plain = await palette(args, dir).done;
      const r = await palette([...args, '--queue', redis.url], dir).done;
      expect(plain.code).toBe(2);
      expect([r.code, r.out, r.err]).toEqual([2, '', plain.err]);
    }
  }, 30_000);

  it('a worker refuses a shard whose files lie outside its --allow-dir: the run fails with that refusal', async () => {
    const inner = join(dir, 'inner');
    mkdirSync(inner, { recursive: true });
    worker([], inner);
    // The result folder is inside the worker's folder; the sample files are not.
    const r = await palette(['mbr', '--samples', ...SAMPLE_FILES, '-m', 'chrf', '--queue', redis.url, '--queue-dir', inner], dir).done;
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/shard 0 \(segments 1-20\) failed after 2 attempts: refused: \S+sample-0\.txt lies outside the folders this worker may use/);
  }, 30_000);

  it('a sample file changed after submission (same size and time): the shard of the changed line fails rather than merge other lines', async () => {
    const files = SAMPLE_FILES.map((f) => `changed-${f}`);
    const time = 1_700_000_000;
    SAMPLE_FILES.forEach((f, k) => {
      writeFileSync(join(dir, files[k]), readFileSync(join(dir, f)));
      utimesSync(join(dir, files[k]), time, time);
    });
    const run = palette(['mbr', '--samples', ...files, '-m', 'chrf', '--queue', redis.url, ...SHARD], dir);
    await until('the run submitted', () => /\d+ shards on/.test(run.err()));
    // Line 9 (shard 1) reversed: the same bytes in another order, the same size and modification time; only the
    // bytes of the shard's range tell.
    const lines = readFileSync(join(dir, files[3]), 'utf8').split('\n');
    lines[8] = lines[8].split('').reverse().join('');
    writeFileSync(join(dir, files[3]), lines.join('\n'));
    utimesSync(join(dir, files[3]), time, time);
    worker();
    const r = await run.done;
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/shard 1 \(segments 7-12\) failed after 2 attempts: \S+changed-sample-3\.txt: the bytes of segments 7-12 differ from those submitted/);
  }, 30_000);

  it.each([1, 2])('--nbest, %i worker process(es): chosen lines (ids without hypotheses included) and --scores byte-identical', async (n) => {
    const logs = Array.from({ length: n }, () => worker());
    const args = (p: string) => ['mbr', '--nbest', NBEST, '-m', 'chrf', 'bleu:0.5', '--scores', `${p}.jsonl`];
    const plain = await palette(args(`nbest-plain${n}`), dir).done;
    expect(plain.code, plain.err).toBe(0);
    expect(plain.out.split('\n')[5]).toBe('');
    const r = await palette([...args(`nbest-queued${n}`), '--queue', redis.url, ...NBEST_SHARD], dir).done;
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(plain.out);
    expect(readFileSync(join(dir, `nbest-queued${n}.jsonl`)).equals(readFileSync(join(dir, `nbest-plain${n}.jsonl`)))).toBe(true);
    const shards = Number(/(\d+) shards on/.exec(r.err)?.[1]);
    expect(shards).toBeGreaterThan(4);
    expect(logs.flatMap((w) => shardLines(w.err())).length).toBe(shards);
  }, 60_000);

  it('--nbest bad input in a shard (one hypothesis, a malformed line, ids out of order across shards): palette mbr\'s message, exit 2', async () => {
    worker();
    const lines = readFileSync(join(dir, NBEST), 'utf8').split('\n').slice(0, -1);
    const variants: Record<string, string[]> = {
      // Id 12 keeps one hypothesis.
      'one.nbest': lines.filter((l) => !l.startsWith('12 |||') || l.endsWith('-0.5')),
      'malformed.nbest': lines.map((l, i) => (i === 100 ? 'no fields here' : l)),
      'order.nbest': lines.map((l, i) => (i === 120 ? l.replace(/^\d+ /, '3 ') : l)),
    };
    // Runs that failed for other reasons keep their finished shards (for resubmission): only this test's count.
    const runFolders = () => readdirSync(dir).filter((f) => f.includes('palette-run-'));
    const before = runFolders();
    for (const [name, content] of Object.entries(variants)) {
      writeFileSync(join(dir, name), `${content.join('\n')}\n`);
      const args = ['mbr', '--nbest', name, '-m', 'chrf', '-o', `${name}.out`];
      const plain = await palette(args, dir).done;
      expect(plain.code, name).toBe(2);
      expect(plain.err).toContain(`${name}:`);
      const r = await palette([...args, '--queue', redis.url, ...NBEST_SHARD, '-q'], dir).done;
      expect([r.code, r.out, r.err], name).toEqual([2, '', plain.err]);
      expect(readdirSync(dir).filter((f) => f === `${name}.out`)).toEqual([]);
      expect(runFolders()).toEqual(before);
    }
  }, 60_000);

  it('--nbest a gzip list, 1 worker: the bytes of palette mbr on it without a queue; its decompressed copy is gone afterwards', async () => {
    const logs = [worker()];
    const gz = 'gz-samples.nbest.gz';
    writeFileSync(join(dir, gz), gzipSync(readFileSync(join(dir, NBEST))));
    const args = (list: string, p: string) => ['mbr', '--nbest', list, '-m', 'chrf', 'bleu:0.5', '--scores', `${p}.jsonl`];
    const text = await palette(args(NBEST, 'gz-text'), dir).done;
    const plain = await palette(args(gz, 'gz-plain'), dir).done;
    expect(plain.code, plain.err).toBe(0);
    expect(plain.out).toBe(text.out);
    const runFolders = () => readdirSync(dir).filter((f) => f.includes('palette-run-'));
    const before = runFolders();
    const r = await palette([...args(gz, 'gz-queued'), '--queue', redis.url, ...NBEST_SHARD], dir).done;
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(plain.out);
    const scores = readFileSync(join(dir, 'gz-queued.jsonl'));
    expect(scores.equals(readFileSync(join(dir, 'gz-plain.jsonl')))).toBe(true);
    expect(scores.equals(readFileSync(join(dir, 'gz-text.jsonl')))).toBe(true);
    // Cut into shards of the decompressed list (the gzip file is about a third of its size).
    const shards = Number(/(\d+) shards on/.exec(r.err)?.[1]);
    expect(shards).toBeGreaterThan(4);
    expect(logs.flatMap((w) => shardLines(w.err())).length).toBe(shards);
    // The copy was written in the queue folder, then moved into the run's folder: both gone.
    expect(readdirSync(dir).filter((f) => f.includes('palette-gunzip'))).toEqual([]);
    expect(runFolders()).toEqual(before);
  }, 60_000);

  it('--nbest a truncated gzip list: palette mbr\'s message, exit 2, no output, no copy left', async () => {
    worker();
    const whole = gzipSync(readFileSync(join(dir, NBEST)));
    writeFileSync(join(dir, 'cut.nbest.gz'), whole.subarray(0, whole.length >> 1));
    const args = ['mbr', '--nbest', 'cut.nbest.gz', '-m', 'chrf', '-o', 'cut.out'];
    const plain = await palette(args, dir).done;
    expect([plain.code, plain.out]).toEqual([2, '']);
    expect(plain.err).toMatch(/^palette mbr: error: cut\.nbest\.gz: cannot decompress the gzip file: .+\n$/);
    const runFolders = () => readdirSync(dir).filter((f) => f.includes('palette-run-'));
    const before = runFolders();
    const r = await palette([...args, '--queue', redis.url, ...NBEST_SHARD], dir).done;
    expect([r.code, r.out, r.err]).toEqual([2, '', plain.err]);
    expect(readdirSync(dir).filter((f) => f === 'cut.out' || f.includes('palette-gunzip'))).toEqual([]);
    expect(runFolders()).toEqual(before);
  }, 60_000);

  it('Redis unreachable: one clear line, exit status 2, nothing on stdout', async () => {
    const port = await freePort();
    const r = await palette(['mbr', '--samples', ...SAMPLE_FILES, '-m', 'chrf', '--queue', `redis://127.0.0.1:${port}`], dir).done;
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(`palette mbr: error: --queue: cannot use Redis at redis://127.0.0.1:${port}`);
  }, 30_000);
});

describe('palette mbr queue options', () => {
  it('-j, options of the other input and a queue option without --queue are refused with one line', async () => {
    const samples = ['samples/wmt17-en-de/ref.de', 'samples/wmt17-en-de/sys/online-B.0.de'];
    const cases: [string[], string][] = [
      [['--samples', ...samples, '-m', 'chrf', '--queue', 'redis://127.0.0.1:1', '-j', '2'], 'with --queue each palette worker\'s --workers sets its threads'],
      [['--nbest', 'x.nbest', '-m', 'chrf', '--queue', 'redis://127.0.0.1:1', '--shard-lines', '10'], '--shard-lines does not go with it'],
      [['--samples', ...samples, '-m', 'chrf', '--queue', 'redis://127.0.0.1:1', '--shard-size', '1000'], '--shard-size cuts --nbest lists'],
      [['--samples', ...samples, '-m', 'chrf', '--shard-lines', '10'], '--shard-lines needs --queue URL'],
      [['--nbest', 'x.nbest', '-m', 'chrf', '--shard-size', '1000'], '--shard-size needs --queue URL'],
    ];
    for (const [args, message] of cases) {
      const r = await palette(['mbr', ...args], ROOT).done;
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toContain(message);
    }
  }, 30_000);
});
