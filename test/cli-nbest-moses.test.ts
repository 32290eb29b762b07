/**
 * `palette nbest -m bleu`: SCORES_TXT byte-identical to Moses `extractor` (moses-regression-tests
 * mert.extractor-txt run 1 and mert.extractor-dups, test/fixtures/nbest; only the SCORESTAT part of the truth is
 * compared, see SOURCE.md there), and the json / msgpack formats holding the same rows.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unpackMultiple } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { runNbestCommand } from '../src/cli/nbest/command.js';
import { cliRunner } from './helpers/cli.js';

const FIX = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'nbest');
const fx = (name: string): string => join(FIX, name);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'palette-nbest-'));
});
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const nbest = cliRunner([], runNbestCommand);

const TXT = ['--nbest', fx('extractor-txt.nbest.1'), '-r', fx('extractor-txt.reference'), '-m', 'bleu'];
const DUPS = ['--nbest', fx('extractor-dups.nbest'), '-r', fx('extractor-dups.reference'), '-m', 'bleu'];

/** Rows of a SCORES_TXT text as [sentence, ...stats]. */
function mosesRows(text: string): number[][] {
  const rows: number[][] = [];
  let sentence = -1;
  for (const line of text.split('\n')) {
    if (line.startsWith('SCORES_TXT_BEGIN_0 ')) sentence = Number(line.split(' ')[1]);
    else if (line.length > 0 && !line.startsWith('SCORES_TXT_END_0')) rows.push([sentence, ...line.trim().split(' ').map(Number)]);
  }
  return rows;
}

describe('palette nbest: Moses SCORES_TXT', () => {
  it('mert.extractor-txt nbest.1: byte-identical SCORESTAT on standard output and in --stats', async () => {
    const truth = readFileSync(fx('extractor-txt.scores.1'), 'utf8');
    const r = await nbest(TXT);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(truth);
    const out = join(dir, 'scores.1.txt');
    const f = await nbest([...TXT, '--stats', out, '--stats-format', 'moses']);
    expect(f).toEqual({ code: 0, out: '', err: '' });
    expect(readFileSync(out, 'utf8')).toBe(truth);
    // No temporary file left beside it.
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('mert.extractor-dups: duplicates removed by default, kept with --allow-duplicates (byte-identical)', async () => {
    expect((await nbest(DUPS)).out).toBe(readFileSync(fx('extractor-dups.scores.default'), 'utf8'));
    expect((await nbest([...DUPS, '--allow-duplicates'])).out).toBe(readFileSync(fx('extractor-dups.scores.allow'), 'utf8'));
  });

  it('is dispatched by `palette nbest` and listed in the top-level help', async () => {
    let out = '';
    const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true } };
    expect(await run(['nbest', ...DUPS], io)).toBe(0);
    expect(out).toBe(readFileSync(fx('extractor-dups.scores.default'), 'utf8'));
    out = '';
    expect(await run(['--help'], io)).toBe(0);
    expect(out).toMatch(/^ {2}nbest {5}/m);
    out = '';
    expect(await run(['nbest', '--help'], io)).toBe(0);
    expect(out).toMatch(/^usage: palette nbest --nbest FILE/);
  });
});

describe('palette nbest: json and msgpack hold the moses rows', () => {
  it('json: one object per candidate {sentence, stats}, same rows and order as SCORES_TXT', async () => {
    const expected = mosesRows(readFileSync(fx('extractor-txt.scores.1'), 'utf8'));
    const r = await nbest([...TXT, '--stats-format', 'json']);
    expect(r.code).toBe(0);
    const rows = r.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { sentence: number; stats: number[] })
      .map((o) => [o.sentence, ...o.stats]);
    expect(rows).toEqual(expected);
  });

  it('msgpack: a sequence of {sentence, stats} maps, same rows (also with duplicates kept)', async () => {
    for (const [args, truth] of [
      [TXT, 'extractor-txt.scores.1'],
      [[...DUPS, '--allow-duplicates'], 'extractor-dups.scores.allow'],
    ] as const) {
      const out = join(dir, 'stats.msgpack');
      expect((await nbest([...args, '--stats-format', 'msgpack', '--stats', out])).code).toBe(0);
      const values = unpackMultiple(readFileSync(out)) as { sentence: number; stats: number[] }[];
      expect(values.map((o) => [o.sentence, ...o.stats])).toEqual(mosesRows(readFileSync(fx(truth), 'utf8')));
    }
  });
});
