/**
 * The output-file helper (src/cli/output-file.ts) hands a big output to the disk while it is written: a background
 * `fdatasync` of the temporary file after every SYNC_EVERY bytes (one at a time, on a descriptor of its own), so that
 * the final rename over an existing file does not have to start writing all of it. Checked with `fdatasync` wrapped
 * (counted, or made to fail): the bytes are those written, a sync runs for each SYNC_EVERY bytes, a failed sync fails
 * the commit with the file named (the temporary file removed, the existing target untouched), and an abort while a
 * sync runs leaves nothing behind.
 *
 * Bytes given to `writeBehind` are written in the background as well (positional writes in libuv's thread pool), with
 * the wrapped `write` counting them or failing them: the file holds every write in the order given, however the
 * background and the immediate writes interleave; each array is handed back once written; past BEHIND_LIMIT bytes
 * waiting, bytes are written at once; a failed background write fails the commit (the old file kept, nothing left
 * behind); an abort while writes are under way leaves nothing behind.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

/** What the wrapped `fdatasync` does: counts the syncs and passes them on, or fails them. */
const syncs = { started: 0, done: 0, fail: false };
/** What the wrapped asynchronous `write` does: counts the writes and passes them on, or fails them. */
const writes = { started: 0, fail: false };

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const fdatasync = (fd: number, callback: (err: NodeJS.ErrnoException | null) => void): void => {
    syncs.started++;
    if (syncs.fail) {
      setImmediate(() => callback(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO', errno: -5, syscall: 'fdatasync' })));
      return;
    }
    real.fdatasync(fd, (err) => {
      syncs.done++;
      callback(err);
    });
  };
  const write = (...args: unknown[]): void => {
    writes.started++;
    const callback = args[args.length - 1] as (err: NodeJS.ErrnoException | null, n: number) => void;
    if (writes.fail) {
      setImmediate(() => callback(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' }), 0));
      return;
    }
    (real.write as (...a: unknown[]) => void)(...args);
  };
  return { ...real, fdatasync, write, default: { ...real, fdatasync, write } };
});

const { openOutputFile, SYNC_EVERY, BEHIND_LIMIT } = await import('../src/cli/output-file.js');
const { InputError } = await import('../src/errors.js');

const dir = mkdtempSync(join(tmpdir(), 'palette-output-sync-'));
const f = (name: string): string => join(dir, name);
const temporaries = (): string[] => readdirSync(dir).filter((n) => n.endsWith('.tmp'));
/** A few turns of the event loop (the syncs' callbacks, then their descriptors' closes). */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
};

afterEach(() => {
  syncs.started = 0;
  syncs.done = 0;
  syncs.fail = false;
  writes.started = 0;
  writes.fail = false;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `blocks` blocks of 1 MiB, each filled with its own byte. */
function blocks(count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => new Uint8Array(1 << 20).fill(i & 0xff));
}

describe('background syncs of a big output file', () => {
  it('a sync per SYNC_EVERY bytes written (bytes and text alike); the file holds exactly what was written', async () => {
    writeFileSync(f('big'), 'the previous run\n');
    const out = openOutputFile(f('big'));
    const written: Uint8Array[] = [];
    const count = 3 * (SYNC_EVERY >> 20) + 1;
    for (const block of blocks(count)) {
      out.write(block);
      written.push(block);
      // Text is written too (gathered, then flushed before the next bytes).
      out.write('text between blocks\n');
      written.push(new TextEncoder().encode('text between blocks\n'));
      // One sync at a time: the next starts with the first write after this one has finished.
      while (syncs.done < syncs.started) await new Promise((r) => setTimeout(r, 2));
      await settle();
    }
    out.commit();
    expect(syncs.started).toBe(3);
    expect(readFileSync(f('big')).equals(Buffer.concat(written))).toBe(true);
    await settle();
    expect(temporaries()).toEqual([]);
  });

  it('a small output is not synced', () => {
    const out = openOutputFile(f('small'));
    out.write(new Uint8Array(1000));
    out.commit();
    expect(syncs.started).toBe(0);
    expect(readFileSync(f('small')).length).toBe(1000);
  });

  it('a sync that failed fails the commit: the file named, the temporary file removed, the old file kept', async () => {
    writeFileSync(f('failing'), 'the previous run\n');
    syncs.fail = true;
    const out = openOutputFile(f('failing'));
    for (const block of blocks((SYNC_EVERY >> 20) + 1)) out.write(block);
    await settle();
    let error: unknown;
    try {
      out.commit();
    } catch (err) {
      error = err;
    }
    expect(syncs.started).toBe(1);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InstanceType<typeof InputError>).code).toBe('E_FILE_UNWRITABLE');
    expect((error as InstanceType<typeof InputError>).file).toBe(f('failing'));
    expect((error as Error).message).toMatch(/i\/o error|input\/output/i);
    expect(readFileSync(f('failing'), 'utf8')).toBe('the previous run\n');
    expect(temporaries()).toEqual([]);
  });

  it('an abort while a sync runs leaves nothing behind', async () => {
    const out = openOutputFile(f('aborted'));
    for (const block of blocks((SYNC_EVERY >> 20) + 1)) out.write(block);
    expect(syncs.started).toBe(1);
    out.abort();
    await settle();
    expect(existsSync(f('aborted'))).toBe(false);
    expect(temporaries()).toEqual([]);
  });
});

describe('background writes (writeBehind)', () => {
  it('the file holds every write in the order given; each array is handed back once written', async () => {
    writeFileSync(f('behind'), 'the previous run\n');
    const out = openOutputFile(f('behind'));
    const expected: Uint8Array[] = [];
    const handedBack = new Set<number>();
    // Background writes of several sizes, with text and immediate bytes between them.
    for (let i = 0; i < 40; i++) {
      const bytes = new Uint8Array(1 + ((i * 7919) % 50000)).fill(i);
      out.writeBehind(bytes, () => handedBack.add(i));
      expected.push(bytes);
      if (i % 3 === 0) {
        out.write(`text ${i}\n`);
        expected.push(new TextEncoder().encode(`text ${i}\n`));
      }
      if (i % 5 === 0) {
        const now = new Uint8Array(100).fill(200 + (i % 50));
        out.write(now);
        expected.push(now);
      }
      if (i % 4 === 0) await new Promise((r) => setImmediate(r));
    }
    out.write('the end\n');
    expected.push(new TextEncoder().encode('the end\n'));
    expect(() => out.commit()).toThrow(/await settled/);
    await out.settled();
    expect(writes.started).toBeGreaterThanOrEqual(40);
    expect(handedBack.size).toBe(40);
    out.commit();
    expect(readFileSync(f('behind')).equals(Buffer.concat(expected))).toBe(true);
    expect(temporaries()).toEqual([]);
  });

  it('past BEHIND_LIMIT bytes waiting, bytes are written (and handed back) at once', async () => {
    const out = openOutputFile(f('limit'));
    const block = (i: number): Uint8Array => new Uint8Array(1 << 20).fill(i);
    const count = (BEHIND_LIMIT >> 20) + 3;
    let handedBack = 0;
    for (let i = 0; i < count; i++) out.writeBehind(block(i), () => handedBack++);
    // No turn of the event loop yet: only the writes past the limit are done.
    expect(handedBack).toBe(count - (BEHIND_LIMIT >> 20));
    expect(writes.started).toBe(BEHIND_LIMIT >> 20);
    await out.settled();
    expect(handedBack).toBe(count);
    out.commit();
    expect(readFileSync(f('limit')).equals(Buffer.concat(Array.from({ length: count }, (_, i) => block(i))))).toBe(true);
  });

  it('a failed background write fails the commit: the file named, the temporary file removed, the old file kept', async () => {
    writeFileSync(f('full'), 'the previous run\n');
    writes.fail = true;
    const out = openOutputFile(f('full'));
    out.writeBehind(new Uint8Array(1000), () => {});
    await out.settled();
    // The next write fails at once.
    expect(() => out.writeBehind(new Uint8Array(10), () => {})).toThrow(/no space left/);
    let error: unknown;
    try {
      out.commit();
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InstanceType<typeof InputError>).code).toBe('E_FILE_UNWRITABLE');
    expect((error as InstanceType<typeof InputError>).file).toBe(f('full'));
    expect((error as Error).message).toMatch(/no space left/i);
    expect(readFileSync(f('full'), 'utf8')).toBe('the previous run\n');
    expect(temporaries()).toEqual([]);
  });

  it('an abort while writes are under way leaves nothing behind', async () => {
    writeFileSync(f('dropped'), 'the previous run\n');
    const out = openOutputFile(f('dropped'));
    for (let i = 0; i < 8; i++) out.writeBehind(new Uint8Array(1 << 20).fill(i), () => {});
    out.abort();
    await settle();
    expect(readFileSync(f('dropped'), 'utf8')).toBe('the previous run\n');
    expect(temporaries()).toEqual([]);
  });
});
