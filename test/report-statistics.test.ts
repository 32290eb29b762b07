/**
 * The report's intervals and p-values are sacreBLEU's (src/meta/significance.ts): the paired bootstrap's p-values,
 * computed here from one set of resample scores per system, equal `pairedTest`'s against the first system and, for
 * every pair, `pairedTest` with that pair's first system as baseline; intervals are `pairedTest`'s μ ± half-width;
 * AR goes through `pairedTest` itself. With ../shared, the WMT17 en-de significance golden (sacreBLEU 2.6.0,
 * seed 12345) is reproduced bit for bit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLines } from '../src/node/read-lines.js';
import { pairedTest, testedMetric } from '../src/meta/significance.js';
import { defaultRegistry, type CliMetric } from '../src/metrics/registry.js';
import { buildReport, type ReportStatistics } from '../src/report/build-report.js';
import { bootstrapIntervals, pairedSignificance } from '../src/report/report-statistics.js';
import { haveShared, sharedPath } from './helpers/shared-data.js';

const SAMPLE = 'samples/wmt17-en-de';
const refs = [readLines(`${SAMPLE}/ref.de`).slice(0, 120)];
const names = ['LIUM-NMT.4900.de', 'online-B.0.de', 'uedin-nmt.4722.de'];
const hyps = names.map((n) => readLines(`${SAMPLE}/sys/${n}`).slice(0, 120));

function statsOf(id: string, settings = {}): ReportStatistics {
  const metric = defaultRegistry.create(id, settings);
  const prepared = metric.metric.prepareReferences(refs);
  return { metricIndex: 0, metric, rows: hyps.map((h) => metric.metric.segmentStats(h, prepared)) };
}

function sacrebleu(metric: CliMetric, rows: readonly Float64Array[], order: number[], test: 'bs' | 'ar', nSamples: number) {
  const tested = testedMetric(metric.metric, (r) => metric.corpusScore(r).score);
  return pairedTest([{ metric: tested, systems: order.map((s) => rows[s]) }], { test, nSamples, seed: 12345 }).results[0];
}

describe.each(['bleu', 'chrf', 'ter'])('%s', (id) => {
  const stats = statsOf(id);

  it('paired bootstrap: the baseline row is pairedTest’s, every other row pairedTest’s with that baseline', () => {
    const baseline = pairedSignificance({ test: 'bs', samples: 100, seed: 12345 }).compute(stats);
    const all = pairedSignificance({ test: 'bs', samples: 100, seed: 12345, allPairs: true }).compute(stats);
    expect(baseline[0]).toEqual(sacrebleu(stats.metric, stats.rows, [0, 1, 2], 'bs', 100).map((r) => r.pValue));
    expect(baseline.slice(1).flat().every((p) => p === null)).toBe(true);
    expect(all[0]).toEqual(baseline[0]);
    const from2 = sacrebleu(stats.metric, stats.rows, [2, 0, 1], 'bs', 100);
    expect(all[2]).toEqual([from2[1].pValue, from2[2].pValue, null]);
    // The test is symmetric: p(i, j) = p(j, i).
    expect(all[1][2]).toBe(all[2][1]);
  });

  it('intervals are μ ± half-width of pairedTest’s bootstrap for every system', () => {
    const intervals = bootstrapIntervals(100, 12345).compute(stats);
    const results = sacrebleu(stats.metric, stats.rows, [0, 1, 2], 'bs', 100);
    intervals.forEach((ci, s) => {
      expect(ci.mean).toBe(results[s].mean);
      expect(ci.low).toBe(results[s].mean! - results[s].ci!);
      expect(ci.high).toBe(results[s].mean! + results[s].ci!);
    });
  });

  it('approximate randomization: pairedTest against each baseline', () => {
    const all = pairedSignificance({ test: 'ar', samples: 200, seed: 12345, allPairs: true }).compute(stats);
    const from1 = sacrebleu(stats.metric, stats.rows, [1, 0, 2], 'ar', 200);
    expect(all[1]).toEqual([from1[1].pValue, null, from1[2].pValue]);
    const baseline = pairedSignificance({ test: 'ar', samples: 200, seed: 12345 }).compute(stats);
    expect(baseline[0]).toEqual(all[0]);
    expect(baseline[1].every((p) => p === null)).toBe(true);
  });
});

describe('pairedSignificance options', () => {
  it('refuses seeds below 1 (sacreBLEU makes seed 0 random) and no samples', () => {
    expect(() => pairedSignificance({ test: 'bs', seed: 0 })).toThrow(RangeError);
    expect(() => pairedSignificance({ test: 'bs', seed: 1, samples: 0 })).toThrow(RangeError);
  });

  it('uses sacreBLEU’s default counts and reports them', () => {
    expect(pairedSignificance({ test: 'bs', seed: 1 }).info).toEqual({ test: 'bs', resamples: 1000, seed: 1, baseline: 0 });
    expect(pairedSignificance({ test: 'ar', seed: 1, allPairs: true }).info).toEqual({ test: 'ar', resamples: 10000, seed: 1, baseline: null });
  });
});

const WMT17 = sharedPath('data/sacrebleu-tests/wmt17-en-de');
const GOLDEN = sharedPath('golden/sacrebleu/significance.wmt17-en-de.json');
const HAVE_WMT17 = haveShared('data/sacrebleu-tests/wmt17-en-de', 'golden/sacrebleu/significance.wmt17-en-de.json');

describe.skipIf(!HAVE_WMT17)('WMT17 en-de significance golden (../shared)', () => {
  it('paired bootstrap BLEU (1000 resamples, seed 12345): p-values, μ and half-widths of sacreBLEU 2.6.0', () => {
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as {
      records: { config: { test_type?: string }; hyp: string[]; results?: Record<string, { system: string; score: number; p_value: number | null; mean: number; ci: number }[]> }[];
    };
    const record = golden.records.find((r) => r.config.test_type === 'bs')!;
    // The baseline, the closest system (p ≈ 0.098) and one more, to keep the test short.
    const expected = record.results!.BLEU.filter((r) => ['LIUM-NMT.4900', 'FBK.4870', 'uedin-nmt.4722'].includes(r.system));
    const data = buildReport({
      version: '0.1.0',
      references: [readLines(`${WMT17}/ref.de`)],
      systems: expected.map((r) => ({ name: r.system, lines: readLines(`${WMT17}/systems/${r.system}.de`) })),
      metrics: [{ id: 'bleu', metric: defaultRegistry.create('bleu', {}) }],
      intervals: bootstrapIntervals(1000, 12345),
      significance: pairedSignificance({ test: 'bs', samples: 1000, seed: 12345 }),
    });
    expected.forEach((g, s) => {
      expect(data.scores[0][s].score).toBe(g.score);
      expect(data.significance!.pValues[0][0][s]).toBe(g.p_value);
      expect(data.scores[0][s].ci!.mean).toBe(g.mean);
      const half = (data.scores[0][s].ci!.high - data.scores[0][s].ci!.low) / 2;
      expect(Math.abs(half - g.ci)).toBeLessThanOrEqual(1e-9 * g.ci);
    });
  });
});
