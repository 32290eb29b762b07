/**
 * `palette pro` on bad input: feature and score files whose blocks disagree (sentences, candidate counts, feature
 * counts, a run with fewer blocks), statistics that are not BLEU's nine columns, a non-number, bad options — one
 * line naming the file and line, exit status 2, and the -o file untouched (no temporary file left either). Plus its
 * help and its place in `palette --help`.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliRunner, expectInputError } from './helpers/cli.js';

const FIXTURE = new URL('./fixtures/mert/mert.basic/data/', import.meta.url).pathname;
const pro = cliRunner(['pro']);
const palette = cliRunner();

/** A folder with mert.basic's FEATSTAT.txt and SCORESTAT.txt, edited by `edit(name, lines)`, and an existing output. */
function workspace(edit: (name: string, lines: string[]) => string[] = (_, l) => l): string {
  const dir = mkdtempSync(join(tmpdir(), 'palette-pro-bad-'));
  for (const name of ['FEATSTAT.txt', 'SCORESTAT.txt']) {
    const lines = readFileSync(join(FIXTURE, name), 'utf8').split('\n');
    writeFileSync(join(dir, name), edit(name, lines).join('\n'));
  }
  writeFileSync(join(dir, 'out'), 'old\n');
  return dir;
}

const args = (dir: string, ...extra: string[]): string[] => [
  '--scfile', join(dir, 'SCORESTAT.txt'), '--ffile', join(dir, 'FEATSTAT.txt'), '-r', '1', '-o', join(dir, 'out'), ...extra,
];

async function expectBad(edit: Parameters<typeof workspace>[0], message: RegExp, ...extra: string[]): Promise<void> {
  const dir = workspace(edit);
  const r = await pro(args(dir, ...extra));
  expectInputError(r, 'pro', message);
  expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('old\n');
  expect(readdirSync(dir).sort()).toEqual(['FEATSTAT.txt', 'SCORESTAT.txt', 'out']);
}

describe('palette pro: bad input', () => {
  it('runs on the untouched workspace (the checks below fail for their edit alone)', async () => {
    const dir = workspace();
    const r = await pro(args(dir));
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'out'), 'utf8')).toMatch(/^1 F/);
  });

  it('sentence ids that disagree', async () => {
    await expectBad(
      (name, l) => (name === 'FEATSTAT.txt' ? l.map((x) => x.replace(/^FEATURES_TXT_BEGIN_0 1 /, 'FEATURES_TXT_BEGIN_0 11 ')) : l),
      /FEATSTAT\.txt:103: sentence 11 where .*SCORESTAT\.txt has sentence 1 \(line 103\)/,
    );
  });

  it('candidate counts that disagree', async () => {
    await expectBad(
      (name, l) => (name === 'SCORESTAT.txt' ? [l[0].replace(' 100 ', ' 99 '), ...l.slice(1, 100), ...l.slice(101)] : l),
      /FEATSTAT\.txt:1: sentence 0 has 100 candidate\(s\) here but 99 in .*SCORESTAT\.txt \(line 1\)/,
    );
  });

  it('a scores file with a block fewer', async () => {
    await expectBad(
      (name, l) => (name === 'SCORESTAT.txt' ? l.slice(0, 9 * 102) : l),
      /FEATSTAT\.txt:919: block 10 \(sentence 9\) has no counterpart: .*SCORESTAT\.txt has 9 block\(s\)/,
    );
  });

  it('a candidate with a feature missing, and a block whose feature count differs from the first', async () => {
    await expectBad(
      (name, l) => (name === 'FEATSTAT.txt' ? l.map((x, i) => (i === 4 ? x.trim().split(' ').slice(1).join(' ') : x)) : l),
      /FEATSTAT\.txt:5: expected 14 features, got 13/,
    );
    await expectBad(
      (name, l) => (name === 'FEATSTAT.txt' ? l.map((x) => x.replace(/^(FEATURES_TXT_BEGIN_0 2 100) 14 /, '$1 13 ')) : l),
      /FEATSTAT\.txt:205: the block has 13 features; the first block .* has 14/,
    );
  });

  it('statistics that are not BLEU’s nine columns', async () => {
    await expectBad(
      (name, l) => (name === 'SCORESTAT.txt' ? l.map((x) => x.replace(/^(SCORES_TXT_BEGIN_0 3 100) 9 BLEU/, '$1 8 TER')) : l),
      /SCORESTAT\.txt:307: the block has 8 statistics per candidate \(TER\); sentence BLEU reads 9/,
    );
  });

  it('a statistic or a feature that is not a number, a sparse feature', async () => {
    await expectBad((name, l) => (name === 'SCORESTAT.txt' ? l.map((x, i) => (i === 2 ? x.replace(/^\d+/, 'x') : x)) : l), /SCORESTAT\.txt:3: "x" is not a number/);
    await expectBad((name, l) => (name === 'FEATSTAT.txt' ? l.map((x, i) => (i === 6 ? x.replace(/^0 /, 'nan ') : x)) : l), /FEATSTAT\.txt:7: "nan" is not a number/);
    await expectBad((name, l) => (name === 'FEATSTAT.txt' ? l.map((x, i) => (i === 6 ? x.replace(/^0 /, 'lex=2 ') : x)) : l), /FEATSTAT\.txt:7: sparse feature "lex=2"/);
  });

  it('a second run with fewer blocks than the first, or another sentence in a block', async () => {
    const dir = workspace();
    const lines = readFileSync(join(dir, 'FEATSTAT.txt'), 'utf8').split('\n');
    const slines = readFileSync(join(dir, 'SCORESTAT.txt'), 'utf8').split('\n');
    writeFileSync(join(dir, 'F2'), lines.slice(0, 102 * 3).join('\n'));
    writeFileSync(join(dir, 'S2'), slines.slice(0, 102 * 3).join('\n'));
    const r = await pro([...args(dir), '--scfile', join(dir, 'S2'), '--ffile', join(dir, 'F2')]);
    expectInputError(r, 'pro', /F2: 3 block\(s\), but .*FEATSTAT\.txt has 10: every run must give every sentence/);
    writeFileSync(join(dir, 'F3'), lines.map((x) => x.replace(/^FEATURES_TXT_BEGIN_0 2 /, 'FEATURES_TXT_BEGIN_0 12 ')).join('\n'));
    writeFileSync(join(dir, 'S3'), slines.map((x) => x.replace(/^SCORES_TXT_BEGIN_0 2 /, 'SCORES_TXT_BEGIN_0 12 ')).join('\n'));
    const r3 = await pro([...args(dir), '--scfile', join(dir, 'S3'), '--ffile', join(dir, 'F3')]);
    expectInputError(r3, 'pro', /F3:205: sentence 12 where .*FEATSTAT\.txt has sentence 2 \(line 205\) in block 3/);
    expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('old\n');
  });

  it('a sentence without candidates', async () => {
    await expectBad(
      (name, l) => {
        const tag = name === 'FEATSTAT.txt' ? 'FEATURES_TXT' : 'SCORES_TXT';
        const width = name === 'FEATSTAT.txt' ? '14 d_0' : '9 BLEU';
        return [`${tag}_BEGIN_0 0 0 ${width}`, `${tag}_END_0`, ...l.slice(102)];
      },
      /FEATSTAT\.txt:1: sentence 0 has no candidate in any file/,
    );
  });

  it('bad options', async () => {
    const dir = workspace();
    expectInputError(await pro([]), 'pro', /no data to process: give --scfile FILE and --ffile FILE/);
    expectInputError(await pro(['--scfile', 'x']), 'pro', /no data to process/);
    expectInputError(await pro(args(dir, '--scfile', join(dir, 'SCORESTAT.txt'))), 'pro', /number of feature files \(1\) does not match number of score files \(2\)/);
    expectInputError(await pro(args(dir, '-r', 'abc')), 'pro', /-r must be an integer/);
    expectInputError(await pro(args(dir, '-r', '4294967296')), 'pro', /-r must be an integer/);
    expectInputError(await pro(args(dir, '--nbest', 'x')), 'pro', /unrecognized option "--nbest"/);
    expectInputError(await pro(['--scfile', join(dir, 'nope'), '--ffile', join(dir, 'FEATSTAT.txt')]), 'pro', /nope/);
    expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('old\n');
  });

  it('--help, and palette --help lists pro', async () => {
    const h = await pro(['--help']);
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/^usage: palette pro --scfile FILE --ffile FILE/);
    for (const flag of ['--scfile', '--ffile', '--random-seed', '--output-file', '--smooth-brevity-penalty']) expect(h.out).toContain(flag);
    const top = await palette(['--help']);
    expect(top.out).toMatch(/\n {2}pro {7}Moses pro/);
  });
});
