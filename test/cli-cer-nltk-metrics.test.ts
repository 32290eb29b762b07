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

describe('palette score -m gleu ribes', () => {
  // 'the cat sat on the mat' vs 'the cat is on the mat': 18 n-grams of orders 1-4 on each side, 9 shared (5 + 3 + 1 + 0),
  // GLEU 9 / 18. RIBES: NLTK's alignment [0, 1, 3, 4, 5] ('sat' unaligned, each 'the' by its right bigram), runs
  // [0, 1] and [3, 4, 5] give 1 + 3 of 10 pairs: NKT 0.4, P1 5/6, BP 1.
  const ref = file('nltk.ref', ['the cat is on the mat']);
  const hyp = file('nltk.hyp', ['the cat sat on the mat']);
  const ribes = 0.4 * (5 / 6) ** 0.25;

  it('GLEU and RIBES values, signatures with the tokenizer', async () => {
    const r = await cli(['score', ref, '-i', hyp, '-m', 'gleu', 'ribes', '-w', '9']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.out) as { name: string; score: number; signature: string }[];
    const by = Object.fromEntries(list.map((j) => [j.name, j]));
    expect(by.GLEU.score).toBe(0.5);
    expect(by.GLEU.signature).toMatch(/^nrefs:1\|case:mixed\|tok:13a\|n:1-4\|version:/);
    expect(by.RIBES.score).toBe(Number(ribes.toFixed(9)));
    expect(by.RIBES.signature).toMatch(/tok:13a\|alpha:0.25\|beta:0.1\|/);
  });

  it('options change the values: --gleu-max-len 1, --ribes-alpha 0, -tok none', async () => {
    const r = await cli(['score', ref, '-i', hyp, '-m', 'gleu', 'ribes', '--gleu-max-len', '1', '--ribes-alpha', '0', '-tok', 'none', '-w', '9']);
    expect(r.code).toBe(0);
    const by = Object.fromEntries((JSON.parse(r.out) as { name: string; score: number; signature: string }[]).map((j) => [j.name, j]));
    expect(by.GLEU.score).toBe(Number((5 / 6).toFixed(9)));
    expect(by.GLEU.signature).toMatch(/tok:none\|n:1-1/);
    expect(by.RIBES.score).toBe(0.4);
  });

  it("-sl prints each line's value; RIBES refuses an empty hypothesis naming its line (with -sl)", async () => {
    const refs2 = file('nltk2.ref', ['the cat is on the mat', 'a b c']);
    const r = await cli(['score', refs2, '-i', file('nltk2.hyp', ['the cat sat on the mat', 'a b c']), '-m', 'gleu', '-sl', '-f', 'text', '-w', '4']);
    expect(r.code).toBe(0);
    expect(r.out.trimEnd().split('\n').map((l) => / = (\S+) \(/.exec(l)?.[1])).toEqual(['0.5000', '1.0000']);
    const empty = file('nltk3.hyp', ['the cat', '']);
    const bad = await cli(['score', refs2, '-i', empty, '-m', 'ribes']);
    expect([bad.code, bad.out]).toEqual([2, '']);
    expect(bad.err).toMatch(/^palette: error: .*nltk3\.hyp: RIBES is undefined: 1 hypothesis line\(s\) without tokens/);
    const badSl = await cli(['score', refs2, '-i', empty, '-m', 'ribes', '-sl']);
    expect([badSl.code, badSl.out]).toEqual([2, '']);
    expect(badSl.err).toMatch(/nltk3\.hyp:2: RIBES is undefined: the hypothesis has no tokens/);
  });
});

describe('palette score -m meteor', () => {
  // 'The Cats CAR' vs 'the cat auto': exact, stem and WordNet matches, 3 of 3 in one chunk; second line no match.
  const ref = file('meteor.ref', ['the cat auto', 'x']);
  const hyp = file('meteor.hyp', ['The Cats CAR', 'y']);
  const first = 1 - 0.5 * (1 / 3) ** 3;

  it('corpus = mean of the line values, -sl the line values, signature with its parameters', async () => {
    const r = await cli(['score', ref, '-i', hyp, '-m', 'meteor', '-w', '9']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { name: string; score: number; signature: string };
    expect(j.name).toBe('METEOR');
    expect(j.score).toBe(Number((first / 2).toFixed(9)));
    expect(j.signature).toMatch(/^nrefs:1\|tok:13a\|alpha:0.9\|beta:3\|gamma:0.5\|version:/);
    const sl = await cli(['score', ref, '-i', hyp, '-m', 'meteor', '-sl', '-f', 'text', '-w', '6']);
    expect(sl.out.trimEnd().split('\n').map((l) => / = (\S+)/.exec(l)?.[1])).toEqual([first.toFixed(6), '0.000000']);
  });

  it('--meteor-gamma 0 drops the penalty; a bad --meteor-alpha is refused', async () => {
    const r = await cli(['score', ref, '-i', hyp, '-m', 'meteor', '--meteor-gamma', '0', '-w', '9']);
    expect((JSON.parse(r.out) as { score: number }).score).toBe(0.5);
    const bad = await cli(['score', ref, '-i', hyp, '-m', 'meteor', '--meteor-alpha', '2']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--meteor-alpha/);
  });
});
