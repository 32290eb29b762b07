/**
 * `palette nbest` against every Moses `extractor` run of ../shared/data/moses-mert/mert.extractor-txt: run 1 alone
 * and runs 2–5 merged with the previous run (`--prev-stats`/`--prev-features` = the SCORESTAT/FEATSTAT blocks of
 * run N−1 as the truth prints them). Compared: the SCORES_TXT blocks of each run in truth/results.txt, byte for
 * byte after removing the `STDOUT_k=` prefixes; the FEATURES_TXT blocks are only used as the previous features.
 * Also the whole Joshua bn-en 10-best list with four metrics against the Metric API, and with issue 5's additions to
 * the fast path (rouge155 ROUGE-L, ROUGE-W, PER) fused = generic. Skips when ../shared is absent.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNbestCommand } from '../src/cli/nbest/command.js';
import { haveShared, sharedPath } from './helpers/shared-data.js';

const DATA = sharedPath('data/moses-mert/mert.extractor-txt');
const HAVE = haveShared('data/moses-mert/mert.extractor-txt/truth/results.txt');

/** The truth's SCORES_TXT and FEATURES_TXT text per run (a run starts at a FEATURES block of sentence 0). */
function truthRuns(): { scores: string; features: string }[] {
  const runs: { scores: string; features: string }[] = [];
  let block: 'scores' | 'features' | undefined;
  for (const raw of readFileSync(join(DATA, 'truth', 'results.txt'), 'utf8').split('\n')) {
    const line = raw.replace(/^STDOUT_\d+=/, '');
    if (line.startsWith('FEATURES_TXT_BEGIN_0 0 ') && (runs.length === 0 || runs[runs.length - 1].scores !== '')) {
      runs.push({ scores: '', features: '' });
    }
    if (line.startsWith('FEATURES_TXT_BEGIN_0')) block = 'features';
    if (line.startsWith('SCORES_TXT_BEGIN_0')) block = 'scores';
    if (block !== undefined) runs[runs.length - 1][block] += `${line}\n`;
    if (line.startsWith('FEATURES_TXT_END_0') || line.startsWith('SCORES_TXT_END_0')) block = undefined;
  }
  return runs;
}


/** Runs `palette nbest argv … --stats-format json --stats out extra…` and returns the statistics file's text. */
async function nbestJsonText(argv: readonly string[], out: string, extra: readonly string[]): Promise<string> {
  const code = await runNbestCommand([...argv, '--stats-format', 'json', '--stats', out, ...extra], {
    stdout: { write: () => true },
    stderr: { write: () => true },
  });
  expect(code).toBe(0);
  return readFileSync(out, 'utf8');
}
describe.skipIf(!HAVE)('palette nbest: every mert.extractor-txt run (../shared)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'palette-nbest-shared-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs 1–5: SCORES_TXT byte-identical, runs 2–5 merged with the previous run', async () => {
    const runs = truthRuns();
    expect(runs).toHaveLength(5);
    for (let n = 1; n <= 5; n++) {
      const argv = ['--nbest', join(DATA, 'data', `nbest.${n}`), '-r', join(DATA, 'data', 'reference'), '-m', 'bleu'];
      if (n > 1) {
        writeFileSync(join(dir, 'prev.scores'), runs[n - 2].scores);
        writeFileSync(join(dir, 'prev.features'), runs[n - 2].features);
        argv.push('--prev-stats', join(dir, 'prev.scores'), '--prev-features', join(dir, 'prev.features'));
      }
      let out = '';
      let err = '';
      const code = await runNbestCommand(argv, {
        stdout: { write: (t: string) => (out += t) },
        stderr: { write: (t: string) => (err += t) },
      });
      expect({ code, err }).toEqual({ code: 0, err: '' });
      expect(out, `run ${n}`).toBe(runs[n - 1].scores);
    }
  });
});

const JOSHUA = sharedPath('data/joshua-bn-en');
const HAVE_JOSHUA = haveShared('data/joshua-bn-en/output.gold');

describe.skipIf(!HAVE_JOSHUA)('palette nbest on the whole Joshua bn-en 10-best list (../shared)', () => {
  it('BLEU + ROUGE-L + ROUGE-S4 + WER rows of all 805 candidates = the Metric API rows, 2 workers = in-thread', async () => {
    const { readNbestBatches } = await import('../src/node/nbest.js');
    const { readLines } = await import('../src/node/read-lines.js');
    const { defaultRegistry } = await import('../src/metrics/registry.js');
    const { buildStatsMatrix } = await import('../src/tuning/stats-matrix.js');
    const dir = mkdtempSync(join(tmpdir(), 'palette-nbest-joshua-'));
    try {
      const refs = [0, 1, 2, 3].map((k) => join(JOSHUA, `reference.en.${k}`));
      const metrics = ['bleu', 'rouge-l', 'rouge-s4', 'wer'];
      const argv = ['--nbest', join(JOSHUA, 'output.gold'), '-r', ...refs, '-m', ...metrics, '--allow-duplicates'];
      const run = (out: string, extra: string[]): Promise<string> => nbestJsonText(argv, out, extra);
      const text = await run(join(dir, 'one'), ['--workers', '1']);
      expect(await run(join(dir, 'two'), ['--workers', '2', '--task-size', '40000'])).toBe(text);
      const rows = text.trimEnd().split('\n').map((l) => (JSON.parse(l) as { stats: number[] }).stats);
      const hyps: string[] = [];
      const ids: number[] = [];
      for await (const b of readNbestBatches(join(JOSHUA, 'output.gold'))) {
        hyps.push(...b.hypotheses);
        ids.push(...b.ids);
      }
      expect(rows).toHaveLength(805);
      const refStreams = refs.map((f) => readLines(f));
      let column = 0;
      for (const id of metrics) {
        const metric = defaultRegistry.create(id, id === 'bleu' ? { bleu: { flavor: 'moses' } } : {}).metric;
        const m = buildStatsMatrix(metric, hyps, ids, metric.prepareReferences(refStreams));
        const w = metric.statsWidth;
        for (let h = 0; h < hyps.length; h++) {
          expect(rows[h].slice(column, column + w), `${id} ${h}`).toEqual(Array.from(m.stats.subarray(h * w, (h + 1) * w)));
        }
        column += w;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!HAVE_JOSHUA)('palette nbest, issue 5 fast-path metrics, on the whole Joshua bn-en 10-best list (../shared)', () => {
  it.each([
    [['bleu', 'rouge-l', 'wer'], ['--rouge-flavor', 'rouge155']],
    [['rouge-w-1.2', 'wer', 'per'], []],
  ])('%j %j: fused rows = generic rows for all 805 candidates, 2 workers = in-thread', async (names, flags) => {
    const { chunkJobContext, streamReferenceSource } = await import('../src/engine/nbest/chunk-job.js');
    const { resolveNbestMetricIds } = await import('../src/engine/nbest/nbest-metrics.js');
    const { scoreTask } = await import('../src/engine/nbest/nbest-task.js');
    const { readLines } = await import('../src/node/read-lines.js');
    const { defaultRegistry } = await import('../src/metrics/registry.js');
    const dir = mkdtempSync(join(tmpdir(), 'palette-nbest-joshua5-'));
    try {
      const nbestPath = join(JOSHUA, 'output.gold');
      const refs = [0, 1, 2, 3].map((k) => join(JOSHUA, `reference.en.${k}`));
      const settings = flags.length > 0 ? { rouge: { flavor: 'rouge155' as const } } : {};
      const ids = resolveNbestMetricIds(names, settings, defaultRegistry);
      const source = streamReferenceSource(refs.map((f) => readLines(f)));
      const task = { path: nbestPath, format: 'json' as const, allowDuplicates: true, sentenceScores: false };
      const fast = chunkJobContext(task, { ids, settings }, source, defaultRegistry);
      const generic = chunkJobContext(task, { ids, settings }, source, defaultRegistry, true);
      expect(fast.fused).toBeDefined();
      const text = readFileSync(nbestPath, 'utf8');
      const a = scoreTask(text, 1, task, fast.metrics, source, fast.fused).stats;
      const b = scoreTask(text, 1, task, generic.metrics, source, generic.fused).stats;
      expect(a.length).toBe(b.length);
      for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) expect([k, a[k]]).toEqual([k, b[k]]);
      const argv = ['--nbest', nbestPath, '-r', ...refs, '-m', ...names, ...flags, '--allow-duplicates'];
      const run = (out: string, extra: string[]): Promise<string> => nbestJsonText(argv, out, extra);
      const one = await run(join(dir, 'one'), ['--workers', '1']);
      expect(await run(join(dir, 'two'), ['--workers', '2', '--task-size', '40000'])).toBe(one);
      // The CLI's in-thread rows are the fused rows above.
      const rows = one.trimEnd().split('\n').map((l) => (JSON.parse(l) as { stats: number[] }).stats);
      expect(rows).toHaveLength(805);
      expect(rows.flat()).toEqual(Array.from(a));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
