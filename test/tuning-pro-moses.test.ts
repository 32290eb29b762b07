/**
 * `palette pro` and the PRO sampler library against Moses: its regression tests mert.pro and mert.pro-bp-smooth
 * (test/fixtures/pro, see its SOURCE.md; inputs are mert.basic's) print the same MegaM lines byte for byte, and the
 * library agrees with the plain sampler of test/reference/pro.ts on random inputs and on several runs' files.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliRunner } from './helpers/cli.js';
import { haveShared, sharedPath } from './helpers/shared-data.js';
import { referencePro, type ReferenceRun } from './reference/pro.js';
import { GlibcRandom } from '../src/tuning/mert/glibc-random.js';
import { readMosesTuningFiles } from '../src/tuning/pro/moses-files.js';
import { proMegamText, proSample } from '../src/tuning/pro/sampler.js';
import { mosesSmoothedSentenceBleu } from '../src/metrics/bleu/moses.js';

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
const data = (name: string): string => join(FIXTURES, 'mert/mert.basic/data', name);
const fileOf = (path: string) => ({ name: path, lines: readFileSync(path, 'utf8').split('\n').filter((l, i, a) => i < a.length - 1 || l !== '') });
/** A regression test's expected standard output: its STDOUT_k= lines without the prefix. */
function truth(path: string): string {
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.startsWith('STDOUT_'));
  return lines.map((l) => `${l.replace(/^STDOUT_\d+=/, '')}\n`).join('');
}
const TRUTH = {
  plain: truth(join(FIXTURES, 'pro/mert.pro/truth/results.txt')),
  bp: truth(join(FIXTURES, 'pro/mert.pro-bp-smooth/truth/results.txt')),
};
const pro = cliRunner(['pro']);
const basic = () => readMosesTuningFiles([{ features: fileOf(data('FEATSTAT.txt')), scores: fileOf(data('SCORESTAT.txt')) }]);

describe('mert.pro and mert.pro-bp-smooth (Moses regression tests)', () => {
  it('the goldens are 350 pairs each and differ (the bp-smooth flag matters on these inputs)', () => {
    expect(TRUTH.plain.split('\n')).toHaveLength(701);
    expect(TRUTH.bp.split('\n')).toHaveLength(701);
    expect(TRUTH.plain).not.toBe(TRUTH.bp);
  });

  it('palette pro -r 1000 prints Moses’ lines byte for byte', async () => {
    const r = await pro(['--scfile', data('SCORESTAT.txt'), '--ffile', data('FEATSTAT.txt'), '-r', '1000']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(TRUTH.plain);
    expect(r.err).toBe('Initialising random seed to 1000\n');
  });

  it('palette pro --smooth-brevity-penalty -r 1000 prints Moses’ lines byte for byte, -b too', async () => {
    const r = await pro(['--smooth-brevity-penalty', '--scfile', data('SCORESTAT.txt'), '--ffile', data('FEATSTAT.txt'), '-r', '1000']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(TRUTH.bp);
    const short = await pro(['-b', '-S', data('SCORESTAT.txt'), '-F', data('FEATSTAT.txt'), '-r', '1000']);
    expect(short.out).toBe(TRUTH.bp);
  });

  it('-o FILE writes the same bytes and nothing on standard output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-pro-'));
    const out = join(dir, 'run1.pro.data');
    const r = await pro(['--scfile', data('SCORESTAT.txt'), '--ffile', data('FEATSTAT.txt'), '-r', '1000', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(readFileSync(out, 'utf8')).toBe(TRUTH.plain);
  });

  it('the library gives the same text, and the plain reference sampler too', () => {
    const files = basic();
    expect(proMegamText(proSample(files, { seed: 1000 }), files.features, files.dimensions)).toBe(TRUTH.plain);
    expect(proMegamText(proSample(files, { seed: 1000, smoothBrevityPenalty: true }), files.features, files.dimensions)).toBe(TRUTH.bp);
    const run = asRun(files);
    expect(referencePro([run], 1000)).toBe(TRUTH.plain);
    expect(referencePro([run], 1000, true)).toBe(TRUTH.bp);
  });

  it('another seed draws other pairs; no seed takes the clock, as Moses', async () => {
    const r = await pro(['--scfile', data('SCORESTAT.txt'), '--ffile', data('FEATSTAT.txt'), '-r', '7']);
    expect(r.code).toBe(0);
    expect(r.out).not.toBe(TRUTH.plain);
    const files = basic();
    expect(r.out).toBe(referencePro([asRun(files)], 7));
    const clock = await pro(['--scfile', data('SCORESTAT.txt'), '--ffile', data('FEATSTAT.txt')]);
    expect(clock.code).toBe(0);
    expect(clock.err).toBe('Initialising random seed from system clock\n');
    expect(clock.out.split('\n').length).toBeGreaterThan(100);
  });
});

describe('three runs’ files (Moses’ extractor runs 1–3 of mert.extractor-txt)', () => {
  it('palette pro -r 77 -b prints what Moses’ pro prints', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-pro-123-'));
    const args: string[] = [];
    for (const n of [1, 2, 3]) {
      for (const kind of ['scores', 'features'] as const) {
        writeFileSync(join(dir, `run.${n}.${kind}`), gunzipSync(readFileSync(join(FIXTURES, `extractor/run.${n}.${kind}.gz`))));
      }
      args.push('--scfile', join(dir, `run.${n}.scores`), '--ffile', join(dir, `run.${n}.features`));
    }
    const r = await pro([...args, '-r', '77', '-b']);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')).toHaveLength(1001);
    expect(r.out).toBe(gunzipSync(readFileSync(join(FIXTURES, 'pro/runs123.r77.b.gz'))).toString('utf8'));
  });
});

describe.skipIf(!haveShared('data/moses-mert/mert.pro/truth/results.txt', 'data/moses-mert/mert.pro-bp-smooth/truth/results.txt'))(
  'the goldens in ../shared',
  () => {
    it('are the fixtures, and palette pro prints them from ../shared’s mert.basic inputs', async () => {
      const shared = (rel: string) => sharedPath(`data/moses-mert/${rel}`);
      expect(truth(shared('mert.pro/truth/results.txt'))).toBe(TRUTH.plain);
      expect(truth(shared('mert.pro-bp-smooth/truth/results.txt'))).toBe(TRUTH.bp);
      const args = ['--scfile', shared('mert.basic/data/SCORESTAT.txt'), '--ffile', shared('mert.basic/data/FEATSTAT.txt'), '-r', '1000'];
      expect((await pro(args)).out).toBe(TRUTH.plain);
      expect((await pro([...args, '-b'])).out).toBe(TRUTH.bp);
    });
  },
);

/** The library's matrices as the reference's nested arrays. */
function asRun(files: ReturnType<typeof basic>): ReferenceRun {
  const stats: number[][][] = [];
  const features: number[][][] = [];
  const o = files.candidateOffsets;
  for (let s = 0; s + 1 < o.length; s++) {
    stats.push([]);
    features.push([]);
    for (let r = o[s]; r < o[s + 1]; r++) {
      stats[s].push(Array.from(files.stats.subarray(r * 9, r * 9 + 9)));
      features[s].push(Array.from(files.features.subarray(r * files.dimensions, (r + 1) * files.dimensions)));
    }
  }
  return { stats, features };
}

/** Random BLEU statistics rows and features for `counts[s]` candidates of each sentence. */
function randomRun(rng: GlibcRandom, counts: readonly number[], dims: number): ReferenceRun {
  const stats: number[][][] = [];
  const features: number[][][] = [];
  for (const n of counts) {
    const ss: number[][] = [];
    const fs: number[][] = [];
    const reflen = 3 + (rng.next() % 20);
    for (let c = 0; c < n; c++) {
      const len = 1 + (rng.next() % 25);
      const row: number[] = [];
      for (let k = 0; k < 4; k++) {
        const total = Math.max(0, len - k);
        row.push(total === 0 ? 0 : rng.next() % (total + 1), total);
      }
      row.push(reflen);
      ss.push(row);
      fs.push(Array.from({ length: dims }, (_, j) => (j === 1 ? 0 : Math.fround(((rng.next() % 20001) - 10000) / 1000))));
    }
    stats.push(ss);
    features.push(fs);
  }
  return { stats, features };
}

/** The reference runs as Moses files. */
function filesOf(run: ReferenceRun, dir: string, name: string): { features: string; scores: string } {
  const dims = run.features[0][0].length;
  let ff = '';
  let sf = '';
  run.stats.forEach((rows, s) => {
    ff += `FEATURES_TXT_BEGIN_0 ${s} ${rows.length} ${dims} ${Array.from({ length: dims }, (_, j) => `f_${j} `).join('')}\n`;
    sf += `SCORES_TXT_BEGIN_0 ${s} ${rows.length} 9 BLEU\n`;
    rows.forEach((row, c) => {
      ff += `${run.features[s][c].join(' ')} \n`;
      sf += `${row.join(' ')} \n`;
    });
    ff += 'FEATURES_TXT_END_0\n';
    sf += 'SCORES_TXT_END_0\n';
  });
  writeFileSync(join(dir, `${name}.features`), ff);
  writeFileSync(join(dir, `${name}.scores`), sf);
  return { features: join(dir, `${name}.features`), scores: join(dir, `${name}.scores`) };
}

describe('the sampler against the plain reference', () => {
  it('random inputs, several seeds, Γ and Ξ: the same lines (one-candidate sentences give none)', () => {
    const rng = new GlibcRandom(42);
    let lines = 0;
    for (let t = 0; t < 12; t++) {
      const counts = Array.from({ length: 1 + (rng.next() % 5) }, () => 1 + (rng.next() % 30));
      const run = randomRun(rng, counts, 5);
      const files = { ...flatten([run]), dimensions: 5 };
      const gamma = [5000, 200, 7][t % 3];
      const xi = [50, 5, 1][t % 3];
      for (const smoothBP of [false, true]) {
        const seed = rng.next();
        const text = proMegamText(proSample(files, { seed, candidates: gamma, samples: xi, smoothBrevityPenalty: smoothBP }), files.features, 5);
        expect(text).toBe(referencePro([run], seed, smoothBP, gamma, xi));
        lines += text.split('\n').length - 1;
      }
    }
    expect(lines).toBeGreaterThan(200);
  });

  it('several runs: a sentence’s candidates are every file’s block, file after file, one stream for the corpus', async () => {
    const rng = new GlibcRandom(3);
    const runs = [randomRun(rng, [4, 9, 1], 3), randomRun(rng, [6, 1, 12], 3)];
    const dir = mkdtempSync(join(tmpdir(), 'palette-pro-runs-'));
    const a = filesOf(runs[0], dir, 'run1');
    const b = filesOf(runs[1], dir, 'run2');
    const r = await pro(['--scfile', a.scores, '--ffile', a.features, '--scfile', b.scores, '--ffile', b.features, '-r', '11']);
    expect(r.code).toBe(0);
    expect(r.out.length).toBeGreaterThan(0);
    expect(r.out).toBe(referencePro(runs, 11));
    // The other order of the runs numbers the candidates otherwise: other draws.
    const swapped = await pro(['--scfile', b.scores, '--ffile', b.features, '--scfile', a.scores, '--ffile', a.features, '-r', '11']);
    expect(swapped.out).toBe(referencePro([runs[1], runs[0]], 11));
    expect(swapped.out).not.toBe(r.out);
  });

  it('kept pairs: better first, differences of at least 0.05, at most Ξ per sentence, the largest ones', () => {
    const files = basic();
    const samples = proSample(files, { seed: 5 });
    const bleu = (row: number) => mosesSmoothedSentenceBleu(files.stats.subarray(row * 9, row * 9 + 9));
    const perSentence = new Map<number, number[]>();
    for (let i = 0; i < samples.count; i++) {
      expect(samples.diff[i]).toBe(Math.fround(bleu(samples.better[i]) - bleu(samples.worse[i])));
      expect(samples.diff[i]).toBeGreaterThanOrEqual(Math.fround(0.05));
      const s = samples.sentence[i];
      const o = files.candidateOffsets;
      expect(samples.better[i]).toBeGreaterThanOrEqual(o[s]);
      expect(samples.worse[i]).toBeLessThan(o[s + 1]);
      perSentence.set(s, [...(perSentence.get(s) ?? []), samples.diff[i]]);
    }
    for (const diffs of perSentence.values()) expect(diffs.length).toBeLessThanOrEqual(50);
    // A larger Ξ keeps a superset whose extra pairs are no larger than the smallest kept at Ξ = 50 (+ Moses' slack).
    const more = proSample(files, { seed: 5, samples: 500 });
    for (const [s, diffs] of perSentence) {
      const smallest = Math.min(...diffs);
      for (let i = 0; i < more.count; i++) {
        if (more.sentence[i] === s && more.diff[i] > smallest + 0.00002) expect(diffs).toContain(more.diff[i]);
      }
    }
  });
});

/** Runs as the library's flat matrices (candidates of a sentence: run after run). */
function flatten(runs: readonly ReferenceRun[]): { stats: Float32Array; features: Float32Array; candidateOffsets: Int32Array } {
  const stats: number[] = [];
  const features: number[] = [];
  const offsets = [0];
  for (let s = 0; s < runs[0].stats.length; s++) {
    for (const run of runs) {
      run.stats[s].forEach((row, c) => {
        stats.push(...row);
        features.push(...run.features[s][c]);
      });
    }
    offsets.push(stats.length / 9);
  }
  return { stats: Float32Array.from(stats), features: Float32Array.from(features), candidateOffsets: Int32Array.from(offsets) };
}
