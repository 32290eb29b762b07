/**
 * `palette score` takes every system's rows from the corpus engine (src/engine/corpus/), which scores each distinct
 * segment hypothesis once. What the command reports is what scoring the systems one by one reported: a hypothesis a
 * metric refuses is named by the first system (and line) the command's own order meets — in the table, systems in
 * order; in paired tests, the metrics in `-m` order, each over every system — even when a later system has the same
 * bad line, or an earlier one a bad line another metric refuses. `-j N` (sacrebleu's --paired-jobs, also the
 * engine's threads) never changes the output.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliRunner } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'palette-cli-score-engine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, lines: string[]): string => {
  const p = join(dir, name);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
};
const cli = cliRunner();

const GOOD = ['[NP the cat ] sat', '[NP a dog ] ran', '[NP the end ] is near'];
const ref = file('ref', ['[NP the cat ] sat down', '[NP the dog ] ran', '[NP the end ] is near']);
const good = file('good', GOOD);
const twin = file('twin', GOOD);
// Unbalanced brackets: the bracketed chunker refuses the line.
const badAt3 = file('bad-at-3', [GOOD[0], GOOD[1], '[NP the end is near']);
const badAt2 = file('bad-at-2', [GOOD[0], '[NP a dog ran', '[NP the end is near']);
const NPCHUNK = ['--chunker', 'bracketed'];

describe('palette score: rows from the engine', () => {
  it('the first system in order with a refused line is named, at its own first bad line', async () => {
    const r = await cli(['score', ref, '-i', good, badAt3, badAt2, '-m', 'bleu', 'npchunk', ...NPCHUNK]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(new RegExp(`^palette: Found 3 systems\\.\\npalette: error: ${badAt3}:3: pre-chunked input`));
    const swapped = await cli(['score', ref, '-i', good, badAt2, badAt3, '-m', 'bleu', 'npchunk', ...NPCHUNK]);
    expect(swapped.err).toContain(`palette: error: ${badAt2}:2: pre-chunked input`);
  });

  it('paired tests, -sl rows and one system name the same file and line', async () => {
    const paired = await cli(['score', ref, '-i', good, badAt3, badAt2, '-m', 'npchunk', 'bleu', ...NPCHUNK, '--paired-bs', '--paired-bs-n', '10']);
    expect(paired.code).toBe(2);
    expect(paired.err).toContain(`palette: error: ${badAt3}:3: pre-chunked input`);
    const rows = await cli(['score', ref, '-i', good, badAt2, '-m', 'npchunk', 'bleu', ...NPCHUNK, '-sl']);
    expect(rows.code).toBe(2);
    expect(rows.err).toContain(`palette: error: ${badAt2}:2: pre-chunked input`);
    const one = await cli(['score', ref, '-i', badAt3, '-m', 'npchunk', ...NPCHUNK]);
    expect(one.err).toBe(`palette: error: ${badAt3}:3: pre-chunked input: [NP opened before word 1 is not closed\n`);
  });

  it('identical systems and -j give the output of each system scored alone', async () => {
    const metrics = ['-m', 'bleu', 'chrf', 'ter', 'npchunk', ...NPCHUNK, '-w', '4'];
    const both = await cli(['score', ref, '-i', good, twin, ...metrics, '-f', 'json']);
    expect(both.code).toBe(0);
    const rows = JSON.parse(both.out) as Record<string, string>[];
    for (const [k, system] of [good, twin].entries()) {
      const alone = JSON.parse((await cli(['score', ref, '-i', system, ...metrics, '-f', 'json'])).out) as { score: number; name: string }[];
      for (const s of alone) expect(Number(rows[k][s.name])).toBe(s.score);
    }
    for (const j of ['0', '2', '3']) {
      const withJobs = await cli(['score', ref, '-i', good, twin, ...metrics, '-f', 'json', '-j', j]);
      expect(withJobs.out).toBe(both.out);
    }
  });
});
