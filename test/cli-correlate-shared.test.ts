/**
 * `palette correlate` on WMT21 en-de (../shared/data/wmt21-news-en-de), each correlation computed two ways and
 * against the plain oracles of test/reference/correlation.ts on values parsed here independently:
 * - system level, source-based DA z (20 systems): WMT's own sacreBLEU scores (automatic-scores.tsv, bleu-all) read
 *   as a system-level file, and BLEU computed by Palette from the outputs and references A, C, D (`-m bleu`); both
 *   give the Pearson r that scipy 1.17.1's pearsonr gives on automatic-scores.tsv × da_sys_scores.srcbased.tsv
 *   (0.556875431645899, computed offline);
 * - system level, MQM (8 systems, 527 rated segments, `--allow-missing`): per-system MQM means of the rated segments;
 * - segment level, MQM × sacreBLEU sentence BLEU of Facebook-AI: the golden sentence scores
 *   (../shared/golden/sacrebleu/bleu-sentence.wmt21-en-de.json) as a metric file, and `-m bleu` sentence scores.
 * Skips when ../shared is absent.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { captureCli } from './helpers/cli.js';
import { haveShared, sharedPath } from './helpers/shared-data.js';
import { kendallTauBRef, pearsonRef, spearmanRef } from './reference/correlation.js';

const DATA = sharedPath('data/wmt21-news-en-de');
const ENDE = join(DATA, 'en-de');
const GOLDEN_REL = 'golden/sacrebleu/bleu-sentence.wmt21-en-de.json';
const GOLDEN = sharedPath(GOLDEN_REL);
const HAVE = haveShared(
  'data/wmt21-news-en-de/automatic-scores.tsv',
  'data/wmt21-news-en-de/en-de/human/mqm_seg_scores.tsv',
);

interface JsonOut {
  systems: number;
  segments: number;
  pairs: number;
  left_out?: { unrated: number; human_only: number; metric_only: number; systems: string[] };
  correlations: { method: string; value: number; ci: [number, number] | null; resamples: number }[];
  system_scores?: { system: string; metric: number; human: number }[];
}

async function correlate(argv: string[]): Promise<JsonOut> {
  const { code, out, err } = await captureCli(run, ['correlate', ...argv, '-f', 'json']);
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as JsonOut;
}

function tsvRows(path: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(path, 'utf8').trimEnd().split('\n');
  const cols = head.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((v, k) => [cols[k], v])));
}

function close(a: number, b: number, tol = 1e-9): void {
  expect(Math.abs(a - b)).toBeLessThanOrEqual(tol);
}

function byMethod(j: JsonOut): Record<string, number> {
  return Object.fromEntries(j.correlations.map((c) => [c.method, c.value]));
}

describe.skipIf(!HAVE)('palette correlate on WMT21 en-de', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'palette-correlate-shared-'));
  });
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  const refs = ['A', 'C', 'D'].map((r) => join(ENDE, `ref.${r}.de`));
  const hypOf = (s: string): string => `${s}=${join(ENDE, 'systems', `${s}.de`)}`;
  const wmtBleu = (): Map<string, number> =>
    new Map(
      tsvRows(join(DATA, 'automatic-scores.tsv'))
        .filter((r) => r.pair === 'en-de' && r.metric === 'bleu-all')
        .map((r) => [r.system, Number(r.score)]),
    );
  const mqm = (): Record<string, string>[] => tsvRows(join(ENDE, 'human', 'mqm_seg_scores.tsv'));

  it('system level, DA: WMT bleu-all file = Palette BLEU from the outputs = oracle = scipy', async () => {
    const da = tsvRows(join(ENDE, 'human', 'da_sys_scores.srcbased.tsv'));
    const bleu = wmtBleu();
    const both = da.filter((r) => bleu.has(r.system));
    expect(both).toHaveLength(20);
    const x = both.map((r) => bleu.get(r.system)!);
    const y = both.map((r) => Number(r.da_z));
    const human = ['--human', join(ENDE, 'human', 'da_sys_scores.srcbased.tsv'), '--human-score', 'da_z', '--allow-missing'];
    const fromFile = await correlate([
      '--metric', join(DATA, 'automatic-scores.tsv'), '--metric-where', 'pair=en-de', 'metric=bleu-all', '--metric-item', 'none', ...human,
    ]);
    const systems = readdirSync(join(ENDE, 'systems')).map((f) => f.replace(/\.de$/, ''));
    const computed = await correlate(['-m', 'bleu', '-r', ...refs, '--hyp', ...systems.map(hypOf), ...human, '--bootstrap', '100']);
    expect(fromFile.left_out!.systems.sort()).toEqual(['translator-A', 'translator-C']);
    const a = byMethod(fromFile);
    const b = byMethod(computed);
    close(a.pearson, pearsonRef(x, y), 1e-12);
    close(a.pearson, 0.556875431645899, 1e-12);
    close(a.spearman, spearmanRef(x, y), 1e-12);
    close(a.kendall, kendallTauBRef(x, y), 1e-12);
    // Palette's BLEU equals sacreBLEU's to ~1e-13, so the correlations agree to far better than 1e-9.
    for (const m of ['pearson', 'spearman', 'kendall']) close(b[m], a[m]);
    for (const s of computed.system_scores!) close(s.metric, bleu.get(s.system)!, 1e-9);
    // WMT's DA file is system-level: no resampling there; BLEU is re-reduced on each of the 100 resamples.
    expect(fromFile.correlations[0].ci).toBeNull();
    const ci = computed.correlations[0].ci!;
    expect(ci[0]).toBeLessThanOrEqual(ci[1]);
  });

  it('system level, MQM: 8 systems, 527 rated segments, means of the rated segments', async () => {
    const rows = mqm();
    const bleu = wmtBleu();
    const rated = rows.filter((r) => r.mqm_avg_score !== '' && bleu.has(r.system));
    const systems = [...new Set(rated.map((r) => r.system))];
    expect(systems).toHaveLength(8);
    const meanOf = (s: string): number => {
      const v = rated.filter((r) => r.system === s).map((r) => Number(r.mqm_avg_score));
      return v.reduce((p, q) => p + q, 0) / v.length;
    };
    const j = await correlate([
      '--metric', join(DATA, 'automatic-scores.tsv'), '--metric-where', 'pair=en-de', 'metric=bleu-all', '--metric-item', 'none',
      '--human', join(ENDE, 'human', 'mqm_seg_scores.tsv'), '--human-score', 'mqm_avg_score', '--allow-missing', '--bootstrap', '200',
    ]);
    expect(j.systems).toBe(8);
    expect(j.segments).toBe(527);
    expect(j.left_out!.unrated).toBe(8 * (1002 - 527));
    const x = systems.map((s) => bleu.get(s)!);
    const y = systems.map(meanOf);
    const got = byMethod(j);
    close(got.pearson, pearsonRef(x, y), 1e-12);
    close(got.kendall, kendallTauBRef(x, y), 1e-12);
    for (const s of j.system_scores!) close(s.human, meanOf(s.system), 1e-12);
  });

  it.skipIf(!haveShared(GOLDEN_REL))('segment level, MQM × sentence BLEU of Facebook-AI: golden sacreBLEU scores = -m bleu = oracle', async () => {
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as {
      records: { hyp: string; refs: string[]; segment_fields: string[]; segments: unknown[][] }[];
    };
    const record = golden.records.find((r) => r.hyp.endsWith('/Facebook-AI.de') && r.refs.length === 3)!;
    const scoreAt = record.segment_fields.indexOf('score');
    const sentence = new Map(record.segments.map((s) => [String(s[0]), s[scoreAt] as number]));
    const metricFile = join(dir, 'facebook-sentence-bleu.jsonl');
    writeFileSync(metricFile, [...sentence].map(([seg, score]) => JSON.stringify({ seg_id: seg, score })).join('\n') + '\n');
    const human = ['--human', join(ENDE, 'human', 'mqm_seg_scores.tsv'), '--human-score', 'mqm_avg_score', '--human-where', 'system=Facebook-AI'];
    const common = [...human, '--level', 'segment', '--allow-missing', '--method', 'pearson,spearman,kendall', '--bootstrap', '0'];
    const fromGolden = await correlate(['--metric', `Facebook-AI=${metricFile}`, ...common]);
    const computed = await correlate(['-m', 'bleu', '-r', ...refs, '--hyp', hypOf('Facebook-AI'), ...common]);
    const rated = mqm().filter((r) => r.system === 'Facebook-AI' && r.mqm_avg_score !== '');
    expect(fromGolden.pairs).toBe(527);
    expect(computed.pairs).toBe(527);
    expect(computed.left_out!.metric_only).toBe(1002 - 527);
    const x = rated.map((r) => sentence.get(r.seg_id)!);
    const y = rated.map((r) => Number(r.mqm_avg_score));
    const a = byMethod(fromGolden);
    const b = byMethod(computed);
    close(a.pearson, pearsonRef(x, y), 1e-12);
    close(a.spearman, spearmanRef(x, y), 1e-12);
    close(a.kendall, kendallTauBRef(x, y), 1e-12);
    for (const m of ['pearson', 'spearman', 'kendall']) close(b[m], a[m]);
  });
});
