/**
 * The summary statistics and tests of src/meta/significance*.ts that need no ../shared: numpy's float64 mean and
 * Python's exact statistics.mean against their own output (test/fixtures/significance/means.json, SOURCE.md there),
 * exact; sacreBLEU's p-value formula, seed handling and signature fields on hand-made cases; the paired tests'
 * invariants on synthetic statistics (a system against itself, the shared resample indices).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { bootstrapScores, pairedTest, seedFromEnv, testedMetric } from '../src/meta/significance.js';
import { estimateCiNumpy, estimateCiPython, numpyMean, pValue, pythonMean } from '../src/meta/significance-stats.js';
import { signatureWithTest } from '../src/cli/significance.js';
import * as palette from '../src/index.js';
import { defaultRng } from '../src/meta/numpy-random.js';
import type { TestedMetric } from '../src/meta/significance.js';

const means = JSON.parse(
  readFileSync(new URL('./fixtures/significance/means.json', import.meta.url), 'utf8'),
) as { seed: number; values: number[]; numpy_mean: number; python_mean: number; half: number }[];

describe('means and half-widths as numpy and Python compute them', () => {
  it.each(means)('seed $seed: numpy mean, statistics.mean, half-width (exact)', ({ values, numpy_mean, python_mean, half }) => {
    const x = Float64Array.from(values);
    expect(estimateCiNumpy(x)).toEqual({ mean: numpy_mean, ci: half });
    expect(estimateCiPython(x)).toEqual({ mean: python_mean, ci: half });
    expect(numpyMean(Float64Array.from(x).sort())).toBe(numpy_mean);
  });

  it('statistics.mean is the exact mean rounded once', () => {
    expect(pythonMean([0.1, 0.2, 0.3])).toBe(0.2);
    expect(pythonMean([1e16, 1, -1e16])).toBe(1 / 3);
    expect(pythonMean([5])).toBe(5);
  });
});

describe('p-value, seeds and signatures', () => {
  it('counts strictly greater statistics, plus one over n plus one', () => {
    expect(pValue(Float64Array.of(0.5, 1, 2, 3), 1)).toBe(3 / 5);
    expect(pValue(Float64Array.of(0, 0, 0), 0)).toBe(1 / 4);
  });

  it('reads SACREBLEU_SEED as Python int() or none', () => {
    expect(seedFromEnv({})).toBe(12345);
    expect(seedFromEnv({ SACREBLEU_SEED: ' 42 ' })).toBe(42);
    expect(seedFromEnv({ SACREBLEU_SEED: '1_000' })).toBe(1000);
    expect(seedFromEnv({ SACREBLEU_SEED: 'NoNe' })).toBeNull();
    expect(() => seedFromEnv({ SACREBLEU_SEED: 'abc' })).toThrow(/SACREBLEU_SEED/);
    expect(() => seedFromEnv({ SACREBLEU_SEED: '-3' })).toThrow(/negative/);
  });

  it('puts the test fields right after nrefs, abbreviated with -sh', () => {
    expect(signatureWithTest('nrefs:1|case:mixed|version:1', false, [['bs', '1000'], ['seed', '12345']])).toBe(
      'nrefs:1|bs:1000|seed:12345|case:mixed|version:1',
    );
    expect(signatureWithTest('#:1|c:mixed|v:1', true, [['ar', '10'], ['seed', 'none']])).toBe('#:1|ar:10|rs:none|c:mixed|v:1');
  });
});

describe('paired tests on synthetic BLEU statistics', () => {
  const bleu = new Bleu();
  const tm = testedMetric(bleu);
  // 40 segments: [hyp_len, ref_len, correct_1..4, total_1..4].
  const rowsOf = (shift: number): Float64Array => {
    const rows = new Float64Array(40 * 10);
    for (let i = 0; i < 40; i++) {
      const len = 10 + ((i * 7 + shift) % 9);
      const c = [len - 1, len - 3, len - 5, len - 7].map((v, k) => Math.max(0, v - ((i + shift + k) % 3)));
      rows.set([len, len + ((i + shift) % 4) - 1, ...c, len, len - 1, len - 2, len - 3], i * 10);
    }
    return rows;
  };
  const a = rowsOf(0);
  const b = rowsOf(5);

  it('a system against itself: no statistic exceeds Δ = 0, p = 1/(n+1); baseline CI equals the system CI', () => {
    for (const test of ['bs', 'ar'] as const) {
      const out = pairedTest([{ metric: tm, systems: [a, a] }], { test, nSamples: 200, seed: 7 });
      expect(out.results[0][1].pValue).toBe(1 / 201);
      if (test === 'bs') expect(out.results[0][1].mean).toBe(out.results[0][0].mean);
    }
  });

  it('the baseline mean is the numpy mean of bootstrapScores with the same seed', () => {
    const out = pairedTest([{ metric: tm, systems: [a, b] }], { test: 'bs', nSamples: 300, seed: 3 });
    expect(out.results[0][0].mean).toBe(estimateCiNumpy(bootstrapScores({ rows: a, width: 10 }, tm, 300, 3)).mean);
    expect(out.results[0][1].pValue).toBeGreaterThan(0);
    expect(out.results[0][1].pValue).toBeLessThanOrEqual(1);
  });

  it('reports progress after each compared system, and the numbers do not depend on it', () => {
    for (const test of ['bs', 'ar'] as const) {
      const calls: [number, number][] = [];
      const options = { test, nSamples: 100, seed: 5 };
      const watched = pairedTest([{ metric: tm, systems: [a, b, a] }], { ...options, onProgress: (d, t) => calls.push([d, t]) });
      expect(calls).toEqual([[1, 2], [2, 2]]);
      expect(watched.results).toEqual(pairedTest([{ metric: tm, systems: [a, b, a] }], options).results);
    }
  });

  it('defaults: 1000 resamples for bs, 10000 trials for ar, seed 0 randomises only the compared systems', () => {
    expect(pairedTest([{ metric: tm, systems: [a, b] }], { test: 'bs', seed: 1 }).nSamples).toBe(1000);
    const r1 = pairedTest([{ metric: tm, systems: [a, b] }], { test: 'bs', nSamples: 50, seed: 0 });
    const r2 = pairedTest([{ metric: tm, systems: [a, b] }], { test: 'bs', nSamples: 50, seed: 0 });
    expect(r1.results[0][0].mean).toBe(r2.results[0][0].mean);
  });

  it('several metrics in one test (rows side by side, shared draws) = each metric alone, any mix of row kinds', () => {
    // A metric with fractional statistics (width 3): the AR pass then sums every row, BLEU's included.
    const frac: TestedMetric = {
      width: 3,
      corpusScore: (rows) => rows.reduce((x, v, k) => x + (k % 3 === 1 ? v : 0), 0),
      totalsScore: (t) => t[0] / (1 + t[1]) + t[2],
      resampleScore: (t) => t[0] / (1 + t[1]) - t[2],
    };
    const fracRows = (shift: number): Float64Array =>
      Float64Array.from({ length: 120 }, (_, k) => ((k * 37 + shift) % 11) / 4);
    const f = [fracRows(1), fracRows(2)];
    for (const test of ['bs', 'ar'] as const) {
      const options = { test, nSamples: 120, nArConfidence: 80, seed: 11 };
      const both = pairedTest([{ metric: tm, systems: [a, b] }, { metric: frac, systems: f }], options).results;
      expect(both[0]).toEqual(pairedTest([{ metric: tm, systems: [a, b] }], options).results[0]);
      expect(both[1]).toEqual(pairedTest([{ metric: frac, systems: f }], options).results[0]);
    }
  });

  it('refuses a single system and systems of different lengths', () => {
    expect(() => pairedTest([{ metric: tm, systems: [a] }], { test: 'bs' })).toThrow(/baseline/);
    expect(() => pairedTest([{ metric: tm, systems: [a, a.subarray(0, 100)] }], { test: 'ar' })).toThrow(/different lengths/);
  });
});

describe('public API', () => {
  it('exports the significance, confidence, agreement, jackknife and numpy-random entry points', () => {
    expect(palette.pairedTest).toBe(pairedTest);
    expect(palette.bootstrapScores).toBe(bootstrapScores);
    expect(palette.estimateCiPython).toBe(estimateCiPython);
    expect(palette.seedFromEnv).toBe(seedFromEnv);
    expect(palette.defaultRng).toBe(defaultRng);
    const functions = ['cohenKappa', 'gradedKappa', 'jackknifeRows', 'jackknifeScore', 'Pcg64', 'SeedSequence'] as const;
    for (const name of functions) expect(typeof palette[name]).toBe('function');
    expect(palette.defaultRng(12345).choice(10, 5)).toEqual(defaultRng(12345).choice(10, 5));
  });
});
