/**
 * Human judgments in the report: score tables aligned to the report's systems (by path, file name or file name
 * without extension) and segments (1-based seg ids), strictly — a report system without scores, a system matched
 * twice or a seg id outside the references is an InputError naming the file (and line) — with what was left out
 * said, never silently joined. `palette report --human` end to end on the fixtures, and, with ../shared, the
 * report's WMT21 en-de MQM correlations equal `palette correlate`'s (same bootstrap, same doubles).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { readLines } from '../src/node/read-lines.js';
import { InputError } from '../src/errors.js';
import { parseScoreTable } from '../src/meta/human-scores.js';
import { readScoreTable } from '../src/node/score-table.js';
import { defaultRegistry } from '../src/metrics/registry.js';
import { buildReport } from '../src/report/build-report.js';
import type { ReportData } from '../src/report/report-data.js';
import { alignHumanTable } from '../src/report/report-human.js';
import { captureCli, cliRunner } from './helpers/cli.js';
import { haveShared, sharedPath } from './helpers/shared-data.js';

const FIX = 'test/fixtures/report';
const SYSTEMS = [`${FIX}/sys-good.de`, `${FIX}/sys-bad.de`];

function table(text: string, item?: string) {
  return parseScoreTable('h.tsv', text.split('\n'), { score: 'score', allowUnrated: true, ...(item ? { item } : {}) });
}

describe('alignHumanTable', () => {
  it('matches systems by path, file name or file name without extension; lists the rest; means rated segments', () => {
    const a = alignHumanTable(readScoreTable(`${FIX}/mqm.tsv`, { score: 'mqm', allowUnrated: true }), SYSTEMS, 3, 'MQM');
    expect(a.human.segment).toEqual([
      [-0.5, -1, null],
      [-5, -3, null],
    ]);
    expect(a.human.system).toEqual([-0.75, -4]);
    expect(a.unmatched).toEqual(['ref-B']);
    expect(a.missing).toBe(2);
    expect(a.human.note).toBe("not in the report, left out: ref-B; 2 segment scores of the report's systems missing (not rated)");
    const d = alignHumanTable(readScoreTable(`${FIX}/da.tsv`, { score: 'z' }), SYSTEMS, 3, 'DA');
    expect(d.human).toEqual({ name: 'DA', system: [0.4, -0.2], note: 'not in the report, left out: human-A' });
  });

  it('refuses a report system the table lacks, naming the file and the systems it has', () => {
    const t = table('system\tscore\nsys-good\t1\nother\t2');
    expect(() => alignHumanTable(t, SYSTEMS, 3, 'x')).toThrow(/^no human scores for system test\/fixtures\/report\/sys-bad\.de \(the file's systems are sys-good, other/);
    try {
      alignHumanTable(t, SYSTEMS, 3, 'x');
    } catch (err) {
      expect((err as InputError).file).toBe('h.tsv');
    }
  });

  it('refuses two table systems matching one report system', () => {
    const t = table('system\tscore\nsys-good\t1\nsys-good.de\t2\nsys-bad\t3');
    expect(() => alignHumanTable(t, SYSTEMS, 3, 'x')).toThrow(/systems "sys-good" and "sys-good.de" both match/);
  });

  it('refuses a segment id that is not a line of the references, at its line', () => {
    const t = table('system\tseg_id\tscore\nsys-good\t1\t1\nsys-bad\t4\t2');
    try {
      alignHumanTable(t, SYSTEMS, 3, 'x');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).line).toBe(3);
      expect((err as InputError).message).toBe('seg_id "4" is not a segment number of the report (1 to 3)');
    }
    expect(() => alignHumanTable(table('system\tseg_id\tscore\nsys-good\tA1\t1\nsys-bad\t1\t2'), SYSTEMS, 3, 'x')).toThrow(/"A1"/);
  });
});

describe('palette report --human', () => {
  const dir = mkdtempSync(join(tmpdir(), 'palette-report-human-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const palette = cliRunner();
  const blob = (file: string): ReportData =>
    JSON.parse(/<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(readFileSync(file, 'utf8'))![1]);

  it('reads several files with a score column each, says what it left out, and correlates', async () => {
    const out = join(dir, 'r.html');
    const r = await palette(['report', `${FIX}/ref.txt`, '-i', ...SYSTEMS, '-m', 'bleu', '--bootstrap', '20', '--human', `${FIX}/mqm.tsv`, `${FIX}/da.tsv`, '--human-score', 'mqm', 'z', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.err).toContain(`palette report: note: ${FIX}/mqm.tsv: not in the report, left out: ref-B; 2 segment scores`);
    expect(r.err).toContain(`palette report: note: ${FIX}/da.tsv: not in the report, left out: human-A`);
    const data = blob(out);
    expect(data.human!.map((h) => h.name)).toEqual(['mqm', 'z']);
    expect(data.systems).toEqual(['sys-good', 'sys-bad']);
    expect(data.correlations!.map((c) => `${c.human}:${c.level}:${c.n}`)).toEqual(['0:system:2', '0:segment:4', '1:system:2']);
    expect(readFileSync(out, 'utf8')).toContain('mqm: not in the report, left out: ref-B');
  });

  it('bad judgments: exit 2, one line with file and line, no report', async () => {
    const bad = join(dir, 'bad.tsv');
    writeFileSync(bad, 'system\tseg_id\tscore\nsys-good\t1\t0.5\nsys-bad\t1\tNaN\n');
    const out = join(dir, 'bad.html');
    const r = await palette(['report', `${FIX}/ref.txt`, '-i', ...SYSTEMS, '-m', 'bleu', '--human', bad, '-o', out]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^palette report: error: ${bad.replace(/[.]/g, '\\.')}:3: .*\n$`));
    expect(existsSync(out)).toBe(false);
    const r2 = await palette(['report', `${FIX}/ref.txt`, '-i', ...SYSTEMS, '--human', bad, bad, '--human-score', 'a', 'b', 'c', '-o', out]);
    expect(r2.err).toMatch(/--human-score gives 3 columns for 2 --human files/);
  });
});

const WMT21 = sharedPath('data/wmt21-news-en-de/en-de');

describe.skipIf(!haveShared('data/wmt21-news-en-de/en-de'))('WMT21 en-de MQM (../shared): the report correlates as palette correlate', () => {
  it('BLEU vs MQM, system and segment level, values and bootstrap intervals identical', async () => {
    const names = ['Facebook-AI', 'HuaweiTSC', 'NVIDIA-NeMo', 'Online-W', 'UEdin', 'VolcTrans-AT', 'VolcTrans-GLAT', 'eTranslation'];
    const files = names.map((n) => `${WMT21}/systems/${n}.de`);
    const mqm = `${WMT21}/human/mqm_seg_scores.tsv`;
    const table = readScoreTable(mqm, { score: 'mqm_avg_score', allowUnrated: true });
    const refs = [readLines(`${WMT21}/ref.A.de`)];
    const aligned = alignHumanTable(table, files, refs[0].length, 'MQM');
    const data = buildReport({
      version: '0.1.0',
      references: refs,
      systems: files.map((f) => ({ name: f, lines: readLines(f) })),
      metrics: [{ id: 'bleu', metric: defaultRegistry.create('bleu', {}) }],
      human: [aligned.human],
      // 200 resamples (not 1000) keep the test short; the draws are the same stream either way.
      correlationBootstrap: { resamples: 200, seed: 12345 },
    });
    for (const level of ['system', 'segment'] as const) {
      const { code, out } = await captureCli(
        run,
        ['correlate', '-m', 'bleu', '-r', `${WMT21}/ref.A.de`, '--hyp', ...names.map((n, k) => `${n}=${files[k]}`), '--human', mqm,
          '--human-score', 'mqm_avg_score', '--level', level, '--allow-missing', '--method', 'pearson,spearman,kendall', '--bootstrap', '200', '-f', 'json'],
      );
      expect(code).toBe(0);
      const expected = (JSON.parse(out) as { correlations: { method: string; value: number; ci: [number, number] }[] }).correlations;
      const got = data.correlations!.find((c) => c.level === level)!;
      expect(got.segments).toBe(527);
      for (const e of expected) {
        const mine = got[e.method as 'pearson' | 'spearman' | 'kendall'];
        expect([mine.value, mine.ci?.low, mine.ci?.high]).toEqual([e.value, e.ci[0], e.ci[1]]);
      }
    }
  });
});
