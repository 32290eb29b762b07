/**
 * `palette nbest` against every Moses `extractor` run of ../shared/data/moses-mert/mert.extractor-txt: run 1 alone
 * and runs 2–5 merged with the previous run (`--prev-stats`/`--prev-features` = the SCORESTAT/FEATSTAT blocks of
 * run N−1 as the truth prints them). Compared: the SCORES_TXT blocks of each run in truth/results.txt, byte for
 * byte after removing the `STDOUT_k=` prefixes; the FEATURES_TXT blocks are only used as the previous features.
 * Skips when ../shared is absent.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runNbestCommand } from '../src/cli/nbest.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DATA = resolve(ROOT, '..', 'shared', 'data', 'moses-mert', 'mert.extractor-txt');
const HAVE = existsSync(join(DATA, 'truth', 'results.txt'));

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
