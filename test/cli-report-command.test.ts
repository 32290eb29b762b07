/**
 * `palette report`: writes one HTML file from the bundled sample (the README's command), reproducibly; metric flags
 * mean what they mean in `palette score`; every bad input is exit status 2 with one line naming the file (and line)
 * and leaves no file behind (nor a temporary one), an existing report untouched. With ../shared present, the
 * report's corpus scores of the WMT17 systems equal sacreBLEU 2.6.0's (golden corpus-all-systems, relative 1e-9).
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemDisplayNames } from '../src/cli/report-command/command.js';
import type { ReportData } from '../src/report/report-data.js';
import { cliRunner, expectInputError } from './helpers/cli.js';
import { haveShared, sharedPath } from './helpers/shared-data.js';

const SAMPLE = 'samples/wmt17-en-de';
const SYSTEMS = ['LIUM-NMT.4900.de', 'online-B.0.de', 'uedin-nmt.4722.de'].map((f) => `${SAMPLE}/sys/${f}`);
// Made at load time: the error table below names files in it.
const dir = mkdtempSync(join(tmpdir(), 'palette-report-cli-'));
const f = (name: string): string => join(dir, name);

beforeAll(() => {
  writeFileSync(f('ref'), 'a b c\nd e f\n');
  writeFileSync(f('hyp'), 'a b c\nd e\n');
  writeFileSync(f('evil'), '</script><script>alert(1)</script>\nd e f\n');
  writeFileSync(f('short'), 'a b c\n');
  writeFileSync(f('bad-utf8'), Buffer.from([0x61, 0x0a, 0xff, 0x0a]));
  mkdirSync(f('out'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const palette = cliRunner();

function blob(html: string): ReportData {
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  return JSON.parse(m![1]) as ReportData;
}

describe('palette report on the bundled sample', () => {
  it('writes a self-contained report of every system under every metric, the same bytes twice', async () => {
    const a = f('out/a.html');
    const b = f('out/b.html');
    const r = await palette(['report', `${SAMPLE}/ref.de`, '-i', ...SYSTEMS, '-m', 'bleu', 'chrf', 'ter', '-o', a]);
    expect(r).toMatchObject({ code: 0, out: '' });
    expect(r.err).toMatch(/^palette report: wrote .*a\.html \(\d+ bytes\)\n$/);
    expect((await palette(['report', `${SAMPLE}/ref.de`, '-i', ...SYSTEMS, '-m', 'bleu', 'chrf', 'ter', '-o', b, '-q'])).err).toBe('');
    const html = readFileSync(a, 'utf8');
    expect(readFileSync(b, 'utf8')).toBe(html);
    const data = blob(html);
    // Shown by file name (the paths differ only in it).
    expect(data.systems).toEqual(['LIUM-NMT.4900', 'online-B.0', 'uedin-nmt.4722']);
    expect(data.metrics.map((m) => m.name)).toEqual(['BLEU', 'chrF2', 'TER']);
    expect(data.segments.count).toBe(300);
    expect(data.segments.scores[0][0]).toHaveLength(300);
    expect(readdirSync(f('out')).sort()).toEqual(['a.html', 'b.html']);
    rmSync(a);
    rmSync(b);
  });

  it('takes palette score’s metric flags (-lc gives a lowercased BLEU) and the page options', async () => {
    const out = f('out/lc.html');
    const r = await palette(['report', `${SAMPLE}/ref.de`, '-i', SYSTEMS[0], '-m', 'bleu', '-lc', '--title', 'T <1>', '--created', 'today', '-o', out, '-q']);
    expect(r.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    const data = blob(html);
    expect(data.metrics[0].signature).toMatch(/case:lc/);
    expect(data.title).toBe('T <1>');
    expect(data.created).toBe('today');
    expect(html).toContain('<title>T &lt;1&gt;</title>');
    rmSync(out);
  });

  it('--baseline SYSTEM: every system against that one, the same p-values as its row of --all-pairs', async () => {
    const out = f('out/baseline.html');
    const args = ['report', `${SAMPLE}/ref.de`, '-i', ...SYSTEMS, '-m', 'bleu', 'chrf', '--bootstrap', '0', '--seed', '7', '-o', out, '-q'];
    for (const test of [['--paired-bs', '--paired-bs-n', '50'], ['--paired-ar', '--paired-ar-n', '49']]) {
      expect((await palette([...args, ...test, '--all-pairs'])).code).toBe(0);
      const all = blob(readFileSync(out, 'utf8')).significance!;
      // Named by stem, by file name or by the path given: the same report.
      const pages = [];
      for (const name of ['online-B.0', 'online-B.0.de', SYSTEMS[1]]) {
        expect((await palette([...args, ...test, '--baseline', name])).code).toBe(0);
        pages.push(readFileSync(out, 'utf8'));
      }
      expect(new Set(pages).size).toBe(1);
      const one = blob(pages[0]).significance!;
      expect(one.baseline).toBe(1);
      for (let m = 0; m < 2; m++) {
        expect(one.pValues[m][1]).toEqual(all.pValues[m][1]);
        expect(one.pValues[m][1].filter((v) => v !== null)).toHaveLength(2);
        expect(one.pValues[m][0]).toEqual([null, null, null]);
        expect(one.pValues[m][2]).toEqual([null, null, null]);
      }
      expect(pages[0]).toContain('every system against the baseline online-B.0');
    }
    rmSync(out);
  });

  it('adds intervals by default and the paired tests asked for (sacreBLEU counts and seed in the data)', async () => {
    const out = f('out/paired.html');
    const args = ['report', `${SAMPLE}/ref.de`, '-i', ...SYSTEMS, '-m', 'bleu', '-o', out, '-q'];
    expect((await palette([...args, '--bootstrap', '50', '--paired-ar', '--paired-ar-n', '99', '--all-pairs', '--seed', '7'])).code).toBe(0);
    const data = blob(readFileSync(out, 'utf8'));
    // The report's first spellings still work, with one warning each, and give the same page.
    const old = await palette([...args.filter((a) => a !== '-q'), '--bootstrap', '50', '--paired', 'ar', '--paired-n', '99', '--all-pairs', '--seed', '7']);
    expect(old.code).toBe(0);
    expect(old.err).toContain('warning: --paired is deprecated and will be removed: use --paired-bs or --paired-ar');
    expect(old.err).toContain('warning: --paired-n is deprecated and will be removed: use --paired-bs-n N or --paired-ar-n N');
    expect(blob(readFileSync(out, 'utf8'))).toEqual(data);
    expect((await palette([...args, '--paired-bs', '--paired-bs-n', '20', '--seed', '7'])).code).toBe(0);
    expect(blob(readFileSync(out, 'utf8')).significance).toMatchObject({ test: 'bs', resamples: 20, seed: 7 });
    expect(data.confidence).toMatchObject({ level: 0.95, resamples: 50, seed: 7 });
    expect(data.significance).toMatchObject({ test: 'ar', resamples: 99, seed: 7, baseline: null });
    for (const sc of data.scores[0]) expect(sc.ci!.low).toBeLessThan(sc.ci!.high);
    const p = data.significance!.pValues[0];
    expect(p.map((row, i) => row[i])).toEqual([null, null, null]);
    expect(p.flat().filter((v) => v !== null)).toHaveLength(6);
    expect((await palette([...args, '--bootstrap', '0'])).code).toBe(0);
    const plain = blob(readFileSync(out, 'utf8'));
    expect(plain).not.toHaveProperty('confidence');
    expect(plain).not.toHaveProperty('significance');
    expect(plain.scores[0][0]).not.toHaveProperty('ci');
    rmSync(out);
  });

  it('escapes a hostile hypothesis file', async () => {
    const out = f('out/evil.html');
    expect((await palette(['report', f('ref'), '-i', f('evil'), '-m', 'bleu', '-o', out, '-q'])).code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).not.toContain('<script>alert');
    expect(blob(html).segments.hypotheses[0][0]).toBe('</script><script>alert(1)</script>');
    rmSync(out);
  });

  it('shows systems by file name, or by path below their common folder when file names repeat', () => {
    expect(systemDisplayNames(['a/b/x.de', 'a/c/y.de'])).toEqual(['x', 'y']);
    expect(systemDisplayNames(['runs/1/out.de', 'runs/2/out.de'])).toEqual(['1/out', '2/out']);
    expect(systemDisplayNames(['out.de', 'b/out.de'])).toEqual(['out', 'b/out']);
    // The extension goes only when every file has it and the names stay distinct and not empty.
    expect(systemDisplayNames(['LIUM-NMT.4900.de', 'online-B.0.de'])).toEqual(['LIUM-NMT.4900', 'online-B.0']);
    expect(systemDisplayNames(['x.de', 'y.en'])).toEqual(['x.de', 'y.en']);
    expect(systemDisplayNames(['x.de', 'x'])).toEqual(['x.de', 'x']);
    expect(systemDisplayNames(['a/.de', 'b/.de'])).toEqual(['a/.de', 'b/.de']);
    expect(systemDisplayNames(['sys1', 'sys2'])).toEqual(['sys1', 'sys2']);
  });

  it('prints its help', async () => {
    const r = await palette(['report', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: palette report REF/);
    expect(r.out).toContain('--paired-bs');
    expect(r.out).toContain('--paired-ar-n');
  });
});

describe('palette report: bad input → exit 2, file and line, no file left', () => {
  const cases: [string, string[], RegExp][] = [
    ['a missing reference file', [f('nope'), '-i', f('hyp')], /nope/],
    ['a system with too few lines', [f('ref'), '-i', f('short')], /short:2: 1 lines but the references have 2/],
    ['invalid UTF-8', [f('ref'), '-i', f('bad-utf8')], /bad-utf8:2: /],
    ['an unknown metric', [f('ref'), '-i', f('hyp'), '-m', 'blue'], /unknown metric "blue"/],
    ['a bad metric flag', [f('ref'), '-i', f('hyp'), '-tok', 'nope'], /unknown tokenizer "nope"/],
    ['a bad --paired', [f('ref'), '-i', f('hyp'), '--paired', 'xx'], /--paired must be bs or ar/],
    ['a negative --bootstrap', [f('ref'), '-i', f('hyp'), '--bootstrap', '-1'], /--bootstrap must be an integer in 0\.\.1000000/],
    ['--paired with one system', [f('ref'), '-i', f('hyp'), '--paired', 'bs'], /--paired compares systems/],
    ['--paired-bs with one system', [f('ref'), '-i', f('hyp'), '--paired-bs'], /--paired compares systems/],
    ['both paired tests', [f('ref'), '-i', f('hyp'), f('evil'), '--paired-bs', '--paired-ar'], /--paired-bs and --paired-ar are mutually exclusive/],
    ['--paired and --paired-ar', [f('ref'), '-i', f('hyp'), '--paired', 'bs', '--paired-ar'], /give it once/],
    ['--paired-ar-n without --paired-ar', [f('ref'), '-i', f('hyp'), '--paired-bs', '--paired-ar-n', '5'], /--paired-ar-n needs --paired-ar/],
    ['--paired-bs-n without a test', [f('ref'), '-i', f('hyp'), f('evil'), '--paired-bs-n', '5'], /--paired-bs-n needs --paired-bs/],
    ['both counts with --paired-bs', [f('ref'), '-i', f('hyp'), f('evil'), '--paired-bs', '--paired-bs-n', '5', '--paired-ar-n', '5'], /--paired-ar-n needs --paired-ar/],
    ['--all-pairs without a test', [f('ref'), '-i', f('hyp'), '--all-pairs'], /--all-pairs needs --paired-bs or --paired-ar/],
    ['seed 0', [f('ref'), '-i', f('hyp'), '--seed', '0'], /--seed must be an integer >= 1/],
    ['--paired-n without --paired', [f('ref'), '-i', f('hyp'), '--paired-n', '5'], /--paired-n needs --paired-bs or --paired-ar/],
    ['a system given twice', [f('ref'), '-i', f('hyp'), f('hyp')], /given twice/],
    ['--baseline without a test', [f('ref'), '-i', f('hyp'), f('evil'), '--baseline', 'hyp'], /--baseline needs --paired-bs or --paired-ar/],
    ['--baseline with --all-pairs', [f('ref'), '-i', f('hyp'), f('evil'), '--paired-bs', '--all-pairs', '--baseline', 'hyp'], /do not go together/],
    ['--baseline naming no system', [f('ref'), '-i', f('hyp'), f('evil'), '--paired-bs', '--baseline', 'nope'], /--baseline "nope" is none of the systems \(hyp, evil\)/],
    ['a source of the wrong length', [f('ref'), '-i', f('hyp'), '--source', f('short')], /short:2: /],
    ['no -i', [f('ref')], /-i HYP/],
  ];

  it.each(cases)('%s', async (_, argv, message) => {
    const target = f('out/report.html');
    expectInputError(await palette(['report', ...argv, '-o', target]), 'report', message);
    expect(readdirSync(f('out'))).toEqual([]);
  });

  it('an output folder that does not exist', async () => {
    const r = await palette(['report', f('ref'), '-i', f('hyp'), '-o', f('missing/report.html')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/missing\/report\.html: cannot write the output file/);
  });

  it('no -o', async () => {
    const r = await palette(['report', f('ref'), '-i', f('hyp')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/-o report\.html/);
  });

  it('leaves an existing report untouched', async () => {
    const target = f('out/keep.html');
    writeFileSync(target, 'old');
    const r = await palette(['report', f('ref'), '-i', f('short'), '-o', target]);
    expect(r.code).toBe(2);
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(f('out'))).toEqual(['keep.html']);
    rmSync(target);
  });
});

const WMT17 = sharedPath('data/sacrebleu-tests/wmt17-en-de');
const GOLDEN = sharedPath('golden/sacrebleu/corpus-all-systems.wmt17-en-de.json');
const HAVE_WMT17 = haveShared('data/sacrebleu-tests/wmt17-en-de', 'golden/sacrebleu/corpus-all-systems.wmt17-en-de.json');

describe.skipIf(!HAVE_WMT17)('palette report on WMT17 en-de (../shared)', () => {
  it('has sacreBLEU 2.6.0’s corpus BLEU, chrF2 and TER for every system (relative 1e-9)', async () => {
    const systems = readdirSync(`${WMT17}/systems`).sort().slice(0, 4).map((s) => `${WMT17}/systems/${s}`);
    const out = f('out/wmt17.html');
    const r = await palette(['report', `${WMT17}/ref.de`, '-i', ...systems, '-m', 'bleu', 'chrf', 'ter', '--bootstrap', '0', '-o', out, '-q']);
    expect(r.code).toBe(0);
    const data = blob(readFileSync(out, 'utf8'));
    rmSync(out);
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as {
      records: { hyp: string; config: Record<string, unknown>; corpus: { score: number; signature: string } }[];
    };
    // The default configuration of each metric (as `palette score -m bleu chrf ter` without flags).
    const isDefault = (c: Record<string, unknown>): boolean =>
      c.metric === 'BLEU'
        ? c.tokenize === '13a' && c.lowercase === false && c.smooth_method === 'exp' && c.effective_order === false
        : c.metric === 'chrF'
          ? c.char_order === 6 && c.word_order === 0 && c.beta === 2 && c.lowercase === false && c.whitespace === false
          : c.normalized === false && c.no_punct === false && c.asian_support === false && c.case_sensitive === false;
    let compared = 0;
    data.systems.forEach((system, s) => {
      const hyp = systems[s].slice(sharedPath('data/').length);
      data.metrics.forEach((m, k) => {
        const metric = { bleu: 'BLEU', chrf: 'chrF', ter: 'TER' }[m.id];
        const record = golden.records.find((g) => g.hyp === hyp && g.config.metric === metric && isDefault(g.config));
        expect(record, `${hyp} ${metric}`).toBeDefined();
        const expected = record!.corpus.score;
        expect(Math.abs(data.scores[k][s].score - expected)).toBeLessThanOrEqual(Math.max(1e-12, 1e-9 * Math.abs(expected)));
        compared++;
      });
    });
    expect(compared).toBe(12);
  });
});
