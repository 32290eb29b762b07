/**
 * sacrebleu-flavor BLEU from text (tokenizers, statistics, corpus and sentence scores, signatures) against sacrebleu
 * 2.6.0 on fixtures that ship with the repository (test/fixtures/bleu/SOURCE.md):
 * sacrebleu's own test_bleu.py / test_sentence_bleu.py literals (compared at their own EPSILON: the literals are
 * rounded), the first 200 WMT17 / 100 WMT21 segments with every sentence-level golden on them, and 100 of the
 * 1000 adversarial edge pairs. Goldens: floats relative 1e-9 (absolute 1e-12), integers and strings exact.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Bleu, characterBleu } from '../src/metrics/bleu/bleu.js';
import { corpusScore, sentenceScore, sumRows } from '../src/metrics/metric.js';
import {
  checkEdgePair,
  checkSentenceRecord,
  fixture,
  Mismatches,
  readJsonl,
  readLines,
  withVersion,
  type SentenceRecord,
} from './fixtures/bleu/golden.js';

const unit = JSON.parse(readFileSync(fixture('sacrebleu-unit-cases.json'), 'utf8'));
const testBleu = unit['test/test_bleu.py'];
const testSentence = unit['test/test_sentence_bleu.py'];

describe('sacrebleu test_bleu.py cases', () => {
  it('test_corpus_bleu_cases (tokenize 13a/none/intl, smooth none)', () => {
    for (const [hyps, refs, kwargs, expected] of testBleu.test_corpus_bleu_cases) {
      const bleu = new Bleu({
        tokenize: kwargs.tokenize,
        smoothMethod: kwargs.smooth_method,
        smoothValue: kwargs.smooth_value,
      });
      expect(Math.abs(corpusScore(bleu, hyps, refs).score - expected)).toBeLessThan(testBleu.EPSILON * 100);
    }
  });

  it('test_raw_bleu_cases / test_case_effective_order: raw_corpus_bleu = floor 0.01, tokenize none, effective order', () => {
    const bleu = new Bleu({ tokenize: 'none', smoothMethod: 'floor', smoothValue: 0.01, effectiveOrder: true });
    for (const [hyps, refs, expected] of [...testBleu.test_raw_bleu_cases, ...testBleu.test_case_effective_order]) {
      expect(Math.abs(corpusScore(bleu, hyps, refs).score / 100 - expected)).toBeLessThan(testBleu.EPSILON);
    }
  });

  it('test_case_statistics: matched and total n-grams', () => {
    for (const [hyps, refs, stats] of testBleu.test_case_statistics) {
      const bleu = new Bleu({ tokenize: 'none' });
      const totals = sumRows(bleu.segmentStats(hyps, bleu.prepareReferences(refs)), bleu.statsWidth);
      expect(Array.from(totals.subarray(2))).toEqual([...stats.args[0], ...stats.args[1]]);
    }
  });

  it('test_case_offset: raw_corpus_bleu with floor value 0 and with the default 0.1', () => {
    for (const [hyps, refs, withOffset, withoutOffset] of testBleu.test_case_offset) {
      const raw = (smoothValue?: number): number =>
        corpusScore(
          new Bleu({ tokenize: 'none', smoothMethod: 'floor', smoothValue, effectiveOrder: true }),
          hyps,
          refs,
        ).score / 100;
      expect(Math.abs(raw(0) - withoutOffset)).toBeLessThan(testBleu.EPSILON);
      expect(Math.abs(raw() - withOffset)).toBeLessThan(testBleu.EPSILON);
    }
  });

  it('test_bleu_max_order: orders 1..6 formatted %.2f', () => {
    for (const [order, hyps, refs, expected] of testBleu.test_bleu_max_order) {
      expect(corpusScore(new Bleu({ maxNgramOrder: order }), hyps, refs).score.toFixed(2)).toBe(expected);
    }
  });
});

describe('sacrebleu test_sentence_bleu.py cases', () => {
  it('every smoothing / tokenizer / case combination and the zero-BLEU list', () => {
    const { SYS, REF, SYS_0, REF_0 } = testSentence;
    const cases = [
      ...testSentence.test_cases.map((c: unknown[]) => [SYS, REF, ...c]),
      ...testSentence.test_cases_zero_bleu.map((c: unknown[]) => [SYS_0, REF_0, ...c]),
    ];
    for (const [sys, ref, smoothMethod, smoothValue, lowercase, tokenize, expected] of cases) {
      const bleu = new Bleu({
        smoothMethod,
        smoothValue: smoothValue ?? undefined,
        lowercase,
        tokenize,
        effectiveOrder: true,
      });
      expect(Math.abs(sentenceScore(bleu, sys, [ref]).score - expected), `${smoothMethod} ${tokenize}`).toBeLessThan(
        testSentence.EPSILON,
      );
    }
  });
});

/** The fixture text a golden record's hypothesis and references point at. */
function fixtureText(path: string): string[] {
  const name = path.split('/').pop()!;
  if (path.includes('wmt17-en-de'))
    return readLines(fixture(name === 'ref.de' ? 'wmt17-head.ref.de' : `wmt17-head.${name}`));
  return readLines(fixture(`wmt21-head.${name}`));
}

describe('sentence BLEU on the first WMT17/WMT21 segments (golden/sacrebleu bleu-sentence.*, char-bleu18)', () => {
  const records = readJsonl<SentenceRecord>(fixture('sentence-head.jsonl'));
  for (const r of records) {
    it(`${r.hyp.split('/').pop()} ×${r.refs.length} refs ${r.config.tokenize}${r.config.lowercase ? ' lc' : ''} ${r.config.smooth_method} eff=${r.config.effective_order} order ${r.config.max_ngram_order}`, () => {
      const m = new Mismatches();
      checkSentenceRecord(r, fixtureText(r.hyp), r.refs.map(fixtureText), m);
      expect(m.list, m.summary()).toEqual([]);
    });
  }

  it('character BLEU BLEUc18 is Bleu with the char tokenizer and order 18', () => {
    const b = characterBleu(18);
    expect(b.options.tokenize).toBe('char');
    expect(b.options.maxNgramOrder).toBe(18);
    expect(withVersion(b.signature(1))).toBe('nrefs:1|case:mixed|eff:no|tok:char|smooth:exp|version:2.6.0');
  });
});

describe('adversarial edge pairs (golden/edge/pairs_sacrebleu.jsonl, every tenth pair)', () => {
  const pairs = readJsonl(fixture('edge-pairs-sacrebleu.jsonl'));
  it(`matches statistics and every smoothing/tokenizer score on ${pairs.length} pairs`, () => {
    const m = new Mismatches();
    for (const p of pairs) checkEdgePair(p, m);
    expect(m.list, m.summary()).toEqual([]);
  });
});
