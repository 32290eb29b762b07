/**
 * `palette correlate` through the `palette` dispatcher: system and segment level, text and JSON, every accepted file
 * shape (TSV, one JSON-lines file per system, a JSON array of system scores), document resampling, and every bad
 * input as exit status 2 with one line naming the file and line. Values are checked against the O(n²) oracles of
 * test/reference/correlation.ts on the fixture data (test/fixtures/correlate/cli).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { corpusScore, sentenceScores } from '../src/metrics/metric.js';
import { cliRunner, expectInputError } from './helpers/cli.js';
import { kendallTauBRef, pearsonRef, spearmanRef } from './reference/correlation.js';

const FIX = fileURLToPath(new URL('./fixtures/correlate/cli/', import.meta.url));
const fx = (name: string): string => join(FIX, name);
let dir: string;
const tmp = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'palette-correlate-'));
});
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const palette = cliRunner(['correlate']);

/** The fixture as plain arrays: rows of (system, seg_id, score). */
function rows(file: string): { system: string; seg: string; score: number }[] {
  const [head, ...lines] = readFileSync(fx(file), 'utf8').trimEnd().split('\n');
  const cols = head.split('\t');
  return lines.map((l) => {
    const cells = l.split('\t');
    const get = (c: string): string => cells[cols.indexOf(c)];
    return { system: get('system'), seg: get('seg_id'), score: Number(get('score')) };
  });
}
const human = rows('human.tsv');
const metric = rows('metric.tsv');
const metricOf = (s: string, seg: string): number => metric.find((m) => m.system === s && m.seg === seg)!.score;
const systems = ['A', 'B', 'C', 'D'];
const mean = (a: number[]): number => a.reduce((x, y) => x + y, 0) / a.length;
const sysHuman = systems.map((s) => mean(human.filter((h) => h.system === s).map((h) => h.score)));
const sysMetric = systems.map((s) => mean(metric.filter((h) => h.system === s).map((h) => h.score)));
const segHuman = human.map((h) => h.score);
const segMetric = human.map((h) => metricOf(h.system, h.seg));

interface JsonOut {
  level: string;
  systems: number;
  segments: number;
  pairs: number;
  bootstrap: { resamples: number; unit: string; units: number; seed: number };
  left_out?: { unrated: number; human_only: number; metric_only: number; systems: string[] };
  correlations: { method: string; value: number | null; ci: [number, number] | null; resamples: number; undefined_resamples: number }[];
  system_scores?: { system: string; metric: number; human: number }[];
}

function close(a: number | null, b: number): void {
  expect(a).not.toBeNull();
  expect(Math.abs(a! - b)).toBeLessThanOrEqual(1e-12);
}

describe('palette correlate: results', () => {
  it('system level from segment scores (JSON): system means, oracle values, a CI around the value', async () => {
    const r = await palette(['--metric', fx('metric.tsv'), '--human', fx('human.tsv'), '-f', 'json', '--bootstrap', '200']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as JsonOut;
    expect(j.level).toBe('system');
    expect(j.systems).toBe(4);
    expect(j.segments).toBe(5);
    expect(j.system_scores!.map((s) => s.system)).toEqual(systems);
    j.system_scores!.forEach((s, k) => {
      close(s.human, sysHuman[k]);
      close(s.metric, sysMetric[k]);
    });
    const want = { pearson: pearsonRef(sysMetric, sysHuman), spearman: spearmanRef(sysMetric, sysHuman), kendall: kendallTauBRef(sysMetric, sysHuman) };
    expect(j.correlations.map((c) => c.method)).toEqual(['pearson', 'spearman', 'kendall']);
    for (const c of j.correlations) {
      close(c.value, want[c.method as keyof typeof want]);
      expect(c.resamples).toBe(200);
      expect(c.ci![0]).toBeLessThanOrEqual(c.ci![1]);
      expect(c.ci![0]).toBeGreaterThanOrEqual(-1);
      expect(c.ci![1]).toBeLessThanOrEqual(1);
    }
    expect(j.bootstrap).toMatchObject({ resamples: 200, unit: 'segment', units: 5, seed: 12345 });
  });

  it('segment level, one JSON-lines file per system (palette score -sl -f json shape), same as the TSV', async () => {
    const perSystem = systems.map((s) => `${s}=${fx(`${s}.jsonl`)}`);
    const a = await palette(['--metric', ...perSystem, '--human', fx('human.tsv'), '--level', 'segment', '-f', 'json', '--method', 'pearson,kendall,wmt']);
    const b = await palette(['--metric', fx('metric.tsv'), '--human', fx('human.tsv'), '--level', 'segment', '-f', 'json', '--method', 'pearson,kendall,wmt']);
    expect(a.code).toBe(0);
    const ja = JSON.parse(a.out) as JsonOut;
    const jb = JSON.parse(b.out) as JsonOut;
    expect(ja.correlations).toEqual(jb.correlations);
    expect(ja.pairs).toBe(20);
    close(ja.correlations[0].value, pearsonRef(segMetric, segHuman));
    close(ja.correlations[1].value, kendallTauBRef(segMetric, segHuman));
  });

  it('text output: a header, the method lines with CIs; same seed same text, other seed other CIs', async () => {
    const argv = ['--metric', fx('metric.tsv'), '--human', fx('human.tsv'), '--level', 'segment', '--bootstrap', '100'];
    const a = await palette(argv);
    const b = await palette(argv);
    const c = await palette([...argv, '--seed', '7']);
    expect(a.out).toBe(b.out);
    expect(a.out).not.toBe(c.out);
    const lines = a.out.trimEnd().split('\n');
    expect(lines[0]).toBe('segment level: 20 (system, segment) pairs, 4 systems, 5 segments');
    expect(lines[3]).toBe('95% CI: percentile bootstrap, 100 resamples of 5 segments, seed 12345');
    expect(lines[4]).toMatch(/^pearson {3}\s*-?\d\.\d{4} {2}\[-?\d\.\d{4}, -?\d\.\d{4}\]$/);
    expect(lines).toHaveLength(7);
  });

  it('resampling documents (3 documents) and system-level human scores from a JSON array', async () => {
    const d = await palette(['--metric', fx('metric.tsv'), '--human', fx('human.tsv'), '--human-doc', 'doc', '--resample', 'document', '-f', 'json']);
    expect(d.code).toBe(0);
    expect((JSON.parse(d.out) as JsonOut).bootstrap).toMatchObject({ unit: 'document', units: 3, resamples: 1000 });
    const s = await palette(['--metric', fx('metric.tsv'), '--human', fx('human-system.json'), '--human-score', 'z', '-f', 'json']);
    expect(s.code).toBe(0);
    const j = JSON.parse(s.out) as JsonOut;
    close(j.correlations[0].value, pearsonRef(sysMetric, sysHuman));
    // The human side is fixed; the metric side is resampled.
    expect(j.correlations[0].resamples).toBe(1000);
  });

  it('one palette score -f json object per system (SYSTEM=FILE) is a system-level metric file', async () => {
    const files = systems.map((s, k) => `${s}=${tmp(`${s}-corpus.json`, JSON.stringify({ name: 'BLEU', score: sysMetric[k], signature: 'x' }, null, 1) + '\n')}`);
    const r = await palette(['--metric', ...files, '--human', fx('human.tsv'), '-f', 'json', '--bootstrap', '0']);
    expect(r.err).toBe('');
    const j = JSON.parse(r.out) as JsonOut;
    expect(j.segments).toBe(5);
    close(j.correlations[0].value, pearsonRef(sysMetric, sysHuman));
  });

  it('--human-fixed: same point values as the system-level human file, same resamples', async () => {
    const a = await palette(['--metric', fx('metric.tsv'), '--human', fx('human.tsv'), '--human-fixed', '-f', 'json', '--bootstrap', '100']);
    const b = await palette(['--metric', fx('metric.tsv'), '--human', fx('human-system.json'), '--human-score', 'z', '-f', 'json', '--bootstrap', '100']);
    const ja = JSON.parse(a.out) as JsonOut;
    const jb = JSON.parse(b.out) as JsonOut;
    ja.correlations.forEach((c, k) => {
      close(c.value, jb.correlations[k].value!);
      close(c.ci![0], jb.correlations[k].ci![0]);
      close(c.ci![1], jb.correlations[k].ci![1]);
    });
  });

  it('both sides system-level: correlations without CI, said so in text', async () => {
    const m = tmp('sys-metric.tsv', `system\tscore\n${systems.map((s, k) => `${s}\t${sysMetric[k]}`).join('\n')}\n`);
    const r = await palette(['--metric', m, '--human', fx('human-system.json'), '--human-score', 'z']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('no CI: both files are system-level');
    expect(r.out).toContain(`pearson    ${pearsonRef(sysMetric, sysHuman).toFixed(4)}\n`);
  });

  it('--allow-missing restricts to rated keys and prints the counts', async () => {
    const h = tmp('h-unrated.tsv', 'system\tseg_id\tscore\nA\t1\t1\nA\t2\t\nB\t1\t3\nB\t2\t2\nE\t1\t1\n');
    const m = tmp('m-extra.tsv', 'system\tseg_id\tscore\nA\t1\t0.1\nA\t2\t0.2\nA\t3\t0.3\nB\t1\t0.5\nB\t2\t0.1\n');
    const r = await palette(['--metric', m, '--human', h, '--allow-missing', '--level', 'segment', '--method', 'pearson']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      'left out (--allow-missing): 1 unrated human records, 0 human records without a metric score, ' +
        '2 metric records without a human score; systems on one side only: E',
    );
    expect(r.out).toContain('3 (system, segment) pairs');
  });

  it('-m bleu from outputs: system scores are corpus BLEU (summed statistics), segments sentence BLEU', async () => {
    const ref = tmp('ref.txt', 'the cat sat on the mat\na dog barks at night\nrain falls in spain\nwe like green tea\nthis is a test\n');
    const outputs: Record<string, string[]> = {
      A: ['the cat sat on a mat', 'a dog barks at night', 'rain falls on spain', 'we like tea', 'this is the test'],
      B: ['a cat is on the mat', 'dogs bark at night', 'the rain in spain', 'we like green tea', 'this a test'],
      C: ['cat mat', 'dog night', 'rain spain falls', 'green tea we like', 'test'],
      D: ['the cat sat on the mat', 'a dog barks at the night', 'rain falls mainly in spain', 'we like green tea', 'this is a test'],
    };
    const hyps = systems.map((s) => `${s}=${tmp(`${s}.txt`, outputs[s].join('\n') + '\n')}`);
    const refLines = readFileSync(ref, 'utf8').trimEnd().split('\n');
    const corpus = systems.map((s) => corpusScore(new Bleu(), outputs[s], [refLines]).score);
    const j = JSON.parse((await palette(['-m', 'bleu', '-r', ref, '--hyp', ...hyps, '--human', fx('human.tsv'), '-f', 'json', '--bootstrap', '50'])).out) as JsonOut;
    j.system_scores!.forEach((s, k) => close(s.metric, corpus[k]));
    close(j.correlations[0].value, pearsonRef(corpus, sysHuman));
    const seg = JSON.parse((await palette(['-m', 'bleu', '-r', ref, '--hyp', ...hyps, '--human', fx('human.tsv'), '-f', 'json', '--level', 'segment'])).out) as JsonOut;
    const sentence = new Map(systems.map((s) => [s, sentenceScores(new Bleu(), outputs[s], [refLines]).map((x) => x.score)]));
    const x = human.map((h) => sentence.get(h.system)![Number(h.seg) - 1]);
    close(seg.correlations[0].value, pearsonRef(x, segHuman));
  });

  it('-m with --segment-ids: segments named by an id file (SummEval doc_ids.txt shape)', async () => {
    const ref = tmp('ref3.txt', 'a b c d\ne f g h\n');
    const ids = tmp('ids.txt', 'doc-x\ndoc-y\n');
    const hyps = ['A', 'B', 'C'].map((s, k) => `${s}=${tmp(`h3${s}.txt`, k === 0 ? 'a b c d\ne f g h\n' : k === 1 ? 'a b c\ne f\n' : 'a\nh\n')}`);
    const human = tmp('h3.tsv', 'doc_id\tsystem\tscore\ndoc-x\tA\t5\ndoc-y\tA\t4\ndoc-x\tB\t3\ndoc-y\tB\t3.5\ndoc-x\tC\t1\ndoc-y\tC\t2\n');
    const r = await palette(['-m', 'bleu', '-r', ref, '--hyp', ...hyps, '--segment-ids', ids, '--human', human, '--level', 'segment', '--bootstrap', '0', '-f', 'json']);
    expect(r.err).toBe('');
    const j = JSON.parse(r.out) as JsonOut;
    expect(j.pairs).toBe(6);
    const dupIds = tmp('dup-ids.txt', 'doc-x\ndoc-x\n');
    const bad = await palette(['-m', 'bleu', '-r', ref, '--hyp', ...hyps, '--segment-ids', dupIds, '--human', human]);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(`palette correlate: error: ${dupIds}:2: duplicate segment id "doc-x" (first at line 1)\n`);
    const shortIds = tmp('short-ids.txt', 'doc-x\n');
    const short = await palette(['-m', 'bleu', '-r', ref, '--hyp', ...hyps, '--segment-ids', shortIds, '--human', human]);
    expect(short.err).toBe(`palette correlate: error: ${shortIds}: has 1 lines but the references have 2\n`);
  });

  it('--help', async () => {
    const r = await palette(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: palette correlate \(--metric FILE/);
  });
});

describe('palette correlate: bad input is exit 2 with one line naming file and line', () => {
  async function fails(argv: string[], message: RegExp): Promise<void> {
    expectInputError(await palette(argv), 'correlate', message);
  }
  const good = (): string[] => ['--metric', fx('metric.tsv'), '--human', fx('human.tsv')];

  it('an empty (0-byte) human or metric file says what the file should hold, not "one segment per line"', async () => {
    const none = tmp('none.tsv', '');
    await fails(['--metric', fx('metric.tsv'), '--human', none], new RegExp(`${none}: empty file: expected a header line naming the columns, then one score record per line`));
    await fails(['--metric', none, '--human', fx('human.tsv')], new RegExp(`${none}: empty file: expected a header line`));
  });

  it('NaN, empty, non-numeric scores and duplicate keys in the human file', async () => {
    const nan = tmp('nan.tsv', 'system\tseg_id\tscore\nA\t1\t1\nA\t2\tnan\n');
    await fails(['--metric', fx('metric.tsv'), '--human', nan], new RegExp(`${nan}:3: score is NaN`));
    const empty = tmp('empty.tsv', 'system\tseg_id\tscore\nA\t1\t\n');
    await fails(['--metric', fx('metric.tsv'), '--human', empty], new RegExp(`${empty}:2: empty score`));
    const word = tmp('word.tsv', 'system\tseg_id\tscore\nA\t1\tgood\n');
    await fails(['--metric', fx('metric.tsv'), '--human', word], new RegExp(`${word}:2: score is not a number: "good"`));
    const dup = tmp('dup.tsv', 'system\tseg_id\tscore\nA\t1\t1\nB\t1\t1\nA\t1\t2\n');
    await fails(['--metric', fx('metric.tsv'), '--human', dup], new RegExp(`${dup}:4: duplicate score for system "A", seg_id "1" \\(first at line 2\\)`));
  });

  it('missing systems and segments relative to the metric scores, both ways', async () => {
    const fewerSegs = tmp('few.tsv', `system\tseg_id\tscore\n${systems.flatMap((s) => ['1', '2', '3', '4'].map((i) => `${s}\t${i}\t1`)).join('\n')}\n`);
    await fails(['--metric', fx('metric.tsv'), '--human', fewerSegs], new RegExp(`${fx('metric.tsv')}:6: no human score for system "D", seg_id "5"`));
    const moreSystems = tmp('more.tsv', readFileSync(fx('human.tsv'), 'utf8') + 'E\t1\td1\t3\n');
    await fails(['--metric', fx('metric.tsv'), '--human', moreSystems], new RegExp(`${moreSystems}:22: system "E" has human scores but no metric scores`));
    await fails(['--metric', `A=${fx('A.jsonl')}`, `B=${fx('B.jsonl')}`, '--human', fx('human.tsv')], /human.tsv:12: system "C" has human scores but no metric scores/);
    const extraSeg = tmp('extra.jsonl', readFileSync(fx('A.jsonl'), 'utf8') + '{"score": 1}\n');
    const argv = ['--metric', `A=${extraSeg}`, ...['B', 'C', 'D'].map((s) => `${s}=${fx(`${s}.jsonl`)}`), '--human', fx('human.tsv')];
    await fails(argv, new RegExp(`${extraSeg}:6: no human score for system "A", segment "6"`));
  });

  it('missing files, columns and malformed lines', async () => {
    await fails(['--metric', fx('metric.tsv'), '--human', join(dir, 'nope.tsv')], /nope.tsv: no such file/);
    await fails([...good(), '--human-score', 'mqm'], /human.tsv:1: no score column "mqm" in the header \(columns: system, seg_id, doc, score\)/);
    const short = tmp('short.tsv', 'system\tseg_id\tscore\nA\t1\n');
    await fails(['--metric', short, '--human', fx('human.tsv')], new RegExp(`${short}:2: expected 3 tab-separated fields`));
    const badJson = tmp('bad.jsonl', '{"score": 1}\n{"score": \n');
    await fails(['--metric', `A=${badJson}`, '--human', fx('human.tsv')], new RegExp(`${badJson}:2: invalid JSON`));
  });

  it('usage errors', async () => {
    await fails(['--human', fx('human.tsv')], /metric scores are required/);
    await fails(['--metric', fx('metric.tsv')], /human scores are required/);
    await fails([...good(), '--method', 'pearson,cosine'], /--method must be a list of pearson, spearman, kendall, wmt \(got "cosine"\)/);
    await fails([...good(), '--level', 'corpus'], /--level must be system or segment/);
    await fails([...good(), '--bootstrap', '-3'], /--bootstrap/);
    await fails([...good(), '--confidence', '95'], /--confidence must be a number between 0 and 1/);
    await fails([...good(), '--resample', 'document'], /--resample document needs the document column/);
    await fails(['--metric', fx('metric.tsv'), fx('metric.tsv'), '--human', fx('human.tsv')], /must each name their system/);
    await fails(['--metric', fx('metric.tsv'), '--human', fx('human-system.json'), '--human-score', 'z', '--level', 'segment'], /human-system.json: segment-level correlation needs segment scores on both sides/);
    await fails([...good(), '--frobnicate'], /unrecognized option "--frobnicate"/);
    await fails(['-m', 'bleu', '--hyp', `A=${fx('A.jsonl')}`, '--human', fx('human.tsv')], /-m needs references/);
    await fails(['-m', 'bleu', '-r', fx('A.jsonl'), '--human', fx('human.tsv')], /-m needs system outputs/);
    await fails(['-m', 'bleu', '-r', fx('A.jsonl'), '--hyp', fx('B.jsonl'), '--human', fx('human.tsv')], /--hyp must be SYSTEM=FILE/);
    await fails([...good(), '-m', 'bleu'], /--metric and -m exclude each other/);
    await fails(['-m', 'blue', '-r', fx('A.jsonl'), '--hyp', `A=${fx('A.jsonl')}`, '--human', fx('human.tsv')], /unknown metric "blue"/);
  });

  it('-m: line-count mismatch names the output file', async () => {
    const ref = tmp('ref2.txt', 'a\nb\nc\n');
    const hyp = tmp('hyp2.txt', 'a\nb\n');
    await fails(['-m', 'bleu', '-r', ref, '--hyp', `A=${hyp}`, '--human', fx('human.tsv')], new RegExp(`${hyp}: has 2 lines but the references have 3`));
  });
});
