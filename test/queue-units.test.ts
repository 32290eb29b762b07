/**
 * The pure parts of queue runs, without Redis: URLs shown without their secrets, the version check, the folders a
 * worker may use and the jobs it refuses, and shards: cut at segment boundaries, their chunks carrying the file's
 * lines and offsets, a changed shard refused, result files replaced whole.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRedisUrl, redactSecrets, redactUrl, versionAtLeast } from '../src/node/queue/connection.js';
import { checkShardJob, insideDirs, RefusedJobError, SHARD_JOB, SHARD_JOB_VERSION } from '../src/node/queue/nbest-jobs.js';
import { planShards, readShardChunks, ShardChangedError, shardResultPath, writeShardResult } from '../src/node/queue/shards.js';

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

  it('shards are whole segments, cover the file, and their chunks carry the file\'s lines and offsets', async () => {
    const bytes = readFileSync(list);
    const shards = await planShards(list, 500);
    expect(shards.length).toBeGreaterThan(5);
    let at = 0;
    let line = 1;
    for (const shard of shards) {
      expect(shard.offset).toBe(at);
      expect(shard.firstLine).toBe(line);
      const text = bytes.subarray(shard.offset, shard.offset + shard.length).toString();
      const ids = text.trimEnd().split('\n').map((l) => Number(l.split(' ')[0]));
      // No segment is split: the id before the shard differs from its first.
      if (at > 0) expect(Number(bytes.subarray(0, at).toString().trimEnd().split('\n').pop()!.split(' ')[0])).toBeLessThan(ids[0]);
      const chunks = [];
      for await (const c of readShardChunks(list, shard, 100, false)) chunks.push(c);
      expect(chunks[0].byteOffset).toBe(shard.offset);
      expect(chunks[0].firstLine).toBe(shard.firstLine);
      expect(Buffer.concat(chunks.map((c) => c.bytes)).toString()).toBe(text);
      for (const c of chunks) {
        expect(bytes.subarray(c.byteOffset, c.byteOffset + c.bytes.length).equals(Buffer.from(c.bytes))).toBe(true);
        expect(c.firstLine).toBe(bytes.subarray(0, c.byteOffset).toString().split('\n').length);
      }
      at += shard.length;
      line += text.split('\n').length - 1;
    }
    expect(at).toBe(bytes.length);
  });

  it('a shard whose bytes changed is refused', async () => {
    const copy = join(dir, 'copy.txt');
    const bytes = readFileSync(list);
    writeFileSync(copy, bytes);
    const [, second] = await planShards(copy, 500);
    bytes[second.offset + 3] ^= 1;
    writeFileSync(copy, bytes);
    const read = async (): Promise<void> => {
      for await (const c of readShardChunks(copy, second, 100, false)) void c;
    };
    await expect(read()).rejects.toThrow(ShardChangedError);
    writeFileSync(copy, bytes.subarray(0, second.offset + 10));
    await expect(read()).rejects.toThrow(/differ from those submitted/);
  });

  it('result files are replaced whole, and no temporary file stays', () => {
    const path = shardResultPath(dir, 3, 'out');
    expect(path.endsWith('shard-000003.out')).toBe(true);
    writeShardResult(path, new Uint8Array([1, 2, 3]));
    writeShardResult(path, new Uint8Array([1, 2, 3]));
    expect([...readFileSync(path)]).toEqual([1, 2, 3]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
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
        kind: SHARD_JOB, version: SHARD_JOB_VERSION, runId: '0123456789abcdef', nbest: join(inside, 'l.txt'), refs: [join(inside, 'r')],
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
