/**
 * `palette mert` and the MERT library against Moses: glibc's `rand()` stream (values printed by a C program
 * linked with glibc 2.x: `srand(s); rand()`), and Moses' regression test mert.basic (test/fixtures/mert, see its
 * SOURCE.md): `mert --scfile SCORESTAT.txt --ffile FEATSTAT.txt --ifile INIT -d 14 -n 20 -r 1000` prints
 * `Best point: … => 0.304339` and writes weights.txt, byte for byte.
 */
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliRunner } from './helpers/cli.js';
import { GlibcRandom } from '../src/tuning/mert/glibc-random.js';
import { readMertFiles, readMertInit } from '../src/tuning/mert/moses-files.js';
import { mertOptimize } from '../src/tuning/mert/optimizer.js';
import { mertSelectionScore } from '../src/tuning/mert/api.js';
import { mosesBleuObjective } from '../src/tuning/mert/problem.js';
import { mosesRemoveDuplicates } from './reference/moses-dedup.js';
import { runMertOnPool } from '../src/pool/mert-pool.js';

const FIXTURE = new URL('./fixtures/mert/mert.basic/', import.meta.url).pathname;
const data = (name: string): string => join(FIXTURE, 'data', name);
const fileOf = (path: string) => ({ name: path, lines: readFileSync(path, 'utf8').split('\n').filter((l, i, a) => i < a.length - 1 || l !== '') });
const mert = cliRunner(['mert']);
const truth = readFileSync(join(FIXTURE, 'truth/results.txt'), 'utf8').split('\n')[0].replace(/^STDOUT_1=/, '');

describe("glibc's rand()", () => {
  it('reproduces glibc for srand(1), srand(1000) and srand(0)', () => {
    const one = new GlibcRandom(1);
    expect([one.next(), one.next(), one.next()]).toEqual([1804289383, 846930886, 1681692777]);
    const thousand = new GlibcRandom(1000);
    expect([thousand.next(), thousand.next()]).toEqual([766020790, 1182770779]);
    const far = new GlibcRandom(1000);
    for (let i = 0; i < 100000; i++) far.next();
    expect(far.next()).toBe(744052885);
    // glibc seeds 0 as 1.
    expect(new GlibcRandom(0).next()).toBe(1804289383);
  });

  it("scales as Moses' rand_incl<float>: bottom + (top − bottom) · float(rand()) / 2^31 in float", () => {
    const r = new GlibcRandom(1000);
    expect(r.randInclFloat(-1, 1)).toBe(Math.fround(-1 + Math.fround(Math.fround(2 * Math.fround(766020790)) / 2 ** 31)));
  });
});

describe('mert.basic (Moses regression test)', () => {
  it('palette mert prints Moses’ best point and writes its weights.txt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-mert-'));
    const weights = join(dir, 'weights.txt');
    const r = await mert(['--scfile', data('SCORESTAT.txt'), '--ffile', data('FEATSTAT.txt'), '--ifile', data('INIT'), '-d', '14', '-n', '20', '-r', '1000', '--weights-file', weights]);
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toBe(`${truth}\n`);
    expect(truth).toMatch(/=> 0\.304339$/);
    expect(readFileSync(weights, 'utf8')).toBe(readFileSync(join(FIXTURE, 'weights.txt'), 'utf8'));
  });

  const problem = () => readMertFiles([{ features: fileOf(data('FEATSTAT.txt')), scores: fileOf(data('SCORESTAT.txt')) }], mosesBleuObjective(), 14);
  const init = () => readMertInit(fileOf(data('INIT')), 14);

  it('the library finds the same optimum, and every run ends no worse than it started', () => {
    const { problem: p } = problem();
    const result = mertOptimize(p, { ...init(), restarts: 20, seed: 1000 });
    expect(result.score).toBe(Math.fround(result.score));
    expect(result.score.toPrecision(6)).toBe('0.304339');
    expect(result.runs).toHaveLength(21);
    for (const run of result.runs) {
      expect(run.score).toBeGreaterThanOrEqual(mertSelectionScore(p, run.start).score);
      // The end point's own 1-best selection scores what the run reported.
      expect(mertSelectionScore(p, run.point).score).toBe(run.score);
    }
  });

  it('another seed draws other restarts', () => {
    const { problem: p } = problem();
    const a = mertOptimize(p, { ...init(), restarts: 3, seed: 1000 });
    const b = mertOptimize(p, { ...init(), restarts: 3, seed: 1001 });
    expect(a.runs[1].start).not.toEqual(b.runs[1].start);
    expect(a.runs[0].start).toEqual(b.runs[0].start);
  });

  it('--threads 2 gives the same best point (runs on the worker pool)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-mert-'));
    const weights = join(dir, 'weights.txt');
    const r = await mert(['--scfile', data('SCORESTAT.txt'), '--ffile', data('FEATSTAT.txt'), '--ifile', data('INIT'), '-d', '14', '-n', '20', '-r', '1000', '--threads', '2', '--weights-file', weights]);
    expect(r.code).toBe(0);
    expect(r.err).toBe(`${truth}\n`);
  }, 60000);

  it('with random directions, pool workers give what one thread gives with a stream per run', async () => {
    const { problem: p } = problem();
    const options = { ...init(), restarts: 3, seed: 11, randomDirections: 2, streams: 'per-run' as const };
    const serial = mertOptimize(p, options);
    const pooled = await runMertOnPool(p, 'BLEU', options, 2);
    expect(pooled.map((r) => [r.score, Array.from(r.point)])).toEqual(serial.runs.map((r) => [r.score, Array.from(r.point)]));
    // Moses' one shared stream draws other directions for the later runs.
    const shared = mertOptimize(p, { ...options, streams: 'shared' });
    expect(shared.runs.map((r) => r.start)).toEqual(serial.runs.map((r) => r.start));
    expect(shared.runs.map((r) => Array.from(r.point))).not.toEqual(serial.runs.map((r) => Array.from(r.point)));
  }, 60000);

  it('-o optimises the named features only: the others keep their INIT weights, nothing is normalised', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-mert-'));
    const weights = join(dir, 'weights.txt');
    const r = await mert(['--scfile', data('SCORESTAT.txt'), '--ffile', data('FEATSTAT.txt'), '--ifile', data('INIT'), '-d', '14', '-n', '2', '-r', '7', '-o', 'lm_0,w_0', '--weights-file', weights]);
    expect(r.code).toBe(0);
    const w = readFileSync(weights, 'utf8').trimEnd().split(' ').map(Number);
    const start = readFileSync(data('INIT'), 'utf8').split('\n')[0].trim().split(' ').map(Number);
    w.forEach((v, i) => {
      if (i !== 7 && i !== 13) expect(v).toBe(start[i]);
    });
    expect(r.err).toMatch(/^Best point: (\S+ ){14} => \S+\n$/);
  });

  it('-m random directions and -t random-direction run and improve on the start', () => {
    const { problem: p } = problem();
    for (const optimizer of ['powell', 'random-direction'] as const) {
      const result = mertOptimize(p, { ...init(), restarts: 1, seed: 5, randomDirections: 3, optimizer });
      for (const run of result.runs) expect(run.score).toBeGreaterThanOrEqual(mertSelectionScore(p, run.start).score);
    }
  });
});

describe('duplicates', () => {
  it("are removed as Moses' Data::removeDuplicates: equal features and statistics, swapped with the last", () => {
    const cands = [
      ['1 2', '1 2 3'],
      ['1 2', '1 2 3'],
      ['1 2', '1 2 4'],
      ['0 3', '1 2 3'],
      ['1 2', '1 2 3'],
      ['0 3', '1 2 3'],
      ['5 5', '0 0 0'],
    ];
    const dir = mkdtempSync(join(tmpdir(), 'palette-mert-'));
    const ff = join(dir, 'f');
    const sf = join(dir, 's');
    writeFileSync(ff, `FEATURES_TXT_BEGIN_0 0 ${cands.length} 2 a b\n${cands.map((c) => c[0]).join('\n')}\nFEATURES_TXT_END_0\n`);
    writeFileSync(sf, `SCORES_TXT_BEGIN_0 0 ${cands.length} 3 X\n${cands.map((c) => c[1]).join('\n')}\nSCORES_TXT_END_0\n`);
    const objective = { name: 'X', width: 3, score: (t: Float64Array) => t[0] };
    const read = readMertFiles([{ features: fileOf(ff), scores: fileOf(sf) }], objective, 2);
    const kept = mosesRemoveDuplicates(cands.map((c) => `${c[0]}|${c[1]}`));
    expect(read.duplicates).toBe(cands.length - kept.length);
    expect(Array.from(read.problem.features)).toEqual(kept.flatMap((i) => cands[i][0].split(' ').map(Number)));
    expect(existsSync(ff)).toBe(true);
  });
});
