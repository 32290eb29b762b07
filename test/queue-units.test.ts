/**
 * The pure parts of queue runs, without Redis: URLs shown without their secrets, the version check, the folders a
 * worker may use and the jobs it refuses, and shards: cut at segment boundaries from reads around the cuts, their
 * chunks carrying the file's offsets, a changed list refused, result files replaced whole and checked by their
 * length and CRC-32 when read or copied.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNbestArgs } from '../src/cli/nbest/options.js';
import { checkRedisUrl, redactSecrets, redactUrl, versionAtLeast } from '../src/node/queue/connection.js';
import { checkShardJob, insideDirs, RefusedJobError, SHARD_JOB, SHARD_JOB_VERSION } from '../src/node/queue/nbest-jobs.js';
import {
  copyShardResult, crc32Js, crc32Of, lineAtOffset, planShards, readShardChunks, readShardResult, ShardChangedError, shardResultPath, writeShardResult,
} from '../src/node/queue/shards.js';
import { crc32 as zlibCrc32 } from 'node:zlib';

describe('Redis URLs', () => {
  it('the password (or a lone user part, which ioredis reads as one) is replaced', () => {
    expect(redactUrl('redis://user:s3cret@host:6380/2')).toBe('redis://user:***@host:6380/2');
    expect(redactUrl('rediss://:s3cret@host')).toBe('rediss://:***@host');
    expect(redactUrl('redis://s3cret@host')).toBe('redis://***@host');
    expect(redactUrl('redis://host:6379')).toBe('redis://host:6379');
    expect(redactUrl('not a url s3cret')).toBe('<unparsable Redis URL>');
    expect(redactSecrets('AUTH failed for s3cret at redis://u:s3cret@h', 'redis://u:s3cret@h')).not.toContain('s3cret');
  });

  it('only redis:// and rediss:// URLs with a host', () => {
    expect(() => checkRedisUrl('redis://127.0.0.1:6379', '--redis')).not.toThrow();
    expect(() => checkRedisUrl('http://u:s3cret@h', '--redis')).toThrow(/http:\/\/u:\*\*\*@h\/ is not a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => checkRedisUrl('127.0.0.1:6379', '--redis')).toThrow(/not a URL \(expected redis:\/\//);
    expect(() => checkRedisUrl('redis://', '--redis')).toThrow(/names no host|not a URL/);
  });

  it('versions compare numerically', () => {
    expect(versionAtLeast('6.2.0', '6.2.0')).toBe(true);
    expect(versionAtLeast('7.0.15', '6.2.0')).toBe(true);
    expect(versionAtLeast('6.10.0', '6.2.0')).toBe(true);
    expect(versionAtLeast('6.0.16', '6.2.0')).toBe(false);
    expect(versionAtLeast('5.0.14', '6.2.0')).toBe(false);
  });
});

describe('shards and what a worker accepts', () => {
  let dir: string;
  let list: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'palette-queue-units-'));
    let text = '';
    for (let s = 0; s < 40; s++) for (let k = 0; k < 7; k++) text += `${s} ||| cand ${s} ${k} ${'w '.repeat(k)}||| f=${k} ||| ${-k}\n`;
    list = join(dir, 'list.txt');
    writeFileSync(list, text);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('shards are whole segments, cover the file, get smaller at the end, and their chunks carry the file\'s offsets', async () => {
    const bytes = readFileSync(list);
    const plan = planShards(list, 500);
    const { shards } = plan;
    expect(plan.size).toBe(bytes.length);
    expect(shards.length).toBeGreaterThan(5);
    let at = 0;
    for (const shard of shards) {
      expect(shard.offset).toBe(at);
      const text = bytes.subarray(shard.offset, shard.offset + shard.length).toString();
      const ids = text.trimEnd().split('\n').map((l) => Number(l.split(' ')[0]));
      // No segment is split: the id before the shard differs from its first.
      if (at > 0) expect(Number(bytes.subarray(0, at).toString().trimEnd().split('\n').pop()!.split(' ')[0])).toBeLessThan(ids[0]);
      const chunks = [];
      for await (const c of readShardChunks(list, shard, plan, 100, false)) chunks.push(c);
      expect(chunks[0].byteOffset).toBe(shard.offset);
      // A worker numbers its shard's lines from 1; lineAtOffset gives the list's line of the shard's start.
      expect(chunks[0].firstLine).toBe(1);
      expect(lineAtOffset(list, shard.offset)).toBe(bytes.subarray(0, shard.offset).toString().split('\n').length);
      expect(Buffer.concat(chunks.map((c) => c.bytes)).toString()).toBe(text);
      for (const c of chunks) {
        expect(bytes.subarray(c.byteOffset, c.byteOffset + c.bytes.length).equals(Buffer.from(c.bytes))).toBe(true);
        expect(c.firstLine).toBe(bytes.subarray(shard.offset, c.byteOffset).toString().split('\n').length);
      }
      at += shard.length;
    }
    expect(at).toBe(bytes.length);
    // The last shards are smaller than the first ones (the workers run dry together).
    expect(shards[shards.length - 1].length).toBeLessThan(shards[0].length);
  });

  it('a segment longer than the read window, blank lines and a last line without a line feed', () => {
    const long = Array.from({ length: 900 }, (_, k) => `1 ||| ${'long '.repeat(20)}${k} ||| f=1 ||| 0`).join('\n');
    const text = `0 ||| a ||| f=1 ||| 0\n\n${long}\n\n2 ||| b ||| f=1 ||| 0\n3 ||| c ||| f=1 ||| 0`;
    const path = join(dir, 'long.txt');
    writeFileSync(path, text);
    const { shards } = planShards(path, 16);
    const pieces = shards.map((s) => text.slice(s.offset, s.offset + s.length));
    expect(pieces.join('')).toBe(text);
    expect(pieces.length).toBeGreaterThan(1);
    // Segment 1 (~100 KB, more than the 64 KiB first read) lies in one shard; every cut is a change of id.
    expect(pieces.filter((p) => p.includes('1 ||| long')).length).toBe(1);
    const idsOf = (p: string): string[] => p.split('\n').filter((l) => l.trim() !== '').map((l) => l.split(' ')[0]);
    for (let k = 1; k < pieces.length; k++) {
      expect(pieces[k - 1].endsWith('\n')).toBe(true);
      expect(idsOf(pieces[k - 1]).at(-1)).not.toBe(idsOf(pieces[k])[0]);
    }
    // The last line has no line feed: it stays with the shard before it, as the engine's chunker keeps it.
    expect(pieces.at(-1)!.endsWith('2 ||| b ||| f=1 ||| 0\n3 ||| c ||| f=1 ||| 0')).toBe(true);
  });

  it('a shard of a changed list is refused: size, modification time, or the bytes at its ends', async () => {
    const copy = join(dir, 'copy.txt');
    const bytes = readFileSync(list);
    writeFileSync(copy, bytes);
    // Whole seconds: a time put back by utimes is then exactly the planned one.
    const planned = new Date(1_700_000_000_000);
    utimesSync(copy, planned, planned);
    const plan = planShards(copy, 500);
    const second = plan.shards[1];
    const read = async (): Promise<void> => {
      for await (const c of readShardChunks(copy, second, plan, 100, false)) void c;
    };
    await expect(read()).resolves.toBeUndefined();
    // The same bytes, touched: refused on the modification time.
    utimesSync(copy, planned, new Date(planned.getTime() + 5000));
    await expect(read()).rejects.toThrow(/modification time differs/);
    // Its last byte changed and the time put back: refused on the shard's end.
    const changed = Buffer.from(bytes);
    changed[second.offset + second.length - 3] ^= 1;
    writeFileSync(copy, changed);
    utimesSync(copy, planned, planned);
    await expect(read()).rejects.toThrow(ShardChangedError);
    // (A shard shorter than the hashed ends is hashed whole at both.)
    await expect(read()).rejects.toThrow(/its (first|last) bytes differ/);
    writeFileSync(copy, bytes.subarray(0, second.offset + 10));
    await expect(read()).rejects.toThrow(/differ from those submitted \(the list has \d+ bytes/);
  });

  it('result files are replaced whole, and no temporary file stays', () => {
    const path = shardResultPath(dir, 3, 'out');
    expect(path.endsWith('shard-000003.out')).toBe(true);
    writeShardResult(path, new Uint8Array([1, 2, 3]));
    writeShardResult(path, new Uint8Array([1, 2, 3]));
    expect([...readFileSync(path)]).toEqual([1, 2, 3]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('the CRC-32 of a result file: zlib\'s, the JavaScript one for older Nodes equal to it, continued across blocks', () => {
    const bytes = new Uint8Array(100_003);
    for (let i = 0, x = 12345; i < bytes.length; i++) bytes[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    expect(crc32Js(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32Js(bytes)).toBe(zlibCrc32(bytes));
    expect(crc32Js(bytes.subarray(5000), crc32Js(bytes.subarray(0, 5000)))).toBe(crc32Of(bytes));
    expect(crc32Js(new Uint8Array(0))).toBe(0);
  });

  it('a result file is read or copied only when it is the bytes its job reported (length and CRC-32)', () => {
    const path = shardResultPath(dir, 4, 'out');
    // Longer than one copy block, so the copy is checked across blocks.
    const bytes = new Uint8Array(700_001).map((_, i) => (i * 7919) & 0xff);
    const stamp = writeShardResult(path, bytes);
    expect(stamp).toEqual({ length: bytes.length, crc32: zlibCrc32(bytes) });
    // Each block is only valid during its call (one buffer is reused): copied here.
    let copied: Buffer[] = [];
    const copy = (s: Partial<typeof stamp> | undefined): boolean => {
      copied = [];
      return copyShardResult(path, s, (block) => copied.push(Buffer.from(block)));
    };
    expect(copy(stamp)).toBe(true);
    expect(copied.length).toBeGreaterThan(1);
    expect(Buffer.compare(Buffer.concat(copied), bytes)).toBe(0);
    expect(Buffer.compare(readShardResult(path, stamp)!, bytes)).toBe(0);
    // One byte changed in the last block, the file cut short, a report without a stamp, no file.
    const changed = bytes.slice();
    changed[changed.length - 2] ^= 1;
    writeFileSync(path, changed);
    expect(copy(stamp)).toBe(false);
    expect(readShardResult(path, stamp)).toBeUndefined();
    writeFileSync(path, bytes.subarray(0, bytes.length - 1));
    expect(copy(stamp)).toBe(false);
    expect(copied).toHaveLength(0);
    expect(readShardResult(path, stamp)).toBeUndefined();
    writeFileSync(path, bytes);
    expect(copy({ length: stamp.length })).toBe(false);
    expect(readShardResult(path, undefined)).toBeUndefined();
    rmSync(path);
    expect(copy(stamp)).toBe(false);
    expect(readShardResult(path, stamp)).toBeUndefined();
  });

  it('paths inside the allowed folders (links resolved); jobs of other kinds, versions and folders refused', () => {
    const inside = join(dir, 'in');
    const outside = mkdtempSync(join(tmpdir(), 'palette-queue-outside-'));
    try {
      mkdirSync(inside);
      symlinkSync(outside, join(inside, 'escape'));
      expect(insideDirs(join(inside, 'a.txt'), [inside])).toBe(true);
      expect(insideDirs(inside, [inside])).toBe(true);
      expect(insideDirs(join(inside, '..', 'x'), [inside])).toBe(false);
      expect(insideDirs(join(inside, 'escape', 'x'), [inside])).toBe(false);
      const job = {
        kind: SHARD_JOB, version: SHARD_JOB_VERSION, runId: '0123456789abcdef', nbest: join(inside, 'l.txt'), list: { size: 1, mtimeMs: 1 }, refs: [join(inside, 'r')],
        refsSha1: '', metrics: ['bleu'], ids: ['bleu'], settings: {}, task: {}, shard: {}, resultDir: join(inside, 'res'), taskSize: 1,
      };
      expect(checkShardJob(SHARD_JOB, job, [inside])).toBe(job);
      expect(() => checkShardJob('other', job, [inside])).toThrow(/not a Palette job kind/);
      expect(() => checkShardJob(SHARD_JOB, { ...job, version: 99 }, [inside])).toThrow(/version 99/);
      expect(() => checkShardJob(SHARD_JOB, { ...job, refs: [join(outside, 'r')] }, [inside])).toThrow(RefusedJobError);
      expect(() => checkShardJob(SHARD_JOB, { ...job, resultDir: join(inside, 'escape') }, [inside])).toThrow(/lies outside the folders/);
      expect(() => checkShardJob(SHARD_JOB, { ...job, nbest: 'l.txt' }, [inside])).toThrow(/not absolute/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('palette nbest --queue options', () => {
  const base = ['--nbest', 'l.txt', '-r', 'r.txt', '-m', 'bleu', '--stats', 'o.txt', '--queue', 'redis://127.0.0.1:6379'];
  const options = (argv: string[]) => {
    const command = parseNbestArgs(argv);
    if (command.kind !== 'run') throw new Error('not a run');
    return command.options;
  };

  it('--ffile goes with --queue; --redis-timeout in seconds, 60 by default, only with --queue', () => {
    expect(options([...base, '--ffile', 'f.txt']).ffile).toBe('f.txt');
    expect(options(base).redisTimeoutMs).toBe(60_000);
    expect(options([...base, '--redis-timeout', '2.5']).redisTimeoutMs).toBe(2500);
    expect(() => options([...base, '--redis-timeout', '0'])).toThrow(/--redis-timeout/);
    expect(() => options(['--nbest', 'l.txt', '-r', 'r.txt', '-m', 'bleu', '--redis-timeout', '5'])).toThrow(/--redis-timeout needs --queue URL/);
  });

  it('a merge with a previous run goes with --queue, under the rules of the run without a queue', () => {
    const o = options([...base, '--prev-stats', 'p.txt', '--prev-features', 'pf.txt']);
    expect([o.queue, o.prevStats, o.prevFeatures]).toEqual(['redis://127.0.0.1:6379', 'p.txt', 'pf.txt']);
    expect(() => options([...base, '--prev-stats', 'p.txt'])).toThrow(/--prev-stats needs --prev-features FILE/);
  });
});
