import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliRunner } from './helpers/cli.js';

// `palette score -m impact npchunk`: the seed's worked example through the CLI, parameters, and bad input (unknown
// chunker, malformed pre-chunked lines in a hypothesis or a reference file) exiting 2 with file:line.

const dir = mkdtempSync(join(tmpdir(), 'palette-cli-npchunk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, lines: string[]): string => {
  const p = join(dir, name);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
};
const MT = 'in general , [NP the amount ] of [NP the crowning fall ] is large like [NP the end ] .';
const REF = 'generally , the closer [NP it ] is to [NP the end part ] , the larger [NP the amount ] of [NP crowning drop ] is .';
const hyp = file('hyp', [MT, '[NP the end ] is large']);
const ref = file('ref', [REF, '[NP the end part ] is large .']);

const cli = cliRunner();

const WORKED = ['--chunker', 'bracketed', '--impact-alpha', '0.5', '--impact-beta', '2', '--npchunk-delta', '0.7'];

describe('palette score -m npchunk impact', () => {
  it("-sl gives the seed's Figure 2–3 score 0.4184 (exact; the paper's rounded chain prints 0.4185)", async () => {
    const r = await cli(['score', ref, '-i', hyp, '-m', 'npchunk', '-sl', '-f', 'text', ...WORKED]);
    expect(r.code).toBe(0);
    const first = r.out.split('\n')[0];
    expect(first).toMatch(/^NPCHUNK\|nrefs:1\|chunker:bracketed\|case:mixed\|alpha:0\.5\|beta:2\|rn:all\|delta:0\.7\|version:\S+ = 0\.4184 /);
    expect(first).toContain('word = 0.2163, phrase = 0.7071, R_wd = 0.1969, P_wd = 0.2625');
  });

  it('JSON for both metrics, IMPACT reading the words as they are', async () => {
    const plainHyp = file('plain-hyp', ['the cat sat', 'a b']);
    const plainRef = file('plain-ref', ['the cat sat', 'b a']);
    const r = await cli(['score', plainRef, '-i', plainHyp, '-m', 'impact', 'npchunk', '--impact-rounds', '0']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.out) as { name: string; score: number; rn: string; chunker?: string }[];
    expect(list.map((x) => x.name)).toEqual(['IMPACT', 'NPCHUNK']);
    expect(list[0].rn).toBe('0');
    expect(list[1].chunker).toBe('compromise');
    const lc = await cli(['score', plainRef, '-i', plainHyp, '-m', 'impact', '--impact-lowercase']);
    expect((JSON.parse(lc.out) as { case: string }).case).toBe('lc');
    // Line 1 is identical; line 2 has one common word in round 0 (RN = 0): R = P = (1/2^1.1)^(1/1.1) = 0.5.
    expect(list[0].score).toBeCloseTo((1 + 0.5) / 2, 4);
  });

  it('refuses an unknown chunker and bad parameters (exit 2)', async () => {
    const r = await cli(['score', ref, '-i', hyp, '-m', 'npchunk', '--chunker', 'spacy']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--chunker must be one of compromise, bracketed \(got "spacy"\)/);
    for (const [flag, value] of [['--impact-alpha', '1.5'], ['--impact-beta', '0.5'], ['--impact-rounds', '-1'], ['--npchunk-delta', '-2']]) {
      const bad = await cli(['score', ref, '-i', hyp, '-m', 'impact', flag, value]);
      expect(bad.code).toBe(2);
      expect(bad.err).toContain(flag);
    }
  });

  it('unbalanced brackets in a hypothesis or reference file: file:line, exit 2, nothing on stdout', async () => {
    const badHyp = file('bad-hyp', [MT, '[NP the end is large']);
    const h = await cli(['score', ref, '-i', badHyp, '-m', 'npchunk', '--chunker', 'bracketed']);
    expect(h.code).toBe(2);
    expect(h.out).toBe('');
    expect(h.err).toBe(`palette: error: ${badHyp}:2: pre-chunked input: [NP opened before word 1 is not closed\n`);
    const badRef = file('bad-ref', ['[NP a ] ]', 'b']);
    const okRef = file('ok-ref', ['a', 'b']);
    const r1 = await cli(['score', badRef, '-i', hyp, '-m', 'npchunk', '--chunker', 'bracketed']);
    expect(r1.code).toBe(2);
    expect(r1.err).toContain(`${badRef}:1: pre-chunked input: "]" without an opening [NP`);
    const r2 = await cli(['score', okRef, badRef, '-i', hyp, '-m', 'npchunk', '--chunker', 'bracketed']);
    expect(r2.code).toBe(2);
    expect(r2.err).toContain(`${badRef}:1:`);
  });
});
