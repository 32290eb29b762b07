/**
 * `scoreFromTotals` and the allocation-free BLEU scorer give exactly the doubles of the metrics' own reductions
 * (`Bleu.scoreFromStats`, `bleuScore`) on random statistics rows, for every smoothing method and effective order.
 */
import { describe, expect, it } from 'vitest';
import { Bleu, type BleuOptions } from '../src/metrics/bleu/bleu.js';
import { bleuScore } from '../src/metrics/bleu/score.js';
import { Chrf } from '../src/metrics/chrf/chrf.js';
import { BleuTotalsScorer } from '../src/tuning/bleu-totals-scorer.js';
import { bleuTotalsScorerOf, scoreFromTotals } from '../src/tuning/score-from-totals.js';
import { xorshift32 } from './helpers/xorshift.js';

/** A random row `[hyp_len, ref_len, correct_1..N, total_1..N]`, with zeros often enough to hit every branch. */
function randomRow(n: number, random: () => number): Float64Array {
  const row = new Float64Array(2 + 2 * n);
  const scale = random() < 0.5 ? 30 : 200000;
  let total = Math.floor(random() * scale);
  if (random() < 0.05) total = 0;
  row[0] = total + Math.floor(random() * 3);
  row[1] = Math.floor(row[0] * (0.6 + random() * 0.8));
  for (let i = 0; i < n; i++) {
    const t = Math.max(0, total - i);
    row[2 + n + i] = random() < 0.03 ? 0 : t;
    row[2 + i] = random() < 0.15 ? 0 : Math.floor(random() * (row[2 + n + i] + 1));
  }
  return row;
}

const OPTIONS: BleuOptions[] = [
  {},
  { smoothMethod: 'none' },
  { smoothMethod: 'floor' },
  { smoothMethod: 'floor', smoothValue: 0.3 },
  { smoothMethod: 'add-k' },
  { smoothMethod: 'add-k', smoothValue: 2 },
  { effectiveOrder: true },
  { smoothMethod: 'none', effectiveOrder: true },
  { maxNgramOrder: 2 },
  { maxNgramOrder: 6, smoothMethod: 'floor' },
  { maxNgramOrder: 1 },
];

describe.each(OPTIONS)('BLEU %j', (options) => {
  const metric = new Bleu(options);
  const n = metric.options.maxNgramOrder;
  const reduction = {
    maxNgramOrder: n,
    smoothMethod: metric.options.smoothMethod,
    smoothValue: metric.options.smoothValue,
    effectiveOrder: metric.options.effectiveOrder ?? false,
  };

  it('scoreFromTotals = scoreFromStats = bleuScore on random rows', () => {
    const random = xorshift32(2024 + n);
    const scorer = new BleuTotalsScorer(reduction);
    for (let trial = 0; trial < 3000; trial++) {
      const row = randomRow(n, random);
      const expected = metric.scoreFromStats(row).score;
      expect(scoreFromTotals(metric, row)).toBe(expected);
      expect(scorer.score(row)).toBe(expected);
      expect(bleuScore(row, reduction)).toBe(expected);
    }
  });

  it('reads a row in place at an offset', () => {
    const random = xorshift32(5);
    const scorer = bleuTotalsScorerOf(metric)!;
    expect(scorer.width).toBe(metric.statsWidth);
    const rows = new Float64Array(5 * metric.statsWidth);
    for (let r = 0; r < 5; r++) rows.set(randomRow(n, random), r * metric.statsWidth);
    for (let r = 0; r < 5; r++) {
      const row = rows.slice(r * metric.statsWidth, (r + 1) * metric.statsWidth);
      expect(scorer.score(rows, r * metric.statsWidth)).toBe(metric.scoreFromStats(row).score);
    }
  });
});

describe('scoreFromTotals', () => {
  it('caches one scorer per BLEU instance and none for other metrics', () => {
    const bleu = new Bleu();
    expect(bleuTotalsScorerOf(bleu)).toBe(bleuTotalsScorerOf(bleu));
    expect(bleuTotalsScorerOf(new Chrf())).toBeNull();
  });

  it('falls back to scoreFromStats for other metrics', () => {
    const chrf = new Chrf();
    const totals = Float64Array.from({ length: chrf.statsWidth }, (_, i) => 50 - i * 2 + (i % 3));
    expect(scoreFromTotals(chrf, totals)).toBe(chrf.scoreFromStats(totals).score);
  });

  it('gives the same score on repeated calls (the scratch buffer is reused)', () => {
    const bleu = new Bleu();
    const row = Float64Array.from([20, 22, 15, 9, 5, 3, 20, 19, 18, 17]);
    const first = scoreFromTotals(bleu, row);
    for (let i = 0; i < 100; i++) expect(scoreFromTotals(bleu, row)).toBe(first);
    expect(first).toBe(bleu.scoreFromStats(row).score);
  });
});
