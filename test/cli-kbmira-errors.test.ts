/**
 * `palette kbmira` on bad input: start weights that are not one per feature, a non-numeric weight, a line without
 * `=` in a `name= value` file, feature and score files that disagree, options Palette does not support (hypergraph
 * MIRA, sparse features, another scorer) — one line naming the file and line, exit status 2, and the -o file
 * untouched. Plus its help and its place in `palette --help`.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliRunner, expectInputError } from './helpers/cli.js';

const FIXTURE = new URL('./fixtures/mert/mert.basic/data/', import.meta.url).pathname;
const kbmira = cliRunner(['kbmira']);
const palette = cliRunner();

/** A folder with mert.basic's files, edited by `edit(name, lines)`, and an existing output file. */
function workspace(edit: (name: string, lines: string[]) => string[] = (_, l) => l): string {
  const dir = mkdtempSync(join(tmpdir(), 'palette-kbmira-bad-'));
  for (const name of ['FEATSTAT.txt', 'SCORESTAT.txt', 'INIT']) {
    const lines = readFileSync(join(FIXTURE, name), 'utf8').split('\n');
    writeFileSync(join(dir, name), edit(name, lines).join('\n'));
  }
  writeFileSync(join(dir, 'out'), 'old\n');
  return dir;
}

const args = (dir: string, ...extra: string[]): string[] => [
  '--scfile', join(dir, 'SCORESTAT.txt'), '--ffile', join(dir, 'FEATSTAT.txt'), '--dense-init', join(dir, 'INIT'),
  '-r', '1', '-J', '2', '-o', join(dir, 'out'), ...extra,
];

async function expectBad(edit: Parameters<typeof workspace>[0], message: RegExp, ...extra: string[]): Promise<void> {
  const dir = workspace(edit);
  const r = await kbmira(args(dir, ...extra));
  expectInputError(r, 'kbmira', message);
  expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('old\n');
  expect(readdirSync(dir).sort()).toEqual(['FEATSTAT.txt', 'INIT', 'SCORESTAT.txt', 'out']);
}

describe('palette kbmira: bad input', () => {
  it('runs on the untouched workspace (the checks below fail for their edit alone)', async () => {
    const dir = workspace();
    const r = await kbmira(args(dir));
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'out'), 'utf8')).toMatch(/^F0 [-\d.e]+\nF1 /);
  });

  it('an INIT line with a weight too few, or a non-number', async () => {
    await expectBad((name, l) => (name === 'INIT' ? [l[0].trim().split(' ').slice(1).join(' '), ...l.slice(1)] : l), /INIT:1: 13 weights, expected 14/);
    await expectBad((name, l) => (name === 'INIT' ? [l[0].replace(/^0\.4/, 'w'), ...l.slice(1)] : l), /INIT:1: weight "w" is not a number/);
  });

  it("'name= value' files: a line without =, a value that is not a number, a weight too many", async () => {
    const dense = (lines: string[]) => (name: string, l: string[]) => (name === 'INIT' ? lines : l);
    const good = Array.from({ length: 14 }, (_, i) => `f${i}= 0.1`);
    await expectBad(dense([...good.slice(0, 3), 'f3 0.1', ...good.slice(4)]), /INIT:4: expected "name= value", got "f3 0\.1"/);
    await expectBad(dense([...good.slice(0, 5), 'f5= high', ...good.slice(6)]), /INIT:6: weight "high" is not a number/);
    await expectBad(dense([...good, 'f14= 1']), /INIT:15: 15 weights, expected 14/);
  });

  it('feature and score files that disagree', async () => {
    await expectBad(
      (name, l) => (name === 'SCORESTAT.txt' ? [l[0].replace(' 100 ', ' 99 '), ...l.slice(1, 100), ...l.slice(101)] : l),
      /FEATSTAT\.txt:1: sentence 0 has 100 candidate\(s\) here but 99 in .*SCORESTAT\.txt \(line 1\)/,
    );
  });

  it('options Palette does not support, and bad values', async () => {
    const dir = workspace();
    expectInputError(await kbmira(args(dir, '--type', 'hypergraph')), 'kbmira', /--type hypergraph: palette kbmira trains on n-best lists only/);
    expectInputError(await kbmira(args(dir, '--hgdir', dir)), 'kbmira', /--hgdir: hypergraph MIRA is not supported/);
    expectInputError(await kbmira(args(dir, '--sparse-init', join(dir, 'INIT'))), 'kbmira', /--sparse-init: sparse features are not supported/);
    expectInputError(await kbmira(args(dir, '--sctype', 'TER')), 'kbmira', /--sctype TER: palette kbmira's sentence scores are BLEU's/);
    expectInputError(await kbmira(args(dir, '-C', 'big')), 'kbmira', /-C must be a number/);
    expectInputError(await kbmira(args(dir, '-J', '-1')), 'kbmira', /-J must be an integer >= 0/);
    expectInputError(await kbmira(args(dir, '--scconfig', 'regtype:x')), 'kbmira', /--scconfig regtype: not supported/);
    expectInputError(await kbmira(['--scfile', 'a']), 'kbmira', /no data to process/);
    expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('old\n');
  });

  it('--help, and palette --help lists kbmira', async () => {
    const h = await kbmira(['--help']);
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/^usage: palette kbmira --scfile FILE --ffile FILE/);
    for (const flag of ['--dense-init', '--cparam', '--decay', '--iters', '--no-shuffle', '--model-bg', '--safe-hope', '--streaming-out']) expect(h.out).toContain(flag);
    expect((await palette(['--help'])).out).toMatch(/\n {2}kbmira {4}Moses kbmira/);
  });
});
