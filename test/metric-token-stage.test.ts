/**
 * The token stage of the metric contract (src/metrics/token-stage.ts). For every metric that has one, under
 * several settings each, the rows the n-best engine writes through it (`fusedRows`: lines cut into chunks,
 * tokenized once per tokenizer, token batches with a candidate→segment map) equal, bit for bit, the rows of the
 * metric's own `segmentStats`, one candidate at a time against its segment's references. Settings that need the
 * text have no stage; a metric without one beside metrics with one gives its own rows in its own columns (Moses
 * BLEU lowercased: the settings `palette nbest` never uses, which used to fall back inside the fast path).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fusedRows } from '../src/engine/nbest/fast/fused-scorer.js';
import type { NbestMetric, ReferenceSource, TaskSegments } from '../src/engine/nbest/nbest-metrics.js';
import { MosesBleu } from '../src/metrics/bleu/moses-metric.js';
import type { Metric } from '../src/metrics/metric.js';
import { defaultRegistry, type MetricSettings } from '../src/metrics/registry.js';

/** Words, blanks other than U+0020, case, non-ASCII letters and punctuation: no line breaks (batches hold lines). */
const PIECES = [
  'the', 'The', 'CAT', 'cat', 'cats', 'running', 'ran', 'a', 'A', 'is', 'of', 'don\'t', 'e-mail', 'U.S.', '2024', '3.5',
  'Straße', 'İstanbul', 'naïve', 'ΟΔΟΣ', 'ς', '中文', '-', '.', ',', '!', '"', ' ', ' ', ' ', '  ', '\t', '\u00a0', '',
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 16 }).map((p) => p.join(''));

/** A metric under test: built from the registry (`-m` name and settings) or directly. */
type Case = [string, () => Metric];
const fromRegistry = (id: string, settings: MetricSettings = {}): Case => [
  `${id} ${JSON.stringify(settings)}`,
  () => defaultRegistry.create(id, settings).metric,
];

/** Metrics and settings that have a token stage. */
const WITH_STAGE: Case[] = [
  fromRegistry('bleu', { bleu: { flavor: 'moses' } }),
  ['moses bleu, shortest reference, order 2', () => new MosesBleu({ refLength: 'shortest', maxNgramOrder: 2 })],
  ['moses bleu, average reference length', () => new MosesBleu({ refLength: 'average' })],
  fromRegistry('wer'),
  fromRegistry('wer', { wer: { lowercase: true } }),
  fromRegistry('wer', { wer: { tokenize: 'none' } } as MetricSettings),
  fromRegistry('per'),
  fromRegistry('per', { per: { tokenize: 'jiwer', lowercase: true } } as MetricSettings),
  fromRegistry('rouge-1'),
  fromRegistry('rouge-2', { rouge: { flavor: 'rouge155', stem: true, removeStopwords: true } }),
  fromRegistry('rouge-su4'),
  fromRegistry('rouge-s*', { rouge: { flavor: 'rouge155', multiReference: 'best-recall', alpha: 0.3 } }),
  fromRegistry('rouge-l'),
  fromRegistry('rouge-l', { rouge: { flavor: 'rouge155' } }),
  fromRegistry('rouge-l', { rouge: { flavor: 'paper', multiReference: 'max' } }),
  fromRegistry('rouge-w-1.2', { rouge: { flavor: 'rouge155', split: 'newline', jackknife: true } }),
  fromRegistry('rouge-w-1.5', { rouge: { flavor: 'paper', multiReference: 'best-recall' } }),
];

/** Metrics and settings whose rows need the text. */
const WITHOUT_STAGE: Case[] = [
  fromRegistry('bleu'),
  fromRegistry('chrf'),
  fromRegistry('ter'),
  fromRegistry('wer', { wer: { tokenize: '13a' } } as MetricSettings),
  fromRegistry('rouge-lsum'),
  fromRegistry('rouge-l', { rouge: { tokenizer: '13a' } }),
  fromRegistry('rouge-w', { rouge: { split: 'punct' } }),
  fromRegistry('rouge-1', { rouge: { flavor: 'rouge155', limit: { words: 3 } } }),
  ['moses bleu lowercased', () => new MosesBleu({ lowercase: true })],
  ['moses bleu after 13a', () => new MosesBleu({ tokenize: '13a' })],
];

/** Candidates of several segments (each segment a reference-set row) and the references. */
const nbest = fc.record({
  nRefs: fc.integer({ min: 1, max: 3 }),
  segments: fc.array(fc.array(text, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
  refPool: fc.array(text, { minLength: 12, maxLength: 12 }),
});

interface Input {
  readonly task: TaskSegments;
  readonly refs: ReferenceSource;
}

/**
 * The task of candidates `segments[k]` for segments 2k + 1 of a reference set twice as long (the task's segments
 * are not the set's first ones).
 */
function input(nRefs: number, segments: string[][], refPool: string[]): Input {
  const hyps: string[] = [];
  const hypLocal: number[] = [];
  const starts = [0];
  segments.forEach((cands, k) => {
    for (const c of cands) {
      hyps.push(c);
      hypLocal.push(k);
    }
    starts.push(hyps.length);
  });
  const total = 2 * segments.length + 1;
  const refs: ReferenceSource = { nRefs, segments: total, line: (j, s) => refPool[(s * nRefs + j) % refPool.length] };
  const task: TaskSegments = {
    hyps,
    hypLocal: Int32Array.from(hypLocal),
    segmentIds: Int32Array.from(segments, (_, k) => 2 * k + 1),
    segmentStarts: Int32Array.from(starts),
  };
  return { task, refs };
}

/** Rows of the candidates, each scored on its own by `segmentStats` against its segment's references. */
function ownRows(metric: Metric, { task, refs }: Input): Float64Array {
  const w = metric.statsWidth;
  const out = new Float64Array(task.hyps.length * w);
  task.hyps.forEach((hyp, h) => {
    const s = task.segmentIds[task.hypLocal[h]];
    const streams = Array.from({ length: refs.nRefs }, (_, j) => [refs.line(j, s)]);
    out.set(metric.segmentStats([hyp], metric.prepareReferences(streams)), h * w);
  });
  return out;
}

/** A metric of an n-best run whose own rows are {@link ownRows}. */
function runMetric(id: string, metric: Metric): NbestMetric {
  return { id, scorerName: id, metric, width: metric.statsWidth, rows: (task, refs) => ownRows(metric, { task, refs }) };
}

function expectSameRows(got: Float64Array, expected: Float64Array): void {
  expect(got.length).toBe(expected.length);
  for (let k = 0; k < got.length; k++) {
    if (!Object.is(got[k], expected[k])) expect([k, got[k]]).toEqual([k, expected[k]]);
  }
}

describe('a metric with a token stage: fused rows = segmentStats rows', () => {
  it.each(WITH_STAGE)('%s', (_, make) => {
    const metric = make();
    expect(metric.tokenStage?.()).toBeDefined();
    fc.assert(
      fc.property(nbest, ({ nRefs, segments, refPool }) => {
        const run = fusedRows([runMetric('m', metric)]);
        expect(run).toBeDefined();
        const inp = input(nRefs, segments, refPool);
        const expected = ownRows(metric, inp);
        expectSameRows(run!(inp.task, inp.refs), expected);
        // A second task on the same rows function: the memo grown by the first.
        expectSameRows(run!(inp.task, inp.refs), expected);
      }),
      { numRuns: 40 },
    );
  });
});

describe('settings that need the text have no token stage', () => {
  it.each(WITHOUT_STAGE)('%s', (_, make) => {
    const metric = make();
    expect(metric.tokenStage?.()).toBeUndefined();
    expect(fusedRows([runMetric('m', metric)])).toBeUndefined();
  });

  it('every metric of the registry with a stage under its defaults (or Moses BLEU) is among the cases above', () => {
    // By class: a family's members (rouge-1, rouge-s4, …) are one metric.
    const tested = new Set(WITH_STAGE.map(([, make]) => make().constructor.name));
    const settings: MetricSettings[] = [{}, { bleu: { flavor: 'moses' } }];
    for (const id of [...defaultRegistry.ids, 'rouge-1', 'rouge-l', 'rouge-w', 'rouge-s4', 'rouge-su4', 'rouge-lsum']) {
      for (const s of settings) {
        let metric: Metric;
        try {
          metric = defaultRegistry.create(id, s).metric;
        } catch (e) {
          // A metric that needs a resource to be built at all (ParaEval's paraphrase table) says so by name.
          expect((e as Error).message, id).toContain(`-m ${id} needs`);
          continue;
        }
        if (metric.tokenStage?.() !== undefined) expect(tested, id).toContain(metric.constructor.name);
      }
    }
  });
});

describe('stages sharing a tokenizer, and a metric without a stage, in one run', () => {
  it('each metric\'s columns hold its own rows', () => {
    const metrics = [
      defaultRegistry.create('rouge-1', {}).metric,
      new MosesBleu({ lowercase: true }),
      defaultRegistry.create('rouge-l', {}).metric,
      defaultRegistry.create('wer', {}).metric,
      new MosesBleu(),
    ];
    // rouge-1 and rouge-l share one tokenizer (one key).
    expect(metrics[0].tokenStage!()!.tokenizerKey).toBe(metrics[2].tokenStage!()!.tokenizerKey);
    fc.assert(
      fc.property(nbest, ({ nRefs, segments, refPool }) => {
        const run = fusedRows(metrics.map((m, i) => runMetric(`m${i}`, m)))!;
        const inp = input(nRefs, segments, refPool);
        const own = metrics.map((m) => ownRows(m, inp));
        const stride = metrics.reduce((a, m) => a + m.statsWidth, 0);
        const expected = new Float64Array(inp.task.hyps.length * stride);
        for (let h = 0; h < inp.task.hyps.length; h++) {
          let column = 0;
          metrics.forEach((m, i) => {
            expected.set(own[i].subarray(h * m.statsWidth, (h + 1) * m.statsWidth), h * stride + column);
            column += m.statsWidth;
          });
        }
        expectSameRows(run(inp.task, inp.refs), expected);
      }),
      { numRuns: 40 },
    );
  });
});
