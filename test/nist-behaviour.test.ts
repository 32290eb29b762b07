/**
 * NIST behaviour the goldens do not isolate, with expected values derived by hand from the oracles' definitions
 * (mteval-v13a.pl `compute_ngram_info` / `score_segment` / `nist_score`; NLTK 3.8 `corpus_nist`): the Perl `"0"`
 * truthiness quirk, each flavor's lowercasing, NLTK's per-order best reference and its reference length, sentence
 * weights, the NaN cases (and their errors on request), option validation, signatures, the verbose string's
 * rounding, and "all paths agree".
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { sentenceScore, sumRows } from '../src/metrics/metric.js';
import { Nist, type NistOptions } from '../src/metrics/nist/nist.js';
import { NistOracleError } from '../src/metrics/nist/failure.js';
import { mtevalLengthPenalty } from '../src/metrics/nist/mteval.js';
import { nltkLengthPenalty } from '../src/metrics/nist/nltk.js';

const log2 = (x: number) => Math.log(x) / Math.LN2;

function relClose(got: number, want: number): void {
  expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-12 * Math.abs(want));
}

function corpus(opts: NistOptions, hyps: string[], refStreams: string[][]): number {
  const metric = new Nist(opts);
  const rows = metric.segmentStats(hyps, metric.prepareReferences(refStreams));
  return metric.scoreFromStats(sumRows(rows, metric.statsWidth)).score;
}

describe('length penalties', () => {
  it('are 0.5 at two thirds of the reference length and 1 from the reference length up (both flavors)', () => {
    expect(mtevalLengthPenalty(2 / 3)).toBeCloseTo(0.5, 15);
    expect(nltkLengthPenalty(3, 2)).toBeCloseTo(0.5, 15);
    for (const r of [1, 1.5, Infinity]) expect(mtevalLengthPenalty(r)).toBe(1);
    expect(nltkLengthPenalty(2, 3)).toBe(1);
    expect(mtevalLengthPenalty(0)).toBe(0);
    expect(nltkLengthPenalty(3, 0)).toBe(0);
  });
});

describe('mteval flavor', () => {
  it('gives a bigram starting with the word 0 the unigram-style weight (Perl\'s false "0")', () => {
    // Reference "0 a 0 b": 4 words; count(0) = 2, count(a) = 1, count(0 a) = 1.
    // info(0) = log2(4/2) = 1, info(a) = log2(4/1) = 2; info(0 a) = log2(4/1) = 2 in mteval (not log2(2/1) = 1).
    // Hypothesis "0 a", N = 2: 3/2 + 2/1 = 3.5, times the penalty of 2 words against 4.
    const got = corpus({ tokenize: 'none', maxOrder: 2 }, ['0 a'], [['0 a 0 b']]);
    relClose(got, 3.5 * mtevalLengthPenalty(0.5));
    // "00" is true in Perl: the standard weight log2(2/1) = 1 applies: 3/2 + 1/1.
    relClose(corpus({ tokenize: 'none', maxOrder: 2 }, ['00 a'], [['00 a 00 b']]), 2.5 * mtevalLengthPenalty(0.5));
  });

  it('averages the reference length over the references and max-merges their n-grams', () => {
    // Refs "a b" and "a a b b" (avg length 3); hyp "a a": both unigrams match (clip 2 from ref 2).
    // info(a) = log2(6/3) = 1 → 2/2 = 1 at order 1; the bigram "a a" (count 1) gets log2(3/1).
    const metric = new Nist({ tokenize: 'none', maxOrder: 2 });
    const s = sentenceScore(metric, 'a a', ['a b', 'a a b b']);
    expect(s.details!.refLen).toBe(3);
    relClose(s.score, (1 + log2(3)) * mtevalLengthPenalty(2 / 3));
  });

  it('lowercases ASCII letters only, as mteval without -c', () => {
    const metric = new Nist({ tokenize: 'none', maxOrder: 1, lowercase: true });
    const match1 = (hyp: string, ref: string) => metric.segmentStats([hyp], metric.prepareReferences([[ref]]))[4];
    expect(match1('A B', 'a b c d')).toBe(2);
    // Ä is not folded to ä: only "b" matches.
    expect(match1('Ä b', 'ä b c d')).toBe(1);
  });

  it('is NaN where mteval dies (no reference words)', () => {
    expect(Number.isNaN(sentenceScore(new Nist(), 'a b', ['']).score)).toBe(true);
  });

  it('has the documented row layout', () => {
    const metric = new Nist({ tokenize: 'none', maxOrder: 2 });
    expect(metric.statsColumns).toEqual([
      'segments',
      'refs',
      'ref_words',
      'hyp_1',
      'hyp_2',
      'match_1',
      'match_2',
      'info_1',
      'info_2',
    ]);
    const row = metric.segmentStats(['a b c'], metric.prepareReferences([['a b'], ['b c d']]));
    expect(Array.from(row.subarray(0, 7))).toEqual([1, 2, 5, 3, 2, 3, 2]);
  });
});

describe('nltk flavor', () => {
  it("keeps the best reference per order and adds up those references' lengths", () => {
    // Refs "c b a x x" (5 words) and "a b y y" (4). Corpus weights over 9 words: info(c) = log2 9,
    // info(a) = info(b) = log2 4.5, info(a b) = log2(2/1) = 1. Hyp "a b c", N = 2:
    // order 1 best = ref 1 (c, b, a), order 2 best = ref 2 ("a b"); l_ref = 5 + 4, l_sys = 2 * 3.
    const want = ((log2(9) + 2 * log2(4.5)) / 3 + 1 / 2) * nltkLengthPenalty(9, 6);
    relClose(corpus({ flavor: 'nltk', tokenize: 'none', maxOrder: 2 }, ['a b c'], [['c b a x x'], ['a b y y']]), want);
  });

  it('scores a sentence with weights from its own references (sentence_nist), the corpus with all of them', () => {
    const opts: NistOptions = { flavor: 'nltk', tokenize: 'none', maxOrder: 2 };
    const hyps = ['the cat sat on the mat', 'a dog barked at the cat'];
    const refs = [['the cat sat on a mat', 'a dog barked at a cat']];
    const metric = new Nist(opts);
    const rows = metric.segmentStats(hyps, metric.prepareReferences(refs));
    hyps.forEach((h, i) => {
      const alone = corpus(opts, [h], [[refs[0][i]]]);
      expect(
        metric.sentenceScoreFromStats(rows.subarray(i * metric.statsWidth, (i + 1) * metric.statsWidth)).score,
      ).toBe(alone);
    });
    // The corpus score is not a function of the sentence rows' own-weight columns.
    expect(metric.scoreFromStats(sumRows(rows, metric.statsWidth)).score).toBe(corpus(opts, hyps, refs));
  });

  it('is NaN where NLTK raises ZeroDivisionError', () => {
    const metric = new Nist({ flavor: 'nltk', tokenize: 'none' });
    expect(Number.isNaN(sentenceScore(metric, 'a b c d', ['a b c d e']).score)).toBe(true); // < 5 words
    expect(Number.isNaN(corpus({ flavor: 'nltk', tokenize: 'none', maxOrder: 2 }, ['a', 'b'], [['a b', 'b c']]))).toBe(
      true,
    );
    expect(Number.isNaN(corpus({ flavor: 'nltk', tokenize: 'none', maxOrder: 1 }, ['a'], [['']]))).toBe(true);
    expect(corpus({ flavor: 'nltk', tokenize: 'none', maxOrder: 2 }, ['a', 'b c'], [['a b', 'b c']])).toBeGreaterThan(
      0,
    );
  });

  it('lowercases with Python rules before tokenizing', () => {
    // Both words match (Ä → ä): (info(ä) + info(b)) / 2 = (2 + 2) / 2 with 4 reference words.
    const metric = new Nist({ flavor: 'nltk', tokenize: 'none', maxOrder: 1, lowercase: true });
    expect(sentenceScore(metric, 'Ä b', ['ä b c d']).details!.precisions).toEqual([2]);
  });
});

describe('signature and score', () => {
  it('prints sacrebleu-style signatures', () => {
    expect(new Nist().signature(1)).toMatch(/^nrefs:1\|case:mixed\|tok:13a\|n:5\|flavor:mteval\|version:[^|]+$/);
    expect(new Nist({ flavor: 'nltk', lowercase: true, tokenize: 'none', maxOrder: 4 }).signature(3, true)).toMatch(
      /^#:3\|c:lc\|tok:none\|n:4\|f:nltk\|v:[^|]+$/,
    );
  });

  it('is named NIST with mteval-style 4-decimal verbose text', () => {
    const s = sentenceScore(new Nist({ tokenize: 'none', maxOrder: 2 }), '0 a', ['0 a 0 b']);
    expect(s.name).toBe('NIST');
    expect(s.verboseScore).toMatch(
      /^\d+\.\d{4}\/\d+\.\d{4} \(BP = \d\.\d{4} ratio = 0\.5000 hyp_len = 2 ref_len = 4\)$/,
    );
  });
});

describe('all paths agree', () => {
  it.each(['mteval', 'nltk'] as const)(
    '%s: prepared references reused give the same rows, batch N = batch 1 rows for mteval',
    (flavor) => {
      const metric = new Nist({ flavor });
      const refs = [['Die Katze sitzt auf der Matte.', 'Ein Hund bellt 2:0.', 'Es regnet.']];
      const sys1 = ['Die Katze saß auf der Matte.', 'Ein Hund bellte 2:0.', 'Es regnet heute.'];
      const sys2 = ['Katze auf Matte.', 'Hund bellt.', 'Regen.'];
      const prepared = metric.prepareReferences(refs);
      const a = Array.from(metric.segmentStats(sys1, prepared));
      metric.segmentStats(sys2, prepared);
      expect(Array.from(metric.segmentStats(sys1, prepared))).toEqual(a);
      expect(Array.from(metric.segmentStats(sys2, prepared))).toEqual(
        Array.from(metric.segmentStats(sys2, metric.prepareReferences(refs))),
      );
      // Hypothesis tokens are only looked up: the prepared references never grow.
      expect(prepared.vocab.size).toBe(metric.prepareReferences(refs).vocab.size);
    },
  );
});

describe('invalid input', () => {
  it.each([
    [{ flavor: 'moses' }, 'E_BAD_OPTION', 'flavor must be one of mteval, nltk (got "moses")'],
    [{ maxOrder: 0 }, 'E_BAD_OPTION', 'maxOrder must be a positive integer (got 0)'],
    [{ maxOrder: 2.5 }, 'E_BAD_OPTION', 'maxOrder must be a positive integer (got 2.5)'],
    [{ tokenize: 'spm' }, 'E_UNKNOWN_TOKENIZER', 'unknown tokenizer "spm"'],
  ])('rejects %j', (opts, code, message) => {
    const make = () => new Nist(opts as NistOptions);
    expect(make).toThrow(InputError);
    expect(make).toThrow(message);
    try {
      make();
    } catch (e) {
      expect((e as InputError).code).toBe(code);
    }
  });

  it('rejects mismatched line counts, references of another setup and rows of the wrong width', () => {
    const metric = new Nist();
    expect(() => metric.prepareReferences([['a'], []])).toThrow(
      'reference stream 2 has 0 lines, reference stream 1 has 1',
    );
    expect(() => metric.prepareReferences([])).toThrow(InputError);
    expect(() => metric.segmentStats(['a', 'b'], metric.prepareReferences([['a']]))).toThrow(
      '2 hypotheses but 1 reference segments',
    );
    expect(() => new Nist({ flavor: 'nltk' }).segmentStats(['a'], metric.prepareReferences([['a']]))).toThrow(
      TypeError,
    );
    expect(() => metric.scoreFromStats(new Float64Array(4))).toThrow(RangeError);
  });
});

describe('where the oracle fails', () => {
  const thrown = (f: () => unknown): NistOracleError => {
    try {
      f();
    } catch (e) {
      if (e instanceof NistOracleError) return e;
      throw e;
    }
    throw new Error('no NistOracleError');
  };

  it("throws a NistOracleError (an InputError) saying why with onOracleFailure: 'throw', NaN by default", () => {
    const nltk = new Nist({ flavor: 'nltk', tokenize: 'none', onOracleFailure: 'throw' });
    const short = thrown(() => sentenceScore(nltk, 'a b c d', ['a b c d e']));
    expect(short).toBeInstanceOf(InputError);
    expect([short.code, short.flavor, short.message]).toEqual([
      'E_BAD_INPUT',
      'nltk',
      'NLTK NIST raises ZeroDivisionError: no hypothesis 5-gram in this segment ' +
        '(the hypothesis has fewer than 5 words)',
    ]);
    const corpusMetric = new Nist({ flavor: 'nltk', tokenize: 'none', maxOrder: 2, onOracleFailure: 'throw' });
    const rows = corpusMetric.segmentStats(['a', 'b'], corpusMetric.prepareReferences([['a b', 'b c']]));
    expect(thrown(() => corpusMetric.scoreFromStats(sumRows(rows, corpusMetric.statsWidth))).reason).toBe(
      'no hypothesis 2-gram in the whole corpus',
    );
    const noRefWords = new Nist({ flavor: 'nltk', tokenize: 'none', maxOrder: 1, onOracleFailure: 'throw' });
    expect(thrown(() => sentenceScore(noRefWords, 'a', [''])).reason).toBe(
      'the references of this segment have no words',
    );
    const mteval = thrown(() => sentenceScore(new Nist({ onOracleFailure: 'throw' }), 'a b', ['']));
    expect(mteval.message).toBe(
      'mteval-v13a NIST dies (Illegal division by zero): the references of this segment have no words',
    );
    // Scorable input is unaffected; the default stays NaN.
    const lenient = new Nist({ flavor: 'nltk', tokenize: 'none' });
    expect(sentenceScore(nltk, 'a b c d e', ['a b c d e']).score).toBe(
      sentenceScore(lenient, 'a b c d e', ['a b c d e']).score,
    );
    expect(Number.isNaN(sentenceScore(lenient, 'a', ['a b']).score)).toBe(true);
    expect(() => new Nist({ onOracleFailure: 'ignore' as 'nan' })).toThrow(InputError);
  });
});

describe('verbose string', () => {
  it('rounds exact binary ties to even, as Perl printf (toFixed rounds them up)', () => {
    // One order: info 1 over 32 hypothesis unigrams = 0.03125 (toFixed: 0.0313), penalty 1 at ratio 1.
    const mteval = new Nist({ maxOrder: 1 });
    expect(mteval.scoreFromStats(Float64Array.of(1, 1, 32, 32, 1, 1)).verboseScore).toBe(
      '0.0312 (BP = 1.0000 ratio = 1.0000 hyp_len = 32 ref_len = 32)',
    );
    // Ratio 33/32 = 1.03125 (toFixed: 1.0313).
    expect(mteval.scoreFromStats(Float64Array.of(1, 1, 32, 33, 0, 0)).verboseScore).toBe(
      '0.0000 (BP = 1.0000 ratio = 1.0312 hyp_len = 33 ref_len = 32)',
    );
    // NLTK's reference length is its summed best-reference words over N: 1/8 = 0.125 prints 0.12 (toFixed: 0.13).
    const nltk = new Nist({ flavor: 'nltk', maxOrder: 8 });
    const row = new Float64Array(nltk.statsWidth);
    row[0] = 8;
    for (let n = 1; n <= 8; n++) row[n] = 9 - n;
    row[1 + 2 * 8] = 1;
    expect(nltk.scoreFromStats(row).verboseScore).toBe(
      `${Array(8).fill('0.0000').join('/')} (BP = 1.0000 ratio = 64.0000 hyp_len = 8 ref_len = 0.12)`,
    );
  });
});
