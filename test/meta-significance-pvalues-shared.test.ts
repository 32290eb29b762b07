/**
 * sacreBLEU 2.6.0's own significance test (test/test_significance.py) on its WMT17 en-de systems
 * (../shared/data/sacrebleu-tests/wmt17-en-de/significance_expected_pvalues.tsv): baseline LIUM-NMT.4900 against
 * each of the 15 other systems with BLEU (`tokenize='none'`, SACREBLEU_SEED=12345), one PairedTest of every system:
 * - paired bootstrap, n_samples=2000: |p − moses_bootstrap_p_bleu| < 0.01 (Moses sigdiff, mean of 3 runs);
 * - approximate randomization, n_samples=10000: |p − multeval_ar_p_bleu| < 0.01 (MultEval, 10,000 trials).
 * These are sacreBLEU's exact settings, columns and tolerance (its test checks BLEU only; the TER column is not
 * compared there, so not here). All 15 systems run: the BLEU rows are computed once and shared by both tests.
 * Skips when ../shared is absent.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultRegistry } from '../src/metrics/registry.js';
import { pairedTest, testedMetric, type MetricSystems, type PairedTestOutcome } from '../src/meta/significance.js';
import { SHARED, haveShared } from './helpers/shared-data.js';

const DIR = new URL('data/sacrebleu-tests/wmt17-en-de/', SHARED);
const TSV = new URL('significance_expected_pvalues.tsv', DIR);
const present = haveShared('data/sacrebleu-tests/wmt17-en-de/significance_expected_pvalues.tsv');

interface Expected {
  system: string;
  baseline: string;
  mosesBs: number;
  multevalAr: number;
}

/** sacreBLEU's test reads the pickled lines as they are; the staged files hold one line per segment. */
const lines = (url: URL): string[] => readFileSync(url, 'utf8').replace(/\n$/, '').split('\n');

function expectedRows(): Expected[] {
  const [header, ...rows] = lines(TSV);
  expect(header.split('\t')).toEqual([
    'system',
    'baseline',
    'moses_bootstrap_p_bleu',
    'multeval_ar_p_bleu',
    'multeval_ar_p_ter',
  ]);
  return rows.map((row) => {
    const [system, baseline, bs, ar] = row.split('\t');
    return { system, baseline, mosesBs: Number(bs), multevalAr: Number(ar) };
  });
}

describe.skipIf(!present)("sacreBLEU's test_significance.py p-values (WMT17 en-de, BLEU tokenize=none)", () => {
  const expected = present ? expectedRows() : [];
  let systems: MetricSystems;

  beforeAll(() => {
    const baseline = expected[0].baseline;
    expect(expected.every((e) => e.baseline === baseline)).toBe(true);
    const cm = defaultRegistry.create('bleu', { bleu: { tokenize: 'none' } });
    const prepared = cm.metric.prepareReferences([lines(new URL('ref.de', DIR))]);
    const names = [baseline, ...expected.map((e) => e.system)];
    systems = {
      metric: testedMetric(cm.metric, (rows) => cm.corpusScore(rows).score),
      systems: names.map((name) => cm.metric.segmentStats(lines(new URL(`systems/${name}.de`, DIR)), prepared)),
    };
  }, 60_000);

  function check(outcome: PairedTestOutcome, column: (e: Expected) => number): void {
    const got = outcome.results[0].slice(1).map((r, k) => ({ system: expected[k].system, p: r.pValue }));
    for (const [k, g] of got.entries()) {
      const want = column(expected[k]);
      // sacreBLEU: assert abs(p_val - expected_p_val) < 1e-2
      expect({ system: g.system, want, p: g.p, close: Math.abs(g.p! - want) < 1e-2 }).toEqual({
        system: g.system,
        want,
        p: g.p,
        close: true,
      });
    }
  }

  it('paired bootstrap (2000 resamples) within 0.01 of Moses', () => {
    const outcome = pairedTest([systems], { test: 'bs', nSamples: 2000, seed: 12345 });
    expect(outcome.nSamples).toBe(2000);
    check(outcome, (e) => e.mosesBs);
  }, 120_000);

  it('approximate randomization (10000 trials) within 0.01 of MultEval', () => {
    const outcome = pairedTest([systems], { test: 'ar', nSamples: 10_000, seed: 12345 });
    expect(outcome.nSamples).toBe(10_000);
    check(outcome, (e) => e.multevalAr);
  }, 120_000);
});
