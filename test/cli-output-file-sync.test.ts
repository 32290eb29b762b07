/**
 * The output-file helper (src/cli/output-file.ts) hands a big output to the disk while it is written: a background
 * `fdatasync` of the temporary file after every SYNC_EVERY bytes (one at a time, on a descriptor of its own), so that
 * the final rename over an existing file does not have to start writing all of it. Checked with `fdatasync` wrapped
 * (counted, or made to fail): the bytes are those written, a sync runs for each SYNC_EVERY bytes, a failed sync fails
 * the commit with the file named (the temporary file removed, the existing target untouched), and an abort while a
 * sync runs leaves nothing behind.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

/** What the wrapped `fdatasync` does: counts the syncs and passes them on, or fails them. */
const syncs = { started: 0, done: 0, fail: false };

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
  return { ...real, fdatasync, default: { ...real, fdatasync } };
});

const { openOutputFile, SYNC_EVERY } = await import('../src/cli/output-file.js');
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
