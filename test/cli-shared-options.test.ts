/**
 * The options commands share (src/cli/shared-options.ts) parse the same in every command that has them: references
 * as arguments or `-r`, `-i`, several `-m`, `--seed` (then `SACREBLEU_SEED`, then 12345), `-j/--workers`,
 * `--bootstrap`, `-f`, `-q`, `-w`, with the same values and the same messages. Deprecated spellings (orange's `-b N`,
 * correlate's `--score-metric`) still work, with one warning line that names the new spelling (none with `-q`).
 * `palette correlate` takes `-i FILE` beside `--hyp NAME=FILE` and several `-m` metrics.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCorrelateArgs, type CorrelateOptions } from '../src/cli/correlate/options.js';
import { parseNbestArgs, type NbestOptions } from '../src/cli/nbest/options.js';
import { parseOrangeArgs, type OrangeOptions } from '../src/cli/orange/options.js';
import { parseReportArgs, type ReportOptions } from '../src/cli/report-command/options.js';
import { parseScoreCommand, type ScoreOptions } from '../src/cli/score-options.js';
import { InputError } from '../src/errors.js';
import { captureCli, cliRunner } from './helpers/cli.js';
import { run } from '../src/cli/main.js';

type Env = Record<string, string | undefined>;

/** What every command's parser makes of one command line, as far as the shared options go. */
const parsers = {
  score: (argv: string[], env: Env = {}): ScoreOptions => {
    const c = parseScoreCommand(argv, env);
    if (c.kind !== 'run') throw new Error(c.kind);
    return c.options;
  },
  correlate: (argv: string[], env: Env = {}): CorrelateOptions => {
    const c = parseCorrelateArgs(['--human', 'H', ...argv], () => false, env);
    if (c.kind !== 'run') throw new Error(c.kind);
    return c.options;
  },
  orange: (argv: string[], env: Env = {}): OrangeOptions => {
    const c = parseOrangeArgs(['--nbest', 'N', ...argv], env);
    if (c.kind !== 'run') throw new Error(c.kind);
    return c.options;
  },
  report: (argv: string[], env: Env = {}): ReportOptions => {
    const c = parseReportArgs(['-o', 'out.html', ...argv], env);
    if (c.kind !== 'run') throw new Error(c.kind);
    return c.options;
  },
  nbest: (argv: string[]): NbestOptions => {
    const c = parseNbestArgs(['--nbest', 'N', ...argv]);
    if (c.kind !== 'run') throw new Error(c.kind);
    return c.options;
  },
};

function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    if (err instanceof InputError) return err.message;
    throw err;
  }
  throw new Error('expected an InputError');
}

/** The smallest valid command line of each command around the shared options under test (no refs, no metrics). */
const SYSTEM = ['-i', 'S'];

describe('references: as arguments or -r/--refs, the same in every command', () => {
  it('gives the same files both ways, and refuses both at once with one message', () => {
    const cases: [string, (refs: string[]) => readonly string[]][] = [
      ['score', (r) => parsers.score([...r, ...SYSTEM]).refs],
      ['report', (r) => parsers.report([...r, ...SYSTEM]).refs],
      ['correlate', (r) => parsers.correlate([...r, '-m', 'bleu', ...SYSTEM]).score!.refs],
      ['orange', (r) => parsers.orange([...r, '-m', 'wer']).refs],
      ['nbest', (r) => parsers.nbest([...r, '-m', 'bleu']).refs],
    ];
    for (const [name, refsOf] of cases) {
      expect(refsOf(['R1', 'R2']), name).toEqual(['R1', 'R2']);
      expect(refsOf(['-r', 'R1', 'R2']), name).toEqual(['R1', 'R2']);
      expect(refsOf(['--refs', 'R1', 'R2']), name).toEqual(['R1', 'R2']);
      expect(errorOf(() => refsOf(['R1', '-r', 'R2'])), name).toBe(
        'give the references either as arguments or with -r/--refs, not both (got R1)',
      );
    }
  });
});

describe('-i/--input and -m/--metrics', () => {
  it('take several values in every command that has them; -i without a file is one message', () => {
    expect(parsers.score(['R', '-i', 'A', 'B', '-m', 'bleu', 'chrf']).inputs).toEqual(['A', 'B']);
    expect(parsers.report(['R', '--input', 'A', 'B']).inputs).toEqual(['A', 'B']);
    expect(parsers.correlate(['-r', 'R', '-i', 'A', 'B', '-m', 'bleu']).score!.inputs).toEqual(['A', 'B']);
    expect(parsers.score(['R', '-i', 'A', '-m', 'bleu', 'chrf', 'bleu']).metrics).toEqual(['bleu', 'chrf']);
    expect(parsers.report(['R', '-i', 'A', '--metrics', 'bleu', 'chrf']).metrics).toEqual(['bleu', 'chrf']);
    expect(parsers.correlate(['-r', 'R', '-i', 'A', '-m', 'bleu', 'chrf']).score!.ids).toEqual(['bleu', 'chrf']);
    expect(parsers.orange(['-r', 'R', 'R2', '-m', 'wer', 'per']).variants.map((v) => v.name)).toEqual(['WER', 'PER']);
    expect(parsers.nbest(['-r', 'R', '-m', 'bleu', 'wer']).metrics).toEqual(['bleu', 'wer']);
    for (const f of [() => parsers.score(['R', '-i']), () => parsers.report(['R', '-i']), () => parsers.correlate(['-r', 'R', '-m', 'bleu', '-i'])]) {
      expect(errorOf(f)).toBe('option -i/--input needs at least one file');
    }
  });
});

describe('--seed: the command line, else SACREBLEU_SEED, else 12345, in every command that resamples', () => {
  const seeds = {
    correlate: (argv: string[], env?: Env) => parsers.correlate(['--metric', 'M', ...argv], env).seed,
    orange: (argv: string[], env?: Env) => parsers.orange(['-r', 'R', 'R2', '-m', 'wer', ...argv], env).seed,
    report: (argv: string[], env?: Env) => parsers.report(['R', ...SYSTEM, ...argv], env).seed,
  };
  it.each(Object.entries(seeds))('%s', (name, seedOf) => {
    expect(seedOf([])).toBe(12345);
    expect(seedOf([], { SACREBLEU_SEED: '9' })).toBe(9);
    expect(seedOf(['--seed', '7'], { SACREBLEU_SEED: '9' })).toBe(7);
    expect(seedOf(['--seed', '1_000'])).toBe(1000);
    const min = name === 'report' ? 1 : 0;
    expect(errorOf(() => seedOf(['--seed', 'x']))).toBe(`--seed must be an integer >= ${min} (got "x")`);
    expect(errorOf(() => seedOf([], { SACREBLEU_SEED: '-4' }))).toBe(`SACREBLEU_SEED must be an integer >= ${min} (got "-4")`);
  });

  it('palette score: --seed is SACREBLEU_SEED given on the command line (checked as it is, printed in the signature)', async () => {
    expect(parsers.score(['R', '--seed', '7']).seed).toBe('7');
    expect(parsers.score(['R', '--seed', 'None']).seed).toBe('None');
    expect(parsers.score(['R']).seed).toBeUndefined();
    expect(errorOf(() => parsers.score(['R', '--seed', '-1']))).toBe('--seed must be an integer >= 0 (got "-1")');
    const sample = fileURLToPath(new URL('../samples/wmt17-en-de/', import.meta.url));
    const argv = ['score', `${sample}ref.de`, '-i', `${sample}sys/online-B.0.de`, '-m', 'bleu', '-ci', '-cin', '20'];
    const byFlag = await captureCli(run, [...argv, '--seed', '7'], { env: { SACREBLEU_SEED: '9' } });
    const byEnv = await captureCli(run, argv, { env: { SACREBLEU_SEED: '7' } });
    expect(byFlag.code).toBe(0);
    expect(byFlag.out).toContain('seed:7');
    expect(byFlag.out).toBe(byEnv.out);
    expect((await captureCli(run, argv, { env: { SACREBLEU_SEED: '9' } })).out).not.toBe(byFlag.out);
  });
});

describe('-j/--workers, --bootstrap, -f, -w, -q', () => {
  it('-j/--workers: a worker count, default one per core (undefined), one message', () => {
    for (const workersOf of [
      (argv: string[]) => parsers.orange(['-r', 'R', 'R2', '-m', 'wer', ...argv]).workers,
      (argv: string[]) => parsers.nbest(['-r', 'R', '-m', 'bleu', ...argv]).workers,
    ]) {
      expect(workersOf([])).toBeUndefined();
      expect(workersOf(['-j', '3'])).toBe(3);
      expect(workersOf(['--workers', '3'])).toBe(3);
      expect(errorOf(() => workersOf(['-j', '0']))).toBe('--workers must be an integer in 1..256 (got "0")');
    }
    // palette score keeps sacrebleu's -j, --paired-jobs (accepted, no effect).
    expect(parsers.score(['R', '-j', '4']).significance.pairedJobs).toBe(4);
  });

  it('--bootstrap: resamples, default 1000, one message; -b is score-only in palette score', () => {
    for (const bootstrapOf of [
      (argv: string[]) => parsers.correlate(['--metric', 'M', ...argv]).bootstrap,
      (argv: string[]) => parsers.orange(['-r', 'R', 'R2', '-m', 'wer', '-q', ...argv]).bootstrap,
      (argv: string[]) => parsers.report(['R', ...SYSTEM, ...argv]).bootstrap,
    ]) {
      expect(bootstrapOf([])).toBe(1000);
      expect(bootstrapOf(['--bootstrap', '5'])).toBe(5);
      expect(bootstrapOf(['--bootstrap', '0'])).toBe(0);
      expect(errorOf(() => bootstrapOf(['--bootstrap', '2000000']))).toBe('--bootstrap must be an integer in 0..1000000 (got "2000000")');
    }
    expect(parsers.score(['R', '-b']).scoreOnly).toBe(true);
  });

  it('-f/--format, -w/--width and -q/--quiet', () => {
    expect(parsers.correlate(['--metric', 'M', '-f', 'json']).format).toBe('json');
    expect(parsers.orange(['-r', 'R', 'R2', '-m', 'wer', '--format', 'json']).format).toBe('json');
    expect(parsers.score(['R', '-f', 'text']).format).toBe('text');
    expect(errorOf(() => parsers.correlate(['--metric', 'M', '-f', 'xml']))).toBe('--format must be text or json (got "xml")');
    expect(errorOf(() => parsers.orange(['-r', 'R', 'R2', '-m', 'wer', '-f', 'xml']))).toBe('--format must be text or json (got "xml")');
    expect(errorOf(() => parsers.score(['R', '-f', 'xml']))).toBe('--format must be one of json, text, latex, tsv, csv (got "xml")');
    expect(parsers.score(['R', '-w', '3']).width).toBe(3);
    expect(parsers.orange(['-r', 'R', 'R2', '-m', 'wer', '--width', '3']).width).toBe(3);
    expect(errorOf(() => parsers.score(['R', '-w', '17']))).toBe('--width must be an integer in 0..16 (got "17")');
    expect(errorOf(() => parsers.orange(['-r', 'R', 'R2', '-m', 'wer', '-w', '17']))).toBe('--width must be an integer in 0..16 (got "17")');
    expect(parsers.score(['R', '--quiet']).quiet).toBe(true);
    expect(parsers.correlate(['--metric', 'M', '-q']).quiet).toBe(true);
    expect(parsers.orange(['-r', 'R', 'R2', '-m', 'wer', '-q']).quiet).toBe(true);
    expect(parsers.report(['R', ...SYSTEM, '-q']).quiet).toBe(true);
    expect(parsers.nbest(['-r', 'R', '-m', 'bleu', '--quiet']).quiet).toBe(true);
  });
});

const dir = mkdtempSync(join(tmpdir(), 'palette-shared-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tmp = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('deprecated spellings: still work, one warning line naming the new spelling, none with -q', () => {
  it('palette orange -b N is --bootstrap N', async () => {
    const ref = tmp('orange-ref-a', 'the cat sat\na dog barks\n');
    const ref2 = tmp('orange-ref-b', 'a cat sat\nthe dog barks\n');
    const list = tmp('orange.nbest', '0 ||| the cat sat ||| d= 0 ||| 1\n0 ||| cat sat ||| d= 0 ||| 1\n1 ||| a dog ||| d= 0 ||| 1\n');
    const orange = cliRunner(['orange']);
    const base = ['--nbest', list, '-r', ref, ref2, '-m', 'wer', 'bleus1', '-f', 'json'];
    const now = await orange([...base, '--bootstrap', '50']);
    const old = await orange([...base, '-b', '50']);
    expect([now.code, now.err]).toEqual([0, '']);
    expect(old.out).toBe(now.out);
    expect(old.err).toBe('palette orange: warning: -b is deprecated and will be removed: use --bootstrap N\n');
    expect((await orange([...base, '-b', '50', '-q'])).err).toBe('');
    const both = await orange([...base, '-b', '50', '--bootstrap', '50']);
    expect([both.code, both.out]).toEqual([2, '']);
    expect(both.err).toContain('-b and --bootstrap are one option: give it once');
  });

  it('palette correlate --score-metric M is -m M', async () => {
    const correlate = cliRunner(['correlate']);
    const { ref, hyps, human } = correlateData();
    const base = ['-r', ref, '--hyp', ...hyps, '--human', human, '-f', 'json', '--bootstrap', '20'];
    const now = await correlate(['-m', 'bleu', ...base]);
    const old = await correlate(['--score-metric', 'bleu', ...base]);
    expect([now.code, now.err]).toEqual([0, '']);
    expect(old.out).toBe(now.out);
    expect(old.err).toBe('palette correlate: warning: --score-metric is deprecated and will be removed: use -m/--metrics METRIC\n');
    expect((await correlate(['--score-metric', 'bleu', '-q', ...base])).err).toBe('');
  });
});

/** Four systems' outputs (files A.txt … D.txt), a reference and human scores naming the systems A … D. */
function correlateData(): { ref: string; files: string[]; hyps: string[]; human: string } {
  const ref = tmp('ref.txt', 'the cat sat on the mat\na dog barks at night\nrain falls in spain\nwe like green tea\nthis is a test\n');
  const outputs: Record<string, string[]> = {
    A: ['the cat sat on a mat', 'a dog barks at night', 'rain falls on spain', 'we like tea', 'this is the test'],
    B: ['a cat is on the mat', 'dogs bark at night', 'the rain in spain', 'we like green tea', 'this a test'],
    C: ['cat mat', 'dog night', 'rain spain falls', 'green tea we like', 'test'],
    D: ['the cat sat on the mat', 'a dog barks at the night', 'rain falls mainly in spain', 'we like green tea', 'this is a test'],
  };
  const files = Object.keys(outputs).map((s) => tmp(`${s}.txt`, outputs[s].join('\n') + '\n'));
  const human = fileURLToPath(new URL('./fixtures/correlate/cli/human.tsv', import.meta.url));
  return { ref, files, hyps: Object.keys(outputs).map((s, k) => `${s}=${files[k]}`), human };
}

describe('palette correlate: -i FILE beside --hyp NAME=FILE, several -m metrics', () => {
  const correlate = cliRunner(['correlate']);

  it('-i names a system by its file; judgments naming it by its stem match it; the numbers are those of --hyp', async () => {
    const { ref, files, hyps, human } = correlateData();
    const common = ['-m', 'chrf', '--human', human, '-f', 'json', '--bootstrap', '30'];
    const named = await correlate(['-r', ref, '--hyp', ...hyps, ...common]);
    const byFile = await correlate(['-r', ref, '-i', ...files, ...common]);
    const positional = await correlate([ref, '-i', ...files.slice(0, 2), '--hyp', ...hyps.slice(2), ...common]);
    expect(named.code).toBe(0);
    const strip = (text: string): unknown => {
      const j = JSON.parse(text) as { metric: { files: unknown } };
      return { ...j, metric: { ...j.metric, files: undefined } };
    };
    expect(strip(byFile.out)).toEqual(strip(named.out));
    expect(positional.out).toBe(byFile.out);
    expect((JSON.parse(byFile.out) as { metric: { files: string[] } }).metric.files).toEqual(files);
  });

  it('several -m metrics: one correlation each, as one -m run prints it (a text block; an object of a JSON array)', async () => {
    const { ref, hyps, human } = correlateData();
    const common = ['-r', ref, '--hyp', ...hyps, '--human', human, '--bootstrap', '40', '--level', 'segment'];
    const single = await Promise.all(['bleu', 'ter', 'rouge-l'].map((m) => correlate(['-m', m, ...common])));
    const text = await correlate(['-m', 'bleu', 'ter', 'rouge-l', ...common]);
    expect(text.code).toBe(0);
    expect(text.out).toBe(single.map((r) => r.out).join('\n'));
    const singleJson = await Promise.all(['bleu', 'ter', 'rouge-l'].map((m) => correlate(['-m', m, ...common, '-f', 'json'])));
    const json = await correlate(['-m', 'bleu', 'ter', 'rouge-l', ...common, '-f', 'json']);
    // One metric: one object, as before; several: the array of those objects.
    expect(JSON.parse(singleJson[0].out)).not.toBeInstanceOf(Array);
    expect(JSON.parse(json.out)).toEqual(singleJson.map((r) => JSON.parse(r.out)));
  });
});
