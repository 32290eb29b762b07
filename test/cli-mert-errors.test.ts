/**
 * `palette mert` on bad input: files whose blocks disagree, INIT lines with the wrong number of weights or a
 * non-number, bad options — one line naming the file and line, exit status 2, and weights.txt untouched (no
 * temporary file left either). Plus its help and its place in `palette --help`.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliRunner, expectInputError } from './helpers/cli.js';
import { defaultRegistry } from '../src/metrics/registry.js';

const FIXTURE = new URL('./fixtures/mert/mert.basic/data/', import.meta.url).pathname;
const mert = cliRunner(['mert']);
const palette = cliRunner();

/** A folder with the mert.basic files, edited by `edit(name, lines)`, and an existing weights.txt. */
function workspace(edit: (name: string, lines: string[]) => string[] = (_, l) => l): string {
  const dir = mkdtempSync(join(tmpdir(), 'palette-mert-bad-'));
  for (const name of ['FEATSTAT.txt', 'SCORESTAT.txt', 'INIT']) {
    const lines = readFileSync(join(FIXTURE, name), 'utf8').split('\n');
    writeFileSync(join(dir, name), edit(name, lines).join('\n'));
  }
  writeFileSync(join(dir, 'weights.txt'), 'old\n');
  return dir;
}

const args = (dir: string, ...extra: string[]): string[] => [
  '--scfile', join(dir, 'SCORESTAT.txt'), '--ffile', join(dir, 'FEATSTAT.txt'), '--ifile', join(dir, 'INIT'),
  '-d', '14', '-n', '1', '-r', '1', '--weights-file', join(dir, 'weights.txt'), ...extra,
];

/** Runs on an edited workspace and checks the error and that weights.txt is untouched. */
async function expectBad(edit: Parameters<typeof workspace>[0], message: RegExp, ...extra: string[]): Promise<void> {
  const dir = workspace(edit);
  const r = await mert(args(dir, ...extra));
  expectInputError(r, 'mert', message);
  expect(readFileSync(join(dir, 'weights.txt'), 'utf8')).toBe('old\n');
  expect(readdirSync(dir).sort()).toEqual(['FEATSTAT.txt', 'INIT', 'SCORESTAT.txt', 'weights.txt']);
}

describe('palette mert: bad input', () => {
  it('runs on the untouched workspace (the checks below fail for their edit alone)', async () => {
    const dir = workspace();
    const r = await mert(args(dir));
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'weights.txt'), 'utf8')).not.toBe('old\n');
  });

  it('sentence ids that disagree', async () => {
    await expectBad(
      (name, l) => (name === 'FEATSTAT.txt' ? l.map((x) => x.replace(/^FEATURES_TXT_BEGIN_0 1 /, 'FEATURES_TXT_BEGIN_0 11 ')) : l),
      /FEATSTAT\.txt:103: sentence 11 where .*SCORESTAT\.txt has sentence 1 \(line 103\)/,
    );
  });

  it('candidate counts that disagree', async () => {
    // Drop the last candidate of sentence 0 from the scores file.
    await expectBad(
      (name, l) => (name === 'SCORESTAT.txt' ? [l[0].replace(' 100 ', ' 99 '), ...l.slice(1, 100), ...l.slice(101)] : l),
      /FEATSTAT\.txt:1: sentence 0 has 100 candidate\(s\) here but 99 in .*SCORESTAT\.txt \(line 1\)/,
    );
  });

  it('a candidate with a feature missing', async () => {
    await expectBad(
      (name, l) => (name === 'FEATSTAT.txt' ? l.map((x, i) => (i === 4 ? x.trim().split(' ').slice(1).join(' ') : x)) : l),
      /FEATSTAT\.txt:5: expected 14 features, got 13/,
    );
  });

  it('a block whose feature count differs from the first', async () => {
    await expectBad(
      (name, l) => (name === 'FEATSTAT.txt' ? l.map((x) => x.replace(/^(FEATURES_TXT_BEGIN_0 2 100) 14 /, '$1 13 ')) : l),
      /FEATSTAT\.txt:205: the block has 13 features; the first block .* has 14/,
    );
  });

  it('a statistics block the objective cannot read', async () => {
    await expectBad(
      (name, l) => (name === 'SCORESTAT.txt' ? l.map((x) => x.replace(/^(SCORES_TXT_BEGIN_0 3 100) 9 /, '$1 8 ')) : l),
      /SCORESTAT\.txt:307: the block has 8 statistics per candidate; the objective reads 9/,
    );
  });

  it('a statistic that is not a number', async () => {
    await expectBad(
      (name, l) => (name === 'SCORESTAT.txt' ? l.map((x, i) => (i === 2 ? x.replace(/^\d+/, 'x') : x)) : l),
      /SCORESTAT\.txt:3: "x" is not a number/,
    );
  });

  it('an INIT line with the wrong number of weights', async () => {
    await expectBad((name, l) => (name === 'INIT' ? [l[0].trim().split(' ').slice(1).join(' '), ...l.slice(1)] : l), /INIT:1: 13 weights, expected 14/);
    await expectBad((name, l) => (name === 'INIT' ? [l[0], `${l[1]} 0`, l[2]] : l), /INIT:2: 15 minimum weights, expected 14/);
    await expectBad((name, l) => (name === 'INIT' ? [l[0], l[1]] : l), /INIT: no line of maximum weights/);
  });

  it('a non-numeric weight', async () => {
    await expectBad((name, l) => (name === 'INIT' ? [l[0].replace(/^0\.4/, 'w'), ...l.slice(1)] : l), /INIT:1: weights: "w" is not a number/);
  });

  it('-d that is not the number of features', async () => {
    const dir = workspace();
    const r = await mert(args(dir).map((a) => (a === '14' ? '13' : a)));
    expectInputError(r, 'mert', /INIT:1: 14 weights, expected 13/);
    writeFileSync(join(dir, 'INIT'), ['1 '.repeat(13), '0 '.repeat(13), '1 '.repeat(13)].join('\n'));
    const r2 = await mert(args(dir).map((a) => (a === '14' ? '13' : a)));
    expectInputError(r2, 'mert', /FEATSTAT\.txt:1: the candidates have 14 features, -d says 13/);
  });

  it('bad options', async () => {
    const dir = workspace();
    expectInputError(await mert(['--scfile', 'x']), 'mert', /-d N/);
    expectInputError(await mert(args(dir, '-o', 'lm_9')), 'mert', /-o: unknown feature "lm_9"/);
    expectInputError(await mert(args(dir, '-t', 'simplex')), 'mert', /-t must be powell, random-direction, random/);
    expectInputError(await mert(args(dir, '--scconfig', 'regtype:average')), 'mert', /--scconfig regtype/);
    expectInputError(await mert(args(dir, '--sctype', 'nosuch')), 'mert', /unknown metric "nosuch"/);
    expectInputError(await mert(args(dir, '--scfile', 'a,b')), 'mert', /--scfile names 2 file\(s\) and --ffile 1/);
  });
});

describe('palette mert: another objective', () => {
  it('--sctype WER minimises corpus WER over palette nbest rows (the objective is minus WER)', async () => {
    const wer = defaultRegistry.create('wer', {}).metric;
    const refs = ['the cat sat on the mat', 'a dog ran home'];
    const cands = [
      ['the cat sat on the mat', 'cat the sat', 'the cat sat on mat'],
      ['a dog ran home', 'dog ran', 'a cat ran home today'],
    ];
    const prepared = wer.prepareReferences([refs]);
    const rows = cands.map((c, s) => c.map((h) => Array.from(wer.segmentStats([s === 0 ? h : refs[0], s === 1 ? h : refs[1]], prepared).subarray(s * wer.statsWidth, (s + 1) * wer.statsWidth))));
    // Features that make the worst candidate of each sentence the 1-best at the INIT point (1 1).
    const feats = [['0 0', '5 5', '1 1'], ['0 0', '1 1', '5 5']];
    const dir = mkdtempSync(join(tmpdir(), 'palette-mert-wer-'));
    writeFileSync(join(dir, 'ff'), cands.map((c, s) => `FEATURES_TXT_BEGIN_0 ${s} ${c.length} 2 a b\n${feats[s].join('\n')}\nFEATURES_TXT_END_0\n`).join(''));
    writeFileSync(join(dir, 'sf'), rows.map((r, s) => `SCORES_TXT_BEGIN_0 ${s} ${r.length} ${wer.statsWidth} WER\n${r.map((x) => x.join(' ')).join('\n')}\nSCORES_TXT_END_0\n`).join(''));
    writeFileSync(join(dir, 'init'), '1 1\n-1 -1\n1 1\n');
    const r = await mert(['--sctype', 'WER', '--scfile', join(dir, 'sf'), '--ffile', join(dir, 'ff'), '--ifile', join(dir, 'init'), '-d', '2', '-n', '3', '-r', '3', '--weights-file', join(dir, 'w')]);
    expect(r.code).toBe(0);
    // The best any selection reaches: every pair of candidates, scored as a corpus.
    let best = -Infinity;
    for (const a of rows[0]) for (const b of rows[1]) best = Math.max(best, 0 - wer.scoreFromStats(Float64Array.from(a.map((v, i) => v + b[i]))).score);
    expect(best).toBe(0);
    expect(r.err).toMatch(/ => 0\n$/);
    expect(best).toBe(0);
  });
});

describe('palette mert: help', () => {
  it('has its own --help and is listed by palette --help', async () => {
    const r = await mert(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: palette mert -d N/);
    expect(r.out).toMatch(/-m, --nrandom N/);
    const top = await palette(['--help']);
    expect(top.out).toMatch(/\n {2}mert {6}Moses mert/);
  });
});
