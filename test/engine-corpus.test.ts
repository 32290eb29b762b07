/**
 * Corpus scoring through the engine (src/engine/corpus/): every system's rows equal the metric's own
 * `segmentStats` of that system, bit for bit, for the metrics of the catalog (each distinct segment hypothesis is
 * scored once and copied); `candidateStats` (BLEU, chrF, TER, NIST) gives each candidate the row `segmentStats` gives it;
 * rows are identical for 1, 2 and 3 threads on the one pool; a metric's refusal of a hypothesis is reported for the
 * first system and metric in the order asked, with the metric's own message and line.
 */
import { describe, expect, it } from 'vitest';
import {
  CorpusTaskMetric, distinctHypotheses, scoreSystemRows, SystemRowsError, type CorpusTask, type CorpusTaskRunner,
} from '../src/engine/corpus/index.js';
import { InputError } from '../src/errors.js';
import type { Metric, MetricScore, PreparedReferences } from '../src/metrics/metric.js';
import { defaultRegistry, type MetricRegistry, type MetricSettings } from '../src/metrics/registry.js';
import { corpusWorkerPool } from '../src/pool/corpus-pool.js';
import { dataLines, haveShared } from './helpers/shared-data.js';
import '../src/node/install.js';
import { mulberry32 } from './helpers/mulberry32.js';

const prng = mulberry32;

const WORDS = ['0', 'the', 'cat', 'sat', 'on', 'a', 'mat', 'dog', 'ran', 'fast', 'Big', 'house', ',', '.', 'über', 'naïve', '3.5', "it's"];

/** `segments` segments, two references each, and `systems` systems that share most of their hypotheses. */
function corpus(seed: number, segments: number, systems: number): { refs: string[][]; hyps: string[][] } {
  const rand = prng(seed);
  const sentence = (): string => {
    const n = Math.floor(rand() * 12);
    return Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  };
  const refs = [Array.from({ length: segments }, sentence), Array.from({ length: segments }, sentence)];
  // Each segment has a few variants (one of them a reference), and each system picks one: many pairs repeat.
  const variants = refs[0].map((ref) => [ref, sentence(), sentence(), ''].slice(0, 1 + Math.floor(rand() * 4)));
  const hyps = Array.from({ length: systems }, () => variants.map((v) => v[Math.floor(rand() * v.length)]));
  return { refs, hyps };
}

const rowsEqual = (a: Float64Array, b: Float64Array): boolean =>
  a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;

/** Metric ids with settings: every catalog metric that needs no resource file, and flavors that change the rows. */
const CASES: readonly { ids: string[]; settings: MetricSettings }[] = [
  { ids: ['bleu', 'chrf', 'ter', 'wer', 'per', 'nist', 'gtm', 'impact'], settings: {} },
  { ids: ['rouge-1', 'rouge-2', 'rouge-l', 'rouge-lsum', 'rouge-w-1.2', 'rouge-s4', 'rouge-su4'], settings: {} },
  { ids: ['chrf', 'bleu', 'nist', 'ter'], settings: { chrf: { wordOrder: 2, lowercase: true }, bleu: { flavor: 'nltk' }, nist: { flavor: 'nltk' }, ter: { flavor: 'tercom' } } },
  { ids: ['bleu'], settings: { bleu: { flavor: 'moses' }, sentenceLevel: true } },
];

describe('scoreSystemRows', () => {
  const { refs, hyps } = corpus(7, 40, 6);

  it('distinct hypotheses: each (segment, hypothesis) once, every system pointing at its own', () => {
    const d = distinctHypotheses(hyps, 40);
    let pairs = 0;
    for (let s = 0; s < 40; s++) pairs += new Set(hyps.map((h) => h[s])).size;
    expect(d.hyps.length).toBe(pairs);
    expect(pairs).toBeLessThan(6 * 40);
    hyps.forEach((system, k) => system.forEach((h, s) => {
      expect(d.hyps[d.index[k][s]]).toBe(h);
      expect(d.segmentOf[d.index[k][s]]).toBe(s);
    }));
    expect(() => distinctHypotheses([hyps[0].slice(1)], 40)).toThrow(InputError);
  });

  it('distinct hypotheses: in order of first appearance, however many a segment has', () => {
    // 60 systems choosing among up to 40 variants of a segment: segments with a few distinct hypotheses and with
    // more than are compared in turn; equal strings made apart (not the same object) are one hypothesis.
    const rand = prng(23);
    const segments = 30;
    const variants = Array.from({ length: segments }, (_, s) => Array.from({ length: 1 + Math.floor(rand() * 40) }, (_, v) => `s${s} v${v}`));
    const many = Array.from({ length: 60 }, () => variants.map((v) => [...v[Math.floor(rand() * v.length)]].join('')));
    const d = distinctHypotheses(many, segments);
    const want: string[] = [];
    const starts = [0];
    for (let s = 0; s < segments; s++) {
      for (const system of many) if (!want.slice(starts[s]).includes(system[s])) want.push(system[s]);
      starts.push(want.length);
    }
    expect(d.hyps).toEqual(want);
    expect(Array.from(d.groupStarts)).toEqual(starts);
    expect(Math.max(...starts.slice(1).map((x, s) => x - starts[s]))).toBeGreaterThan(20);
    many.forEach((system, k) => system.forEach((h, s) => expect(d.hyps[d.index[k][s]]).toBe(h)));
  });

  for (const { ids, settings } of CASES) {
    it(`rows equal segmentStats of each system: ${ids.join(' ')} ${JSON.stringify(settings)}`, async () => {
      const result = await scoreSystemRows(hyps, { metrics: ids, references: refs, settings });
      expect(result.threads).toBe(1);
      ids.forEach((id, m) => {
        const metric = defaultRegistry.create(id, settings).metric;
        const prepared = metric.prepareReferences(refs);
        hyps.forEach((system, k) => {
          expect(rowsEqual(result.rows[m][k], metric.segmentStats(system, prepared)), `${id}, system ${k}`).toBe(true);
        });
      });
    });
  }

  it('candidateStats: each candidate gets the row segmentStats gives it at its segment (random groups)', () => {
    const rand = prng(11);
    const metrics: Metric[] = [
      defaultRegistry.create('bleu', {}).metric,
      defaultRegistry.create('chrf', {}).metric,
      defaultRegistry.create('chrf', { chrf: { wordOrder: 2 } }).metric,
      defaultRegistry.create('ter', {}).metric,
      defaultRegistry.create('nist', {}).metric,
      defaultRegistry.create('nist', { nist: { flavor: 'nltk' } }).metric,
    ];
    for (const metric of metrics) {
      expect(metric.candidateStats).toBeDefined();
      const prepared = metric.prepareReferences(refs);
      for (let trial = 0; trial < 5; trial++) {
        const cands: string[] = [];
        const segmentOf: number[] = [];
        for (let s = 0; s < 40; s++) {
          const n = Math.floor(rand() * 4); // segments without candidates too
          for (let c = 0; c < n; c++) {
            cands.push(hyps[Math.floor(rand() * hyps.length)][s] + (c === 2 ? ' cat' : ''));
            segmentOf.push(s);
          }
        }
        const rows = metric.candidateStats!(cands, Int32Array.from(segmentOf), prepared);
        const w = metric.statsWidth;
        cands.forEach((cand, h) => {
          const layer = refs[0].map(() => '');
          layer[segmentOf[h]] = cand;
          const own = metric.segmentStats(layer, prepared).subarray(segmentOf[h] * w, (segmentOf[h] + 1) * w);
          expect(rowsEqual(rows.subarray(h * w, (h + 1) * w), own), `${metric.id} candidate ${h}`).toBe(true);
        });
      }
      expect(() => metric.candidateStats!(['a', 'b'], Int32Array.of(3, 1), prepared)).toThrow(RangeError);
      expect(() => metric.candidateStats!(['a'], Int32Array.of(40), prepared)).toThrow(RangeError);
    }
  });

  it('a pool worker gives every task the rows this thread gives it (tasks of 1 to 40 segments; NIST needs every reference)', async () => {
    const big = corpus(3, 120, 5);
    const ids = ['bleu', 'chrf', 'ter', 'nist', 'rouge-l', 'wer'];
    const d = distinctHypotheses(big.hyps, 120);
    const runner = await corpusWorkerPool({ workers: 2, ids, settings: {}, references: big.refs });
    try {
      const checks: Promise<void>[] = [];
      ids.forEach((id, m) => {
        const metric = defaultRegistry.create(id, {}).metric;
        // Every distinct hypothesis scored in this thread at once, against the whole prepared references.
        const local = new CorpusTaskMetric(metric, big.refs, defaultRegistry.describe?.(id)?.wholeReference === true);
        const whole = local.rows({ from: 0, hyps: d.hyps, groupStarts: d.groupStarts });
        const w = metric.statsWidth;
        for (const [from, to] of [[0, 1], [1, 41], [41, 83], [83, 120], [0, 120]]) {
          const base = d.groupStarts[from];
          const task: CorpusTask = {
            metric: m, from, hyps: d.hyps.slice(base, d.groupStarts[to]),
            groupStarts: d.groupStarts.slice(from, to + 1).map((x) => x - base),
          };
          const own = whole.subarray(base * w, d.groupStarts[to] * w);
          checks.push(runner.run(task).then((result) => {
            expect(result.ok).toBe(true);
            if (result.ok) expect(rowsEqual(result.rows, own), `${id}, segments ${from}..${to}`).toBe(true);
          }));
        }
      });
      await Promise.all(checks);
    } finally {
      await runner.close();
    }
  }, 60_000);

  it('rows are identical on 1, 2 and 3 threads, the pool started before the run', async () => {
    const big = corpus(5, 120, 5);
    const ids = ['bleu', 'chrf', 'ter', 'nist', 'rouge-l'];
    const one = await scoreSystemRows(big.hyps, { metrics: ids, references: big.refs });
    for (const workers of [2, 3]) {
      const pooled = await scoreSystemRows(big.hyps, {
        metrics: ids, references: big.refs, workers, minPoolWork: 0,
        pool: async (setup) => {
          const runner = corpusWorkerPool(setup) as CorpusTaskRunner & { start(): Promise<void> };
          await runner.start();
          return runner;
        },
      });
      expect(pooled.threads).toBe(workers);
      ids.forEach((id, m) => big.hyps.forEach((_, k) => {
        expect(rowsEqual(pooled.rows[m][k], one.rows[m][k]), `${id}, system ${k}, ${workers} threads`).toBe(true);
      }));
    }
  }, 60_000);

  it("a runner's rows land where this thread's would (a runner that answers at once takes half the tasks)", async () => {
    const ids = ['bleu', 'chrf', 'nist'];
    const one = await scoreSystemRows(hyps, { metrics: ids, references: refs });
    let answered = 0;
    let inFlight = 0;
    const pooled = await scoreSystemRows(hyps, {
      metrics: ids, references: refs, workers: 2, minPoolWork: 0,
      pool: (setup) => {
        const metrics = setup.ids.map((id) => new CorpusTaskMetric(
          defaultRegistry.create(id, setup.settings).metric, setup.references, defaultRegistry.describe?.(id)?.wholeReference === true,
        ));
        return {
          capacity: 1,
          get inFlight() { return inFlight; },
          run: async (task) => {
            inFlight++;
            const rows = metrics[task.metric].rows(task);
            await Promise.resolve();
            inFlight--;
            answered++;
            return { ok: true, rows };
          },
          close: async () => {},
        };
      },
    });
    expect(answered).toBeGreaterThan(0);
    ids.forEach((id, m) => hyps.forEach((_, k) => expect(rowsEqual(pooled.rows[m][k], one.rows[m][k]), `${id} ${k}`).toBe(true)));
  });

  it('a pool that never answers does not hold the run up: this thread scores its tasks too', async () => {
    let closed = 0;
    const stuck: CorpusTaskRunner = {
      capacity: 3,
      inFlight: 3,
      run: () => new Promise(() => {}),
      close: async () => {
        closed++;
      },
    };
    // inFlight starts below capacity so that tasks are posted, then the pool holds them forever.
    let posted = 0;
    const r = await scoreSystemRows(hyps, {
      metrics: ['bleu', 'ter'], references: refs, workers: 2, minPoolWork: 0,
      pool: () => ({ ...stuck, get inFlight() { return posted; }, run: (t) => { posted++; return stuck.run(t); } }),
    });
    expect(posted).toBe(3);
    expect(closed).toBe(1);
    const alone = await scoreSystemRows(hyps, { metrics: ['bleu', 'ter'], references: refs });
    r.rows.forEach((m, i) => m.forEach((rows, k) => expect(rowsEqual(rows, alone.rows[i][k])).toBe(true)));
  });

  it('a small run stays in this thread whatever workers says', async () => {
    let started = 0;
    const r = await scoreSystemRows(hyps, {
      metrics: ['bleu'], references: refs, workers: 4,
      pool: (setup) => { started++; return corpusWorkerPool(setup); },
    });
    expect(r.threads).toBe(1);
    expect(started).toBe(0);
  });
});

/** A metric that refuses hypotheses holding `word`, at their line (1-based), as a metric reports bad input. */
class Refusing implements Metric {
  readonly statsWidth = 1;
  readonly statsColumns = ['n'];
  constructor(readonly id: string, private readonly word: string) {}
  signature(): string {
    return this.id;
  }
  prepareReferences(refStreams: readonly (readonly string[])[]): PreparedReferences {
    return { segments: refStreams[0].length };
  }
  segmentStats(hyps: readonly string[]): Float64Array {
    hyps.forEach((h, i) => {
      if (h.includes(this.word)) throw new InputError('E_BAD_INPUT', `${this.id} refuses ${this.word}`, { line: i + 1 });
    });
    return Float64Array.from(hyps, (h) => h.length);
  }
  scoreFromStats(totals: Float64Array): MetricScore {
    return { name: this.id, score: totals[0], verboseScore: '' };
  }
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    return this.scoreFromStats(row);
  }
}

describe('scoreSystemRows: a refused hypothesis', () => {
  const metrics = [new Refusing('first', 'A!'), new Refusing('second', 'B!')];
  const registry: MetricRegistry = {
    ids: ['first', 'second'],
    create: (id) => ({ metric: metrics[id === 'first' ? 0 : 1], signature: () => id, corpusScore: (rows) => metrics[0].scoreFromStats(rows) }),
  };
  const refs = [['r', 'r', 'r', 'r']];
  // System 0 has B! on line 3 (refused by the second metric); system 1 has A! on line 2 (by the first).
  const systems = [['x', 'y', 'B!', 'z'], ['x', 'A!', 'B!', 'z'], ['x', 'y', 'z', 'w']];

  it('systems first: system 0 under the second metric, at its line', async () => {
    const err = await scoreSystemRows(systems, { metrics: ['first', 'second'], references: refs, registry }).catch((e) => e);
    expect(err).toBeInstanceOf(SystemRowsError);
    expect([err.system, err.metric, err.cause.message, err.cause.line]).toEqual([0, 1, 'second refuses B!', 3]);
  });

  it('metrics first: system 1 under the first metric, at its line', async () => {
    const err = await scoreSystemRows(systems, {
      metrics: ['first', 'second'], references: refs, registry, errorOrder: 'metrics',
    }).catch((e) => e);
    expect(err).toBeInstanceOf(SystemRowsError);
    expect([err.system, err.metric, err.cause.message, err.cause.line]).toEqual([1, 0, 'first refuses A!', 2]);
  });
});

describe.skipIf(!haveShared('data/wmt21-news-en-de/en-de/ref.A.de'))('scoreSystemRows on WMT21 en-de', () => {
  it('20 systems: 14,855 distinct pairs of 20,040; BLEU, chrF and TER rows equal each system scored alone', async () => {
    const { readdirSync } = await import('node:fs');
    const { sharedPath } = await import('./helpers/shared-data.js');
    const dir = 'wmt21-news-en-de/en-de';
    const names = readdirSync(sharedPath(`data/${dir}/systems/`)).filter((f) => f.endsWith('.de')).sort();
    const refs = [dataLines(`${dir}/ref.A.de`)];
    const systems = names.map((n) => dataLines(`${dir}/systems/${n}`));
    const ids = ['bleu', 'chrf', 'ter'];
    const r = await scoreSystemRows(systems, { metrics: ids, references: refs });
    expect(systems.length * refs[0].length).toBe(20_040);
    expect(r.distinct).toBe(14_855);
    ids.forEach((id, m) => {
      const metric = defaultRegistry.create(id, {}).metric;
      const prepared = metric.prepareReferences(refs);
      systems.forEach((s, k) => expect(rowsEqual(r.rows[m][k], metric.segmentStats(s, prepared)), `${id} ${names[k]}`).toBe(true));
    });
  }, 60_000);
});
