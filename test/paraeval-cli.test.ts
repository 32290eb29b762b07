/**
 * `palette score -m paraeval`: the Figure 4 example through the CLI (JSON precision/recall, text signature,
 * sentence level, recall as the score, options reaching the table), and the bad-input cases: no table, a missing
 * table, a malformed table line (file:line, exit 2, nothing on stdout), a bad option value.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliRunner } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'palette-cli-paraeval-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixture = (name: string): string => new URL(`./fixtures/paraeval/${name}`, import.meta.url).pathname;
const fig4 = JSON.parse(readFileSync(fixture('fig4.json'), 'utf8')) as { candidate: string; references: string[] };
const file = (name: string, lines: string[]): string => {
  const p = join(dir, name);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
};
const ref1 = file('ref1', [fig4.references[0]]);
const ref2 = file('ref2', [fig4.references[1]]);
const hyp = file('hyp', [fig4.candidate]);
const table = fixture('fig4.tsv');

const cli = cliRunner();

describe('palette score -m paraeval', () => {
  it('JSON: precision as the score (5 decimals), precision and recall fields, the table in the signature', async () => {
    const r = await cli(['score', ref1, ref2, '-i', hyp, '-m', 'paraeval', '--paraphrase-table', table]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as Record<string, unknown>;
    expect(json).toMatchObject({ name: 'ParaEval', score: 0.8, precision: 0.8, recall: 0.26667, nrefs: '2', pfmt: 'tsv' });
    expect(json.table).toMatch(/^fig4\.tsv@[0-9a-f]{8}$/);
  });

  it('text, recall as the score, minimum phrase length, format and case flags reach the metric', async () => {
    const r = await cli([
      'score', ref1, ref2, '-i', hyp, '-m', 'paraeval', '--paraphrase-table', table, '-f', 'text',
      '--paraeval-score', 'recall', '--paraphrase-format', 'tsv', '--paraeval-lowercase', '--paraphrase-min-words', '1',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ParaEval\|nrefs:2\|case:lc\|tok:13a\|table:fig4\.tsv@[0-9a-f]{8}\|pfmt:tsv\|minw:1\|ratio:r\|version:\S+ = 0\.26667 \(P = 4\/5 hyp words, R = 4\/15 ref words; by paraphrase: 3 hyp, 3 ref\)\n$/);
    const k2 = await cli(['score', ref1, '-i', hyp, '-m', 'paraeval', '--paraphrase-table', table, '--paraphrase-min-words', '2', '-b']);
    expect(k2.out).toBe('0.40000\n');
  });

  it('-sl scores every segment', async () => {
    const r = await cli(['score', ref1, '-i', hyp, '-m', 'paraeval', '--paraphrase-table', table, '-sl', '-b', '-w', '2']);
    expect(r.out).toBe('0.80\n');
  });

  it('without --paraphrase-table: exit 2 with a clear message', async () => {
    const r = await cli(['score', ref1, '-i', hyp, '-m', 'paraeval']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^palette: error: -m paraeval needs --paraphrase-table FILE/);
  });

  it('a missing table: exit 2 naming the file', async () => {
    const missing = join(dir, 'no-such-table.tsv');
    const r = await cli(['score', ref1, '-i', hyp, '-m', 'paraeval', '--paraphrase-table', missing]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`palette: error: ${missing}: no such file\n`);
  });

  it('a malformed table line: exit 2 with file:line, nothing on stdout', async () => {
    const r = await cli(['score', ref1, '-i', hyp, '-m', 'paraeval', '--paraphrase-table', fixture('bad-tsv.tsv')]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(new RegExp(`^palette: error: ${fixture('bad-tsv.tsv')}:3: expected 2 tab-separated fields`));
  });

  it('bad option values', async () => {
    const f = await cli(['score', ref1, '-i', hyp, '-m', 'paraeval', '--paraphrase-table', table, '--paraphrase-format', 'csv']);
    expect(f.code).toBe(2);
    expect(f.err).toMatch(/--paraphrase-format must be one of auto, moses, ppdb, tsv/);
    const k = await cli(['score', ref1, '-i', hyp, '-m', 'paraeval', '--paraphrase-table', table, '--paraphrase-min-words', '0']);
    expect(k.code).toBe(2);
    expect(k.err).toMatch(/--paraphrase-min-words must be an integer >= 1/);
  });
});
