/**
 * `palette orange` on the real n-best lists of ../shared/data (skipped when ../shared is absent):
 * - joshua-bn-en: two Joshua 10-best lists (output.gold, output-classlm.gold) with 4 references, every variant of
 *   the paper in one run; selected variants against the plain oracle of test/reference/orange.ts;
 * - moses-mert: Moses n-best lists with one reference, which ORANGE cannot rank (an error naming the file), and the
 *   same reference given twice (identical references tie at the top of every list).
 */
import { describe, expect, it } from 'vitest';
import { runOrangeCommand } from '../src/cli/orange/command.js';
import { readLines } from '../src/node/read-lines.js';
import { orangeOfTerms } from '../src/meta/orange/orange.js';
import { parseOrangeMetrics } from '../src/meta/orange/variants.js';
import { cliRunner } from './helpers/cli.js';
import { haveShared, sharedPath } from './helpers/shared-data.js';
import { referenceOrangeTerms, type OrangeCase } from './reference/orange.js';

const JOSHUA = sharedPath('data/joshua-bn-en/');
const MOSES = sharedPath('data/moses-mert/mert.extractor-txt/data/');
const JOSHUA_REFS = [0, 1, 2, 3].map((j) => `${JOSHUA}reference.en.${j}`);

const orange = cliRunner([], runOrangeCommand);

interface JsonReport {
  sentences: number;
  candidates: number;
  references: number;
  metrics: { name: string; orange: number; ci?: [number, number] }[];
}

const ALL = ['bleus1-9', 'nist', 'rouge-l', 'rouge-w-1.1-2.0', 'rouge-s0-9', 'rouge-s*', 'rouge-su0-9', 'wer', 'per'];

function oracleCase(nbest: string, refs: string[]): OrangeCase {
  const byId = new Map<number, string[]>();
  for (const line of readLines(nbest)) {
    if (line.length === 0) continue;
    const [id, hyp] = line.split('|||');
    const k = Number(id.trim());
    byId.set(k, [...(byId.get(k) ?? []), hyp]);
  }
  return { refStreams: refs.map((r) => readLines(r)), sentences: [...byId].map(([id, candidates]) => ({ id, candidates })) };
}

describe.skipIf(!haveShared('data/joshua-bn-en/'))('palette orange on Joshua bn-en (../shared)', () => {
  it.each([
    ['output.gold', 805],
    ['output-classlm.gold', 678],
  ])('%s: every variant of the paper in one pass, ORANGE in (0, 1), bootstrap CIs around it', async (file, candidates) => {
    const r = await orange(['--nbest', `${JOSHUA}${file}`, '-r', ...JOSHUA_REFS, '-m', ...ALL, '-f', 'json', '--bootstrap', '300']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as JsonReport;
    expect(report).toMatchObject({ sentences: 100, candidates, references: 4 });
    expect(report.metrics).toHaveLength(9 + 1 + 1 + 10 + 10 + 1 + 10 + 2);
    for (const m of report.metrics) {
      expect(m.orange).toBeGreaterThan(0);
      expect(m.orange).toBeLessThan(1);
      expect(m.ci![0]).toBeLessThanOrEqual(m.orange);
      expect(m.ci![1]).toBeGreaterThanOrEqual(m.orange);
    }
  });

  it('output.gold: BLEUS4, NIST, ROUGE-L, ROUGE-W-1.2, ROUGE-S4, WER, PER equal the plain oracle', async () => {
    const names = ['bleus4', 'nist', 'rouge-l', 'rouge-w-1.2', 'rouge-s4', 'wer', 'per'];
    const r = await orange(['--nbest', `${JOSHUA}output.gold`, '-r', ...JOSHUA_REFS, '-m', ...names, '-f', 'json', '--bootstrap', '0']);
    const report = JSON.parse(r.out) as JsonReport;
    const c = oracleCase(`${JOSHUA}output.gold`, JOSHUA_REFS);
    for (const v of parseOrangeMetrics(names)) {
      const expected = orangeOfTerms(Float64Array.from(referenceOrangeTerms(v, c)));
      expect({ name: v.name, orange: report.metrics.find((m) => m.name === v.name)!.orange }).toEqual({ name: v.name, orange: expected });
    }
  }, 60_000);
});

describe.skipIf(!haveShared('data/moses-mert/mert.extractor-txt/data/'))('palette orange on the Moses MERT n-best lists (../shared)', () => {
  it('one reference: an error naming the reference file, exit 2', async () => {
    const r = await orange(['--nbest', `${MOSES}nbest.1`, '-r', `${MOSES}reference`, '-m', 'bleus4']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `palette orange: error: ${MOSES}reference: ORANGE needs at least 2 references per sentence (got 1 reference file): ` +
        'each reference is ranked against the others\n',
    );
  });

  it.each(['nbest.1', 'nbest.5'])('%s with its reference twice: identical references tie at the top', async (file) => {
    const refs = [`${MOSES}reference`, `${MOSES}reference`];
    const r = await orange(['--nbest', `${MOSES}${file}`, '-r', ...refs, '-m', 'bleus4', 'rouge-l', 'rouge-s4', 'wer', 'per', '-f', 'json', '--bootstrap', '0']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as JsonReport;
    expect(report.sentences).toBe(10);
    const c = oracleCase(`${MOSES}${file}`, refs);
    for (const m of report.metrics) {
      const v = parseOrangeMetrics([m.name])[0];
      // Each reference scores perfectly against its twin, so both take (at worst shared) top ranks: a term is
      // at most (2 + 1 + ties with perfect candidates) / 2 / (N + 1), far below 1.
      expect(m.orange).toBeGreaterThan(0);
      expect(m.orange).toBeLessThan(0.1);
      expect(m.orange).toBe(orangeOfTerms(Float64Array.from(referenceOrangeTerms(v, c))));
    }
  }, 60_000);
});
