/**
 * CER against a slice of jiwer 4.0's `process_characters` values that ships with the repository
 * (test/fixtures/cer/, 120 lines of WMT21 en-de and newstest2015 en-ru): per line the hits, substitutions, deletions
 * and insertions exactly and the rate at golden tolerance; then the behaviour jiwer defines around the edges.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Cer } from '../src/metrics/cer/cer.js';
import { sentenceScore, sumRows } from '../src/metrics/metric.js';
import { goldenClose } from './helpers/shared-data.js';

interface Line {
  hyp_file: string;
  line: number;
  hyp: string;
  ref: string;
  cer: number;
  hits: number;
  substitutions: number;
  deletions: number;
  insertions: number;
}

const LINES: Line[] = readFileSync(new URL('fixtures/cer/jiwer-cer-lines.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as Line);

describe('CER = jiwer 4.0 (fixture slice)', () => {
  it('every line: counts exactly, rate at 1e-9', () => {
    const cer = new Cer();
    const refs = cer.prepareReferences([LINES.map((l) => l.ref)]);
    const rows = cer.segmentStats(LINES.map((l) => l.hyp), refs);
    LINES.forEach((l, i) => {
      const row = rows.subarray(4 * i, 4 * i + 4);
      expect(Array.from(row), `${l.hyp_file}:${l.line}`).toEqual([l.hits, l.substitutions, l.deletions, l.insertions]);
      const score = cer.sentenceScoreFromStats(row).score;
      expect(goldenClose(score, l.cer), `${l.hyp_file}:${l.line} ${score} vs ${l.cer}`).toBe(true);
    });
    const pooled = sumRows(rows, 4);
    const h = LINES.reduce((a, l) => a + l.hits, 0);
    const e = LINES.reduce((a, l) => a + l.substitutions + l.deletions + l.insertions, 0);
    const n = LINES.reduce((a, l) => a + l.hits + l.substitutions + l.deletions, 0);
    expect(pooled[0]).toBe(h);
    expect(cer.scoreFromStats(pooled).score).toBe(e / n);
  });
});

describe('CER behaviour', () => {
  const cer = new Cer();
  it('strips the ends (Python whitespace) but counts inner spaces, runs not collapsed', () => {
    // ' a  b\u00a0' → 'a  b' (4 characters): against 'a b' one deletion of a space.
    const s = sentenceScore(cer, ' a  b\u00a0', ['a b']);
    expect(s.details).toMatchObject({ hits: 3, substitutions: 0, deletions: 0, insertions: 1 });
    expect(s.score).toBe(1 / 3);
  });
  it('a character outside the BMP is one unit', () => {
    const s = sentenceScore(cer, 'a😀b', ['a😁b']);
    expect(s.details).toMatchObject({ hits: 2, substitutions: 1, deletions: 0, insertions: 0 });
  });
  it('hypothesis characters no reference has match nothing', () => {
    const s = sentenceScore(cer, 'xyz', ['abc']);
    expect(s.details).toMatchObject({ hits: 0, substitutions: 3 });
    expect(s.score).toBe(1);
  });
  it('empty hypothesis: every reference character deleted, CER 1', () => {
    expect(sentenceScore(cer, '', ['abcd']).score).toBe(1);
  });
  it("empty reference: jiwer's value, the number of insertions", () => {
    expect(sentenceScore(cer, 'ab', ['']).score).toBe(2);
    expect(sentenceScore(cer, '', ['']).score).toBe(0);
  });
  it('case-sensitive by default, lowercase on request', () => {
    expect(sentenceScore(cer, 'ABC', ['abc']).score).toBe(1);
    expect(sentenceScore(new Cer({ lowercase: true }), 'ABC', ['abc']).score).toBe(0);
  });
  it('several references: the one with the fewest edits', () => {
    const s = sentenceScore(cer, 'abcd', ['xxxx', 'abce']);
    expect(s.details).toMatchObject({ hits: 3, substitutions: 1 });
  });
  it('signature', () => {
    expect(cer.signature(1)).toMatch(/^nrefs:1\|case:mixed\|version:/);
    expect(new Cer({ lowercase: true }).signature(2, true)).toMatch(/^#:2\|c:lc\|v:/);
  });
});
