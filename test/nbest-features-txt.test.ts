/**
 * FEATURES_TXT as Moses' extractor writes it (src/engine/nbest/features-txt.ts), and `palette nbest --ffile`, which
 * writes it beside the statistics: names as Moses' Data::InitFeatureMap gives them, values through atof, single
 * precision and %g (the shortcut that copies a value's text must agree with the full conversion), sparse features,
 * and the command's file against Moses' FEATSTAT of mert.extractor-txt runs 1 and 2 and mert.extractor-dups.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNbestCommand } from '../src/cli/nbest/command.js';
import { ByteOut } from '../src/engine/nbest/byte-out.js';
import {
  cAtof, featuresFileLine, featuresTxtHeader, featuresTxtHeaderOfNames, nbestFeaturesLine, writeNbestFeaturesLine,
} from '../src/engine/nbest/features-txt.js';
import { cFormatG } from '../src/util/c-format.js';
import { captureCli, expectInputError } from './helpers/cli.js';
import { mulberry32 } from './helpers/mulberry32.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const FIX = join(HERE, 'fixtures', 'extractor');
const NBEST_FIX = join(HERE, 'fixtures', 'nbest');

describe('FEATURES_TXT names and lines', () => {
  it("names: label_i per value, each label's count from 0, a sparse name_x= skipped with its value", () => {
    expect(featuresTxtHeader(' d= 0 -3.3 0 lm= -47.2 sp_a= 1 tm= 1 2 w= -14 ')).toEqual({
      count: 7,
      names: 'd_0 d_1 d_2 lm_0 tm_0 tm_1 w_0 ',
    });
    // A value before any label is named "_0" (Moses' empty label); tabs are not separators.
    expect(featuresTxtHeader('5 x= 1')).toEqual({ count: 2, names: '_0 x_0 ' });
    expect(featuresTxtHeader('')).toEqual({ count: 0, names: '' });
    expect(featuresTxtHeaderOfNames('d_0 d_1 lm_0 ')).toEqual({ count: 3, names: 'd_0 d_1 lm_0 ' });
  });

  it('lines: dense values as %g of the float, then sparse name=value (those under 1e-5 dropped)', () => {
    expect(nbestFeaturesLine(' d= 0 -3.30693 lm= -47.29819 w= -14 ')).toBe('0 -3.30693 -47.2982 -14 ');
    expect(nbestFeaturesLine('a= 1e-5 0.00001 1234567 0.10000 -0.0 +2 .5 3abc')).toBe('1e-05 1e-05 1.23457e+06 0.1 -0 2 0.5 3 ');
    expect(nbestFeaturesLine('lm= 1 sp_x= 0.5 tm= 2 sp_y= 0.000001 sp_x= 0.25')).toBe('1 2 sp_x=0.25 ');
    // Copied up to its trailing zeros: as %g prints them.
    expect(nbestFeaturesLine('x= 0.2200 -0.000 5. 100.0 0.000100 123456.0 1234567.0')).toBe('0.22 -0 5 100 0.0001 123456 1.23457e+06 ');
    // A previous FEATURES_TXT line: tokens with "=" are sparse pairs.
    expect(featuresFileLine('0 -3.306930 sp_x=0.50 ')).toBe('0 -3.30693 sp_x=0.5 ');
  });

  it('atof: the longest leading number, 0 when there is none, inf and nan', () => {
    expect([cAtof('1.5e3x'), cAtof('abc'), cAtof(' -2'), cAtof('.5'), cAtof('5.'), cAtof('-inf'), cAtof('1e')]).toEqual([
      1500, 0, -2, 0.5, 5, -Infinity, 1,
    ]);
    expect([cAtof('0x10'), cAtof('-0x1.8p1'), cAtof('0x.8'), cAtof('0xg'), cAtof('INFINITY')]).toEqual([16, -3, 0.5, 0, Infinity]);
    expect(Number.isNaN(cAtof('nan'))).toBe(true);
  });

  it('the copied text of a short decimal is what the full conversion prints (200,000 random decimals)', () => {
    const random = mulberry32(14);
    const digits = (n: number): string => Array.from({ length: n }, () => String(Math.floor(random() * 10))).join('');
    const bad: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      const whole = random() < 0.3 ? '0' : digits(1 + Math.floor(random() * 7));
      const fraction = random() < 0.3 ? '' : `.${digits(1 + Math.floor(random() * 8))}`;
      const t = `${random() < 0.5 ? '-' : ''}${whole}${fraction}`;
      const expected = `${cFormatG(Math.fround(Number(t)))} `;
      if (nbestFeaturesLine(t) !== expected) bad.push(`${t}: ${nbestFeaturesLine(t)} != ${expected}`);
      // The byte writer of the engine's tasks: the same line, labels dropped.
      const field = ` lm= ${t}  w= ${t} 1e-7 `;
      const out = new ByteOut();
      writeNbestFeaturesLine(field, out);
      const written = new TextDecoder().decode(out.take());
      if (written !== `${expected}${expected}1e-07 `) bad.push(`${field}: wrote ${written}`);
    }
    expect(bad.slice(0, 10)).toEqual([]);
  });

  it('the byte writer takes the general way for a field that may hold sparse features, and writes non-ASCII as UTF-8', () => {
    const write = (field: string): string => {
      const out = new ByteOut();
      writeNbestFeaturesLine(field, out);
      return new TextDecoder().decode(out.take());
    };
    expect(write('lm= 1 sp_x= 0.5 tm= 2')).toBe(nbestFeaturesLine('lm= 1 sp_x= 0.5 tm= 2'));
    expect(write('lm= 1 sp_x= 0.5 tm= 2')).toBe('1 2 sp_x=0.5 ');
    expect(write('lm= ½ 0x10 0x1.8p1 inf')).toBe('0 16 3 inf ');
  });
});

describe('palette nbest --ffile', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'palette-nbest-ffile-'));
  });
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  const truth = (n: number, kind: 'features' | 'scores'): string =>
    gunzipSync(readFileSync(join(FIX, `run.${n}.${kind}.gz`))).toString('utf8');
  const nbest = (argv: readonly string[]) => captureCli(runNbestCommand, argv);
  const TXT = ['--nbest', join(NBEST_FIX, 'extractor-txt.nbest.1'), '-r', join(NBEST_FIX, 'extractor-txt.reference'), '-m', 'bleu'];

  it('run 1: Moses FEATSTAT beside the statistics, in-thread and on 2 threads; run 2 merged with run 1', async () => {
    const ff = join(dir, 'run1.ff');
    const r = await nbest([...TXT, '--ffile', ff, '--workers', '1']);
    expect(r).toEqual({ code: 0, out: truth(1, 'scores'), err: '' });
    expect(readFileSync(ff, 'utf8')).toBe(truth(1, 'features'));
    const pooled = join(dir, 'pooled.ff');
    const p = await nbest([...TXT, '--ffile', pooled, '--workers', '2', '--task-size', '30000']);
    expect(p).toEqual({ code: 0, out: truth(1, 'scores'), err: '' });
    expect(readFileSync(pooled, 'utf8')).toBe(truth(1, 'features'));
    const list2 = join(dir, 'nbest.2');
    writeFileSync(list2, gunzipSync(readFileSync(join(FIX, 'nbest.2.gz'))));
    const sc1 = join(dir, 'run1.sc');
    writeFileSync(sc1, r.out);
    const ff2 = join(dir, 'run2.ff');
    const m = await nbest(['--nbest', list2, '-r', join(NBEST_FIX, 'extractor-txt.reference'), '-m', 'bleu', '--prev-stats', sc1, '--prev-features', ff, '--ffile', ff2]);
    expect(m).toEqual({ code: 0, out: truth(2, 'scores'), err: '' });
    expect(readFileSync(ff2, 'utf8')).toBe(truth(2, 'features'));
  });

  it('duplicates: features removed with the statistics, kept with --allow-duplicates; beside json statistics too', async () => {
    const DUPS = ['--nbest', join(NBEST_FIX, 'extractor-dups.nbest'), '-r', join(NBEST_FIX, 'extractor-dups.reference'), '-m', 'bleu'];
    const ff = join(dir, 'dups.ff');
    expect((await nbest([...DUPS, '--ffile', ff])).code).toBe(0);
    expect(readFileSync(ff, 'utf8')).toBe(readFileSync(join(FIX, 'dups.features.default'), 'utf8'));
    expect((await nbest([...DUPS, '--ffile', ff, '--allow-duplicates', '--stats-format', 'json'])).code).toBe(0);
    expect(readFileSync(ff, 'utf8')).toBe(readFileSync(join(FIX, 'dups.features.allow'), 'utf8'));
  });

  it('--ffile with --prev-stats needs --prev-features; bad input leaves no features file', async () => {
    const ff = join(dir, 'none.ff');
    const sc = join(dir, 'prev.sc');
    writeFileSync(sc, truth(1, 'scores'));
    expectInputError(await nbest([...TXT, '--prev-stats', sc, '--allow-duplicates', '--ffile', ff]), 'nbest', /--ffile with --prev-stats needs --prev-features/);
    const broken = join(dir, 'broken.nbest');
    writeFileSync(broken, `${readFileSync(join(NBEST_FIX, 'extractor-txt.nbest.1'), 'utf8')}3 ||| x ||| lm= 1 ||| 1\n`);
    const r = await nbest(['--nbest', broken, '-r', join(NBEST_FIX, 'extractor-txt.reference'), '-m', 'bleu', '--ffile', ff, '--stats', join(dir, 'none.sc')]);
    expectInputError(r, 'nbest', /broken\.nbest:1001: .*id 3 after id 9/);
    expect(existsSync(ff)).toBe(false);
    expect(existsSync(join(dir, 'none.sc'))).toBe(false);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
