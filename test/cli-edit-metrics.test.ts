import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as palette from '../src/index.js';
import { alignWords } from '../src/metrics/edit/word-alignment.js';
import { countOps } from '../src/metrics/ter/alignment.js';
import { readFileSync } from 'node:fs';
import { cliRunner } from './helpers/cli.js';

// `palette score -m ter wer per gtm`: JSON fields, -sl, several systems, -d alignment listings, refused flags; and
// the WER listing's S/D/I split equals the metric's (jiwer's) on every line of the jiwer fixture.

const dir = mkdtempSync(join(tmpdir(), 'palette-cli-edit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, lines: string[]): string => {
  const p = join(dir, name);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
};
const ref = file('ref', ['the cat sat on the mat', 'hello world']);
const hyp = file('hyp', ['the mat sat on the cat', 'hello there world']);

const cli = cliRunner();

describe('palette score -m ter wer per gtm', () => {
  it('JSON carries WER counts as integers and GTM P/R/F, sorted as sacrebleu sorts', async () => {
    const r = await cli(['score', ref, '-i', hyp, '-m', 'wer', 'gtm', 'ter', 'per']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.out) as Record<string, unknown>[];
    expect(list.map((x) => x.name)).toEqual(['GTM', 'PER', 'TER', 'WER']);
    expect(r.out).toContain('"hits": 6,\n "substitutions": 2,\n "deletions": 0,\n "insertions": 1,');
    expect(list[0]).toMatchObject({ precision: 0.88889, recall: 1, fmeasure: 0.94118, e: '1' });
    expect(list[2]).toMatchObject({ score: 37.5, tok: 'tercom' });
    expect(list[2]).not.toHaveProperty('verbose_score');
  });

  it('-sl gives one score per segment; several systems give one table', async () => {
    const sl = await cli(['score', ref, '-i', hyp, '-m', 'wer', '-sl', '-f', 'text']);
    expect(sl.out.trimEnd().split('\n')).toHaveLength(2);
    const table = await cli(['score', ref, '-i', hyp, ref, '-m', 'ter', 'wer', '-f', 'text', '-q']);
    expect(table.code).toBe(0);
    expect(table.out).toContain('│   TER    │   WER   │');
    expect(table.out).toContain(' - TER        nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:');
  });

  it('--ter-flavor tercom with its limits; --gtm-exponent', async () => {
    const t = await cli(['score', ref, '-i', hyp, '-m', 'ter', '--ter-flavor', 'tercom', '--ter-beam', '3', '-f', 'text']);
    expect(t.out).toMatch(/^TER\|nrefs:1\|flavor:tercom\|.*\|beam:3\|dist:50\|version:.* = 37\.5\n$/);
    const g = await cli(['score', ref, '-i', hyp, '-m', 'gtm', '--gtm-exponent', '2', '-f', 'text']);
    expect(g.out).toContain('|e:2|');
  });

  it('-d lists the alignments after the scores (text)', async () => {
    const r = await cli(['score', ref, '-i', hyp, '-m', 'wer', 'ter', '-d']);
    expect(r.out).toContain(`WER alignment of ${hyp}`);
    expect(r.out).toContain('segment 2, reference 1: 1 edits (S 0, D 0, I 1)\n  REF: hello ***   world\n  HYP: hello there world\n  OPS:       I\n');
    expect(r.out.startsWith('TER|')).toBe(true);
  });

  it('bad flags exit 2 with a message', async () => {
    for (const [argv, fragment] of [
      [['-m', 'ter', '--ter-beam', '3'], '--ter-beam applies to --ter-flavor tercom'],
      [['-m', 'ter', '--ter-flavor', 'java'], '--ter-flavor must be one of sacrebleu, tercom'],
      [['-m', 'ter', '--ter-flavor', 'tercom', '--ter-max-shift-distance', '-1'], '--ter-max-shift-distance'],
      [['-m', 'gtm', '--gtm-exponent', '0.5'], '--gtm-exponent must be a number >= 1'],
      [['-m', 'wer', '--wer-tokenize', 'bogus'], '--wer-tokenize must be one of'],
      [['-m', 'ter', '--paired-bs'], 'paired tests require multiple input systems'],
      [['-m', 'ter', '--paired-bs', '--paired-ar'], 'mutually exclusive'],
    ] as const) {
      const r = await cli(['score', ref, '-i', hyp, ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toContain(fragment);
    }
  });

  it("WER listing's split equals jiwer's on every fixture line", () => {
    const lines = readFileSync(new URL('./fixtures/wer/jiwer-lines.jsonl', import.meta.url), 'utf8').trim().split('\n');
    const split = (s: string): string[] => s.replace(/\s\s+/g, ' ').trim().split(' ').filter((w) => w !== '');
    for (const line of lines) {
      const g = JSON.parse(line) as { hyp: string; ref: string; substitutions: number; deletions: number; insertions: number };
      const c = countOps(alignWords(split(g.hyp), split(g.ref)));
      expect([c.sub, c.del, c.ins]).toEqual([g.substitutions, g.deletions, g.insertions]);
    }
  });

  it('exports the new metric classes', () => {
    for (const name of ['Ter', 'TercomTer', 'Wer', 'Per', 'Gtm', 'TER_FLAVORS', 'TerOp', 'EDIT_TOKENIZERS']) {
      expect(palette, name).toHaveProperty(name);
    }
  });
});
