/**
 * CER, GLEU, RIBES and METEOR through the commands that take any catalog metric from its descriptor: `palette nbest`
 * (each candidate's statistics row is the metric's own row of that candidate against its sentence's references)
 * and `palette correlate` (system scores are the metric's corpus scores, segment scores its sentence scores), and
 * `palette orange` (ORANGE of each equals the plain leave-one-out oracle of test/reference/orange.ts, in the metric's
 * direction).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNbestCommand } from '../src/cli/nbest/command.js';
import { corpusScore, sentenceScores } from '../src/metrics/metric.js';
import { defaultRegistry } from '../src/metrics/registry.js';
import { orangeOfTerms } from '../src/meta/orange/orange.js';
import { parseOrangeMetrics } from '../src/meta/orange/variants.js';
import { readLines } from '../src/node/read-lines.js';
import { cliRunner } from './helpers/cli.js';
import { referenceLooScores, referenceSentenceTerm, type OrangeCase } from './reference/orange.js';

const FIX = join(import.meta.dirname, 'fixtures');
const NBEST = join(FIX, 'nbest', 'extractor-txt.nbest.1');
const REF = join(FIX, 'nbest', 'extractor-txt.reference');
const IDS = ['cer', 'gleu', 'ribes', 'meteor'];

const dir = mkdtempSync(join(tmpdir(), 'palette-cer-nltk-engine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lines = (p: string): string[] => readFileSync(p, 'utf8').trimEnd().split('\n');

describe('palette nbest -m cer gleu ribes meteor', () => {
  it.each(IDS)('%s: every candidate row is the metric row against its sentence', async (id) => {
    const out = join(dir, `${id}.jsonl`);
    let err = '';
    const code = await runNbestCommand(
      ['--nbest', NBEST, '-r', REF, '-m', id, '--stats', out, '--stats-format', 'json', '--workers', '1'],
      { stdout: { write: () => true }, stderr: { write: (t: string) => (err += t) } },
    );
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const rows = lines(out).map((l) => JSON.parse(l) as { sentence: number; stats: number[] });
    const cands = lines(NBEST).map((l) => l.split('|||'));
    const refs = lines(REF);
    const metric = defaultRegistry.create(id, {}).metric;
    expect(rows).toHaveLength(cands.length);
    rows.forEach((row, h) => {
      const s = Number(cands[h][0]);
      expect(row.sentence).toBe(s);
      const want = metric.segmentStats([cands[h][1]], metric.prepareReferences([[refs[s]]]));
      expect(row.stats, `${id} candidate ${h}`).toEqual(Array.from(want));
    });
  });
});

describe('palette correlate -m cer gleu ribes meteor', () => {
  const C = join(FIX, 'correlate');
  const systems = ['A', 'B', 'C', 'D'];
  it.each(IDS)('%s: system and segment scores are the metric scores', async (id) => {
    const hyp = (s: string) => join(C, 'metrics', `${s}.txt`);
    const ref = join(C, 'metrics', 'ref.txt');
    const human = join(C, 'cli', 'human.tsv');
    const metric = defaultRegistry.create(id, {}).metric;
    const refs = [lines(ref)];
    for (const level of ['system', 'segment'] as const) {
      const r = await cliRunner(['correlate'])([
        '-m', id, '-r', ref, '--hyp', ...systems.map((s) => `${s}=${hyp(s)}`), '--human', human, '--level', level,
        '--bootstrap', '0', '-f', 'json',
      ]);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const j = JSON.parse(r.out) as { system_scores?: { system: string; metric: number }[]; segment_scores?: { metric: number }[] };
      if (level === 'system') {
        expect(j.system_scores!.map((x) => x.metric)).toEqual(systems.map((s) => corpusScore(metric, lines(hyp(s)), refs).score));
      } else if (j.segment_scores !== undefined) {
        const want = systems.flatMap((s) => sentenceScores(metric, lines(hyp(s)), refs).map((x) => x.score));
        expect(j.segment_scores.map((x) => x.metric).sort()).toEqual(want.sort());
      }
    }
  });
});

describe('palette orange -m cer gleu ribes meteor', () => {
  const O = join(FIX, 'orange');
  const nbest = join(O, 'joshua.nbest');
  const refs = [0, 1, 2, 3].map((j) => join(O, `joshua.ref.${j}`));
  it('ORANGE of each equals the oracle; CER ranks lower as better', async () => {
    const byId = new Map<number, string[]>();
    for (const line of lines(nbest)) {
      const f = line.split('|||');
      byId.set(Number(f[0]), [...(byId.get(Number(f[0])) ?? []), f[1].trim()]);
    }
    const c: OrangeCase = { refStreams: refs.map((f) => readLines(f)), sentences: [...byId].map(([id, candidates]) => ({ id, candidates })) };
    const r = await cliRunner(['orange'])(['--nbest', nbest, '-r', ...refs, '-m', ...IDS, '-b', '0', '-f', 'json', '-q']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { metrics: { name: string; orange: number; lowerIsBetter: boolean }[] };
    for (const v of parseOrangeMetrics(IDS)) {
      const row = report.metrics.find((m) => m.name === v.name)!;
      const lower = v.name === 'CER';
      expect(row.lowerIsBetter, v.name).toBe(lower);
      const terms = referenceLooScores(v, c).map((s) => referenceSentenceTerm(s.candidates, s.references, lower));
      expect(row.orange, v.name).toBe(orangeOfTerms(Float64Array.from(terms)));
    }
  }, 60_000);
});
