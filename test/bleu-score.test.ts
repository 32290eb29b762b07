/**
 * The pure BLEU reduction (src/metrics/bleu/score.ts) and sacrebleu's number formatting, against sacrebleu 2.6.0.
 * Sources: test/fixtures/bleu/sacrebleu-unit-cases.json (sacrebleu's own test_bleu.py literals),
 * corpus-grid-subset.jsonl (golden/sacrebleu/bleu-corpus-grid.*.json), verbose-strings.jsonl
 * (golden/sacrebleu/corpus-all-systems.wmt17-en-de.json). Tolerance: golden/README.md (floats relative 1e-9,
 * integers and strings exact); the unit-test literals are rounded by sacrebleu's authors, so they are compared at
 * their own EPSILON.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { formatBleuVerbose } from '../src/metrics/bleu/format.js';
import { pyFixed } from '../src/util/py-fixed.js';
import {
  bleuFromStats,
  bleuFromTotals,
  bleuScore,
  brevityPenalty,
  type BleuReduction,
} from '../src/metrics/bleu/score.js';
import {
  bleuOptions,
  fixture,
  Mismatches,
  readJsonl,
  withVersion,
  type SacrebleuConfig,
} from './fixtures/bleu/golden.js';

const unit = JSON.parse(readFileSync(fixture('sacrebleu-unit-cases.json'), 'utf8'));
const testBleu = unit['test/test_bleu.py'];

const exp4: BleuReduction = { maxNgramOrder: 4, smoothMethod: 'exp', effectiveOrder: false };

describe('bleuFromTotals: sacrebleu test_bleu.py literals', () => {
  it('test_case_scoring: compute_bleu(correct, total, sys_len, ref_len)', () => {
    for (const [[stats, sysLen, refLen], expected] of testBleu.test_case_scoring) {
      const [correct, total] = stats.args;
      const r = bleuFromTotals(correct, total, sysLen, refLen, { ...exp4, smoothMethod: 'none' });
      expect(Math.abs(r.score / 100 - expected)).toBeLessThan(testBleu.EPSILON);
    }
  });

  it('test_case_degenerate_stats: zero or missing statistics give 0 with floor smoothing', () => {
    for (const [[stats, sysLen, refLen], offset, expected] of testBleu.test_case_degenerate_stats) {
      const [correct, total] = stats.args;
      const r = bleuFromTotals(correct, total, sysLen, refLen, { ...exp4, smoothMethod: 'floor', smoothValue: offset });
      expect(r.score / 100).toBe(expected);
    }
  });
});

describe('bleuFromStats: sacrebleu arithmetic', () => {
  it('scores a perfect match 100.00000000000004, as sacrebleu does (exp of a sum of logs)', () => {
    const row = [10, 10, 10, 9, 8, 7, 10, 9, 8, 7];
    expect(bleuFromStats(row, exp4).score).toBe(100.00000000000004);
    expect(bleuScore(row, exp4)).toBe(100.00000000000004);
  });

  it('returns 0 (and zero precisions) when no order has a match, whatever the smoothing', () => {
    for (const smoothMethod of ['none', 'floor', 'add-k', 'exp'] as const) {
      const r = bleuFromStats([5, 7, 0, 0, 0, 0, 5, 4, 3, 2], { ...exp4, smoothMethod });
      expect(r.score).toBe(0);
      expect(r.precisions).toEqual([0, 0, 0, 0]);
      expect(r.counts).toEqual([0, 0, 0, 0]);
    }
  });

  it('exp smoothing halves the pseudo-count for each successive zero order', () => {
    const r = bleuFromStats([4, 4, 2, 0, 0, 0, 4, 3, 2, 1], exp4);
    expect(r.precisions).toEqual([50, 100 / (2 * 3), 100 / (4 * 2), 100 / (8 * 1)]);
  });

  it('add-k adds k to counts and totals of orders > 1 and reports the smoothed counts', () => {
    const r = bleuFromStats([4, 4, 2, 1, 0, 0, 4, 3, 2, 1], { ...exp4, smoothMethod: 'add-k', smoothValue: 2 });
    expect(r.counts).toEqual([2, 3, 2, 2]);
    expect(r.totals).toEqual([4, 5, 4, 3]);
    expect(r.precisions).toEqual([50, 60, 50, (100 * 2) / 3]);
  });

  it('effective order stops at the first order without hypothesis n-grams', () => {
    const row = [2, 2, 2, 1, 0, 0, 2, 1, 0, 0];
    expect(bleuFromStats(row, { ...exp4, effectiveOrder: true }).score).toBe(
      Math.exp((Math.log(100) + Math.log(100)) / 2),
    );
    // Without it the missing orders count as log 0 = -9999999999.
    expect(bleuFromStats(row, exp4).score).toBe(0);
  });

  it('brevity penalty: 1 for hyp ≥ ref, exp(1 − r/c) below, 0 for an empty hypothesis', () => {
    expect(brevityPenalty(10, 10)).toBe(1);
    expect(brevityPenalty(12, 10)).toBe(1);
    expect(brevityPenalty(8, 10)).toBe(Math.exp(1 - 10 / 8));
    expect(brevityPenalty(0, 10)).toBe(0);
  });

  it('reads a row in place at an offset and does not modify it', () => {
    const rows = new Float64Array([9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 4, 4, 2, 1, 0, 0, 4, 3, 2, 1]);
    const copy = rows.slice();
    const red: BleuReduction = { ...exp4, smoothMethod: 'add-k' };
    expect(bleuFromStats(rows, red, 10).score).toBe(bleuFromStats(rows.subarray(10), red).score);
    expect(bleuScore(rows, red, 10, new Float64Array(12))).toBe(bleuFromStats(rows.subarray(10), red).score);
    expect(rows).toEqual(copy);
  });
});

interface GridRecord {
  source: string;
  hyp: string;
  nrefs: number;
  config: SacrebleuConfig;
  corpus: {
    score: number;
    counts: number[];
    totals: number[];
    precisions: number[];
    bp: number;
    sys_len: number;
    ref_len: number;
    signature: string;
  };
}

describe('bleuFromStats reproduces every sacrebleu corpus-grid score from its counts', () => {
  const records = readJsonl<GridRecord>(fixture('corpus-grid-subset.jsonl'));

  it(`matches score, precisions, bp and signature on ${records.length} grid records`, () => {
    const m = new Mismatches();
    for (const r of records) {
      const c = r.corpus;
      const bleu = new Bleu(bleuOptions(r.config));
      const add = r.config.smooth_method === 'add-k';
      // sacrebleu reports add-k counts after smoothing; undo it to get the statistics row back.
      const k = add ? (r.config.smooth_value ?? 1) : 0;
      const counts = c.counts.map((x, i) => (i > 0 ? x - k : x));
      const totals = c.totals.map((x, i) => (i > 0 ? x - k : x));
      const what = `${r.hyp} ${JSON.stringify(r.config)}`;
      const res = bleu.corpusResult([c.sys_len, c.ref_len, ...counts, ...totals]);
      m.float(res.score, c.score, `${what} score`);
      res.precisions.forEach((p, i) => m.float(p, c.precisions[i], `${what} precision ${i + 1}`));
      m.float(res.bp, c.bp, `${what} bp`);
      m.exact(res.counts, c.counts, `${what} counts`);
      m.exact(res.totals, c.totals, `${what} totals`);
      m.exact(withVersion(bleu.signature(r.nrefs)), c.signature, `${what} signature`);
    }
    expect(m.list, m.summary()).toEqual([]);
  });
});

describe('sacrebleu text forms', () => {
  it('formats the verbose string exactly as sacrebleu prints it (CLI text of 16 systems × 6 settings)', () => {
    const m = new Mismatches();
    for (const r of readJsonl(fixture('verbose-strings.jsonl'))) {
      const c = r.corpus;
      const bleu = new Bleu(bleuOptions(r.config));
      const res = bleu.corpusResult([c.sys_len, c.ref_len, ...c.counts, ...c.totals]);
      const verbose = formatBleuVerbose(res.precisions, res.bp, res.ratio, res.sysLen, res.refLen);
      const text = `BLEU|${withVersion(bleu.signature(1))} = ${pyFixed(res.score, 2)} ${verbose}`;
      m.exact(text, c.cli_text_w2, JSON.stringify(r.config));
      m.exact(
        bleu.scoreFromStats(new Float64Array([c.sys_len, c.ref_len, ...c.counts, ...c.totals])).verboseScore,
        verbose,
        'MetricScore.verboseScore',
      );
    }
    expect(m.list, m.summary()).toEqual([]);
  });
});
