/**
 * Tuning API (issue 5): statistics matrices of real Moses n-best lists (test/fixtures/tuning-moses-mert), selection
 * scores against `corpusScore` of the chosen texts, column sums, delta updates, Moses' own BLEU statistics, errors.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { Chrf } from '../src/metrics/chrf/chrf.js';
import { corpusScore, type Metric } from '../src/metrics/metric.js';
import { Nist } from '../src/metrics/nist/nist.js';
import { scoreFromTotals } from '../src/tuning/score-from-totals.js';
import { applyRowDelta, selectionScore, selectionTotals } from '../src/tuning/selection.js';
import { buildStatsMatrix, matrixColumnSums, type StatsMatrix } from '../src/tuning/stats-matrix.js';
import { xorshift32 } from './helpers/xorshift.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'tuning-moses-mert');
const lines = (name: string): string[] => readFileSync(join(FIXTURE, name), 'utf8').split('\n').filter((l) => l !== '');
const reference = lines('reference');
const nbest = lines('nbest.tsv').map((l) => l.split('\t'));
const hyps = nbest.map(([, h]) => h);
const hypSegment = Int32Array.from(nbest, ([s]) => Number(s));
const mosesStats = lines('moses-stats.tsv').map((l) => l.split('\t')[1].split(' ').map(Number));

function randomSelection(m: StatsMatrix, random: () => number): Int32Array {
  const sel = new Int32Array(m.segments);
  for (let s = 0; s < m.segments; s++) {
    const from = m.segmentOffsets[s];
    sel[s] = from + Math.floor(random() * (m.segmentOffsets[s + 1] - from));
  }
  return sel;
}

const METRICS: [string, () => Metric][] = [
  ['BLEU (13a, exp)', () => new Bleu()],
  ['BLEU (none, floor, order 3)', () => new Bleu({ tokenize: 'none', smoothMethod: 'floor', maxNgramOrder: 3 })],
  ['BLEU (add-k, effective order)', () => new Bleu({ smoothMethod: 'add-k', effectiveOrder: true })],
  ['BLEU (average ref length)', () => new Bleu({ refLength: 'average' })],
  ['chrF', () => new Chrf()],
  ['chrF++', () => new Chrf({ wordOrder: 2 })],
  ['NIST', () => new Nist()],
];

describe.each(METRICS)('%s', (_name, make) => {
  const metric = make();
  const refs = metric.prepareReferences([reference]);
  const matrix = buildStatsMatrix(metric, hyps, hypSegment, refs);

  it('lays the matrix out per segment', () => {
    expect(matrix.rows).toBe(200);
    expect(matrix.segments).toBe(10);
    expect(matrix.width).toBe(metric.statsWidth);
    expect(matrix.stats.length).toBe(200 * metric.statsWidth);
    expect(Array.from(matrix.segmentOffsets)).toEqual(Array.from({ length: 11 }, (_, s) => 20 * s));
    expect(Array.from(matrix.rowSegment)).toEqual(Array.from(hypSegment));
  });

  it('selection scores equal corpusScore of the chosen texts', () => {
    const random = xorshift32(12345);
    const out = new Float64Array(matrix.width);
    for (let trial = 0; trial < 8; trial++) {
      const sel = randomSelection(matrix, random);
      const chosen = Array.from(sel, (row) => hyps[row]);
      const expected = corpusScore(metric, chosen, refs).score;
      expect(selectionScore(matrix, sel, out)).toBe(expected);
      expect(selectionScore(matrix, sel)).toBe(expected);
      expect(scoreFromTotals(metric, selectionTotals(matrix, sel))).toBe(expected);
    }
  });

  it('totals of all rows are the column sums', () => {
    const sums = matrixColumnSums(matrix);
    for (let c = 0; c < matrix.width; c++) {
      let expected = 0;
      for (let r = 0; r < matrix.rows; r++) expected += matrix.stats[r * matrix.width + c];
      expect(sums[c]).toBe(expected);
    }
    // Every row equals the row of a one-hypothesis corpus call on its own segment.
    for (let k = 0; k < 20; k += 7) {
      const layer = Array.from({ length: 10 }, (_, s) => hyps[20 * s + k]);
      const rows = metric.segmentStats(layer, refs);
      for (let s = 0; s < 10; s++) {
        const row = 20 * s + k;
        expect(Array.from(matrix.stats.subarray(row * matrix.width, (row + 1) * matrix.width))).toEqual(
          Array.from(rows.subarray(s * matrix.width, (s + 1) * matrix.width)),
        );
      }
    }
  });

  it('delta updates walk from one selection to another', () => {
    const random = xorshift32(99);
    const sel = randomSelection(matrix, random);
    const totals = selectionTotals(matrix, sel);
    for (let step = 0; step < 30; step++) {
      const s = Math.floor(random() * matrix.segments);
      const to = matrix.segmentOffsets[s] + Math.floor(random() * 20);
      applyRowDelta(matrix, totals, sel[s], to);
      sel[s] = to;
    }
    const fresh = selectionTotals(matrix, sel);
    for (let c = 0; c < matrix.width; c++) expect(totals[c]).toBeCloseTo(fresh[c], 9);
    if (matrix.stats.every(Number.isInteger)) {
      // Integer statistics (not NIST's information sums, not BLEU's average reference length): deltas are exact.
      expect(Array.from(totals)).toEqual(Array.from(fresh));
    }
  });
});

describe('BLEU rows against Moses extractor statistics', () => {
  it('match m1 t1 … m4 t4 reflen of every candidate (tokenize none)', () => {
    const metric = new Bleu({ tokenize: 'none' });
    const matrix = buildStatsMatrix(metric, hyps, hypSegment, metric.prepareReferences([reference]));
    for (let r = 0; r < matrix.rows; r++) {
      const row = matrix.stats.subarray(r * 10, r * 10 + 10);
      const moses = [row[2], row[6], row[3], row[7], row[4], row[8], row[5], row[9], row[1]];
      expect(moses, `candidate ${r}`).toEqual(mosesStats[r]);
    }
  });
});

describe('n-best lists of uneven sizes', () => {
  it('scores selections of a list with 1..5 candidates per segment', () => {
    const metric = new Bleu();
    const refs = metric.prepareReferences([reference]);
    const pick: number[] = [];
    for (let s = 0; s < 10; s++) for (let k = 0; k < 1 + (s % 5); k++) pick.push(20 * s + k);
    const matrix = buildStatsMatrix(
      metric,
      pick.map((i) => hyps[i]),
      Int32Array.from(pick, (i) => hypSegment[i]),
      refs,
    );
    expect(matrix.rows).toBe(pick.length);
    const random = xorshift32(7);
    for (let trial = 0; trial < 5; trial++) {
      const sel = randomSelection(matrix, random);
      expect(selectionScore(matrix, sel)).toBe(corpusScore(metric, Array.from(sel, (r) => hyps[pick[r]]), refs).score);
    }
  });
});

describe('errors', () => {
  const metric = new Bleu();
  const refs = metric.prepareReferences([reference]);
  const matrix = buildStatsMatrix(metric, hyps, hypSegment, refs);
  const code = (f: () => unknown): string | undefined => {
    try {
      f();
    } catch (e) {
      return e instanceof InputError ? e.code : (e as Error).name;
    }
    return undefined;
  };

  it('rejects bad segment ids', () => {
    expect(code(() => buildStatsMatrix(metric, hyps, hypSegment.subarray(1), refs))).toBe('E_LINE_COUNT_MISMATCH');
    expect(code(() => buildStatsMatrix(metric, ['a', 'b'], [1, 0], refs))).toBe('E_BAD_INPUT');
    expect(code(() => buildStatsMatrix(metric, ['a'], [10], refs))).toBe('E_BAD_INPUT');
    expect(code(() => buildStatsMatrix(metric, ['a'], [-1], refs))).toBe('E_BAD_INPUT');
    expect(code(() => buildStatsMatrix(metric, ['a'], [0.5], refs))).toBe('E_BAD_INPUT');
    // Segments 1..9 without a candidate.
    expect(code(() => buildStatsMatrix(metric, ['a'], [0], refs))).toBe('E_BAD_INPUT');
  });

  it('rejects bad selections and buffers', () => {
    const sel = Int32Array.from({ length: 10 }, (_, s) => 20 * s);
    expect(code(() => selectionScore(matrix, sel.subarray(1)))).toBe('E_LINE_COUNT_MISMATCH');
    const wrong = sel.slice();
    wrong[3] = 20 * 4; // a candidate of segment 4 chosen for segment 3
    expect(code(() => selectionScore(matrix, wrong))).toBe('E_BAD_INPUT');
    wrong[3] = -1;
    expect(code(() => selectionScore(matrix, wrong))).toBe('E_BAD_INPUT');
    expect(code(() => selectionScore(matrix, sel, new Float64Array(3)))).toBe('RangeError');
    expect(code(() => scoreFromTotals(metric, new Float64Array(3)))).toBe('RangeError');
    const totals = selectionTotals(matrix, sel);
    expect(code(() => applyRowDelta(matrix, totals, 0, 200))).toBe('RangeError');
    expect(code(() => applyRowDelta(matrix, totals, -1, 0))).toBe('RangeError');
    expect(code(() => applyRowDelta(matrix, totals, 0.5, 0))).toBe('RangeError');
    expect(code(() => applyRowDelta(matrix, new Float64Array(2), 0, 1))).toBe('RangeError');
  });
});
