/**
 * A pool started before the run's setup is known (`palette nbest -j N` starts it at the command's entry, its
 * workers get the references, metrics and kernels later on a channel, or compile the kernels' file themselves and
 * get the setup in shared memory, or on the channel when the run's kernels are another build's): the output is
 * byte-identical to the in-thread run; a worker that dies is replaced and the new one gets the setup too; bad input still exits 2 with the
 * file and line and no output file; a run that needs a pool of another size (or none) leaves the early pool alone,
 * which is then stopped. Which arguments start one early.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NbestHooks } from '../src/cli/nbest/command.js';
import { nbest } from './helpers/nbest-command.js';
import { startEarlyNbestPool } from '../src/cli/nbest/early-pool.js';
import { selectedWasmBuild, wasmUrl } from '../src/node/wasm.js';
import { EarlyNbestPool } from '../src/pool/nbest-pool.js';
import type { KernelsFile } from '../src/pool/task-pool.js';
import { fileURLToPath } from 'node:url';

const dir = mkdtempSync(join(tmpdir(), 'palette-pool-nbest-early-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const out = (name: string): string => join(dir, name);

/** Segments `from .. to − 1`, 50 candidates each, and 40 references. */
const lines = (from: number, to: number): string => {
  let t = '';
  for (let id = from; id < to; id++) for (let k = 0; k < 50; k++) t += `${id} ||| w${k} w${k + 1} a b ||| f= ${k} ||| -1\n`;
  return t;
};
writeFileSync(out('ref'), Array.from({ length: 40 }, (_, s) => `w${s} a b c`).join('\n') + '\n');
writeFileSync(out('list'), lines(0, 40));
const ARGS = ['--nbest', out('list'), '-r', out('ref'), '-m', 'bleu', 'rouge-l', 'rouge-s4', 'wer', '--task-size', '2000'];


/** Runs with a pool started early, as `palette nbest` does, and stops it if the run did not take it. */
async function withEarly(argv: string[], early: EarlyNbestPool, hooks: NbestHooks = {}): ReturnType<typeof nbest> {
  try {
    return await nbest(argv, { ...hooks, early });
  } finally {
    await early.dispose();
  }
}

const build = selectedWasmBuild(process.env);
const otherBuild = build === 'release' ? 'debug' : 'release';
/** How the workers get their setup: on the channel; in shared memory (the run's kernels); on the channel again (another build's file). */
const DELIVERIES: [string, KernelsFile | undefined][] = [
  ['channel', undefined],
  ['shared memory', { build, path: fileURLToPath(wasmUrl(build)) }],
  ['other kernels', { build: otherBuild, path: fileURLToPath(wasmUrl(otherBuild)) }],
];

describe('n-best pool started early', () => {
  it('in-thread reference output', async () => {
    expect((await nbest([...ARGS, '-j', '1', '--stats', out('one')])).code).toBe(0);
  });

  it.each(DELIVERIES)('setup by %s, taken by the run: same bytes as in-thread for 2 and 3 scoring threads', async (_, kernels) => {
    const expected = readFileSync(out('one'));
    for (const workers of [2, 3]) {
      const early = new EarlyNbestPool(workers - 1, kernels);
      const r = await withEarly([...ARGS, '-j', String(workers), '--stats', out('early')], early);
      expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
      expect(early.adopted).toBe(true);
      expect(r.info?.inThread).toBe(false);
      expect(r.info?.poolTasks).toBeGreaterThan(0);
      expect(readFileSync(out('early')).equals(expected), `${workers} threads`).toBe(true);
    }
  });

  it.each(DELIVERIES)('setup by %s: a worker that dies is replaced, and its replacement gets the setup: same bytes', async (_, kernels) => {
    const expected = readFileSync(out('one'));
    const early = new EarlyNbestPool(1, kernels);
    const r = await withEarly([...ARGS, '-j', '2', '--stats', out('dies')], early, {
      injectFault: { task: 0, kind: 'exit', attempts: 1 },
    });
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    expect(early.adopted).toBe(true);
    expect(r.info?.retries).toBeGreaterThan(0);
    expect(readFileSync(out('dies')).equals(expected)).toBe(true);
  });

  it('bad input found by a worker: exit 2, file and line, no output file', async () => {
    const bad = lines(0, 20) + '20 ||| no score field\n' + lines(21, 40);
    writeFileSync(out('bad'), bad);
    const line = bad.split('\n').indexOf('20 ||| no score field') + 1;
    const argv = ['--nbest', out('bad'), '-r', out('ref'), '-m', 'bleu', 'rouge-l', '--task-size', '2000'];
    const r = await withEarly([...argv, '-j', '2', '--stats', out('bad.out')], new EarlyNbestPool(1));
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${out('bad')}:${line}`);
    expect(existsSync(out('bad.out'))).toBe(false);
  });

  it('a run that needs another pool size, or none, does not take it', async () => {
    const expected = readFileSync(out('one'));
    const other = new EarlyNbestPool(2);
    const r = await withEarly([...ARGS, '-j', '2', '--stats', out('other')], other);
    expect(r.code).toBe(0);
    expect(other.adopted).toBe(false);
    expect(readFileSync(out('other')).equals(expected)).toBe(true);
    const unused = new EarlyNbestPool(1);
    const one = await withEarly([...ARGS, '-j', '1', '--stats', out('none')], unused);
    expect({ code: one.code, inThread: one.info?.inThread, adopted: unused.adopted }).toEqual({ code: 0, inThread: true, adopted: false });
  });

  it('started for -j N (N ≥ 2) on a list of at least two tasks, not for a merge, a queue run, help or a small list', async () => {
    const pools: (EarlyNbestPool | undefined)[] = [];
    const start = (argv: string[]): number | undefined => {
      const pool = startEarlyNbestPool(argv);
      pools.push(pool);
      return pool?.workers;
    };
    try {
      expect(start([...ARGS, '-j', '3'])).toBe(2);
      expect(start([...ARGS, '--workers=2'])).toBe(1);
      expect(start([...ARGS])).toBeUndefined();
      expect(start([...ARGS, '-j', '1'])).toBeUndefined();
      expect(start([...ARGS, '-j', 'x'])).toBeUndefined();
      expect(start([...ARGS, '-j', '2', '--queue', 'redis://localhost'])).toBeUndefined();
      expect(start([...ARGS, '-j', '2', '--prev-stats', out('one')])).toBeUndefined();
      expect(start([...ARGS, '-j', '2', '--help'])).toBeUndefined();
      expect(start([...ARGS, '-j', '2', '--task-size', String(readFileSync(out('list')).length)])).toBeUndefined();
      expect(start(['--nbest', out('missing'), '-r', out('ref'), '-j', '2'])).toBeUndefined();
    } finally {
      await Promise.all(pools.map((p) => p?.dispose()));
    }
  });
});
