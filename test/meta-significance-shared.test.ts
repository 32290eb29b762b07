/**
 * sacreBLEU 2.6.0's significance tests on WMT17 en-de (../shared/golden/sacrebleu/significance.wmt17-en-de.json):
 * paired bootstrap (1000 resamples) and approximate randomization (10000 trials) with BLEU, chrF and TER on 5 systems,
 * and single-system bootstrap confidence (--confidence, 1000 resamples). Tolerance: scores relative 1e-9 (golden
 * README); p-values, bootstrap means and half-widths exact (the same numpy PCG64 stream and arithmetic). The
 * p-values of sacreBLEU's own test (significance_expected_pvalues.tsv, Moses/MultEval, tolerance 0.01) are checked
 * in meta-significance-pvalues-shared.test.ts. Rows are computed once per system and shared by the records.
 * Skips when ../shared is absent.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultRegistry, type MetricSettings } from '../src/metrics/registry.js';
import { bootstrapScores, pairedTest, testedMetric, type MetricSystems } from '../src/meta/significance.js';
import { estimateCiPython } from '../src/meta/significance-stats.js';
import { SHARED, haveShared } from './helpers/shared-data.js';

const GOLDEN = new URL('golden/sacrebleu/significance.wmt17-en-de.json', SHARED);
const DATA = new URL('data/', SHARED);
const present = haveShared('golden/sacrebleu/significance.wmt17-en-de.json');

interface GoldenResult {
  system: string;
  score: number;
  p_value: number | null;
  mean: number | null;
  ci: number | null;
}
interface Golden {
  records: {
    hyp: string[] | string;
    refs: string[];
    config: { test_type?: 'bs' | 'ar'; n_samples?: number };
    results?: Record<string, GoldenResult[]>;
    corpus?: Record<string, { score: number; bootstrap_mean: number; bootstrap_ci: number }>;
  }[];
}

const lines = (rel: string): string[] =>
  readFileSync(new URL(rel, DATA), 'utf8').replace(/\n$/, '').split('\n').map((l) => l.trimEnd());

function closeTo(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.max(1e-12, 1e-9 * Math.abs(expected)));
}

/** Statistics rows already computed, by metric, settings, references and system: records share systems. */
const rowCache = new Map<string, Float64Array>();

/** Rows of each system for bleu, chrf, ter (the golden's metric order and names). */
function systemsOf(hyps: string[], refs: string[], settings: MetricSettings): { name: string; ms: MetricSystems }[] {
  const refStreams = refs.map(lines);
  return (['bleu', 'chrf', 'ter'] as const).map((id) => {
    const cm = defaultRegistry.create(id, settings);
    let prepared: ReturnType<typeof cm.metric.prepareReferences> | null = null;
    const systems = hyps.map((h) => {
      const key = JSON.stringify([id, settings, refs, h]);
      let rows = rowCache.get(key);
      if (rows === undefined) {
        prepared ??= cm.metric.prepareReferences(refStreams);
        rows = cm.metric.segmentStats(lines(h), prepared);
        rowCache.set(key, rows);
      }
      return rows;
    });
    const name = cm.metric.scoreFromStats(new Float64Array(cm.metric.statsWidth)).name;
    return { name, ms: { metric: testedMetric(cm.metric, (rows) => cm.corpusScore(rows).score), systems } };
  });
}

describe.skipIf(!present)('sacreBLEU significance goldens (WMT17 en-de)', () => {
  const golden = present ? (JSON.parse(readFileSync(GOLDEN, 'utf8')) as Golden) : { records: [] };

  // The AR record (10000 trials) is checked through the CLI in cli-significance-shared.test.ts, whose JSON prints
  // every p-value at full precision; here the bootstrap record, whose means and CIs are library-level numbers.
  for (const record of golden.records.filter((r) => r.config.test_type === 'bs')) {
    const test = record.config.test_type!;
    it(`paired ${test} (${record.config.n_samples}): scores, p-values, means, CIs`, () => {
      const settings: MetricSettings = test === 'ar' ? { bleu: { tokenize: 'none' } } : {};
      const metrics = systemsOf(record.hyp as string[], record.refs, settings);
      const outcome = pairedTest(
        metrics.map((m) => m.ms),
        { test, nSamples: record.config.n_samples, seed: 12345 },
      );
      metrics.forEach((m, k) => {
        const expected = record.results![m.name];
        expect(expected).toBeDefined();
        outcome.results[k].forEach((got, s) => {
          closeTo(got.score, expected[s].score);
          expect({ p: got.pValue, mean: got.mean, ci: got.ci }).toEqual({
            p: expected[s].p_value,
            mean: expected[s].mean,
            ci: expected[s].ci,
          });
        });
      });
    }, 60_000);
  }

  const conf = golden.records.find((r) => r.corpus !== undefined);
  it.runIf(conf !== undefined)('single-system --confidence (1000): Python statistics.mean and half-width', () => {
    const c = conf!;
    const metrics = systemsOf([c.hyp as string], c.refs, {});
    for (const m of metrics) {
      const key = m.name.startsWith('chrF') ? 'chrF' : m.name;
      const expected = c.corpus![key];
      const rows = m.ms.systems[0];
      closeTo(m.ms.metric.corpusScore(rows), expected.score);
      const scores = bootstrapScores({ rows, width: m.ms.metric.width }, m.ms.metric, 1000, 12345);
      expect(estimateCiPython(scores)).toEqual({ mean: expected.bootstrap_mean, ci: expected.bootstrap_ci });
    }
  });
});
