/**
 * `palette correlate -m METRIC` with `palette score`'s metric flags: ParaEval with its paraphrase table, IMPACT and
 * the NP-chunk metric with the bracketed chunker (pre-chunked fixtures, so that nothing depends on a tagger), and a
 * flag of an older metric (`-lc` for BLEU). Expected values: the metric built through the registry with the same
 * settings, its corpus scores (summed statistics) and sentence scores through the Metric API, correlated with
 * src/meta/correlation.ts. Bad tables, chunkers and pre-chunked lines: exit 2, one line naming file and line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kendallTauB, pearson, spearman } from '../src/meta/correlation.js';
import { sentenceScores, sumRows } from '../src/metrics/metric.js';
import { defaultRegistry, type MetricSettings } from '../src/metrics/registry.js';
import { cliRunner, expectInputError } from './helpers/cli.js';

const FIX = fileURLToPath(new URL('./fixtures/correlate/metrics/', import.meta.url));
const fx = (name: string): string => join(FIX, name);
const HUMAN = fileURLToPath(new URL('./fixtures/correlate/cli/human.tsv', import.meta.url));
const SYSTEMS = ['A', 'B', 'C', 'D'];

const palette = cliRunner(['correlate']);

const lines = (file: string): string[] => readFileSync(file, 'utf8').trimEnd().split('\n');

/** Human scores as (system, segment, score) rows, and the per-system means. */
const humanRows = lines(HUMAN)
  .slice(1)
  .map((l) => {
    const [system, seg, , score] = l.split('\t');
    return { system, seg: Number(seg), score: Number(score) };
  });
const humanSystem = SYSTEMS.map((s) => {
  const xs = humanRows.filter((h) => h.system === s).map((h) => h.score);
  return xs.reduce((a, b) => a + b, 0) / xs.length;
});

interface JsonOut {
  correlations: { method: string; value: number | null }[];
  system_scores?: { system: string; metric: number; human: number }[];
}

/** Expected system- and segment-level correlations of metric `id` with `settings` over the fixture systems. */
function expected(id: string, settings: MetricSettings, ext: string): { system: number[]; segment: number[]; scores: number[] } {
  const cli = defaultRegistry.create(id, settings);
  const refs = [lines(fx(`ref.${ext}`))];
  const prepared = cli.metric.prepareReferences(refs);
  const outputs = new Map(SYSTEMS.map((s) => [s, lines(fx(`${s}.${ext}`))]));
  const scores = SYSTEMS.map((s) => {
    const rows = cli.metric.segmentStats(outputs.get(s)!, prepared);
    return cli.metric.scoreFromStats(sumRows(rows, cli.metric.statsWidth)).score;
  });
  const sentence = new Map(SYSTEMS.map((s) => [s, sentenceScores(cli.metric, outputs.get(s)!, prepared).map((x) => x.score)]));
  const segMetric = Float64Array.from(humanRows.map((h) => sentence.get(h.system)![h.seg - 1]));
  const segHuman = Float64Array.from(humanRows.map((h) => h.score));
  const sysMetric = Float64Array.from(scores);
  const sysHuman = Float64Array.from(humanSystem);
  return {
    system: [pearson(sysMetric, sysHuman), spearman(sysMetric, sysHuman), kendallTauB(sysMetric, sysHuman)],
    segment: [pearson(segMetric, segHuman), spearman(segMetric, segHuman), kendallTauB(segMetric, segHuman)],
    scores,
  };
}

const hyps = (ext: string): string[] => SYSTEMS.map((s) => `${s}=${fx(`${s}.${ext}`)}`);

async function correlations(args: string[], ext: string, level: 'system' | 'segment'): Promise<JsonOut> {
  const r = await palette([...args, '-r', fx(`ref.${ext}`), '--hyp', ...hyps(ext), '--human', HUMAN, '--level', level, '--bootstrap', '0', '-f', 'json']);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as JsonOut;
}

function same(got: JsonOut, want: number[]): void {
  expect(got.correlations.map((c) => c.value)).toEqual(want.map((v) => (Number.isFinite(v) ? v : null)));
}

describe('palette correlate -m with metric flags', () => {
  const cases: { name: string; args: string[]; id: string; settings: MetricSettings; ext: string }[] = [
    {
      name: 'paraeval (precision) with a paraphrase table',
      args: ['-m', 'paraeval', '--paraphrase-table', fx('table.tsv')],
      id: 'paraeval',
      settings: { paraeval: { table: fx('table.tsv') } },
      ext: 'txt',
    },
    {
      name: 'paraeval recall, lowercased',
      args: ['-m', 'paraeval', '--paraphrase-table', fx('table.tsv'), '--paraeval-score', 'recall', '--paraeval-lowercase'],
      id: 'paraeval',
      settings: { paraeval: { table: fx('table.tsv'), score: 'recall', lowercase: true } },
      ext: 'txt',
    },
    {
      name: 'impact with alpha, beta',
      args: ['-m', 'impact', '--impact-alpha', '0.5', '--impact-beta', '2'],
      id: 'impact',
      settings: { npchunk: { alpha: 0.5, beta: 2 } },
      ext: 'txt',
    },
    {
      name: 'npchunk, bracketed chunker, delta',
      args: ['-m', 'npchunk', '--chunker', 'bracketed', '--npchunk-delta', '0.5'],
      id: 'npchunk',
      settings: { npchunk: { chunker: 'bracketed', delta: 0.5 } },
      ext: 'chunked',
    },
    {
      name: 'bleu with -lc',
      args: ['-m', 'bleu', '-lc'],
      id: 'bleu',
      settings: { bleu: { lowercase: true } },
      ext: 'txt',
    },
  ];
  for (const c of cases) {
    it(`${c.name}: system level (corpus scores) and segment level (sentence scores)`, async () => {
      const want = expected(c.id, c.settings, c.ext);
      const sys = await correlations(c.args, c.ext, 'system');
      same(sys, want.system);
      expect(sys.system_scores!.map((s) => s.metric)).toEqual(want.scores);
      const seg = await correlations(c.args, c.ext, 'segment');
      // Segment level: sentence scores (BLEU's -sl instance, effective order, as palette score -sl).
      const sentenceWant = c.id === 'bleu' ? expected(c.id, { ...c.settings, sentenceLevel: true }, c.ext).segment : want.segment;
      same(seg, sentenceWant);
    });
  }

  // Moses BLEU sums its rows in single precision and NLTK's methods 5–7 read the last row: their system scores are
  // the corpus scores palette score prints (the rows in order), not a formula over double sums.
  it.each([
    ['moses', ['--bleu-flavor', 'moses'], { bleu: { flavor: 'moses' } }],
    ['nltk method 7', ['--bleu-flavor', 'nltk', '--nltk-smoothing', '7'], { bleu: { flavor: 'nltk', nltkSmoothing: 7 } }],
  ] as const)('bleu %s: system scores are the corpus scores of palette score (rows read in order)', async (_name, flags, settings) => {
    const cli = defaultRegistry.create('bleu', settings as MetricSettings);
    const prepared = cli.metric.prepareReferences([lines(fx('ref.txt'))]);
    const want = SYSTEMS.map((s) => cli.corpusScore(cli.metric.segmentStats(lines(fx(`${s}.txt`)), prepared)).score);
    const sys = await correlations(['-m', 'bleu', ...flags], 'txt', 'system');
    expect(sys.system_scores!.map((s) => s.metric)).toEqual(want);
    // The same scores through palette score itself.
    for (const [k, s] of SYSTEMS.entries()) {
      const r = await cliRunner(['score'])([fx('ref.txt'), '-i', fx(`${s}.txt`), '-m', 'bleu', ...flags, '-b', '-w', '16', '-q']);
      expect(Number(r.out)).toBeCloseTo(want[k], 15);
    }
  });

  it('the settings reach the metric: the paraphrase table and -lc change the numbers', async () => {
    const para = await correlations(['-m', 'paraeval', '--paraphrase-table', fx('table.tsv')], 'txt', 'system');
    const empty = await correlations(['-m', 'paraeval', '--paraphrase-table', fx('table.tsv'), '--paraphrase-min-words', '2'], 'txt', 'system');
    expect(para.system_scores!.map((s) => s.metric)).not.toEqual(empty.system_scores!.map((s) => s.metric));
    const impactDefault = await correlations(['-m', 'impact'], 'txt', 'system');
    const impactTuned = await correlations(['-m', 'impact', '--impact-alpha', '0.5', '--impact-beta', '2'], 'txt', 'system');
    expect(impactDefault.system_scores!.map((s) => s.metric)).not.toEqual(impactTuned.system_scores!.map((s) => s.metric));
  });

  it('npchunk with compromise on the plain fixture runs (a tiny input)', async () => {
    const want = expected('npchunk', { npchunk: { chunker: 'compromise' } }, 'txt');
    same(await correlations(['-m', 'npchunk', '--chunker', 'compromise'], 'txt', 'system'), want.system);
  });

  async function fails(args: string[], message: RegExp): Promise<void> {
    expectInputError(await palette(args), 'correlate', message);
  }
  const base = (ext: string): string[] => ['-r', fx(`ref.${ext}`), '--hyp', ...hyps(ext), '--human', HUMAN];

  it('bad input: malformed table line, missing table, unknown chunker, bad pre-chunked line, bad values', async () => {
    await fails(['-m', 'paraeval', '--paraphrase-table', fx('bad-table.tsv'), ...base('txt')], new RegExp(`${fx('bad-table.tsv')}:2: `));
    await fails(['-m', 'paraeval', ...base('txt')], /-m paraeval needs --paraphrase-table FILE/);
    await fails(['-m', 'paraeval', '--paraphrase-table', fx('nope.tsv'), ...base('txt')], /nope\.tsv/);
    await fails(['-m', 'npchunk', '--chunker', 'spacy', ...base('txt')], /--chunker.*spacy|spacy.*--chunker|unknown chunker/);
    await fails(['-m', 'npchunk', '--chunker', 'bracketed', '-r', fx('bad.chunked'), '--hyp', ...hyps('chunked'), '--human', HUMAN], new RegExp(`bad\\.chunked:1: .*not closed`));
    await fails(['-m', 'npchunk', '--chunker', 'bracketed', '-r', fx('ref.chunked'), '--hyp', `A=${fx('bad.chunked')}`, '--human', HUMAN, '--allow-missing'], new RegExp(`bad\\.chunked:1: .*not closed`));
    await fails(['-m', 'impact', '--impact-alpha', '2', ...base('txt')], /--impact-alpha/);
    await fails(['--metric', fx('A.txt'), '--human', HUMAN, '--chunker', 'bracketed'], /--chunker is a metric flag: it goes with -m METRIC/);
  });

  it('--help names the metric flags', async () => {
    const r = await palette(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('--paraphrase-table FILE');
    expect(r.out).toContain('--chunker NAME');
  });
});
