/**
 * BLEU behaviour that no single golden pins down: every path to a number agrees (sentence vs corpus API, batch of
 * one vs all, shared vs fresh references, order-N rows vs order-M rows, fast score vs full result), statistics equal
 * a naive oracle written from sacrebleu's definition on random inputs, options and errors, degenerate corpora.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { Bleu, chooseRefLength, resolveBleuOptions, type BleuOptions } from '../src/metrics/bleu/bleu.js';
import { linOchBleu, linOchBleuFromStats } from '../src/metrics/bleu/lin-och.js';
import { bleuFromStats, bleuScore, type BleuReduction } from '../src/metrics/bleu/score.js';
import { corpusScore, sentenceScore, sentenceScores, sumRows } from '../src/metrics/metric.js';
import { fixture, readLines, withVersion } from './fixtures/bleu/golden.js';

const hyps17 = readLines(fixture('wmt17-head.LIUM-NMT.4900.de')).slice(0, 60);
const refs17 = readLines(fixture('wmt17-head.ref.de')).slice(0, 60);
const hyps21 = readLines(fixture('wmt21-head.Facebook-AI.de')).slice(0, 40);
const refs21 = ['A', 'C', 'D'].map((r) => readLines(fixture(`wmt21-head.ref.${r}.de`)).slice(0, 40));

function rowsOf(bleu: Bleu, hyps: string[], refStreams: string[][]): Float64Array {
  return bleu.segmentStats(hyps, bleu.prepareReferences(refStreams));
}

describe('all paths agree', () => {
  it('sentenceScore (one segment at a time) equals the per-segment rows of a corpus pass', () => {
    const bleu = new Bleu();
    const all = sentenceScores(bleu, hyps21, refs21);
    hyps21.forEach((h, i) => {
      const one = sentenceScore(
        bleu,
        h,
        refs21.map((s) => s[i]),
      );
      expect(one).toEqual(all[i]);
    });
  });

  it('a batch of one gives the same row as the batch of all', () => {
    const bleu = new Bleu({ tokenize: 'intl', maxNgramOrder: 5 });
    const rows = rowsOf(bleu, hyps17, [refs17]);
    hyps17.forEach((h, i) => {
      const one = rowsOf(bleu, [h], [[refs17[i]]]);
      expect(Array.from(one)).toEqual(Array.from(rows.subarray(i * bleu.statsWidth, (i + 1) * bleu.statsWidth)));
    });
  });

  it('prepared references are immutable and shareable across systems', () => {
    const bleu = new Bleu();
    const prepared = bleu.prepareReferences(refs21);
    const other = hyps21.map((h) => h.split(' ').reverse().join(' ') + ' Zusatzwort');
    const first = bleu.segmentStats(hyps21, prepared);
    const second = bleu.segmentStats(other, prepared);
    expect(Array.from(bleu.segmentStats(hyps21, prepared))).toEqual(Array.from(first));
    expect(Array.from(second)).toEqual(Array.from(rowsOf(bleu, other, refs21)));
    // A second metric with the same text settings can use them too.
    expect(corpusScore(new Bleu({ smoothMethod: 'none' }), hyps21, prepared).score).toBe(
      corpusScore(new Bleu({ smoothMethod: 'none' }), hyps21, refs21).score,
    );
  });

  it('order-N rows are the first columns of order-M rows (M > N)', () => {
    const b2 = new Bleu({ maxNgramOrder: 2, tokenize: 'char' });
    const b6 = new Bleu({ maxNgramOrder: 6, tokenize: 'char' });
    const r2 = rowsOf(b2, hyps17, [refs17]);
    const r6 = rowsOf(b6, hyps17, [refs17]);
    for (let i = 0; i < hyps17.length; i++) {
      const a = r6.subarray(i * 14, (i + 1) * 14);
      expect(Array.from(r2.subarray(i * 6, (i + 1) * 6))).toEqual([a[0], a[1], a[2], a[3], a[8], a[9]]);
    }
  });

  it('bleuScore (no allocation) equals bleuFromStats for every smoothing and order', () => {
    const bleu = new Bleu({ maxNgramOrder: 6 });
    const rows = rowsOf(bleu, hyps17, [refs17]);
    const scratch = new Float64Array(18);
    for (const smoothMethod of ['none', 'floor', 'add-k', 'exp'] as const) {
      for (const effectiveOrder of [false, true]) {
        const red: BleuReduction = { maxNgramOrder: 6, smoothMethod, effectiveOrder };
        for (let i = 0; i < hyps17.length; i++) {
          expect(bleuScore(rows, red, i * 14, scratch)).toBe(bleuFromStats(rows, red, i * 14).score);
        }
        const totals = sumRows(rows, 14);
        expect(bleuScore(totals, red)).toBe(bleuFromStats(totals, red).score);
      }
    }
  });

  it('the lin-och flavor is sacrebleu add-k 1 without effective order, at sentence and corpus level', () => {
    const los = linOchBleu({ maxNgramOrder: 3 });
    const addk = new Bleu({ maxNgramOrder: 3, smoothMethod: 'add-k', smoothValue: 1, effectiveOrder: false });
    const rows = rowsOf(los, hyps17, [refs17]);
    for (let i = 0; i < hyps17.length; i++) {
      const row = rows.subarray(i * 8, (i + 1) * 8);
      expect(los.sentenceResult(row)).toEqual(addk.sentenceResult(row));
      expect(linOchBleuFromStats(row, 3)).toEqual(addk.sentenceResult(row));
    }
    expect(withVersion(los.signature(1))).toBe('nrefs:1|case:mixed|eff:no|tok:13a|smooth:add-k[1.00]|version:2.6.0');
  });
});

describe("statistics equal a naive oracle of sacrebleu's definition (random token sequences)", () => {
  /** sacrebleu's extract_all_word_ngrams + max-merge + clipping, written the obvious way. */
  function naiveRow(hyp: string[], refs: string[][], n: number): number[] {
    const grams = (t: string[]): Map<string, number> => {
      const m = new Map<string, number>();
      for (let k = 1; k <= n; k++)
        for (let i = 0; i + k <= t.length; i++) {
          const g = t.slice(i, i + k).join(' ');
          m.set(g, (m.get(g) ?? 0) + 1);
        }
      return m;
    };
    const refMax = new Map<string, number>();
    for (const r of refs) for (const [g, c] of grams(r)) refMax.set(g, Math.max(refMax.get(g) ?? 0, c));
    const correct = new Array(n).fill(0);
    const total = new Array(n).fill(0);
    for (const [g, c] of grams(hyp)) {
      const k = g.split(' ').length - 1;
      total[k] += c;
      correct[k] += Math.min(c, refMax.get(g) ?? 0);
    }
    let refLen = -1;
    for (const r of refs) {
      const d = Math.abs(hyp.length - r.length);
      if (refLen < 0 || d < Math.abs(hyp.length - refLen) || (d === Math.abs(hyp.length - refLen) && r.length < refLen))
        refLen = r.length;
    }
    return [hyp.length, refLen, ...correct, ...total];
  }

  const vocab = ['a', 'b', 'c', 'd', 'Ω', '🙂'];
  const lengths = fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constantFrom(63, 64, 65, 127, 128, 129));
  const sentence = lengths.chain((len) => fc.array(fc.constantFrom(...vocab), { minLength: len, maxLength: len }));
  const segment = fc.record({ hyp: sentence, refs: fc.array(sentence, { minLength: 1, maxLength: 3 }) });

  it('matches on random segments with 1–3 references, orders 1–6, lengths around 64 and 128', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 6 }), (segs, n) => {
        const nRefs = Math.min(...segs.map((s) => s.refs.length));
        const bleu = new Bleu({ tokenize: 'none', maxNgramOrder: n });
        const refStreams = Array.from({ length: nRefs }, (_, j) => segs.map((s) => s.refs[j].join(' ')));
        const rows = rowsOf(
          bleu,
          segs.map((s) => s.hyp.join(' ')),
          refStreams,
        );
        segs.forEach((s, i) => {
          expect(Array.from(rows.subarray(i * bleu.statsWidth, (i + 1) * bleu.statsWidth))).toEqual(
            naiveRow(s.hyp, s.refs.slice(0, nRefs), n),
          );
        });
      }),
      { numRuns: 150, seed: 20261122 },
    );
  });
});

describe('options', () => {
  it('resolves documented defaults', () => {
    expect(resolveBleuOptions()).toEqual({
      maxNgramOrder: 4,
      smoothMethod: 'exp',
      smoothValue: null,
      effectiveOrder: undefined,
      lowercase: false,
      tokenize: '13a',
      refLength: 'closest',
    });
    expect(resolveBleuOptions({ smoothMethod: 'floor' }).smoothValue).toBe(0.1);
    expect(resolveBleuOptions({ smoothMethod: 'add-k' }).smoothValue).toBe(1);
    expect(resolveBleuOptions({ smoothMethod: 'exp', smoothValue: 3 }).smoothValue).toBe(null);
  });

  it('effective order: off for corpus and on for sentence by default; an explicit value applies to both', () => {
    const d = new Bleu();
    expect(withVersion(d.signature(1))).toBe('nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0');
    expect(withVersion(d.sentenceSignature(1))).toBe('nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0');
    const row = [2, 2, 2, 1, 0, 0, 2, 1, 0, 0];
    expect(d.corpusResult(row).score).toBe(0);
    expect(d.sentenceResult(row).score).toBeGreaterThan(99);
    const off = new Bleu({ effectiveOrder: false });
    expect(off.sentenceResult(row).score).toBe(0);
    expect(withVersion(off.sentenceSignature(1))).toBe('nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0');
    expect(new Bleu({ effectiveOrder: true }).corpusResult(row).score).toBeGreaterThan(99);
  });

  it('signatures print case, tokenizer, smoothing value with two decimals, var references and non-default reflen', () => {
    expect(
      withVersion(
        new Bleu({ lowercase: true, tokenize: 'char', smoothMethod: 'floor', smoothValue: 0.01 }).signature(3),
      ),
    ).toBe('nrefs:3|case:lc|eff:no|tok:char|smooth:floor[0.01]|version:2.6.0');
    expect(withVersion(new Bleu({ smoothMethod: 'add-k', smoothValue: 2 }).signature(-1, true))).toBe(
      '#:var|c:mixed|e:no|tok:13a|s:add-k[2.00]|v:2.6.0',
    );
    expect(withVersion(new Bleu({ refLength: 'shortest' }).signature(2))).toBe(
      'nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|reflen:shortest|version:2.6.0',
    );
  });

  it('reference length strategies: closest (ties to the shorter), shortest, average', () => {
    const lens = [7, 13, 10, 14];
    expect(chooseRefLength('closest', 12, lens, 0, 4)).toBe(13);
    expect(chooseRefLength('closest', 12, [13, 11], 0, 2)).toBe(11);
    expect(chooseRefLength('shortest', 12, lens, 0, 4)).toBe(7);
    expect(chooseRefLength('average', 12, lens, 0, 4)).toBe(11);
    expect(chooseRefLength('closest', 12, lens, 1, 2)).toBe(13);
    const rows = new Bleu({ refLength: 'average', tokenize: 'none' }).segmentStats(
      ['a b c'],
      new Bleu({ refLength: 'average', tokenize: 'none' }).prepareReferences([['a b'], ['a b c d e']]),
    );
    expect(rows[1]).toBe(3.5);
  });

  const bad: [string, BleuOptions, string, RegExp][] = [
    ['order 0', { maxNgramOrder: 0 }, 'E_BAD_OPTION', /options\.maxNgramOrder must be an integer >= 1 \(got 0\)/],
    ['fractional order', { maxNgramOrder: 2.5 }, 'E_BAD_OPTION', /options\.maxNgramOrder/],
    [
      'unknown smoothing',
      { smoothMethod: 'laplace' as never },
      'E_BAD_OPTION',
      /options\.smoothMethod must be one of none, floor, add-k, exp/,
    ],
    [
      'NaN smoothing value',
      { smoothMethod: 'floor', smoothValue: NaN },
      'E_BAD_OPTION',
      /options\.smoothValue must be a finite number/,
    ],
    ['unknown tokenizer', { tokenize: 'moses' as never }, 'E_UNKNOWN_TOKENIZER', /unknown tokenizer "moses"/],
    [
      'unknown reflen',
      { refLength: 'longest' as never },
      'E_BAD_OPTION',
      /options\.refLength must be one of closest, shortest, average/,
    ],
    ['non-boolean lowercase', { lowercase: 'yes' as never }, 'E_BAD_OPTION', /options\.lowercase must be a boolean/],
  ];
  it.each(bad)('rejects %s', (_name, options, code, message) => {
    let err: unknown;
    try {
      new Bleu(options);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).code).toBe(code);
    expect((err as InputError).message).toMatch(message);
  });
});

describe('input errors', () => {
  const bleu = new Bleu();
  const codeOf = (f: () => unknown): string | undefined => {
    try {
      f();
    } catch (e) {
      return e instanceof InputError ? e.code : 'not an InputError';
    }
    return undefined;
  };
  it('no reference stream', () => expect(codeOf(() => bleu.prepareReferences([]))).toBe('E_EMPTY_INPUT'));
  it('reference streams of different lengths', () =>
    expect(codeOf(() => bleu.prepareReferences([['a', 'b'], ['a']]))).toBe('E_LINE_COUNT_MISMATCH'));
  it('hypotheses and references of different lengths', () =>
    expect(codeOf(() => bleu.segmentStats(['a'], bleu.prepareReferences([['a', 'b']])))).toBe('E_LINE_COUNT_MISMATCH'));
  it('references prepared with another tokenizer (a programming error: TypeError)', () =>
    expect(() => bleu.segmentStats(['a'], new Bleu({ tokenize: 'char' }).prepareReferences([['a']]))).toThrow(
      TypeError,
    ));
  it('statistics of the wrong width (RangeError)', () => {
    expect(() => bleu.corpusResult([1, 2, 3])).toThrow(/BLEU statistics must have 10 columns \(got 3\)/);
    expect(() => bleu.sentenceScoreFromStats(new Float64Array(12))).toThrow(RangeError);
  });
});

describe('degenerate corpora', () => {
  const bleu = new Bleu();
  it('empty hypotheses score 0 with BP 0', () => {
    const s = corpusScore(bleu, ['', ''], [['The dog.', 'A cat.']]);
    expect(s.score).toBe(0);
    expect(s.details?.bp).toBe(0);
  });
  it('empty references: ref_len 0, no matches, BP 1', () => {
    const r = bleu.sentenceResult(bleu.segmentStats(['a b c'], bleu.prepareReferences([['']])));
    expect([r.score, r.refLen, r.bp, r.ratio]).toEqual([0, 0, 1, 0]);
  });
  it('an empty corpus has zero statistics and scores 0', () => {
    const rows = bleu.segmentStats([], bleu.prepareReferences([[]]));
    expect(rows.length).toBe(0);
    expect(bleu.scoreFromStats(sumRows(rows, bleu.statsWidth)).score).toBe(0);
  });
  it('identical text scores what sacrebleu computes, never exactly 100', () => {
    // Python 3.11: math.exp(sum([math.log(100.0)] * n) / n) for n = 1, 4, 9, 24 (sacrebleu's expression).
    const expected: [number, number][] = [
      [1, 100.00000000000004],
      [4, 100.00000000000004],
      [9, 100.00000000000013],
      [24, 99.99999999999987],
    ];
    const text = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    for (const [n, score] of expected)
      expect(corpusScore(new Bleu({ maxNgramOrder: n }), [text], [[text]]).score).toBe(score);
  });
  it('a hypothesis shorter than the order scores 0 without effective order and > 0 with it', () => {
    expect(sentenceScore(new Bleu({ effectiveOrder: false }), 'a b', ['a b']).score).toBe(0);
    expect(sentenceScore(new Bleu(), 'a b', ['a b']).score).toBe(100.00000000000004);
  });
});
