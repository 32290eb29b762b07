/**
 * `palette pairwise`: the matrix in each format (tsv at Python repr precision, msgpack rows, numpy .npy with
 * numpy.save's header), equal to the library's matrix and to the sacreBLEU golden slice; the same numbers as
 * `palette score -sl` for each pair; bad input refused with one line and exit 2, leaving no output file behind; its
 * help and its place in `palette --help`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unpackMultiple } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { npyArrayHeader, npyHeader } from '../src/cli/pairwise/npy.js';
import { pyFloatRepr } from '../src/cli/py-format.js';
import { pairwiseScores } from '../src/engine/pairwise/index.js';
import { Chrf } from '../src/metrics/chrf/chrf.js';
import { Ter } from '../src/metrics/ter/ter.js';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { sentenceScore } from '../src/metrics/metric.js';
import { defaultRegistry, type MetricSettings } from '../src/metrics/registry.js';
import { cliRunner, expectInputError } from './helpers/cli.js';
import { goldenClose } from './helpers/shared-data.js';

const pairwise = cliRunner(['pairwise']);
const palette = cliRunner();

const fixture = JSON.parse(readFileSync(new URL('fixtures/pairwise/wmt21-en-de-5.json', import.meta.url), 'utf8')) as {
  segments: { samples: string[]; metrics: Record<string, { matrix: number[][] }> }[];
};
const SAMPLES = fixture.segments[0].samples;

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'palette-pairwise-'));
  writeFileSync(join(dir, 'samples.txt'), `${SAMPLES.join('\n')}\n`);
  // A rectangular case: 3 hypotheses against 20 references.
  writeFileSync(join(dir, 'three.txt'), `${fixture.segments[1].samples.slice(0, 3).join('\n')}\n`);
  return dir;
}

describe('formats', () => {
  it('tsv: |A| lines of |B| tab-separated Python reprs, the golden chrF++ and TER matrices', async () => {
    const dir = workspace();
    for (const [name, metric, args] of [
      ['chrF++', new Chrf({ wordOrder: 2 }), ['-m', 'chrf', '--chrf-word-order', '2']],
      ['TER', new Ter(), ['-m', 'ter']],
      ['BLEU', new Bleu({ effectiveOrder: true }), ['-m', 'bleu']],
    ] as const) {
      const r = await pairwise([join(dir, 'samples.txt'), join(dir, 'samples.txt'), ...args]);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const want = pairwiseScores(metric, SAMPLES, SAMPLES);
      const lines = r.out.split('\n');
      expect(lines.pop()).toBe('');
      expect(lines).toHaveLength(20);
      lines.forEach((line, i) => {
        const cells = line.split('\t');
        expect(cells).toHaveLength(20);
        cells.forEach((cell, j) => {
          expect(cell).toBe(pyFloatRepr(want[i * 20 + j]));
          expect(goldenClose(Number(cell), fixture.segments[0].metrics[name].matrix[i][j])).toBe(true);
        });
      });
    }
  });

  it('metrics through their token stage: ROUGE-L with stemming, WER, PER', async () => {
    const dir = workspace();
    const hyps = fixture.segments[1].samples.slice(0, 3);
    for (const [id, args, settings] of [
      ['rouge-l', ['--stem'], { rouge: { stem: true } }],
      ['wer', [], {}],
      ['per', ['--per-lowercase'], { per: { lowercase: true } }],
    ] as const) {
      const r = await pairwise([join(dir, 'three.txt'), join(dir, 'samples.txt'), '-m', id, ...args]);
      expect(r.err).toBe('');
      const { metric } = defaultRegistry.create(id, { ...settings, sentenceLevel: true } as MetricSettings);
      const want = pairwiseScores(metric, hyps, SAMPLES);
      expect(r.out).toBe(
        [0, 1, 2].map((i) => Array.from(want.subarray(i * 20, (i + 1) * 20), pyFloatRepr).join('\t') + '\n').join(''),
      );
      // And each entry is the -sl sentence score of its pair.
      expect(want[1 * 20 + 7]).toBe(sentenceScore(metric, hyps[1], [SAMPLES[7]]).score);
    }
  });

  it('-j 2 scores blocks of rows on two workers: the same bytes as one thread', async () => {
    const dir = workspace();
    // 700 hypotheses (three blocks of 256 rows or fewer) against 30 references.
    const all = fixture.segments.flatMap((sg) => sg.samples);
    const hyps = Array.from({ length: 700 }, (_, k) => `${all[k % all.length]} ${k % 7 === 0 ? all[(k * 13) % all.length] : ''}`.trim());
    writeFileSync(join(dir, 'a.txt'), `${hyps.join('\n')}\n`);
    writeFileSync(join(dir, 'b.txt'), `${all.slice(0, 30).join('\n')}\n`);
    for (const args of [['-m', 'chrf', '-cw', '2'], ['-m', 'rouge-l']]) {
      const one = await pairwise([join(dir, 'a.txt'), join(dir, 'b.txt'), ...args]);
      const two = await pairwise([join(dir, 'a.txt'), join(dir, 'b.txt'), ...args, '-j', '2']);
      expect(two.err).toBe('');
      expect(two.code).toBe(0);
      expect(two.out.split('\n')).toHaveLength(701);
      expect(two.out).toBe(one.out);
    }
    const file = join(dir, 'm.npy');
    await pairwise([join(dir, 'a.txt'), join(dir, 'b.txt'), '-m', 'ter', '-j', '2', '-f', 'npy', '-o', file]);
    const bytes = readFileSync(file);
    const data = new Float64Array(bytes.buffer.slice(bytes.byteOffset + 128, bytes.byteOffset + bytes.length));
    expect(Array.from(data)).toEqual(Array.from(pairwiseScores(new Ter(), hyps, all.slice(0, 30))));
  }, 60_000);

  it('rows are A, columns are B', async () => {
    const dir = workspace();
    const r = await pairwise([join(dir, 'three.txt'), join(dir, 'samples.txt'), '-m', 'chrf']);
    const want = pairwiseScores(new Chrf(), fixture.segments[1].samples.slice(0, 3), SAMPLES);
    expect(r.out).toBe(
      [0, 1, 2].map((i) => Array.from(want.subarray(i * 20, (i + 1) * 20), pyFloatRepr).join('\t') + '\n').join(''),
    );
  });

  it('npy: numpy.save header, little-endian doubles in C order', async () => {
    const dir = workspace();
    const file = join(dir, 'm.npy');
    const r = await pairwise([join(dir, 'three.txt'), join(dir, 'samples.txt'), '-m', 'bleu', '-f', 'npy', '-o', file]);
    expect(r).toEqual({ code: 0, out: '', err: '' });
    const bytes = readFileSync(file);
    // The bytes numpy 2.4's np.save writes for a (3, 20) float64 array.
    const header = Buffer.concat([
      Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 118, 0]),
      Buffer.from(`{'descr': '<f8', 'fortran_order': False, 'shape': (3, 20), }${' '.repeat(57)}\n`, 'latin1'),
    ]);
    expect(header.length).toBe(128);
    expect(bytes.subarray(0, 128)).toEqual(header);
    const want = pairwiseScores(new Bleu(), fixture.segments[1].samples.slice(0, 3), SAMPLES);
    expect(bytes.length).toBe(128 + 8 * 60);
    const data = new Float64Array(bytes.buffer.slice(bytes.byteOffset + 128, bytes.byteOffset + bytes.length));
    expect(Array.from(data)).toEqual(Array.from(want));
  });

  it('npy headers are numpy.save\'s for other shapes (data at a multiple of 64)', () => {
    const text = (rows: number, cols: number): string => Buffer.from(npyHeader(rows, cols).subarray(10)).toString('latin1');
    // Lengths and padding as numpy 2.4 writes them (np.save of np.zeros(shape)).
    expect(npyHeader(8000, 2000).length).toBe(128);
    expect(text(8000, 2000)).toBe(`{'descr': '<f8', 'fortran_order': False, 'shape': (8000, 2000), }${' '.repeat(52)}\n`);
    expect(text(0, 5)).toBe(`{'descr': '<f8', 'fortran_order': False, 'shape': (0, 5), }${' '.repeat(58)}\n`);
    expect(text(123456789, 1)).toBe(`{'descr': '<f8', 'fortran_order': False, 'shape': (123456789, 1), }${' '.repeat(50)}\n`);
    const arrayText = (shape: number[]): string => Buffer.from(npyArrayHeader(shape).subarray(10)).toString('latin1');
    expect(arrayText([7])).toBe(`{'descr': '<f8', 'fortran_order': False, 'shape': (7,), }${' '.repeat(60)}\n`);
    expect(arrayText([1000, 256, 1])).toBe(`{'descr': '<f8', 'fortran_order': False, 'shape': (1000, 256, 1), }${' '.repeat(50)}\n`);
    expect(() => npyArrayHeader([])).toThrow(RangeError);
    for (const [r, c] of [[1, 1], [2 ** 53 - 1, 3], [7, 10 ** 15]]) {
      const h = npyHeader(r, c);
      expect(h.length % 64).toBe(0);
      expect(h[8] | (h[9] << 8)).toBe(h.length - 10);
    }
  });

  const numpy = spawnSync('python3', ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!numpy)('numpy.load reads the .npy file (python3 with numpy on this machine)', async () => {
    const dir = workspace();
    const file = join(dir, 'm.npy');
    await pairwise([join(dir, 'samples.txt'), join(dir, 'three.txt'), '-m', 'ter', '-f', 'npy', '-o', file]);
    const py = spawnSync('python3', ['-c', `import numpy as np, json; a = np.load(${JSON.stringify(file)}); print(json.dumps([a.shape, a.dtype.str, a.tolist()]))`], { encoding: 'utf8' });
    expect(py.status).toBe(0);
    const [shape, dtype, values] = JSON.parse(py.stdout) as [number[], string, number[][]];
    expect(shape).toEqual([20, 3]);
    expect(dtype).toBe('<f8');
    const want = pairwiseScores(new Ter(), SAMPLES, fixture.segments[1].samples.slice(0, 3));
    expect(values.flat()).toEqual(Array.from(want));
  });

  it('msgpack: one array of |B| numbers per row', async () => {
    const dir = workspace();
    const file = join(dir, 'm.msgpack');
    const r = await pairwise([join(dir, 'three.txt'), join(dir, 'samples.txt'), '-m', 'chrf', '-f', 'msgpack', '-o', file]);
    expect(r.code).toBe(0);
    const rows = unpackMultiple(readFileSync(file)) as number[][];
    const want = pairwiseScores(new Chrf(), fixture.segments[1].samples.slice(0, 3), SAMPLES);
    expect(rows).toHaveLength(3);
    expect(rows.flat()).toEqual(Array.from(want));
  });
});

describe('the same numbers as palette score -sl', () => {
  for (const args of [['-m', 'chrf'], ['-m', 'chrf', '-cw', '2'], ['-m', 'bleu'], ['-m', 'ter']]) {
    it(args.join(' '), async () => {
      const dir = workspace();
      const hyps = fixture.segments[2].samples.slice(0, 6);
      const refs = fixture.segments[2].samples.slice(6, 9);
      writeFileSync(join(dir, 'a.txt'), `${hyps.join('\n')}\n`);
      writeFileSync(join(dir, 'b.txt'), `${refs.join('\n')}\n`);
      const matrix = (await pairwise([join(dir, 'a.txt'), join(dir, 'b.txt'), ...args])).out.trimEnd().split('\n').map((l) => l.split('\t').map(Number));
      for (let j = 0; j < refs.length; j++) {
        // Column j: every hypothesis against reference j, as palette score -sl scores a system against one reference.
        writeFileSync(join(dir, `ref${j}.txt`), `${hyps.map(() => refs[j]).join('\n')}\n`);
        const r = await palette(['score', '-i', join(dir, 'a.txt'), '-r', join(dir, `ref${j}.txt`), ...args, '-sl', '-f', 'json', '-w', '12']);
        expect(r.code).toBe(0);
        const scores = r.out.trimEnd().split('\n').map((l) => (JSON.parse(l) as { score: number }).score);
        scores.forEach((s, i) => expect(s).toBe(Number(matrix[i][j].toFixed(12))));
      }
    });
  }
});

describe('bad input: one line, exit 2, no output file', () => {
  const cases: [string, (dir: string) => string[], RegExp][] = [
    ['a metric without pairwise scores', (d) => [join(d, 'samples.txt'), join(d, 'three.txt'), '-m', 'nist'], /-m nist: no pairwise sentence scores .*chrf, bleu, ter/],
    ['ROUGE-Lsum', (d) => [join(d, 'samples.txt'), join(d, 'three.txt'), '-m', 'rouge-lsum'], /-m rouge-lsum: no pairwise sentence scores/],
    ['tercom TER', (d) => [join(d, 'samples.txt'), join(d, 'three.txt'), '-m', 'ter', '--ter-flavor', 'tercom'], /-m ter: no pairwise sentence scores/],
    ['an unknown metric', (d) => [join(d, 'samples.txt'), join(d, 'three.txt'), '-m', 'blue'], /unknown metric "blue"/],
    ['no metric', (d) => [join(d, 'samples.txt'), join(d, 'three.txt')], /a metric is required/],
    ['a missing file', (d) => [join(d, 'samples.txt'), join(d, 'nope.txt'), '-m', 'chrf'], /nope\.txt: no such file/],
    ['one file', (d) => [join(d, 'samples.txt'), '-m', 'chrf'], /two files are required/],
    ['a bad worker count', (d) => [join(d, 'samples.txt'), join(d, 'three.txt'), '-m', 'chrf', '-j', '0'], /-j must be an integer in 1\.\.256/],
    ['an unknown format', (d) => [join(d, 'samples.txt'), join(d, 'three.txt'), '-m', 'chrf', '-f', 'csv'], /--format must be one of tsv, msgpack, npy/],
  ];
  for (const [label, argv, message] of cases) {
    it(label, async () => {
      const dir = workspace();
      const out = join(dir, 'out.tsv');
      writeFileSync(out, 'old\n');
      const r = await pairwise([...argv(dir), '-o', out]);
      expectInputError(r, 'pairwise', message);
      expect(readFileSync(out, 'utf8')).toBe('old\n');
      expect(readdirSync(dir).sort()).toEqual(['out.tsv', 'samples.txt', 'three.txt']);
    });
  }
});

it('a binary format without -o is refused (exit 2)', async () => {
  const dir = workspace();
  const r = await pairwise([join(dir, 'samples.txt'), join(dir, 'three.txt'), '-m', 'chrf', '-f', 'npy']);
  expectInputError(r, 'pairwise', /--format npy is binary: give the output file with -o FILE/);
});

describe('help', () => {
  it('palette pairwise --help', async () => {
    const r = await pairwise(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: palette pairwise A_FILE B_FILE -m METRIC/);
    for (const flag of ['--format', '--output', '--chrf-word-order', '--tokenize', '--ter-case-sensitive', '--stem', '--wer-tokenize']) {
      expect(r.out).toContain(flag);
    }
  });
  it('palette --help lists it', async () => {
    expect((await palette(['--help'])).out).toMatch(/\n {2}pairwise {2}all-pairs sentence scores/);
  });
});
