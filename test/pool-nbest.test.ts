/**
 * The n-best pool end to end (`palette nbest --workers N --task-size B`): the output file is byte-identical to the
 * in-thread run for 2 and 3 workers and task sizes down to one segment (JSON with sentence scores, SCORES_TXT); a
 * worker that throws or dies is replaced and its task retried once (a dying worker fails every task it holds, each
 * retried once), a second failure of a task fails the run (an internal error, no output file); bad input found by a worker (or between two workers' chunks) is reported with the right
 * file and line, exit 2, no file.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nbest } from './helpers/nbest-command.js';
import { PoolTaskError } from '../src/pool/pool-error.js';
import { TASKS_PER_WORKER } from '../src/pool/task-pool.js';

const FIX = join(import.meta.dirname, 'fixtures');
const JOSHUA = [
  '--nbest', join(FIX, 'nbest-joshua', 'output.nbest'),
  '-r', ...[0, 1, 2, 3].map((k) => join(FIX, 'nbest-joshua', `reference.en.${k}`)),
];
const MOSES = ['--nbest', join(FIX, 'nbest', 'extractor-txt.nbest.1'), '-r', join(FIX, 'nbest', 'extractor-txt.reference')];
const METRICS = ['-m', 'bleu', 'rouge-l', 'rouge-s4', 'wer', 'nist'];
/** Issue 5's metrics alone: the fast path (src/engine/nbest/fast/) in every thread. */
const FAST_METRICS = ['-m', 'bleu', 'rouge-l', 'rouge-s4', 'wer'];
const ERROR_METRICS = ['-m', 'bleu', 'rouge-l'];

const dir = mkdtempSync(join(tmpdir(), 'palette-pool-nbest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const out = (name: string): string => join(dir, name);

/** A generated list: segments `from .. to − 1`, 50 candidates each (no text repeated), and 40 references for it. */
const good = (id: number, k: number): string => `${id} ||| w${k} w${k + 1} a b ||| f= ${k} ||| -1\n`;
const lines = (from: number, to: number): string => {
  let t = '';
  for (let id = from; id < to; id++) for (let k = 0; k < 50; k++) t += good(id, k);
  return t;
};
writeFileSync(out('ref'), Array.from({ length: 40 }, (_, s) => `w${s} a b c`).join('\n') + '\n');


describe('n-best pool: identical bytes for any number of workers and any task size', () => {
  it.each([
    ['5 metrics (generic path)', METRICS],
    ['4 metrics (fast path)', FAST_METRICS],
  ])('Joshua slice, %s, json with sentence scores: in-thread vs 2 and 3 workers, tasks of ~1 to ~6 segments', async (_, metrics) => {
    const args = [...JOSHUA, ...metrics, '--stats-format', 'json', '--sentence-scores'];
    const base = await nbest([...args, '--workers', '1', '--stats', out('j1')]);
    expect(base.code).toBe(0);
    expect(base.info?.inThread).toBe(true);
    const expected = readFileSync(out('j1'));
    for (const [workers, taskSize] of [['2', '3000'], ['3', '1']] as const) {
      const r = await nbest([...args, '--workers', workers, '--task-size', taskSize, '--stats', out('jn')]);
      expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
      expect(r.info?.inThread).toBe(false);
      expect(r.info?.tasks).toBeGreaterThan(1);
      // N scoring threads: the pool's N − 1 workers take the first chunks (as many as they can hold).
      const poolWorkers = Number(workers) - 1;
      expect(r.info?.poolTasks).toBeGreaterThanOrEqual(Math.min(r.info!.tasks, poolWorkers * TASKS_PER_WORKER));
      expect(readFileSync(out('jn')).equals(expected), `${workers} workers, task size ${taskSize}`).toBe(true);
    }
  });

  it('more chunks than the workers hold: the main thread scores some of them, same bytes (caller runs)', async () => {
    writeFileSync(out('many.nbest'), lines(0, 40));
    const args = ['--nbest', out('many.nbest'), '-r', out('ref'), '-m', 'bleu', 'rouge-l', 'wer'];
    await nbest([...args, '--workers', '1', '--stats', out('c1')]);
    const r = await nbest([...args, '--workers', '2', '--task-size', '2000', '--stats', out('c2')]);
    expect(r.code).toBe(0);
    const { tasks, poolTasks } = r.info!;
    expect(tasks).toBeGreaterThan(4 * TASKS_PER_WORKER);
    expect(poolTasks, 'chunks the worker scored').toBeGreaterThanOrEqual(TASKS_PER_WORKER);
    expect(tasks - poolTasks!, 'chunks the main thread scored').toBeGreaterThan(0);
    expect(readFileSync(out('c2')).equals(readFileSync(out('c1')))).toBe(true);
  });

  it('Moses run 1, default duplicate removal, SCORES_TXT: 2 workers = Moses truth (BLEU)', async () => {
    const truth = readFileSync(join(FIX, 'nbest', 'extractor-txt.scores.1'));
    const r = await nbest([...MOSES, '-m', 'bleu', '--workers', '2', '--task-size', '20000', '--stats', out('m2')]);
    expect(r.code).toBe(0);
    expect(r.info?.inThread).toBe(false);
    expect(readFileSync(out('m2')).equals(truth)).toBe(true);
  });
});

describe('n-best pool: worker failures', () => {
  const args = [...MOSES, '-m', 'bleu', 'wer', '--workers', '2', '--task-size', '20000'];

  it('a worker that exits (process.exit) once is replaced and the tasks it held retried: same output', async () => {
    await nbest([...MOSES, '-m', 'bleu', 'wer', '--workers', '1', '--stats', out('f1')]);
    const r = await nbest([...args, '--stats', out('f2')], { injectFault: { task: 1, kind: 'exit', attempts: 1 } });
    expect(r.code).toBe(0);
    // Task 1 and whatever task was queued behind it on the same worker, each retried once.
    expect(r.info?.retries).toBeGreaterThanOrEqual(1);
    expect(r.info?.retries).toBeLessThanOrEqual(TASKS_PER_WORKER);
    expect(readFileSync(out('f2')).equals(readFileSync(out('f1')))).toBe(true);
  });

  it('a worker that throws once: only that task is retried, once: same output', async () => {
    await nbest([...MOSES, '-m', 'bleu', 'wer', '--workers', '1', '--stats', out('t1')]);
    const r = await nbest([...args, '--stats', out('t2')], { injectFault: { task: 1, kind: 'throw', attempts: 1 } });
    expect(r.code).toBe(0);
    expect(r.info?.retries).toBe(1);
    expect(readFileSync(out('t2')).equals(readFileSync(out('t1')))).toBe(true);
  });

  it('a task that fails twice (exit, then throw) fails the run (internal error), no output file left', async () => {
    const folder = mkdtempSync(join(dir, 'twice-'));
    await expect(
      nbest([...args, '--stats', join(folder, 'stats')], { injectFault: { task: 2, kind: 'exit', attempts: 1, then: 'throw' } }),
    ).rejects.toThrow(PoolTaskError);
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe('n-best pool: bad input found in a worker or between chunks → file:line, exit 2, no file', () => {

  async function failsCleanly(name: string, text: string | Buffer, message: RegExp): Promise<void> {
    writeFileSync(out(name), text);
    const folder = mkdtempSync(join(dir, 'bad-'));
    const r = await nbest(['--nbest', out(name), '-r', out('ref'), ...ERROR_METRICS, '--workers', '2', '--task-size', '4000', '--stats', join(folder, 's')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^palette nbest: error: /);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(message);
    expect(readdirSync(folder)).toEqual([]);
  }

  // (Each kind of malformed line is checked in-thread by cli-nbest-errors.test.ts; here: that a worker's report
  // keeps the file and line, and the checks only the main thread can make.)
  it('a wrong field count deep in the file (found by a worker)', async () => {
    // 20 segments × 50 lines before the bad line 1001.
    await failsCleanly('fields', `${lines(0, 20)}20 ||| x y\n${lines(21, 30)}`, /fields:1001: malformed n-best line: 2 fields/);
  });

  it('ids out of order across chunks; invalid UTF-8 with its line', async () => {
    await failsCleanly('order-across', `${lines(0, 20)}${lines(5, 10)}`, /order-across:1001: malformed n-best line: id 5 after id 19/);
    const bad = Buffer.concat([Buffer.from(lines(0, 20)), Buffer.from([0x32, 0x30, 0x20, 0xff, 0x0a])]);
    await failsCleanly('utf8', bad, /utf8:1001: invalid UTF-8: byte 0xff at byte offset \d+/);
  });
});
