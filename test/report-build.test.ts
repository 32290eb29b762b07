/**
 * buildReport: the report's numbers are the metrics' own (corpus score from the rows as `palette score` reduces
 * them, sentence scores from `sentenceScoreFromStats`), rankings follow each metric's direction, correlations are
 * the src/meta coefficients over the pairs both sides have, hooks receive the statistics rows, and bad shapes are
 * InputErrors naming the file.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { kendallTauB, pearson, spearman } from '../src/meta/correlation.js';
import { sentenceScores } from '../src/metrics/metric.js';
import { defaultRegistry } from '../src/metrics/registry.js';
import { buildReport, type ReportStatistics } from '../src/report/build-report.js';
import { bootstrapIntervals, pairedSignificance } from '../src/report/report-statistics.js';

const refs = [['the cat sat on the mat', 'a quick brown fox jumps', 'hello world', 'one two three four five']];
const systems = [
  { name: 'good', lines: ['the cat sat on the mat', 'a quick brown fox jumped', 'hello world', 'one two three four'] },
  { name: 'bad', lines: ['a dog stood', 'the slow fox', 'goodbye', 'five four three'] },
  { name: 'mid', lines: ['the cat sat on a mat', 'a brown fox jumps', 'hello there world', 'one two three five'] },
];
const metrics = ['bleu', 'chrf', 'ter'].map((id) => ({ id, metric: defaultRegistry.create(id, {}) }));

describe('buildReport', () => {
  const data = buildReport({ version: '0.1.0', references: refs, systems, metrics });

  it('has the corpus score of each system as the metric computes it from its statistics rows', () => {
    metrics.forEach(({ metric }, k) => {
      const prepared = metric.metric.prepareReferences(refs);
      systems.forEach((s, j) => {
        const expected = metric.corpusScore(metric.metric.segmentStats(s.lines, prepared));
        expect(data.scores[k][j].score).toBe(expected.score);
        expect(data.scores[k][j].verbose).toBe(expected.verboseScore);
      });
    });
    expect(data.metrics.map((m) => m.name)).toEqual(['BLEU', 'chrF2', 'TER']);
    expect(data.metrics.map((m) => m.higherIsBetter)).toEqual([true, true, false]);
    expect(data.metrics[0].signature).toBe(metrics[0].metric.signature(1, false));
  });

  it('has the sentence scores of the metric API', () => {
    metrics.forEach(({ metric }, k) => {
      systems.forEach((s, j) => {
        expect(data.segments.scores[k][j]).toEqual(sentenceScores(metric.metric, s.lines, refs).map((x) => x.score));
      });
    });
  });

  it('ranks best first in each metric’s direction', () => {
    for (let k = 0; k < metrics.length; k++) {
      const ranked = data.ranking[k].map((s) => data.scores[k][s].score);
      const sorted = [...ranked].sort((a, b) => (data.metrics[k].higherIsBetter ? b - a : a - b));
      expect(ranked).toEqual(sorted);
      expect(data.systems[data.ranking[k][0]]).toBe('good');
    }
  });

  it('keeps texts as given and leaves out what was not asked for', () => {
    expect(data.segments.hypotheses).toEqual(systems.map((s) => s.lines));
    expect(data.segments.references).toEqual(refs);
    expect(data).not.toHaveProperty('created');
    expect(data).not.toHaveProperty('significance');
    expect(data).not.toHaveProperty('human');
    expect(data.segments).not.toHaveProperty('source');
  });

  it('correlates corpus scores with system-level judgments', () => {
    const human = { name: 'DA', system: [0.9, 0.1, 0.5] };
    const withHuman = buildReport({ version: '0.1.0', references: refs, systems, metrics, human: [human] });
    const cs = withHuman.correlations!;
    expect(cs.map((c) => c.level)).toEqual(['system', 'system', 'system']);
    const x = Float64Array.from(withHuman.scores[0].map((s) => s.score));
    const y = Float64Array.from(human.system);
    expect(cs[0]).toMatchObject({ n: 3, segments: 4, x: [...x], y: human.system });
    expect(cs[0].pearson).toEqual({ value: pearson(x, y) });
    expect(cs[0].spearman).toEqual({ value: spearman(x, y) });
    expect(cs[0].kendall).toEqual({ value: kendallTauB(x, y) });
  });

  it('with segment-level judgments, correlates over the judged segments only (system scores of both sides)', () => {
    const human = {
      name: 'MQM',
      system: [0, 0, 0],
      segment: [
        [1, 0.8, 0.9, null],
        [0.1, null, 0.2, null],
        [0.6, 0.5, 0.4, null],
      ],
    };
    const withHuman = buildReport({ version: '0.1.0', references: refs, systems, metrics, human: [human] });
    const sys = withHuman.correlations!.find((c) => c.metric === 1 && c.level === 'system')!;
    // chrF of system 'bad' over its judged segments 1 and 3 (0-based 0 and 2), from their summed statistics rows.
    const chrf = metrics[1].metric.metric;
    const rows = chrf.segmentStats(systems[1].lines, chrf.prepareReferences(refs));
    const w = chrf.statsWidth;
    const sums = new Float64Array(w);
    for (const i of [0, 2]) for (let c = 0; c < w; c++) sums[c] += rows[i * w + c];
    expect(sys.x![1]).toBe(chrf.scoreFromStats(sums).score);
    expect(sys.y).toEqual([0.9, 0.15000000000000002, 0.5]);
    expect(sys.segments).toBe(3);
    expect(sys.pearson.value).toBe(pearson(Float64Array.from(sys.x as number[]), Float64Array.from(sys.y as number[])));
    const seg = withHuman.correlations!.find((c) => c.metric === 1 && c.level === 'segment')!;
    expect(seg.n).toBe(8);
    const sx: number[] = [];
    const sy: number[] = [];
    human.segment.forEach((row, s) =>
      row.forEach((v, i) => {
        if (v === null) return;
        sx.push(withHuman.segments.scores[1][s][i]!);
        sy.push(v);
      }),
    );
    expect(seg.pearson.value).toBe(pearson(Float64Array.from(sx), Float64Array.from(sy)));
  });

  it('hands each metric’s rows to the interval and significance hooks and stores their results', () => {
    const seen: ReportStatistics[] = [];
    const withHooks = buildReport({
      version: '0.1.0',
      references: refs,
      systems,
      metrics,
      intervals: {
        info: { level: 0.95, resamples: 10, seed: 1, method: 'test' },
        compute: (stats) => {
          seen.push(stats);
          return stats.rows.map((_, s) => ({ low: s, high: s + 1 }));
        },
      },
      significance: {
        info: { test: 'ar', resamples: 10, seed: 1, baseline: 0 },
        compute: (stats) => stats.rows.map((_, i) => stats.rows.map((__, j) => (i === 0 && j > 0 ? stats.metricIndex / 10 : null))),
      },
    });
    expect(seen.map((s) => s.metricIndex)).toEqual([0, 1, 2]);
    expect(seen[0].rows).toHaveLength(3);
    expect(seen[0].rows[0]).toHaveLength(4 * metrics[0].metric.metric.statsWidth);
    expect(withHooks.scores[1][2].ci).toEqual({ low: 2, high: 3 });
    expect(withHooks.confidence?.method).toBe('test');
    expect(withHooks.significance?.pValues[2][0]).toEqual([null, 0.2, 0.2]);
  });

  it('refuses systems of the wrong length, naming the file', () => {
    const call = (): unknown =>
      buildReport({ version: '0.1.0', references: refs, systems: [{ name: 'short', file: 'short.txt', lines: ['a'] }], metrics });
    expect(call).toThrow(InputError);
    expect(call).toThrow(/1 hypotheses but 4 reference segments/);
    try {
      call();
    } catch (err) {
      expect((err as InputError).file).toBe('short.txt');
    }
  });

  it('refuses human scores that do not cover every system and segment', () => {
    const bad = { name: 'DA', system: [1, 2] };
    expect(() => buildReport({ version: '0.1.0', references: refs, systems, metrics, human: [bad] })).toThrow(/2 systems, the report has 3/);
    const badSeg = { name: 'DA', system: [1, 2, 3], segment: [[1], [2], [3]] };
    expect(() => buildReport({ version: '0.1.0', references: refs, systems, metrics, human: [badSeg] })).toThrow(/do not cover/);
  });

  it('tells onProgress every step up to the total, and the report is the same with it or without it', () => {
    const human = { name: 'MQM', system: [0.9, 0.1, 0.5], segment: [[1, 0.8, 0.9, null], [0.1, null, 0.2, null], [0.6, 0.5, 0.4, null]] };
    const options = {
      version: '0.1.0',
      references: refs,
      systems,
      metrics,
      human: [human],
      intervals: bootstrapIntervals(20, 3),
      significance: pairedSignificance({ test: 'bs', samples: 20, seed: 3 }),
      correlationBootstrap: { resamples: 20, seed: 3 },
    };
    const calls: [number, number][] = [];
    const heard = buildReport({ ...options, onProgress: (done, total) => calls.push([done, total]) });
    expect(heard).toEqual(buildReport(options));
    // 3 metrics × (3 systems scored + 3 for the intervals + 3 for the tests) + 3 metrics × 2 correlation levels.
    const total = 3 * 9 + 3 * 2;
    expect(calls.every(([, t]) => t === total)).toBe(true);
    expect(calls.map(([d]) => d)).toEqual([...calls.map(([d]) => d)].sort((a, b) => a - b));
    expect(calls[calls.length - 1][0]).toBe(total);
    // Scoring reports system by system: the first three calls are the first metric's systems.
    expect(calls.slice(0, 3).map(([d]) => d)).toEqual([1, 2, 3]);
  });
});
