/**
 * `palette nbest -m …` with many metrics in one pass: every metric's row for every candidate equals the row the same
 * metric gives that candidate through its Metric API (`buildStatsMatrix` over the references prepared as a whole,
 * with `palette score`'s default settings; `bleu` = the Moses flavor), and every sentence score equals
 * `sentenceScoreFromStats` of that row. Real n-best lists: Moses' mert.extractor-txt run 1 (10 × 100, 1 reference)
 * and a slice of Joshua's bn-en 10-best lists (12 sentences, 4 references) in test/fixtures.
 * Issue 5's additions to the fast path (ROUGE-W, ROUGE-1.5.5's ROUGE-L, lowercased WER/PER): fused rows = generic
 * rows bit for bit over each whole list, and the CLI's rows = the Metric API's, 2 workers = in-thread.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNbestCommand } from '../src/cli/nbest/command.js';
import { chunkJobContext, streamReferenceSource } from '../src/engine/nbest/chunk-job.js';
import { resolveNbestMetricIds } from '../src/engine/nbest/nbest-metrics.js';
import { scoreTask, type NbestTaskSettings } from '../src/engine/nbest/nbest-task.js';
import { readNbestBatches } from '../src/node/nbest.js';
import { readLines } from '../src/node/read-lines.js';
import { defaultRegistry, type MetricSettings } from '../src/metrics/registry.js';
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
/** Metrics the fast path (src/engine/nbest/fast/) serves together: the run takes it, not the per-metric layers. */
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

/**
 * Metric combinations that issue 5 added to the fast path, with the flags of `palette nbest` and the settings they
 * give; the last field says whether the pool is run too (the worker start-ups are most of this file's time).
 */
const ADDED_FAST: [string[], string[], MetricSettings, boolean][] = [
  [['bleu', 'rouge-l', 'wer'], ['--rouge-flavor', 'rouge155'], { rouge: { flavor: 'rouge155' } }, true],
  [['rouge-w-1.2', 'wer'], [], {}, true],
  [['rouge-w', 'rouge-l', 'rouge-2', 'per'], ['--rouge-flavor', 'rouge155', '--stem'], { rouge: { flavor: 'rouge155', stem: true } }, false],
  [['rouge-w-1.5', 'rouge-l', 'bleu'], ['--rouge-flavor', 'paper'], { rouge: { flavor: 'paper' } }, false],
];

describe.each([
  ['Moses mert.extractor-txt run 1', MOSES],
  ['Joshua bn-en slice', JOSHUA],
])('issue 5: ROUGE-W, rouge155 ROUGE-L and lowercased WER/PER on the fast path: %s', (_, data) => {
  const SETTINGS: NbestTaskSettings = { path: data.nbest, format: 'json', allowDuplicates: true, sentenceScores: true };

  /** The whole list as one task, on the fast path and on the generic path (every row, bit for bit). */
  function expectFastEqualsGeneric(names: string[], settings: MetricSettings): void {
    const ids = resolveNbestMetricIds(names, settings, defaultRegistry);
    const refs = streamReferenceSource(data.refs.map((f) => readLines(f)));
    const fast = chunkJobContext(SETTINGS, { ids, settings }, refs, defaultRegistry);
    const generic = chunkJobContext(SETTINGS, { ids, settings }, refs, defaultRegistry, true);
    expect(fast.fused, 'fast path taken').toBeDefined();
    const text = readFileSync(data.nbest, 'utf8');
    const a = scoreTask(text, 1, SETTINGS, fast.metrics, refs, fast.fused).stats;
    const b = scoreTask(text, 1, SETTINGS, generic.metrics, refs, generic.fused).stats;
    expect(a.length).toBe(b.length);
    for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) expect([k, a[k]]).toEqual([k, b[k]]);
  }

  it.each(ADDED_FAST)('%j: fused rows = generic rows, every candidate', (names, _flags, settings) => {
    expectFastEqualsGeneric(names, settings);
  });

  it.each([
    [['wer', 'per'], { wer: { lowercase: true }, per: { lowercase: true } }],
    [['bleu', 'rouge-l', 'per', 'wer', 'rouge-w'], { per: { lowercase: true }, rouge: { flavor: 'rouge155' } }],
  ] as [string[], MetricSettings][])('lowercased %j %j: fused rows = generic rows, every candidate', (names, settings) => {
    expectFastEqualsGeneric(names, settings);
  });

  it.each(ADDED_FAST)('%j %j: CLI rows = Metric API rows, sentence scores (2 workers = in-thread where marked)', async (names, flags, settings, pool) => {
    const rows = await nbestJson(data, ['-m', ...names, ...flags, '--allow-duplicates', '--sentence-scores']);
    const { hyps, ids } = await readNbest(data.nbest);
    const refStreams = data.refs.map((f) => readLines(f));
    let column = 0;
    for (const id of names) {
      const s: MetricSettings = id === 'bleu' ? { bleu: { flavor: 'moses' } } : settings;
      const key = defaultRegistry.resolve!(id, s);
      const metric = defaultRegistry.create(key, s).metric;
      const matrix = buildStatsMatrix(metric, hyps, ids, metric.prepareReferences(refStreams));
      const w = metric.statsWidth;
      for (let h = 0; h < hyps.length; h++) {
        const row = matrix.stats.subarray(h * w, (h + 1) * w);
        expect(rows[h].stats.slice(column, column + w), `${id}, candidate ${h}`).toEqual(Array.from(row));
        const score = metric.sentenceScoreFromStats(row).score;
        expect(rows[h].scores![key], `${id} sentence score, candidate ${h}`).toBe(Number.isNaN(score) ? null : score);
      }
      column += w;
    }
    if (!pool) return;
    const one = readFileSync(join(dir, 'out.jsonl'));
    const two = join(dir, 'two.jsonl');
    let inThread: boolean | undefined;
    const code = await runNbestCommand(
      ['--nbest', data.nbest, '-r', ...data.refs, '--stats', two, '--stats-format', 'json', '--workers', '2',
        '--task-size', '3000', '-m', ...names, ...flags, '--allow-duplicates', '--sentence-scores'],
      { stdout: { write: () => true }, stderr: { write: () => true } },
      { onRun: (info) => (inThread = info.inThread) },
    );
    expect({ code, inThread }).toEqual({ code: 0, inThread: false });
    expect(readFileSync(two).equals(one), '2 workers = in-thread').toBe(true);
  });
});

describe('palette nbest --wer-lowercase / --per-lowercase', () => {
  it('compare words case-insensitively, as palette score does (case-sensitive without the flags)', async () => {
    const data = { nbest: join(dir, 'case.nbest'), refs: [join(dir, 'case.ref')] };
    writeFileSync(data.nbest, '0 ||| The Cat sat ||| f= 1 ||| 0\n');
    writeFileSync(data.refs[0], 'the cat sat\n');
    // WER rows: hits, substitutions, deletions, insertions; PER rows: correct, candidate length, reference length.
    expect((await nbestJson(data, ['-m', 'wer', 'per'])).map((r) => r.stats)).toEqual([[1, 2, 0, 0, 1, 3, 3]]);
    const lowered = await nbestJson(data, ['-m', 'wer', 'per', '--wer-lowercase', '--per-lowercase']);
    expect(lowered.map((r) => r.stats)).toEqual([[3, 0, 0, 0, 3, 3, 3]]);
    expect((await nbestJson(data, ['-m', 'wer', 'per', '--per-lowercase'])).map((r) => r.stats)).toEqual([[1, 2, 0, 0, 3, 3, 3]]);
  });
});

describe('palette nbest takes palette score’s metric flags', () => {
  it('chrF++ (--chrf-word-order 2), TER without punctuation, GTM -e 2: each row = the Metric API’s with those settings', async () => {
    const flags = ['--chrf-word-order', '2', '--ter-no-punct', '--gtm-exponent', '2'];
    const settings: MetricSettings = { chrf: { wordOrder: 2 }, ter: { noPunct: true }, gtm: { exponent: 2 } };
    const rows = await nbestJson(JOSHUA, ['-m', 'chrf', 'ter', 'gtm', ...flags, '--allow-duplicates']);
    const { hyps, ids } = await readNbest(JOSHUA.nbest);
    const refStreams = JOSHUA.refs.map((f) => readLines(f));
    let column = 0;
    for (const id of ['chrf', 'ter', 'gtm']) {
      const metric = defaultRegistry.create(id, settings).metric;
      const plain = defaultRegistry.create(id, {}).metric;
      const matrix = buildStatsMatrix(metric, hyps, ids, metric.prepareReferences(refStreams));
      const w = metric.statsWidth;
      expect(metric.signature(4), `${id}: the flag changes the metric`).not.toBe(plain.signature(4));
      for (let h = 0; h < hyps.length; h++) {
        expect(rows[h].stats.slice(column, column + w), `${id}, candidate ${h}`).toEqual(Array.from(matrix.stats.subarray(h * w, (h + 1) * w)));
      }
      column += w;
    }
  });
});

describe('palette nbest --prev-stats with several metrics (fast path)', () => {
  it('each sentence: the previous run rows, then this run rows, every metric column', async () => {
    const run = async (extra: string[], out: string): Promise<string> => {
      let err = '';
      const code = await runNbestCommand(
        ['--nbest', MOSES.nbest, '-r', ...MOSES.refs, '-m', 'bleu', 'rouge-l', 'wer', '--allow-duplicates', '--workers', '1', '--stats', out, ...extra],
        { stdout: { write: () => true }, stderr: { write: (t: string) => (err += t) } },
      );
      expect({ code, err }).toEqual({ code: 0, err: '' });
      return readFileSync(out, 'utf8');
    };
    const blocks = (text: string): Map<string, string[]> => {
      const map = new Map<string, string[]>();
      for (const block of text.split('SCORES_TXT_END_0\n').filter((b) => b.length > 0)) {
        const [header, ...rows] = block.split('\n').slice(0, -1);
        map.set(header.split(' ')[1], rows);
      }
      return map;
    };
    const first = blocks(await run([], join(dir, 'prev.scores')));
    const merged = blocks(await run(['--prev-stats', join(dir, 'prev.scores')], join(dir, 'merged.scores')));
    expect([...merged.keys()]).toEqual([...first.keys()]);
    for (const [sentence, rows] of first) {
      expect(rows[0].split(' ').filter(Boolean)).toHaveLength(9 + 7 + 4);
      expect(merged.get(sentence), `sentence ${sentence}`).toEqual([...rows, ...rows]);
    }
  });
});
