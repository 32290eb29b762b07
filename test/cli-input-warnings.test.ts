/**
 * `palette score`'s warnings about valid input that is probably not what the user meant (src/cli/input-warnings.ts):
 * one line each on standard error, the printed numbers unchanged, `-q` silences them; and metric ids accepted in any
 * case (`-m BLEU`), as ROUGE's always were.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { resolveNbestMetricIds } from '../src/engine/nbest/nbest-metrics.js';
import { defaultRegistry } from '../src/metrics/registry.js';
import { captureCli } from './helpers/cli.js';

const SAMPLE = new URL('../samples/wmt17-en-de/', import.meta.url).pathname;
const REF = `${SAMPLE}ref.de`;
const HYP = `${SAMPLE}sys/uedin-nmt.4722.de`;
const dir = mkdtempSync(join(tmpdir(), 'palette-warnings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const score = (args: string[]) => captureCli(run, ['score', ...args]);
const warnings = (err: string): string[] => err.split('\n').filter((l) => l.startsWith('palette: warning: '));

describe('a UTF-8 byte-order mark', () => {
  const bomRef = write('ref-bom.de', `\uFEFF${readFileSync(REF, 'utf8')}`);

  it('is kept, as sacreBLEU keeps it, with one warning naming the file; -q silences it', async () => {
    const plain = await score([REF, '-i', HYP, '-b', '-w', '4']);
    const warned = await score([bomRef, '-i', HYP, '-b', '-w', '4']);
    const quiet = await score([bomRef, '-i', HYP, '-b', '-w', '4', '-q']);
    expect(plain.out).toBe('31.1808\n');
    // U+FEFF stays glued to the first reference token, so the first segment loses a match.
    expect(warned.out).toBe('31.1684\n');
    expect(warned.code).toBe(0);
    expect(warnings(warned.err)).toEqual([expect.stringMatching(/^palette: warning: .*ref-bom\.de: starts with a UTF-8 byte-order mark/)]);
    expect(quiet.out).toBe(warned.out);
    expect(quiet.err).toBe('');
  });

  it('in a hypothesis file too', async () => {
    const bomHyp = write('hyp-bom.de', `\uFEFF${readFileSync(HYP, 'utf8')}`);
    const r = await score([REF, '-i', bomHyp, '-b']);
    expect(warnings(r.err)).toEqual([expect.stringContaining('hyp-bom.de: starts with a UTF-8 byte-order mark')]);
  });

  it('no warning without one', async () => {
    expect((await score([REF, '-i', HYP, '-b'])).err).toBe('');
  });
});

describe('tabs in a single reference file without -nr', () => {
  const refLines = readFileSync(REF, 'utf8').trimEnd().split('\n');
  const hypLines = readFileSync(HYP, 'utf8').trimEnd().split('\n');
  const tabbed = write('ref-tabs.de', refLines.map((l, i) => (i >= 2 ? `${l}\t${hypLines[i]}` : l)).join('\n') + '\n');

  it('warns once, at the first such line, suggesting -nr; the number is that of one reference per line', async () => {
    const r = await score([tabbed, '-i', HYP, '-b']);
    expect(r.code).toBe(0);
    expect(warnings(r.err)).toEqual([
      expect.stringMatching(/ref-tabs\.de:3: 298 reference lines hold tabs, and each line is scored as one reference; .*give -nr 2$/),
    ]);
    expect((await score([tabbed, '-i', HYP, '-b', '-q'])).out).toBe(r.out);
  });

  it('not with -nr, not with several reference files, not without tabs', async () => {
    const split = write('ref-split.de', refLines.map((l, i) => `${l}\t${hypLines[i]}`).join('\n') + '\n');
    expect((await score([split, '-i', HYP, '-b', '-nr', '2'])).err).toBe('');
    expect((await score([tabbed, REF, '-i', HYP, '-b'])).err).toBe('');
  });
});

describe('rouge-lsum where every summary is one sentence', () => {
  it('warns that it equals rouge-l (same number), and names the split rule; -q silences it', async () => {
    const lsum = await score([REF, '-i', HYP, '-m', 'rouge-lsum', '-b']);
    const l = await score([REF, '-i', HYP, '-m', 'rouge-l', '-b']);
    expect(lsum.out).toBe(l.out);
    expect(warnings(lsum.err)).toEqual([
      expect.stringMatching(/^palette: warning: ROUGE-Lsum: no summary has more than one sentence under --split-sentences newline, so ROUGE-Lsum equals ROUGE-L/),
    ]);
    expect(l.err).toBe('');
    expect((await score([REF, '-i', HYP, '-m', 'rouge-lsum', '-b', '-q'])).err).toBe('');
  });

  it('no warning once some summary has two sentences under the rule', async () => {
    const ref = write('sum-ref.txt', 'the cat sat . it was happy .\nthe dog ran .\n');
    const hyp = write('sum-hyp.txt', 'a cat sat . it was sad .\nthe dog sat .\n');
    expect((await score([ref, '-i', hyp, '-m', 'rouge-lsum', '-b', '--split-sentences', 'punct'])).err).toBe('');
    expect(warnings((await score([ref, '-i', hyp, '-m', 'rouge-lsum', '-b'])).err)).toHaveLength(1);
  });
});

describe('metric ids in any case', () => {
  it('-m BLEU Chrf TER = -m bleu chrf ter', async () => {
    const upper = await score([REF, '-i', HYP, '-m', 'BLEU', 'Chrf', 'TER', '-f', 'text']);
    const lower = await score([REF, '-i', HYP, '-m', 'bleu', 'chrf', 'ter', '-f', 'text']);
    expect(upper.code).toBe(0);
    expect(upper.out).toBe(lower.out);
  });

  it('every id of the registry resolves in upper case; n-best lists take BLEU too', () => {
    for (const id of defaultRegistry.ids) expect(defaultRegistry.resolve!(id.toUpperCase(), {})).toBe(id);
    expect(resolveNbestMetricIds(['BLEU', 'WER', 'Rouge-L'], {}, defaultRegistry)).toEqual(['bleu', 'wer', 'rouge-l']);
  });
});

describe('palette report warns the same way', () => {
  it('a BOM and tabs in its single reference file: one warning line each, -q silences them', async () => {
    const refLines = readFileSync(REF, 'utf8').trimEnd().split('\n');
    const ref = write('report-ref.de', `\uFEFF${refLines.map((l) => `${l}\textra`).join('\n')}\n`);
    const out = join(dir, 'report.html');
    const r = await captureCli(run, ['report', ref, '-i', HYP, '-m', 'bleu', '-o', out]);
    expect(r.code).toBe(0);
    const lines = r.err.split('\n').filter((l) => l.startsWith('palette report: warning: '));
    expect(lines).toEqual([
      expect.stringContaining('report-ref.de: starts with a UTF-8 byte-order mark'),
      expect.stringMatching(/report-ref\.de:1: 300 reference lines hold tabs, .*give them as 2 reference files$/),
    ]);
    const quiet = await captureCli(run, ['report', ref, '-i', HYP, '-m', 'bleu', '-o', out, '-q']);
    expect(quiet.err).toBe('');
  });
});
