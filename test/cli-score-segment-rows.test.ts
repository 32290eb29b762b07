/**
 * `palette score -sl` with several metrics and/or several systems: one row per segment and system with every metric,
 * as JSON lines, TSV or CSV (rouge-score's per-instance CSV layout: `id,NAME-P,NAME-R,NAME-F,…`); every value is the
 * library's `sentenceScores` of the metric `-sl` builds, at full precision unless `-w`. One metric and one system keep
 * sacrebleu's output, byte for byte as before the rows existed (test/fixtures/cli/sentence-level/, see its SOURCE.md).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { sentenceScores, type MetricScore } from '../src/metrics/metric.js';
import { defaultRegistry } from '../src/metrics/registry.js';
import { pyFixed } from '../src/util/py-fixed.js';
import { VERSION } from '../src/version.js';
import { run } from '../src/cli/main.js';
import { captureCli, cliRunner } from './helpers/cli.js';

const SAMPLE = fileURLToPath(new URL('../samples/wmt17-en-de/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/cli/sentence-level/', import.meta.url));
const SEGMENTS = 50;
const dir = mkdtempSync(join(tmpdir(), 'palette-sl-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first {@link SEGMENTS} lines of a sample file, written to the temporary folder. */
function head(rel: string, name: string): { file: string; lines: string[] } {
  const lines = readFileSync(join(SAMPLE, rel), 'utf8').split('\n').slice(0, SEGMENTS);
  const file = join(dir, name);
  writeFileSync(file, lines.join('\n') + '\n');
  return { file, lines };
}

const REF = head('ref.de', 'ref.de');
const SYSTEMS = [head('sys/online-B.0.de', 'online-B.de'), head('sys/uedin-nmt.4722.de', 'uedin.de')];
const score = cliRunner(['score']);

/** Sentence scores of metric `id` as palette score -sl sets it up, through the library's sentenceScores. */
function library(id: string, hyps: readonly string[]): MetricScore[] {
  const { metric } = defaultRegistry.create(id, { sentenceLevel: true });
  return sentenceScores(metric, hyps, [REF.lines]);
}

/** Value columns of the rows for `ids`, in the order palette score prints metrics. */
const COLUMNS: readonly { name: string; id: string; value: (s: MetricScore) => number }[] = [
  { name: 'BLEU', id: 'bleu', value: (s) => s.score },
  { name: 'chrF2', id: 'chrf', value: (s) => s.score },
  { name: 'ROUGE-L-P', id: 'rouge-l', value: (s) => s.details!.precision as number },
  { name: 'ROUGE-L-R', id: 'rouge-l', value: (s) => s.details!.recall as number },
  { name: 'ROUGE-L-F', id: 'rouge-l', value: (s) => s.details!.fmeasure as number },
  { name: 'TER', id: 'ter', value: (s) => s.score },
];
const METRICS = ['ter', 'rouge-l', 'bleu', 'chrf'];

/** The library's value of every column for every system and segment. */
function expectedValues(): number[][][] {
  return SYSTEMS.map((s) => {
    const byId = new Map(METRICS.map((id) => [id, library(id, s.lines)]));
    return Array.from({ length: SEGMENTS }, (_, i) => COLUMNS.map((c) => c.value(byId.get(c.id)![i])));
  });
}

describe('palette score -sl, several metrics and systems', () => {
  const argv = [REF.file, '-i', ...SYSTEMS.map((s) => s.file), '-m', ...METRICS, '-sl'];
  const expected = expectedValues();

  it('JSON lines (the default, and -f json): system, 1-based segment, every column = the library\'s sentenceScores', async () => {
    const r = await score(argv);
    expect([r.code, r.err]).toEqual([0, '']);
    expect((await score([...argv, '-f', 'json'])).out).toBe(r.out);
    const rows = r.out.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(SYSTEMS.length * SEGMENTS);
    rows.forEach((row, k) => {
      const s = Math.floor(k / SEGMENTS);
      const i = k % SEGMENTS;
      expect(Object.keys(row)).toEqual(['system', 'segment', ...COLUMNS.map((c) => c.name)]);
      expect(row.system).toBe(SYSTEMS[s].file);
      expect(row.segment).toBe(i + 1);
      COLUMNS.forEach((c, j) => expect(row[c.name], `${c.name} ${s}:${i}`).toBe(expected[s][i][j]));
    });
    // BLEU -sl is sacrebleu's sentence BLEU: effective order on.
    expect(rows[0].BLEU).toBe(sentenceScores(new Bleu({ effectiveOrder: true }), SYSTEMS[0].lines, [REF.lines])[0].score);
  });

  it.each([
    ['csv', ','],
    ['tsv', '\t'],
  ])('-f %s: a header (system column first with several systems), 0-based ids as rouge-score, full precision', async (format, sep) => {
    const r = await score([...argv, '-f', format]);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toBe(['system', 'id', ...COLUMNS.map((c) => c.name)].join(sep));
    expect(lines).toHaveLength(1 + SYSTEMS.length * SEGMENTS);
    lines.slice(1).forEach((line, k) => {
      const s = Math.floor(k / SEGMENTS);
      const i = k % SEGMENTS;
      const fields = line.split(sep);
      expect(fields.slice(0, 2)).toEqual([SYSTEMS[s].file, String(i)]);
      // Full precision: the text reads back as the very double.
      expect(fields.slice(2).map(Number)).toEqual(expected[s][i]);
    });
  });

  it('-w N rounds every value (-w 6 is rouge-score\'s %f); one system: rouge-score\'s header, no system column', async () => {
    const r = await score([REF.file, '-i', SYSTEMS[0].file, '-m', 'rouge-l', 'bleu', '-sl', '-f', 'csv', '-w', '6']);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toBe('id,BLEU,ROUGE-L-P,ROUGE-L-R,ROUGE-L-F');
    const bleu = library('bleu', SYSTEMS[0].lines);
    const rouge = library('rouge-l', SYSTEMS[0].lines);
    lines.slice(1).forEach((line, i) => {
      const d = rouge[i].details!;
      expect(line).toBe([String(i), ...[bleu[i].score, d.precision as number, d.recall as number, d.fmeasure as number].map((v) => pyFixed(v, 6))].join(','));
    });
    const json = await score([REF.file, '-i', SYSTEMS[0].file, '-m', 'rouge-l', 'bleu', '-sl', '-w', '2']);
    expect(JSON.parse(json.out.split('\n')[2])).toEqual({
      system: SYSTEMS[0].file,
      segment: 3,
      BLEU: Number(pyFixed(bleu[2].score, 2)),
      'ROUGE-L-P': Number(pyFixed(rouge[2].details!.precision as number, 2)),
      'ROUGE-L-R': Number(pyFixed(rouge[2].details!.recall as number, 2)),
      'ROUGE-L-F': Number(pyFixed(rouge[2].details!.fmeasure as number, 2)),
    });
  });

  it('one metric, several systems: rows too; one metric and one system in csv: a table of that metric', async () => {
    const r = await score([REF.file, '-i', ...SYSTEMS.map((s) => s.file), '-m', 'chrf', '-sl', '-f', 'tsv']);
    expect(r.out.split('\n')[0]).toBe('system\tid\tchrF2');
    const one = await score([REF.file, '-i', SYSTEMS[1].file, '-m', 'chrf', '-sl', '-f', 'csv']);
    const chrf = library('chrf', SYSTEMS[1].lines);
    expect(one.out).toBe(['id,chrF2', ...chrf.map((s, i) => `${i},${s.score}`)].join('\n') + '\n');
  });

  it('SACREBLEU_FORMAT (sacrebleu\'s outputs, which have no rows) leaves the rows to -f', async () => {
    const env = { SACREBLEU_FORMAT: 'text' };
    const plain = await score(argv);
    expect((await captureCli(run, ['score', ...argv], { env })).out).toBe(plain.out);
    expect((await captureCli(run, ['score', ...argv, '-f', 'csv'], { env })).out).toBe((await score([...argv, '-f', 'csv'])).out);
    // One metric and one system: sacrebleu's lines, which SACREBLEU_FORMAT switches as in sacrebleu.
    const one = [REF.file, '-i', SYSTEMS[0].file, '-m', 'chrf', '-sl', '-f', 'json'];
    expect((await captureCli(run, ['score', ...one], { env })).out).toBe((await score([...one, '-f', 'text'])).out);
  });

  it('quotes CSV fields that need it, refuses a system name TSV cannot hold, refuses text and latex', async () => {
    const odd = join(dir, 'a,"b".de');
    writeFileSync(odd, SYSTEMS[0].lines.join('\n') + '\n');
    const csv = await score([REF.file, '-i', odd, SYSTEMS[1].file, '-m', 'bleu', '-sl', '-f', 'csv']);
    expect(csv.out.split('\n')[1]).toMatch(new RegExp(`^"${dir.replaceAll('\\', '\\\\')}/a,""b"".de",0,`));
    const tabbed = join(dir, 'tab\there.de');
    writeFileSync(tabbed, SYSTEMS[0].lines.join('\n') + '\n');
    const tsv = await score([REF.file, '-i', tabbed, SYSTEMS[1].file, '-m', 'bleu', '-sl', '-f', 'tsv']);
    expect([tsv.code, tsv.out]).toEqual([2, '']);
    expect(tsv.err).toMatch(/cannot be a TSV field/);
    const text = await score([...argv, '-f', 'text']);
    expect([text.code, text.out]).toEqual([2, '']);
  });
});

describe('palette score -sl, one metric and one system: sacrebleu\'s output as before', () => {
  const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8').replaceAll('version:0.1.0', `version:${VERSION}`).replaceAll('"version": "0.1.0"', `"version": "${JSON.stringify(VERSION).slice(1, -1)}"`);
  it.each([
    ['bleu.txt', ['-m', 'bleu']],
    ['chrf.jsonl', ['-m', 'chrf', '-f', 'json']],
    ['rouge-l.txt', ['-m', 'rouge-l']],
    ['ter.jsonl', ['-m', 'ter', '-f', 'json', '-w', '3']],
  ])('%s is byte-identical', async (name, flags) => {
    const r = await score([REF.file, '-i', SYSTEMS[0].file, '-sl', ...flags]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(fixture(name));
  });
});
