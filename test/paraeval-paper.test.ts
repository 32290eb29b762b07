/**
 * ParaEval on the worked example of seed 001 §3.3 / Figure 4 (test/fixtures/paraeval, built to the paper's numbers):
 * modified unigram precision 4/5 where BLEU gives 2/5, the clip of 2 from Ref 1, and the single-reference recall
 * and multi-reference rules of src/metrics/paraeval/match.ts worked out by hand.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { corpusScore, sentenceScores } from '../src/metrics/metric.js';
import { ParaEval } from '../src/metrics/paraeval/paraeval.js';
import { loadParaphraseTable, parseParaphraseTable } from '../src/text/paraphrase/index.js';

const fixture = (name: string): string => new URL(`./fixtures/paraeval/${name}`, import.meta.url).pathname;
const fig4 = JSON.parse(readFileSync(fixture('fig4.json'), 'utf8')) as { candidate: string; references: string[] };
const table = loadParaphraseTable(fixture('fig4.tsv'));

describe('ParaEval, seed 001 Figure 4', () => {
  it('one set {blown up, bombing, explosion}', () => {
    expect(table.sets()).toEqual([['blown up', 'bombing', 'explosion']]);
    expect(table.setOfPhrase('explosion')).toBe(table.setOfPhrase('blown up'));
  });

  it('modified unigram precision 4/5 (3 words by paraphrase, "was" by identity)', () => {
    const metric = new ParaEval({ table });
    const refs = fig4.references.map((r) => [r]);
    const prepared = metric.prepareReferences(refs);
    const row = metric.segmentStats([fig4.candidate], prepared);
    expect(Array.from(row.subarray(0, 3))).toEqual([4, 3, 5]);
    const score = corpusScore(metric, [fig4.candidate], prepared);
    expect(score.score).toBe(4 / 5);
    expect(score.details?.precision).toBe(4 / 5);
  });

  it('where BLEU gives 2/5', () => {
    const bleu = corpusScore(new Bleu(), [fig4.candidate], fig4.references.map((r) => [r]));
    expect((bleu.details?.counts as number[])[0]).toBe(2);
    expect((bleu.details?.totals as number[])[0]).toBe(5);
  });

  it('the clip is 2, from Ref 1: with Ref 2 alone one phrase matches', () => {
    const metric = new ParaEval({ table });
    const onlyRef2 = metric.segmentStats([fig4.candidate], metric.prepareReferences([[fig4.references[1]]]));
    // "blown up" (longest first) matches Ref 2's "explosion"; "bombing" and "was" are left, and Ref 2 has neither.
    expect(Array.from(onlyRef2)).toEqual([2, 2, 5, 1, 1, 5]);
    const onlyRef1 = metric.segmentStats([fig4.candidate], metric.prepareReferences([[fig4.references[0]]]));
    expect(Array.from(onlyRef1)).toEqual([4, 3, 5, 3, 2, 10]);
  });

  it('recall against each single reference, added up: (3 + 1) / (10 + 5)', () => {
    const metric = new ParaEval({ table, score: 'recall' });
    const [score] = sentenceScores(metric, [fig4.candidate], fig4.references.map((r) => [r]));
    expect(score.score).toBe(4 / 15);
    expect(score.details).toMatchObject({ refMatched: 4, refParaphrase: 3, refLength: 15, recall: 4 / 15 });
  });

  it('minimum phrase length 2 leaves only "blown up": no paraphrase match, BLEU-like 2/5', () => {
    const short = parseParaphraseTable(readFileSync(fixture('fig4.tsv'), 'utf8'), 'fig4.tsv', { minWords: 2 });
    expect(short.sets()).toEqual([['blown up']]);
    const metric = new ParaEval({ table: short });
    const row = metric.segmentStats([fig4.candidate], metric.prepareReferences(fig4.references.map((r) => [r])));
    expect(Array.from(row.subarray(0, 3))).toEqual([2, 0, 5]);
  });

  it('signature names the table, its hash, format, minimum length, case and score', () => {
    const metric = new ParaEval({ table });
    expect(metric.signature(2)).toMatch(
      /^nrefs:2\|case:mixed\|tok:13a\|table:fig4\.tsv@[0-9a-f]{8}\|pfmt:tsv\|minw:1\|ratio:p\|version:/,
    );
    expect(metric.signature(1, true)).toMatch(/^#:1\|c:mixed\|tok:13a\|pt:fig4\.tsv@[0-9a-f]{8}\|pf:tsv\|mw:1\|ra:p\|v:/);
  });
});
