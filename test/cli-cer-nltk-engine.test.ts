/**
 * CER, GLEU, RIBES and METEOR through the commands that take any catalog metric from its descriptor: `palette nbest`
 * (each candidate's statistics row is the metric's own row of that candidate against its sentence's references)
 * and `palette correlate` (system scores are the metric's corpus scores, segment scores its sentence scores).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNbestCommand } from '../src/cli/nbest/command.js';
import { corpusScore, sentenceScores } from '../src/metrics/metric.js';
import { defaultRegistry } from '../src/metrics/registry.js';
import { cliRunner } from './helpers/cli.js';

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
