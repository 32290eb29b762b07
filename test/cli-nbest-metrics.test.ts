/**
 * `palette nbest -m …` with many metrics in one pass: every metric's row for every candidate equals the row the same
 * metric gives that candidate through its Metric API (`buildStatsMatrix` over the references prepared as a whole,
 * with `palette score`'s default settings; `bleu` = the Moses flavor), and every sentence score equals
 * `sentenceScoreFromStats` of that row. Real n-best lists: Moses' mert.extractor-txt run 1 (10 × 100, 1 reference)
 * and a slice of Joshua's bn-en 10-best lists (12 sentences, 4 references) in test/fixtures.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNbestCommand } from '../src/cli/nbest.js';
import { readNbestBatches } from '../src/corpus/nbest.js';
import { readLines } from '../src/corpus/read-lines.js';
import { defaultRegistry } from '../src/metrics/registry.js';
import { buildStatsMatrix } from '../src/tuning/stats-matrix.js';

const FIX = join(import.meta.dirname, 'fixtures');
const MOSES = { nbest: join(FIX, 'nbest', 'extractor-txt.nbest.1'), refs: [join(FIX, 'nbest', 'extractor-txt.reference')] };
const JOSHUA = {
  nbest: join(FIX, 'nbest-joshua', 'output.nbest'),
  refs: [0, 1, 2, 3].map((k) => join(FIX, 'nbest-joshua', `reference.en.${k}`)),
};
const METRICS = [
  'bleu', 'rouge-l', 'rouge-s4', 'wer', 'rouge-1', 'rouge-2', 'rouge-su4', 'rouge-w', 'rouge-lsum', 'per', 'ter', 'chrf',
  'nist', 'gtm',
];
/** Metrics the fast path (src/cli/nbest/fast/) serves together: the run takes it, not the per-metric layers. */
const FAST_METRICS = ['bleu', 'rouge-l', 'rouge-s4', 'wer', 'rouge-1', 'rouge-2', 'rouge-su4', 'per'];

const dir = mkdtempSync(join(tmpdir(), 'palette-nbest-metrics-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface JsonRow {
  sentence: number;
  stats: number[];
  scores?: Record<string, number | null>;
}

async function nbestJson(data: { nbest: string; refs: string[] }, extra: string[]): Promise<JsonRow[]> {
  const out = join(dir, 'out.jsonl');
  let err = '';
  const code = await runNbestCommand(
    ['--nbest', data.nbest, '-r', ...data.refs, '--stats', out, '--stats-format', 'json', '--workers', '1', ...extra],
    { stdout: { write: () => true }, stderr: { write: (t: string) => (err += t) } },
  );
  expect({ code, err }).toEqual({ code: 0, err: '' });
  return readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as JsonRow);
}

async function readNbest(path: string): Promise<{ hyps: string[]; ids: number[] }> {
  const hyps: string[] = [];
  const ids: number[] = [];
  for await (const b of readNbestBatches(path)) {
    hyps.push(...b.hypotheses);
    ids.push(...b.ids);
  }
  return { hyps, ids };
}

describe.each([
  ['Moses mert.extractor-txt run 1', MOSES],
  ['Joshua bn-en slice', JOSHUA],
])('palette nbest rows = Metric API rows: %s', (_, data) => {
  it.each([
    ['generic path', METRICS],
    ['fast path', FAST_METRICS],
  ])('every metric in one pass, every candidate (duplicates kept), sentence scores: %s', async (_, METRICS) => {
    const rows = await nbestJson(data, ['-m', ...METRICS, '--allow-duplicates', '--sentence-scores']);
    const { hyps, ids } = await readNbest(data.nbest);
    expect(rows.map((r) => r.sentence)).toEqual(ids);
    const refStreams = data.refs.map((f) => readLines(f));
    let column = 0;
    for (const id of METRICS) {
      const settings = id === 'bleu' ? { bleu: { flavor: 'moses' as const } } : {};
      const key = defaultRegistry.resolve!(id, settings);
      const metric = defaultRegistry.create(key, settings).metric;
      const matrix = buildStatsMatrix(metric, hyps, ids, metric.prepareReferences(refStreams));
      const w = metric.statsWidth;
      for (let h = 0; h < hyps.length; h++) {
        const expected = Array.from(matrix.stats.subarray(h * w, (h + 1) * w));
        expect(rows[h].stats.slice(column, column + w), `${id}, candidate ${h}`).toEqual(expected);
        const score = metric.sentenceScoreFromStats(matrix.stats.subarray(h * w, (h + 1) * w)).score;
        expect(rows[h].scores![key], `${id} sentence score, candidate ${h}`).toBe(Number.isNaN(score) ? null : score);
      }
      column += w;
    }
    expect(rows[0].stats).toHaveLength(column);
  });

  it('one metric alone gives the same rows as in company (columns are independent)', async () => {
    const together = await nbestJson(data, ['-m', 'bleu', 'rouge-l', 'wer', '--allow-duplicates']);
    const alone = await nbestJson(data, ['-m', 'rouge-l', '--allow-duplicates']);
    expect(alone.map((r) => r.stats)).toEqual(together.map((r) => r.stats.slice(9, 16)));
  });
});

describe('palette nbest: several metrics in Moses SCORES_TXT', () => {
  it('one header naming every scorer, rows concatenated in -m order, duplicates judged on all statistics', async () => {
    const out = join(dir, 'multi.scores');
    const code = await runNbestCommand(
      ['--nbest', MOSES.nbest, '-r', ...MOSES.refs, '-m', 'bleu', 'wer', '--stats', out, '--workers', '1'],
      { stdout: { write: () => true }, stderr: { write: () => true } },
    );
    expect(code).toBe(0);
    const text = readFileSync(out, 'utf8');
    const bleuOnly = readFileSync(join(FIX, 'nbest', 'extractor-txt.scores.1'), 'utf8');
    const headers = text.split('\n').filter((l) => l.startsWith('SCORES_TXT_BEGIN_0'));
    expect(headers).toHaveLength(10);
    for (const h of headers) expect(h).toMatch(/^SCORES_TXT_BEGIN_0 \d+ \d+ 13 BLEU,WER$/);
    // Every BLEU+WER line starts with a BLEU line of the Moses truth (9 numbers), then 4 WER numbers.
    const truthLines = new Set(bleuOnly.split('\n').filter((l) => /^\d/.test(l)));
    for (const line of text.split('\n').filter((l) => /^\d/.test(l))) {
      const numbers = line.split(' ');
      expect(numbers).toHaveLength(14);
      expect(numbers[13]).toBe('');
      expect(truthLines.has(`${numbers.slice(0, 9).join(' ')} `)).toBe(true);
    }
  });
});
