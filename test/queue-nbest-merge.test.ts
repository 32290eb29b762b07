/**
 * `palette nbest --queue` where the shards alone do not make the output, on a real Redis (test/helpers/
 * redis-server.ts) with real `palette worker` processes: a merge with a previous run (`--prev-stats`,
 * `--prev-features`, `--ffile`), whose duplicates are removed across both runs and whose sentences come in the
 * previous run's order, and a gzip list, which cannot be cut into byte ranges as it is. Each gives the bytes of the
 * same `palette nbest` without a queue, and its bad input the same message and exit status, with nothing left
 * behind (no output, no result folder, no decompressed copy). The processes are the real executable (bin/palette
 * runs dist/: `npm run build:ts`).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateNbestFiles } from '../bench/nbest-gen.js';
import { killAll, spawnPalette, type PaletteProcess as Proc } from './helpers/palette-process.js';
import { HAVE_REDIS, REDIS_SKIP_REASON, startRedis, type RedisServer } from './helpers/redis-server.js';


const palette = spawnPalette;

/** 32 KiB shards: the lists below (~0.3 MB) give about ten, so sentences meet shard ends. */
const SHARD = ['--shard-size', String(1 << 15)];

/** Shard lines of a worker's log (one per shard it finished). */
function shardLines(log: string): string[] {
  return log.split('\n').filter((l) => / shard \d+: /.test(l));
}

/** The blocks of a SCORES_TXT or FEATURES_TXT file, each as its lines. */
function blocksOf(text: string): string[][] {
  const blocks: string[][] = [];
  let block: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    block.push(line);
    if (/_END_0$/.test(line)) {
      blocks.push(block);
      block = [];
    }
  }
  return blocks;
}

describe.skipIf(!HAVE_REDIS)(`palette nbest --queue: --prev-stats merges and gzip lists (${REDIS_SKIP_REASON})`, () => {
  let dir: string;
  let refs: string[];
  let redis: RedisServer;
  const workers: Proc[] = [];
  /** Shard size of a bad-input case's queue run. */
  let shardSize = 1 << 15;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'palette-queue-merge-'));
    // The new list: sentences 0-39 of 50; the previous run: sentences 0-49 (10 the new list lacks), a third of its
    // candidates the new list's own (duplicates across the runs), the rest from another list.
    const gen = generateNbestFiles(dir, { segments: 50, hypsPerSegment: 40, refs: 2, length: 16, vocabulary: 400, seed: 7 });
    refs = gen.refs;
    const other = generateNbestFiles(join(dir, 'other'), { segments: 50, hypsPerSegment: 30, refs: 2, length: 16, vocabulary: 400, seed: 8 });
    const idOf = (line: string): number => Number(line.slice(0, line.indexOf(' ')));
    const lines = readFileSync(gen.nbest, 'utf8').split('\n').filter((l) => l !== '');
    writeFileSync(join(dir, 'new.txt'), `${lines.filter((l) => idOf(l) < 40).join('\n')}\n`);
    const otherLines = readFileSync(other.nbest, 'utf8').split('\n').filter((l) => l !== '');
    const previous = [...lines.filter((_, i) => i % 3 === 0), ...otherLines].map((l, i) => ({ l, i }));
    previous.sort((a, b) => idOf(a.l) - idOf(b.l) || a.i - b.i);
    writeFileSync(join(dir, 'prev-list.txt'), `${previous.map((p) => p.l).join('\n')}\n`);
    const r = await palette(
      ['nbest', '--nbest', 'prev-list.txt', '-r', ...refs, '-m', 'bleu', 'chrf', '--stats', 'prev.txt', '--ffile', 'prevf.txt', '-j', '1'],
      dir,
    ).done;
    expect(r.code, r.err).toBe(0);
    // The same previous run with its sentences in reverse order, two of them (one the new list has, one it lacks)
    // left out: the merge's order is the previous run's, not the list's.
    const keep = (blocks: string[][]): string[][] => blocks.reverse().filter((b) => !/_BEGIN_0 (7|45) /.test(b[0]));
    writeFileSync(join(dir, 'prev-rev.txt'), `${keep(blocksOf(readFileSync(join(dir, 'prev.txt'), 'utf8'))).flat().join('\n')}\n`);
    writeFileSync(join(dir, 'prevf-rev.txt'), `${keep(blocksOf(readFileSync(join(dir, 'prevf.txt'), 'utf8'))).flat().join('\n')}\n`);
    writeFileSync(join(dir, 'new.txt.gz'), gzipSync(readFileSync(join(dir, 'new.txt'))));
    redis = await startRedis();
  }, 120_000);

  afterEach(async () => {
    await killAll(workers);
  });

  afterAll(async () => {
    await redis?.dispose();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  const worker = (): Proc => {
    const w = palette(['worker', '--redis', redis.url, '--allow-dir', dir], dir);
    workers.push(w);
    return w;
  };

  /** Nothing of a queue run left beside its output: no result folder, no decompressed copy, no temporary file. */
  const leftovers = (): string[] => readdirSync(dir).filter((f) => /palette-(run|gunzip)-|\.tmp$/.test(f));

  /**
   * Runs `args` without a queue and with one (`workers` worker processes) and expects the same exit status 0 and
   * the same bytes in every output file (`outputs`: the flags naming them).
   */
  async function sameBytes(name: string, args: readonly string[], outputs: readonly string[], workerCount: number): Promise<void> {
    const files = (tag: string) => outputs.flatMap((flag) => [flag, `${name}-${tag}${flag.replace(/^-+/, '.')}`]);
    const plain = await palette(['nbest', ...args, ...files('plain'), '-j', '1'], dir).done;
    expect(plain.code, plain.err).toBe(0);
    for (let i = 0; i < workerCount; i++) worker();
    const r = await palette(['nbest', ...args, ...files('queue'), '--queue', redis.url, ...SHARD], dir).done;
    expect(r.code, r.err).toBe(0);
    const [, runId, shards] = /run ([0-9a-f]{16}): (\d+) shards/.exec(r.err) ?? [];
    expect(Number(shards)).toBeGreaterThan(4);
    // Each shard ran once (no worker died): nothing doubled.
    expect(workers.flatMap((w) => shardLines(w.err())).filter((l) => l.includes(`run ${runId} `)).length).toBe(Number(shards));
    for (const flag of outputs) {
      const suffix = flag.replace(/^-+/, '.');
      const queued = readFileSync(join(dir, `${name}-queue${suffix}`));
      expect(queued.length).toBeGreaterThan(0);
      expect(queued.equals(readFileSync(join(dir, `${name}-plain${suffix}`))), `${name}${suffix}`).toBe(true);
    }
    expect(leftovers()).toEqual([]);
  }

  it.each([1, 2])('--prev-stats --prev-features --ffile, %i worker(s): statistics and features byte-identical to the run without a queue', async (n) => {
    const args = ['--nbest', 'new.txt', '-r', ...refs, '-m', 'bleu', 'chrf', '--prev-stats', 'prev.txt', '--prev-features', 'prevf.txt'];
    await sameBytes(`merge-${n}`, args, ['--stats', '--ffile'], n);
    // The merge did remove duplicates across the runs and kept the previous run's sentences the list lacks.
    const merged = blocksOf(readFileSync(join(dir, `merge-${n}-queue.stats`), 'utf8'));
    expect(merged.map((b) => Number(b[0].split(' ')[1]))).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const before = blocksOf(readFileSync(join(dir, 'prev.txt'), 'utf8')).reduce((k, b) => k + b.length - 2, 0);
    const added = readFileSync(join(dir, 'new.txt'), 'utf8').split('\n').filter((l) => l !== '').length;
    expect(merged.reduce((k, b) => k + b.length - 2, 0)).toBeLessThan(before + added);
  }, 120_000);

  it('a previous run in another order than the list, lacking sentences of it and the list lacking some of its: byte-identical (json, --allow-duplicates, --sentence-scores)', async () => {
    const args = [
      '--nbest', 'new.txt', '-r', ...refs, '-m', 'bleu', 'chrf', '--prev-stats', 'prev-rev.txt', '--allow-duplicates',
      '--stats-format', 'json', '--sentence-scores',
    ];
    await sameBytes('rev-json', args, ['--stats'], 2);
    const withFeatures = ['--nbest', 'new.txt', '-r', ...refs, '-m', 'bleu', 'chrf', '--prev-stats', 'prev-rev.txt', '--prev-features', 'prevf-rev.txt'];
    await sameBytes('rev', withFeatures, ['--stats', '--ffile'], 2);
    const order = blocksOf(readFileSync(join(dir, 'rev-queue.stats'), 'utf8')).map((b) => Number(b[0].split(' ')[1]));
    // The previous run's sentences in its order, then sentence 7 (the list's, not the previous run's).
    expect(order[0]).toBe(49);
    expect(order.at(-1)).toBe(7);
  }, 180_000);

  it.each([
    ['a gzip list', ['-m', 'bleu', 'rouge-l', '--stats-format', 'msgpack'], ['--stats']],
    ['a gzip list with --ffile', ['-m', 'bleu', 'chrf'], ['--stats', '--ffile']],
    ['a gzip list merged with a previous run', ['-m', 'bleu', 'chrf', '--prev-stats', 'prev.txt', '--prev-features', 'prevf.txt'], ['--stats', '--ffile']],
  ])('%s: byte-identical to the run without a queue, its decompressed copy removed', async (_, extra, outputs) => {
    await sameBytes(`gz-${outputs.length}-${extra.length}`, ['--nbest', 'new.txt.gz', '-r', ...refs, ...extra], outputs, 2);
  }, 120_000);

  it.each([
    [
      'a malformed previous statistics file',
      (): string[] => {
        const lines = readFileSync(join(dir, 'prev.txt'), 'utf8').split('\n');
        lines[40] = '1 2 3';
        writeFileSync(join(dir, 'bad-prev.txt'), lines.join('\n'));
        return ['--nbest', 'new.txt', '--prev-stats', 'bad-prev.txt', '--prev-features', 'prevf.txt'];
      },
      /bad-prev\.txt:41: expected \d+ numbers, got "1 2 3"/,
    ],
    [
      'a previous features file that does not match the statistics',
      (): string[] => {
        writeFileSync(join(dir, 'short-prevf.txt'), `${blocksOf(readFileSync(join(dir, 'prevf.txt'), 'utf8')).slice(0, 3).flat().join('\n')}\n`);
        return ['--nbest', 'new.txt', '--prev-stats', 'prev.txt', '--prev-features', 'short-prevf.txt'];
      },
      /prev\.txt:\d+: block 4 \(sentence 3\) has no counterpart/,
    ],
    [
      'a malformed line far into the list, merged with a previous run',
      (): string[] => {
        const lines = readFileSync(join(dir, 'new.txt'), 'utf8').split('\n');
        lines[1200] = lines[1200].replace('|||', '||');
        writeFileSync(join(dir, 'bad-new.txt'), lines.join('\n'));
        return ['--nbest', 'bad-new.txt', '--prev-stats', 'prev.txt', '--prev-features', 'prevf.txt'];
      },
      /bad-new\.txt:1201: malformed n-best line/,
    ],
    [
      'a sentence out of order at a shard\'s start, merged with a previous run',
      (): string[] => {
        // Sentence 30's candidates moved after sentence 5's, and the first shard cut right after them (a cut goes
        // after the sentence its target falls in): sentence 6 starts the second shard, and the order error is
        // found between the shards, as the run without a queue finds it inside a chunk.
        const lines = readFileSync(join(dir, 'new.txt'), 'utf8').split('\n').filter((l) => l !== '');
        const id = (l: string): number => Number(l.slice(0, l.indexOf(' ')));
        const head = lines.filter((l) => id(l) <= 5);
        const moved = [...head, ...lines.filter((l) => id(l) === 30), ...lines.filter((l) => id(l) > 5 && id(l) !== 30)];
        writeFileSync(join(dir, 'order-new.txt'), `${moved.join('\n')}\n`);
        shardSize = Buffer.byteLength(`${head.join('\n')}\n`) + 1;
        return ['--nbest', 'order-new.txt', '--prev-stats', 'prev.txt', '--prev-features', 'prevf.txt'];
      },
      /order-new\.txt:\d+: malformed n-best line: id 6 after id 30/,
    ],
    [
      'a gzip list cut short',
      (): string[] => {
        const gz = readFileSync(join(dir, 'new.txt.gz'));
        writeFileSync(join(dir, 'cut.txt.gz'), gz.subarray(0, gz.length >> 1));
        return ['--nbest', 'cut.txt.gz'];
      },
      /cut\.txt\.gz: cannot decompress the gzip file: unexpected end of file/,
    ],
    [
      'a malformed line far into a gzip list',
      (): string[] => {
        const lines = readFileSync(join(dir, 'new.txt'), 'utf8').split('\n');
        lines[1300] = `x${lines[1300]}`;
        writeFileSync(join(dir, 'bad.txt.gz'), gzipSync(lines.join('\n')));
        return ['--nbest', 'bad.txt.gz'];
      },
      /bad\.txt\.gz:1301: malformed n-best line/,
    ],
    [
      'a gzip list that holds nothing',
      (): string[] => {
        writeFileSync(join(dir, 'empty.txt.gz'), gzipSync(Buffer.alloc(0)));
        return ['--nbest', 'empty.txt.gz'];
      },
      /empty\.txt\.gz: empty input/,
    ],
  ])('%s: the message and exit status of the run without a queue, nothing left behind', async (_, make, message) => {
    shardSize = 1 << 15;
    const args = [...make(), '-r', ...refs, '-m', 'bleu', 'chrf'];
    const plain = await palette(['nbest', ...args, '--stats', 'bad-plain.txt', '-j', '1'], dir).done;
    expect(plain.code).toBe(2);
    expect(plain.err).toMatch(message);
    worker();
    const r = await palette(['nbest', ...args, '--stats', 'bad-queue.txt', '--queue', redis.url, '--shard-size', String(shardSize)], dir).done;
    expect(r.code).toBe(2);
    // The run's note (when it got as far as submitting), then the same message.
    expect(r.err.replace(/^palette nbest: run [0-9a-f]{16}: .*\n/, '')).toBe(plain.err);
    expect(existsSync(join(dir, 'bad-queue.txt'))).toBe(false);
    expect(leftovers()).toEqual([]);
  }, 60_000);
});
