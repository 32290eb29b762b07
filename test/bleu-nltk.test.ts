/**
 * The `nltk` flavor against NLTK 3.8 (golden/nltk, golden/edge/pairs_nltk.jsonl via test/fixtures/bleu), plus the
 * Python number semantics it rests on. Tolerance: golden/README.md (relative 1e-9, absolute 1e-12); NLTK's
 * exceptions must be reproduced as {@link NltkBleuError} with the same Python exception type.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError, PaletteError } from '../src/errors.js';
import { nltkCorpusBleu, nltkSentenceBleu, NltkBleuError, type NltkSmoothingMethod } from '../src/metrics/bleu/nltk.js';
import { NltkBleu } from '../src/metrics/bleu/nltk-metric.js';
import { fsum, pyAdd, pyDiv, pyFraction, pyInt, ratioToDouble, toFloat } from '../src/metrics/bleu/python-number.js';
import { closeTo, fixture, Mismatches, readJsonl, readLines } from './fixtures/bleu/golden.js';

const METHODS: NltkSmoothingMethod[] = [0, 1, 2, 3, 4, 5, 6, 7];
type Expected = { score: number } | { error: string };

/** Compares one NLTK outcome (a score or an exception) with the golden one. */
export function checkOutcome(m: Mismatches, run: () => number, expected: Expected, what: string): void {
  let got: number | NltkBleuError;
  try {
    got = run();
  } catch (e) {
    if (!(e instanceof NltkBleuError)) throw e;
    got = e;
  }
  if ('error' in expected) {
    const type = expected.error.split(':')[0];
    m.check(
      got instanceof NltkBleuError && got.pythonError === type,
      () => `${what}: expected ${expected.error}, got ${String(got)}`,
    );
  } else {
    m.check(
      typeof got === 'number' && closeTo(got, expected.score),
      () => `${what}: expected ${expected.score}, got ${String(got)}`,
    );
  }
}

describe('NLTK sentence_bleu on adversarial pairs (golden/edge/pairs_nltk.jsonl, every tenth pair)', () => {
  const pairs = readJsonl(fixture('edge-pairs-nltk.jsonl'));
  it(`methods 0–7 on ${pairs.length} token-list pairs, exceptions included`, () => {
    const m = new Mismatches();
    for (const p of pairs) {
      for (const k of METHODS) {
        checkOutcome(
          m,
          () => nltkSentenceBleu([p.ref_toks], p.hyp_toks, { method: k }),
          p[`method${k}`],
          `pair ${p.pair} method${k}`,
        );
      }
    }
    expect(m.list, m.summary()).toEqual([]);
  });
});

describe('NLTK corpus_bleu and sentence_bleu on nltk-wmt15-eval google.ru / ref.ru (golden/nltk)', () => {
  const hyps = readLines(fixture('nltk-wmt15.google.ru')).map((l) => l.split(/\s+/).filter(Boolean));
  const refs = readLines(fixture('nltk-wmt15.ref.ru')).map((l) => l.split(/\s+/).filter(Boolean));
  const records = readJsonl(fixture('nltk-wmt15-bleu.jsonl'));
  for (const r of records) {
    it(`weights ${r.weights.join(',')}: corpus and every segment, methods 0–7`, () => {
      const m = new Mismatches();
      for (const k of METHODS) {
        const expected = r.corpus[`bleu_method${k}`];
        checkOutcome(
          m,
          () =>
            nltkCorpusBleu(
              refs.map((x) => [x]),
              hyps,
              { method: k, weights: r.weights },
            ),
          typeof expected === 'number' ? { score: expected } : expected,
          `corpus method${k}`,
        );
        const col = r.segment_fields.indexOf(`bleu_method${k}`);
        for (const seg of r.segments) {
          const v = seg[col];
          checkOutcome(
            m,
            () => nltkSentenceBleu([refs[seg[0] - 1]], hyps[seg[0] - 1], { method: k, weights: r.weights }),
            typeof v === 'number' ? { score: v } : v,
            `line ${seg[0]} method${k}`,
          );
        }
      }
      expect(m.list, m.summary()).toEqual([]);
    });
  }
});

describe('NltkBleu (Metric contract) agrees with the function API', () => {
  const hypLines = readLines(fixture('nltk-wmt15.google.ru'));
  const refLines = readLines(fixture('nltk-wmt15.ref.ru'));
  const toks = (l: string): string[] => l.split(/\s+/).filter(Boolean);

  it('per-segment scores from rows equal sentence_bleu', () => {
    for (const k of [0, 2, 4, 5, 7] as NltkSmoothingMethod[]) {
      const metric = new NltkBleu({ method: k });
      const rows = metric.segmentStats(hypLines, metric.prepareReferences([refLines]));
      hypLines.forEach((h, i) => {
        const row = rows.subarray(i * metric.statsWidth, (i + 1) * metric.statsWidth);
        expect(metric.sentenceScoreFromStats(row).score).toBe(
          nltkSentenceBleu([toks(refLines[i])], toks(h), { method: k }),
        );
      });
    }
  });

  it('corpus scores from rows equal corpus_bleu for every method; from column sums for methods 0–4 only', () => {
    for (const k of METHODS) {
      const metric = new NltkBleu({ method: k });
      const rows = metric.segmentStats(hypLines, metric.prepareReferences([refLines]));
      const expected = nltkCorpusBleu(
        refLines.map((r) => [toks(r)]),
        hypLines.map(toks),
        { method: k },
      );
      expect(metric.corpusScoreFromRows(rows).score).toBe(expected);
      const totals = new Float64Array(metric.statsWidth);
      for (let i = 0; i < rows.length; i++) totals[i % metric.statsWidth] += rows[i];
      if (k <= 4) expect(metric.scoreFromStats(totals).score).toBe(expected);
      else expect(() => metric.scoreFromStats(totals)).toThrow(PaletteError);
    }
  });

  it("raises NLTK's exceptions as NltkBleuError, an InputError saying what NLTK says and why", () => {
    const metric = new NltkBleu({ method: 6 });
    // "a b c d" vs "a b x d": bigram matches but no trigram match, so method 6's assertion fails.
    const row = metric.segmentStats(['a b c d'], metric.prepareReferences([['a b x d']]));
    let err: unknown;
    try {
      metric.sentenceScoreFromStats(row);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NltkBleuError);
    expect(err).toBeInstanceOf(InputError);
    const e = err as NltkBleuError;
    expect([e.code, e.pythonError, e.pythonMessage]).toEqual([
      'E_BAD_INPUT',
      'AssertionError',
      'This smoothing method requires non-zero precision for bigrams.',
    ]);
    expect(e.message).toBe(
      'NLTK BLEU raises AssertionError: This smoothing method requires non-zero precision for bigrams. ' +
        '(smoothing method 6 needs a matching trigram: the trigram precision is 0)',
    );
    const twoOrders = new NltkBleu({ method: 6, weights: [0.5, 0.5] });
    const rows2 = twoOrders.segmentStats(['a b'], twoOrders.prepareReferences([['a b']]));
    expect(() => twoOrders.corpusScoreFromRows(rows2)).toThrow(
      'NLTK BLEU raises IndexError: list index out of range ' +
        '(smoothing method 6 needs at least 3 n-gram orders, the weights give 2)',
    );
  });

  it('documents its row layout and signature', () => {
    const metric = new NltkBleu({ method: 3, weights: [0.5, 0.5], tokenize: '13a' });
    expect(metric.statsColumns).toEqual(['hyp_len', 'ref_len', 'num_1', 'num_2', 'den_1', 'den_2', 'num_5', 'den_5']);
    expect(metric.signature(1)).toMatch(
      /^nrefs:1\|flavor:nltk\|case:mixed\|tok:13a\|smooth:method3\|weights:0.5,0.5\|version:/,
    );
  });
});

describe('Python number semantics', () => {
  it('math.fsum: correctly rounded sums (values from Python 3.11)', () => {
    expect(fsum(new Array(10).fill(0.1))).toBe(1.0);
    expect(fsum([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50])).toBe(1e-100);
    expect(fsum([2 ** 53, -0.5, -(2 ** -54)])).toBe(9007199254740991.0);
    expect(fsum([2 ** 53, 1.0, 2 ** -100])).toBe(9007199254740994.0);
    expect(fsum([2 ** 53 + 10.0, 1.0, 2 ** -100])).toBe(9007199254741004.0);
    expect(fsum([2 ** 53 - 4.0, 0.5, 2 ** -54])).toBe(9007199254740989.0);
    expect(fsum([1.0, 1e-16, 1e-16])).toBe(1.0000000000000002);
    expect(fsum([])).toBe(0);
  });

  /** Whether `r` is the double nearest to n/d (checked exactly with BigInt). */
  function isNearest(r: number, n: bigint, d: bigint): boolean {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, r);
    const bits = view.getBigUint64(0);
    const e = Number((bits >> 52n) & 0x7ffn) - 1075;
    const m = (bits & ((1n << 52n) - 1n)) | (1n << 52n);
    // |n/d − m·2^e| ≤ 2^(e−1), cleared of fractions on both sides.
    if (e <= 0) {
      const lhs = n * (1n << BigInt(1 - e)) - 2n * m * d;
      return (lhs < 0n ? -lhs : lhs) <= d;
    }
    const lhs = 2n * n - m * d * (1n << BigInt(e + 1));
    return (lhs < 0n ? -lhs : lhs) <= d * (1n << BigInt(e));
  }

  it('int / int and float(Fraction) round correctly for numbers beyond 2^53', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 200n }), fc.bigInt({ min: 1n, max: 2n ** 200n }), (n, d) => {
        const r = ratioToDouble(n, d);
        expect(isNearest(r, n, d) || !(r > 1e-300 && r < 1e300)).toBe(true);
      }),
      { numRuns: 2000, seed: 7 },
    );
    expect(ratioToDouble(1n, 3n)).toBe(1 / 3);
    expect(ratioToDouble(-(2n ** 60n) - 1n, 2n ** 60n)).toBe(-1);
  });

  it('Fraction arithmetic stays exact, floats contaminate, int / int is a float', () => {
    const third = pyDiv(pyFraction(1, 1), pyInt(3));
    expect(third).toEqual({ kind: 'fraction', n: 1n, d: 3n });
    expect(pyAdd(pyAdd(third, third), third)).toEqual({ kind: 'fraction', n: 1n, d: 1n });
    expect(pyDiv(pyInt(1), pyInt(3))).toEqual({ kind: 'float', v: 1 / 3 });
    expect(toFloat(pyAdd(third, { kind: 'float', v: 0.5 }))).toBe(1 / 3 + 0.5);
  });
});
