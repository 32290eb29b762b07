/**
 * `palette kbmira` and the k-best batch MIRA library: against Moses' `kbmira` on mert.basic (test/fixtures/kbmira,
 * see its SOURCE.md: Moses built with its deduplication bug fixed), byte for byte in standard output, standard error
 * and the -o file; against the plain trainer of test/reference/kbmira.ts on small random inputs; and its properties
 * (BLEU improves from INIT, a seed fixes the run, --no-shuffle needs none, duplicates are dropped).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliRunner } from './helpers/cli.js';
import { referenceKbmira, type ReferenceSentence } from './reference/kbmira.js';
import { GlibcRandom } from '../src/tuning/mert/glibc-random.js';
import { kbmiraOptimize, type KbmiraInput } from '../src/tuning/kbmira/optimizer.js';
import { readKbmiraDenseInit } from '../src/tuning/kbmira/dense-init.js';
import { readMosesTuningFiles } from '../src/tuning/pro/moses-files.js';

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
const data = (name: string): string => join(FIXTURES, 'mert/mert.basic/data', name);
const expected = (name: string): string => readFileSync(join(FIXTURES, 'kbmira', name), 'utf8');
const fileOf = (path: string) => ({ name: path, lines: readFileSync(path, 'utf8').split('\n').filter((l, i, a) => i < a.length - 1 || l !== '') });
const kbmira = cliRunner(['kbmira']);
const files = ['--scfile', data('SCORESTAT.txt'), '--ffile', data('FEATSTAT.txt'), '--dense-init', data('INIT')];
const basic = () => readMosesTuningFiles([{ features: fileOf(data('FEATSTAT.txt')), scores: fileOf(data('SCORESTAT.txt')) }]);
const init = () => readKbmiraDenseInit(fileOf(data('INIT')), 14).weights;

describe("mert.basic against Moses' kbmira", () => {
  it('-r 1000 (60 epochs): the weights of every improving epoch on stdout, the progress lines on stderr', async () => {
    const r = await kbmira([...files, '-r', '1000']);
    expect(r.code).toBe(0);
    expect(r.err).toBe(expected('default.stderr'));
    expect(r.out).toBe(expected('default.stdout'));
    expect(r.err).toMatch(/\nInitial BLEU = 0\.203991\n[^]*\nBest BLEU = 0\.302275\n$/);
  });

  it('--model-bg -C 0.001 -D 0.9 -J 30 -r 7', async () => {
    const r = await kbmira([...files, '-r', '7', '--model-bg', '-C', '0.001', '-D', '0.9', '-J', '30']);
    expect(r.err).toBe(expected('model-bg.stderr'));
    expect(r.out).toBe(expected('model-bg.stdout'));
  });

  it('--safe-hope -J 20 -r 7 -o FILE: the best weights in the file, nothing on stdout', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'palette-kbmira-')), 'weights');
    const r = await kbmira([...files, '-r', '7', '--safe-hope', '-J', '20', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toBe(expected('safe-hope.stderr'));
    expect(readFileSync(out, 'utf8')).toBe(expected('safe-hope.weights'));
  });

  it('--verbose -J 3 -r 3: every update as Moses prints it', async () => {
    const r = await kbmira([...files, '-r', '3', '--verbose', '-J', '3']);
    expect(r.err).toBe(expected('verbose.stderr'));
    expect(r.out).toBe(expected('verbose.stdout'));
  });

  it('three runs’ files (Moses’ extractor runs 1–3 of mert.extractor-txt), -r 77 -J 40: candidates of all runs, repeats dropped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-kbmira-123-'));
    const args: string[] = [];
    for (const n of [1, 2, 3]) {
      for (const kind of ['scores', 'features'] as const) {
        writeFileSync(join(dir, `run.${n}.${kind}`), gunzipSync(readFileSync(join(FIXTURES, `extractor/run.${n}.${kind}.gz`))));
      }
      args.push('--scfile', join(dir, `run.${n}.scores`), '--ffile', join(dir, `run.${n}.features`));
    }
    const r = await kbmira([...args, '--dense-init', data('INIT'), '-r', '77', '-J', '40']);
    expect(r.code).toBe(0);
    expect(r.err).toBe(expected('runs123.stderr'));
    expect(r.out).toBe(expected('runs123.stdout'));
  });

  it("Moses' progress dots: one per 100 sentences as the files load, or in every pass with --streaming", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-kbmira-dots-'));
    let ff = '';
    let sf = '';
    for (let s = 0; s < 250; s++) {
      ff += `FEATURES_TXT_BEGIN_0 ${s} 2 2 a b \n1 ${s % 7} \n${s % 5} 2 \nFEATURES_TXT_END_0\n`;
      sf += `SCORES_TXT_BEGIN_0 ${s} 2 9 BLEU\n5 6 3 5 2 4 1 3 6 \n2 6 1 5 0 4 0 3 7 \nSCORES_TXT_END_0\n`;
    }
    writeFileSync(join(dir, 'ff'), ff);
    writeFileSync(join(dir, 'sf'), sf);
    const run = (...extra: string[]) => kbmira(['--scfile', join(dir, 'sf'), '--ffile', join(dir, 'ff'), '-r', '1', '-J', '2', ...extra]);
    const loaded = await run();
    expect(loaded.err).toMatch(/^kbmira with c=0\.01 decay=0\.999 no_shuffle=0\nInitialising random seed to 1\n\.\.Initial BLEU = [\d.]+\n\d+\/250 updates, avg loss = [\d.e-]+, BLEU = [\d.]+\n\d+\/250 updates/);
    const streaming = await run('--streaming');
    expect(streaming.err).toMatch(/\nInitial BLEU = \.\.[\d.]+\n\.\.\d+\/250 updates, avg loss = [\d.e-]+\.\., BLEU = [\d.]+\n\.\.\d+\/250 updates, avg loss = [\d.e-]+\.\., BLEU = [\d.]+\nBest BLEU = [\d.]+\n$/);
  });

  it("'name= value' start weights are the same start as Moses mert's INIT line", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-kbmira-dense-'));
    const names = ['d', 'd', 'd', 'd', 'd', 'd', 'd', 'lm', 'tm', 'tm', 'tm', 'tm', 'tm', 'w'];
    const weights = readFileSync(data('INIT'), 'utf8').split('\n')[0].trim().split(/ +/);
    writeFileSync(join(dir, 'run1.dense'), weights.map((w, i) => `${names[i]}= ${w}\n`).join(''));
    const r = await kbmira(['--scfile', data('SCORESTAT.txt'), '--ffile', data('FEATSTAT.txt'), '--dense-init', join(dir, 'run1.dense'), '-r', '1000']);
    expect(r.out).toBe(expected('default.stdout'));
    expect(r.err).toBe(expected('default.stderr').replace(/^WARN: .*\n/m, ''));
    expect(readKbmiraDenseInit(fileOf(join(dir, 'run1.dense')), 14).names.slice(0, 8)).toEqual(['d_1', 'd_2', 'd_3', 'd_4', 'd_5', 'd_6', 'd_7', 'lm']);
  });
});

describe('the library', () => {
  it('improves BLEU from INIT on mert.basic, and the best epoch is the one with the largest BLEU', () => {
    const result = kbmiraOptimize(basic(), { start: init(), seed: 1000 });
    expect(result.initialBleu).toBeCloseTo(0.203991, 6);
    expect(result.bestBleu).toBeGreaterThan(result.initialBleu + 0.09);
    expect(result.epochs).toHaveLength(60);
    const best = Math.max(...result.epochs.map((e) => e.bleu));
    expect(result.bestBleu).toBe(best);
    expect(result.epochs[result.bestEpoch - 1].bleu).toBe(best);
    expect(result.weights).toEqual(result.epochs[result.bestEpoch - 1].weights);
  });

  it('a seed fixes the run; another seed shuffles otherwise; without shuffling the seed does not matter', () => {
    const input = basic();
    const run = (seed: number, shuffle = true) => kbmiraOptimize(input, { start: init(), seed, iterations: 15, shuffle });
    expect(run(5)).toEqual(run(5));
    expect(run(5).epochs.map((e) => e.bleu)).not.toEqual(run(6).epochs.map((e) => e.bleu));
    expect(run(5, false)).toEqual(run(6, false));
  });

  it('drops candidates whose features repeat an earlier one of the sentence (Moses keeps the first)', () => {
    const input = basic();
    const D = input.dimensions;
    // Sentence 0 gains, after its candidates, a copy of its first candidate's features with perfect statistics:
    // kept, it would be every update's hope.
    const o = input.candidateOffsets;
    const features = new Float32Array(input.features.length + D);
    const stats = new Float32Array(input.stats.length + 9);
    features.set(input.features.subarray(0, o[1] * D));
    features.set(input.features.subarray(0, D), o[1] * D);
    features.set(input.features.subarray(o[1] * D), (o[1] + 1) * D);
    stats.set(input.stats.subarray(0, o[1] * 9));
    stats.set([30, 30, 29, 29, 28, 28, 27, 27, 30], o[1] * 9);
    stats.set(input.stats.subarray(o[1] * 9), (o[1] + 1) * 9);
    const offsets = Int32Array.from(o, (v, i) => (i === 0 ? 0 : v + 1));
    const withCopy: KbmiraInput = { features, stats, dimensions: D, candidateOffsets: offsets };
    const options = { start: init(), seed: 9, iterations: 5 };
    expect(kbmiraOptimize(withCopy, options)).toEqual(kbmiraOptimize(input, options));
  });

  it('agrees with the plain reference trainer on small random inputs (updates exactly, weights and BLEU to float rounding)', () => {
    const rng = new GlibcRandom(17);
    for (let t = 0; t < 8; t++) {
      const D = 2 + (t % 4);
      const sentences: ReferenceSentence[] = Array.from({ length: 3 + (rng.next() % 6) }, () => {
        const n = 2 + (rng.next() % 8);
        const reflen = 5 + (rng.next() % 15);
        const feats: number[][] = [];
        const stats: number[][] = [];
        for (let c = 0; c < n; c++) {
          feats.push(Array.from({ length: D }, () => Math.fround(((rng.next() % 2001) - 1000) / 100)));
          const len = 3 + (rng.next() % 20);
          const row: number[] = [];
          for (let k = 0; k < 4; k++) row.push(rng.next() % (len - k + 1), len - k);
          stats.push([...row, reflen]);
        }
        return { features: feats, stats };
      });
      const start = Array.from({ length: D }, () => Math.fround(((rng.next() % 201) - 100) / 100));
      const options = { seed: rng.next(), epochs: 6, c: [0.01, 0.5][t % 2], modelBackground: t % 3 === 0 };
      const ref = referenceKbmira(sentences, start, options);
      const input: KbmiraInput = {
        features: Float32Array.from(sentences.flatMap((s) => s.features.flat())),
        stats: Float32Array.from(sentences.flatMap((s) => s.stats.flat())),
        dimensions: D,
        candidateOffsets: Int32Array.from([0, ...sentences.map((s) => s.features.length)].map((_, i, a) => a.slice(0, i + 1).reduce((x, y) => x + y, 0))),
      };
      const got = kbmiraOptimize(input, { start, seed: options.seed, iterations: 6, c: options.c, modelBackground: options.modelBackground });
      expect(got.initialBleu).toBeCloseTo(ref.initialBleu, 5);
      got.epochs.forEach((e, i) => {
        expect(e.updates).toBe(ref.epochs[i].updates);
        expect(e.bleu).toBeCloseTo(ref.epochs[i].bleu, 5);
        e.weights.forEach((w, j) => expect(Math.abs(w - ref.epochs[i].average[j])).toBeLessThan(1e-4 * Math.max(1, Math.abs(w))));
      });
      expect(got.epochs.reduce((n, e) => n + e.updates, 0)).toBeGreaterThan(0);
    }
  });
});
