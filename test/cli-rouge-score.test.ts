/**
 * `palette score -m rouge-…` from a clone alone (the full goldens run in cli-rouge-shared.test.ts):
 * - golden extracts of test/fixtures/rouge/summeval.json (SummEval lines 1–3 of M0 and the references, cut from
 *   golden/rouge-score/summeval.{ref0,multiref11}.json and golden/rouge155/summeval.{ref0.stem,multiref11}.json; see
 *   that folder's SOURCE.md): `-sl` values and the corpus mean through the CLI;
 * - every ROUGE flag reaches the metric: the printed number is the library's `Rouge` with the same options;
 * - output: JSON fields, text lines, `-w` (ROUGE's default is 5 decimals), `-b`, `-sl`, several systems with the
 *   references prepared once, names deduplicated and sorted, default flavors in the signature;
 * - bad flags: exit 2 with one clear message; help and usage texts mention ROUGE and `rouge155`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { pyFixed } from '../src/cli/py-format.js';
import { corpusScore, sentenceScores } from '../src/metrics/metric.js';
import { defaultRegistry, type MetricRegistry } from '../src/metrics/registry.js';
import { Rouge, type RougeOptions } from '../src/metrics/rouge/rouge.js';
import { VERSION } from '../src/version.js';
import { captureCli } from './helpers/cli.js';

interface Extract {
  file: string;
  refs: number[];
  config: { options?: string; use_stemmer?: boolean };
  segment_fields: string[];
  segments: unknown[][];
}

const fixture = JSON.parse(readFileSync(new URL('./fixtures/rouge/summeval.json', import.meta.url), 'utf8')) as {
  hyp: string[];
  refs: string[][];
  rouge155: Extract[];
  rouge_score: Extract[];
};

let dir: string;
const f = (name: string): string => join(dir, name);
const lines = (name: string): string[] => readFileSync(f(name), 'utf8').trimEnd().split('\n');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'palette-cli-rouge-'));
  writeFileSync(f('M0.txt'), fixture.hyp.join('\n') + '\n');
  fixture.refs.forEach((ref, k) => writeFileSync(f(`ref.${k}.txt`), ref.join('\n') + '\n'));
  writeFileSync(f('ref.txt'), 'the cat sat on the mat\npolice killed the gunman\nthe quick brown fox\n');
  writeFileSync(f('ref2.txt'), 'a cat was on the mat\nthe gunman was killed by police\na fast brown fox jumped\n');
  writeFileSync(f('a.txt'), 'the cat was on the mat\npolice kill the gunman\nthe brown fox\n');
  writeFileSync(f('b.txt'), 'a cat sat\nthe gunman kill police\nquick brown foxes\n');
  writeFileSync(f('empty-lines.txt'), '\nthe gunman police killed\n\n');
});

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

interface Result {
  code: number;
  out: string;
  err: string;
}

async function palette(argv: string[], registry?: MetricRegistry): Promise<Result> {
  return captureCli((a, io) => run(a, io, registry), argv);
}

async function score(...argv: string[]): Promise<string> {
  const r = await palette(['score', ...argv]);
  expect(r.code, r.err).toBe(0);
  return r.out;
}

interface JsonScore {
  name: string;
  score: number;
  signature: string;
  verbose_score: string;
  precision: number;
  recall: number;
  fmeasure: number;
  [field: string]: unknown;
}

/** golden/README.md's float tolerance. */
function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(1e-12, 1e-9 * Math.max(Math.abs(a), Math.abs(b)));
}

function jsonLines(out: string): JsonScore[] {
  return out
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as JsonScore);
}

describe('golden extracts (test/fixtures/rouge/summeval.json)', () => {
  const SCORE_TYPES: [string, string][] = [
    ['rouge1', 'rouge-1'],
    ['rouge2', 'rouge-2'],
    ['rouge4', 'rouge-4'],
    ['rougeL', 'rouge-l'],
    ['rougeLsum', 'rouge-lsum'],
  ];

  it('rouge-score (the default flavor of rouge-1..9, rouge-l, rouge-lsum): reference 0 and 11 references, stem and nostem', async () => {
    expect(fixture.rouge_score.length).toBe(4);
    for (const record of fixture.rouge_score) {
      const refs = record.refs.map((k) => f(`ref.${k}.txt`));
      const extra = ['--split-sentences', 'punct', ...(record.config.use_stemmer ? ['--stem'] : [])];
      for (const [type, id] of SCORE_TYPES) {
        const at = `${record.file} stem=${record.config.use_stemmer} ${type}`;
        const column = record.segment_fields.indexOf(type);
        const expected = record.segments.map((s) => s[column] as number[]);
        const segments = jsonLines(await score(...refs, '-i', f('M0.txt'), '-m', id, '-sl', '-f', 'json', '-w', '16', ...extra));
        expect(segments.map((s) => s.flavor)).toEqual(['rouge-score', 'rouge-score', 'rouge-score']);
        segments.forEach((s, i) => {
          [s.precision, s.recall, s.fmeasure].forEach((v, c) => expect(close(v, expected[i][c]), `${at} line ${i + 1}`).toBe(true));
        });
        // The corpus score is the mean of the segments' P, R, F (rouge-score has no corpus score of its own).
        const corpus = JSON.parse(await score(...refs, '-i', f('M0.txt'), '-m', id, '-w', '16', ...extra)) as JsonScore;
        const mean = [0, 1, 2].map((c) => (expected[0][c] + expected[1][c] + expected[2][c]) / 3);
        [corpus.precision, corpus.recall, corpus.fmeasure].forEach((v, c) => expect(close(v, mean[c]), `${at} mean`).toBe(true));
        expect(corpus.score).toBe(corpus.fmeasure);
      }
    }
  });

  it('--rouge-flavor rouge155: every unit as ROUGE-1.5.5 prints it (5 decimals); -m, -f A and -f B over 11 references', async () => {
    const TYPES: [string, string][] = [
      ['ROUGE-1', 'rouge-1'],
      ['ROUGE-2', 'rouge-2'],
      ['ROUGE-L', 'rouge-lsum'],
      ['ROUGE-W-1.2', 'rouge-w'],
      ['ROUGE-SU4', 'rouge-su4'],
    ];
    // The records with these types and no -l/-b/-s/-t 1 (those are the metric suites' to check).
    const records = fixture.rouge155.filter((r) => / -w 1\.2 -2 4 -u (-m )?-c 95 -r 1000 -f [AB] -p 0\.5 -t 0$/.test(r.config.options!));
    expect(records.map((r) => r.config.options)).toEqual([
      '-n 4 -w 1.2 -2 4 -u -c 95 -r 1000 -f A -p 0.5 -t 0',
      '-n 4 -w 1.2 -2 4 -u -m -c 95 -r 1000 -f A -p 0.5 -t 0',
      '-n 4 -w 1.2 -2 4 -u -m -c 95 -r 1000 -f B -p 0.5 -t 0',
    ]);
    for (const record of records) {
      const refs = record.refs.map((k) => f(`ref.${k}.txt`));
      const extra = ['--rouge-flavor', 'rouge155', '--split-sentences', 'punct'];
      if (record.config.options!.includes(' -m ')) extra.push('--stem');
      if (record.config.options!.includes(' -f B ')) extra.push('--rouge-multi-ref', 'best-recall');
      for (const [type, id] of TYPES) {
        const column = record.segment_fields.indexOf(`${type} RPF`);
        const segments = jsonLines(await score(...refs, '-i', f('M0.txt'), '-m', id, '-sl', '-f', 'json', '-w', '5', ...extra));
        expect(
          segments.map((s) => [s.recall, s.precision, s.fmeasure]),
          `${record.file} ${type}`,
        ).toEqual(record.segments.map((s) => s[column]));
      }
    }
  });
});

describe('every ROUGE flag reaches the metric', () => {
  const REFS = (): string[] => [f('ref.txt'), f('ref2.txt')];
  const cases: [string[], string, RougeOptions][] = [
    [[], 'rouge-1', { type: 'rouge-1', flavor: 'rouge-score' }],
    [[], 'rouge-w', { type: 'rouge-w', flavor: 'rouge155' }],
    [[], 'rouge-s*', { type: 'rouge-s*', flavor: 'rouge155' }],
    [['--rouge-w-weight', '1.5'], 'rouge-w', { type: 'rouge-w', wWeight: 1.5, flavor: 'rouge155' }],
    [['--rouge-flavor', 'paper', '--rouge-beta', '2'], 'rouge-l', { type: 'rouge-l', flavor: 'paper', beta: 2 }],
    [['--rouge-flavor', 'paper', '--rouge-multi-ref', 'best-recall'], 'rouge-s4', { type: 'rouge-s4', flavor: 'paper', multiReference: 'best-recall' }],
    [['--rouge-flavor', 'rouge155', '--rouge-alpha', '0.2', '--stopwords'], 'rouge-2', { type: 'rouge-2', flavor: 'rouge155', alpha: 0.2, removeStopwords: true }],
    [['--rouge-flavor', 'rouge155', '--rouge-multi-ref', 'best-recall', '--stem'], 'rouge-su4', { type: 'rouge-su4', flavor: 'rouge155', multiReference: 'best-recall', stem: true }],
    [['--rouge-flavor', 'rouge155', '--rouge-limit', '4w'], 'rouge-1', { type: 'rouge-1', flavor: 'rouge155', limit: { words: 4 } }],
    [['--rouge-flavor', 'rouge155', '--rouge-limit', '12b'], 'rouge-l', { type: 'rouge-l', flavor: 'rouge155', limit: { bytes: 12 } }],
    [['--rouge-tokenizer', 'rouge-unicode'], 'rouge-1', { type: 'rouge-1', flavor: 'rouge-score', tokenizer: 'rouge-unicode' }],
    [['--rouge-tokenizer', '13a'], 'rouge-2', { type: 'rouge-2', flavor: 'rouge-score', tokenizer: '13a' }],
    [['--rouge-average', 'pooled'], 'rouge-1', { type: 'rouge-1', flavor: 'rouge-score', average: 'pooled' }],
    [['--rouge-jackknife'], 'rouge-l', { type: 'rouge-l', flavor: 'rouge-score', jackknife: true }],
    [['--split-sentences', 'marker:the'], 'rouge-lsum', { type: 'rouge-lsum', flavor: 'rouge-score', split: 'marker:the' }],
  ];

  it.each(cases)('%j -m %s', async (flags, id, options) => {
    const json = JSON.parse(await score(...REFS(), '-i', f('a.txt'), '-m', id, '-w', '16', ...flags)) as JsonScore;
    const metric = new Rouge(options);
    const expected = corpusScore(metric, lines('a.txt'), [lines('ref.txt'), lines('ref2.txt')]);
    expect(json.name).toBe(expected.name);
    expect(json.signature).toBe(metric.signature(2));
    expect(json.verbose_score).toBe(expected.verboseScore);
    const d = expected.details!;
    expect([json.precision, json.recall, json.fmeasure]).toEqual(
      [d.precision, d.recall, d.fmeasure].map((x) => Number(pyFixed(x as number, 16))),
    );
  });
});

describe('output', () => {
  it('JSON: name, score (= F), signature, verbose_score, precision, recall, fmeasure, then the signature fields', async () => {
    const json = JSON.parse(await score(f('ref.txt'), '-i', f('a.txt'), '-m', 'rouge-1')) as JsonScore;
    expect(Object.keys(json)).toEqual([
      'name', 'score', 'signature', 'verbose_score', 'precision', 'recall', 'fmeasure',
      'nrefs', 'type', 'flavor', 'tok', 'stem', 'stop', 'split', 'mref', 'avg', 'jk', 'version',
    ]);
    const expected = corpusScore(new Rouge({ type: 'rouge-1', flavor: 'rouge-score' }), lines('a.txt'), [lines('ref.txt')]);
    const d = expected.details!;
    // Without -w, ROUGE prints 5 decimals (its fractions would read 0.7 at sacrebleu's 1).
    expect(json).toMatchObject({
      name: 'ROUGE-1',
      score: Number(pyFixed(expected.score, 5)),
      signature: `nrefs:1|type:ROUGE-1|flavor:rouge-score|tok:rouge-score|stem:no|stop:no|split:newline|mref:best-f|avg:segment|jk:no|version:${VERSION}`,
      verbose_score: expected.verboseScore,
      precision: Number(pyFixed(d.precision as number, 5)),
      recall: Number(pyFixed(d.recall as number, 5)),
      fmeasure: Number(pyFixed(d.fmeasure as number, 5)),
      flavor: 'rouge-score',
    });
    expect(expected.verboseScore).toMatch(/^R: 0\.\d{5} P: 0\.\d{5} F: 0\.\d{5}$/);
  });

  it('-w rounds every number of the JSON object; -b prints the score only', async () => {
    const json = JSON.parse(await score(f('ref.txt'), '-i', f('b.txt'), '-m', 'rouge-2', '-w', '2')) as JsonScore;
    const d = corpusScore(new Rouge({ type: 'rouge-2', flavor: 'rouge-score' }), lines('b.txt'), [lines('ref.txt')]).details!;
    expect([json.score, json.precision, json.recall, json.fmeasure]).toEqual(
      [d.fmeasure, d.precision, d.recall, d.fmeasure].map((x) => Number(pyFixed(x as number, 2))),
    );
    expect(await score(f('ref.txt'), '-i', f('b.txt'), '-m', 'rouge-2', '-b')).toBe(`${pyFixed(d.fmeasure as number, 5)}\n`);
    expect(await score(f('ref.txt'), '-i', f('b.txt'), '-m', 'rouge-2', '-b', '-w', '3')).toBe(`${pyFixed(d.fmeasure as number, 3)}\n`);
  });

  it('text: NAME|SIGNATURE = F R: … P: … F: …, aligned; BLEU keeps its own 1 decimal beside ROUGE', async () => {
    const out = await score(f('ref.txt'), '-i', f('a.txt'), '-m', 'rouge-l', 'bleu', 'rouge-su4', '-f', 'text', '-sh');
    const rows = out.trimEnd().split('\n');
    expect(rows.map((r) => r.trim().slice(0, r.trim().indexOf('|')))).toEqual(['BLEU', 'ROUGE-L', 'ROUGE-SU4']);
    expect(new Set(rows.map((r) => r.indexOf(' = '))).size).toBe(1);
    expect(rows[0]).toMatch(/ = \d+\.\d /);
    const l = corpusScore(new Rouge({ type: 'rouge-l', flavor: 'rouge-score' }), lines('a.txt'), [lines('ref.txt')]);
    expect(rows[1].trim()).toBe(
      `ROUGE-L|#:1|r:ROUGE-L|fl:rouge-score|tok:rouge-score|st:no|sw:no|sp:newline|mr:best-f|avg:segment|jk:no|v:${VERSION} = ` +
        `${pyFixed(l.score, 5)} ${l.verboseScore}`,
    );
    expect(rows[2]).toContain('|fl:rouge155|');
  });

  it('-sl: one line per segment (text), one JSON object per line with -f json; empty segments score 0', async () => {
    const metric = new Rouge({ type: 'rouge-l', flavor: 'rouge-score' });
    const expected = sentenceScores(metric, lines('empty-lines.txt').concat(''), [lines('ref.txt')]);
    const text = (await score(f('ref.txt'), '-i', f('empty-lines.txt'), '-m', 'rouge-l', '-sl')).trimEnd().split('\n');
    expect(text).toEqual(expected.map((s) => `ROUGE-L|${metric.signature(1)} = ${pyFixed(s.score, 5)} ${s.verboseScore}`));
    expect(text[0]).toContain(' = 0.00000 R: 0.00000 P: 0.00000 F: 0.00000');
    const json = jsonLines(await score(f('ref.txt'), '-i', f('empty-lines.txt'), '-m', 'rouge-l', '-sl', '-f', 'json', '-w', '4'));
    expect(json.map((j) => j.recall)).toEqual(expected.map((s) => Number(pyFixed(s.details!.recall as number, 4))));
  });

  it('several systems: one table, the references of each metric prepared once', async () => {
    let prepared = 0;
    const counting: MetricRegistry = {
      ...defaultRegistry,
      create(id, settings) {
        const cm = defaultRegistry.create(id, settings);
        const inner = cm.metric;
        const metric = Object.assign(Object.create(inner) as typeof inner, {
          prepareReferences: (streams: readonly (readonly string[])[]) => {
            prepared++;
            return inner.prepareReferences(streams);
          },
        });
        return { ...cm, metric };
      },
    };
    const r = await palette(['score', f('ref.txt'), '-i', f('a.txt'), f('b.txt'), '-m', 'rouge-2', 'rouge-1', '-q'], counting);
    expect(r.code, r.err).toBe(0);
    expect(prepared).toBe(2);
    const table = JSON.parse(r.out) as Record<string, string>[];
    const rouge1 = new Rouge({ type: 'rouge-1', flavor: 'rouge-score' });
    const refs = rouge1.prepareReferences([lines('ref.txt')]);
    expect(table.map((row) => Object.keys(row))).toEqual([
      ['system', 'ROUGE-1', 'ROUGE-2'],
      ['system', 'ROUGE-1', 'ROUGE-2'],
    ]);
    expect(table.map((row) => row['ROUGE-1'])).toEqual(
      ['a.txt', 'b.txt'].map((s) => pyFixed(corpusScore(rouge1, lines(s), refs).score, 5)),
    );
    const text = await palette(['score', f('ref.txt'), '-i', f('a.txt'), f('b.txt'), '-m', 'rouge-1', '-f', 'text', '-w', '3']);
    expect(text.err).toBe('palette: Found 2 systems.\n');
    expect(text.out).toContain(` - ROUGE-1    ${rouge1.signature(1)}\n`);
  });

  it('names: spellings of one variant are scored once; order by name with numbers by value', async () => {
    const out = JSON.parse(
      await score(f('ref.txt'), '-i', f('a.txt'), '-m', 'rougeL', 'rouge-l', 'ROUGE-10', 'rouge-2', 'rouge-su4', 'rouge-s*', 'rouge-w', 'rouge-w-1.2', 'rouge-s4', 'chrf'),
    ) as JsonScore[];
    expect(out.map((o) => o.name)).toEqual([
      'chrF2', 'ROUGE-2', 'ROUGE-10', 'ROUGE-L', 'ROUGE-S*', 'ROUGE-S4', 'ROUGE-SU4', 'ROUGE-W-1.2',
    ]);
    expect(out.map((o) => o.flavor ?? null)).toEqual([
      null, 'rouge-score', 'rouge155', 'rouge-score', 'rouge155', 'rouge155', 'rouge155', 'rouge155',
    ]);
  });
});

describe('bad flags: exit 2, one message, nothing on stdout', () => {
  it.each([
    [['-m', 'rouge-x'], 'unknown ROUGE metric "rouge-x" (expected rouge-N, rouge-l, rouge-lsum, rouge-w[-WEIGHT], rouge-sD'],
    [['-m', 'rouge-0'], 'unknown ROUGE metric "rouge-0"'],
    [['-m', 'rouge-su'], 'unknown ROUGE metric "rouge-su"'],
    [['-m', 'bertscore'], 'unknown metric "bertscore" (expected one of: bleu, chrf, nist, ter, wer, per, cer, gleu, ribes, meteor, gtm, paraeval, impact, npchunk, rouge-N, rouge-l'],
    [['-m', 'rouge-1', '--rouge-flavor', 'rouge-1.5.5'], '--rouge-flavor must be one of rouge155, rouge-score, paper (got "rouge-1.5.5")'],
    [['-m', 'rouge-w', '--rouge-flavor', 'rouge-score'], '-m rouge-w-1.2, rouge-score flavor: type must be rouge1..rouge9, rougeL or rougeLsum'],
    [['-m', 'rouge-1', '--rouge-alpha', '0.3'], '-m rouge-1, rouge-score flavor: --rouge-alpha/--rouge-beta must be unset', 'choose another with --rouge-flavor'],
    [['-m', 'rouge-1', '--rouge-flavor', 'paper', '--rouge-alpha', '0.3', '--rouge-beta', '2'], '--rouge-alpha and --rouge-beta must be not both set'],
    [['-m', 'rouge-1', '--rouge-alpha', '1.5'], '--rouge-alpha must be a number from 0 to 1 (got "1.5")'],
    [['-m', 'rouge-1', '--rouge-multi-ref', 'mean'], '--rouge-multi-ref must be one of pool, best-recall, best-f, max (got "mean")'],
    [['-m', 'rouge-1', '--rouge-flavor', 'rouge155', '--rouge-multi-ref', 'best-f'], '--rouge-multi-ref must be one of pool, best-recall in the rouge155 flavor'],
    [['-m', 'rouge-lsum', '--split-sentences', 'sentences'], '--split-sentences must be none, newline, punct, t-tags or marker:STR'],
    [['-m', 'rouge-1', '--rouge-tokenizer', 'moses'], 'unknown tokenizer "moses" (expected one of: rouge155, rouge-score, rouge-unicode, 13a'],
    [['-m', 'rouge-1', '--rouge-limit', '100'], '--rouge-limit must be a number of words or bytes such as 100w or 665b'],
    [['-m', 'rouge-1', '--rouge-limit', '100w'], '--rouge-limit must be unset outside the rouge155 flavor'],
    [['-m', 'rouge-w', '--rouge-w-weight', '-1'], '--rouge-w-weight must be a number > 0'],
    [['-m', 'rouge-1', '--rouge-average', 'mean'], '--rouge-average must be one of segment, pooled'],
  ])('%j', async (flags, ...fragments) => {
    const r = await palette(['score', f('ref.txt'), '-i', f('a.txt'), ...flags]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.startsWith('palette: error: ')).toBe(true);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    for (const fragment of fragments) expect(r.err).toContain(fragment);
  });
});

describe('help and commands', () => {
  it('palette --help lists rouge155; an unknown command names both commands', async () => {
    const help = await palette(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^ {2}rouge155 +ROUGE-1\.5\.5\.pl drop-in/m);
    expect(help.out).toContain('palette rouge155 -h');
    const unknown = await palette(['rouge-score']);
    expect([unknown.code, unknown.out, unknown.err]).toEqual([
      2,
      '',
      'palette: error: unknown command "rouge-score" (expected score, rouge155, nbest, extractor, orange, correlate, report, mert, pro, kbmira, pairwise, mbr, worker, queue or serve; see "palette --help")\n',
    ]);
  });

  it('palette score --help documents the ROUGE metrics and flags', async () => {
    const help = await palette(['score', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Metrics: bleu, chrf, nist, ter, wer, per, cer, gleu, ribes, meteor, gtm, paraeval, impact, npchunk, rouge-N, rouge-l, rouge-lsum, rouge-w[-WEIGHT], rouge-sD, rouge-suD, rouge-s*, rouge-su*.');
    for (const flag of ['--rouge-flavor', '--rouge-w-weight', '--stem', '--stopwords', '--rouge-alpha', '--rouge-beta', '--rouge-multi-ref', '--split-sentences', '--rouge-tokenizer', '--rouge-limit', '--rouge-average', '--rouge-jackknife']) {
      expect(help.out).toContain(flag);
    }
  });

  it('palette rouge155 -h prints ROUGE-1.5.5\'s usage on stdout', async () => {
    const r = await palette(['rouge155', '-h']);
    expect([r.code, r.err]).toEqual([0, '']);
    expect(r.out.startsWith('palette rouge155\n         [-a (evaluate all systems)]\n')).toBe(true);
    expect(r.out).toContain('<ROUGE-eval-config-file> [<systemID>]');
  });
});
