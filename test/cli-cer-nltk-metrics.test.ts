/**
 * `palette score -m cer|gleu|ribes|meteor` end to end, in-process: the corpus score, `-sl` sentence values, JSON
 * fields and signatures, against values worked out by hand from the reference implementations' definitions.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliRunner } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'palette-cli-cer-nltk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, lines: string[]): string => {
  const p = join(dir, name);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
};
const cli = cliRunner();

describe('palette score -m cer', () => {
  // Line 1: 'the cat sat' vs 'the bat sat' (1 substitution of 11); line 2: 'hello  world' (stripped; 12 characters)
  // vs 'helo world': 2 deletions (an 'l' and a space). Pooled: 3 edits over 23 reference characters.
  const ref = file('cer.ref', ['the cat sat', ' hello  world ']);
  const hyp = file('cer.hyp', ['the bat sat', 'helo world']);

  it('corpus CER from pooled counts, counts in JSON', async () => {
    const r = await cli(['score', ref, '-i', hyp, '-m', 'cer']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Record<string, unknown>;
    expect(j).toMatchObject({ name: 'CER', score: Number((3 / 23).toFixed(5)), hits: 20, substitutions: 1, deletions: 2, insertions: 0 });
    expect(j.signature).toMatch(/^nrefs:1\|case:mixed\|version:/);
  });

  it('-sl gives each line its own rate; --cer-lowercase changes case and signature', async () => {
    const r = await cli(['score', ref, '-i', hyp, '-m', 'cer', '-sl', '-f', 'text', '-w', '6']);
    expect(r.code).toBe(0);
    expect(r.out).toContain((1 / 11).toFixed(6));
    expect(r.out).toContain((2 / 12).toFixed(6));
    const lc = await cli(['score', ref, '-i', file('cer.up', ['THE BAT SAT', 'helo world']), '-m', 'cer', '--cer-lowercase']);
    const j = JSON.parse(lc.out) as Record<string, unknown>;
    expect(j).toMatchObject({ substitutions: 1, deletions: 2 });
    expect(j.signature).toMatch(/case:lc/);
  });
});
