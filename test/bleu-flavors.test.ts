/**
 * The `moses` and `lin-och` BLEU flavors as metrics (src/metrics/bleu/moses-metric.ts, lin-och.ts): their rows,
 * corpus and sentence scores equal the golden-tested functions they are built on (Moses' extractor statistics and
 * single-precision scores of src/metrics/bleu/moses.ts, checked against moses-regression-tests in bleu-moses.test.ts and against
 * multi-bleu.perl in bleu-shared.test.ts; sacrebleu's add-k arithmetic, checked against sacrebleu in
 * bleu-score.test.ts), plus values worked out by hand from the definitions (Moses mert/BleuScorer.cpp
 * `calculateScore`, `smoothedSentenceBleu`, StatisticsBasedScorer.cpp's single-precision sums; Lin & Och 2004).
 * Single-precision results are compared with the double-precision formula at relative 1e-6.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { Bleu } from '../src/metrics/bleu/bleu.js';
import { LinOchBleu, linOchBleu, linOchBleuFromStats } from '../src/metrics/bleu/lin-och.js';
import {
  mosesBleu,
  mosesBleuStats,
  mosesSmoothedSentenceBleu,
  prepareMosesReferences,
} from '../src/metrics/bleu/moses.js';
import { MosesBleu } from '../src/metrics/bleu/moses-metric.js';
import { corpusScore, sentenceScore, sentenceScores, sumRows } from '../src/metrics/metric.js';
import { VERSION } from '../src/version.js';
import { fixture, readLines } from './fixtures/bleu/golden.js';

const hyps17 = readLines(fixture('wmt17-head.LIUM-NMT.4900.de')).slice(0, 50);
const refs17 = readLines(fixture('wmt17-head.ref.de')).slice(0, 50);
const hyps21 = readLines(fixture('wmt21-head.Facebook-AI.de')).slice(0, 30);
const refs21 = ['A', 'C', 'D'].map((r) => readLines(fixture(`wmt21-head.ref.${r}.de`)).slice(0, 30));

function relClose(got: number, want: number, rel: number): void {
  expect(Math.abs(got - want)).toBeLessThanOrEqual(rel * Math.abs(want));
}

describe('moses flavor', () => {
  it("has Moses extractor's rows: the SOURCE.md example, and mosesBleuStats on every segment", () => {
    const moses = new MosesBleu();
    const ref0 = readLines(fixture('moses-reference'))[0];
    const hyp = 'mr president , we shall be in biarritz , look a little further .  ';
    expect(Array.from(moses.segmentStats([hyp], moses.prepareReferences([[ref0]])))).toEqual([
      6, 14, 1, 13, 0, 12, 0, 11, 18,
    ]);
    expect(moses.statsColumns).toEqual([
      'correct_1', 'total_1', 'correct_2', 'total_2', 'correct_3', 'total_3', 'correct_4', 'total_4', 'ref_len',
    ]);
    for (const refLength of ['closest', 'shortest', 'average'] as const) {
      const m = new MosesBleu({ refLength, lowercase: true });
      const ids = hyps21.map((_, i) => i);
      const want = mosesBleuStats(hyps21, ids, prepareMosesReferences(refs21, { lowercase: true }), { refLength });
      expect(Array.from(m.segmentStats(hyps21, m.prepareReferences(refs21)))).toEqual(Array.from(want));
    }
  });

  it('scores the corpus with BleuScorer::calculateScore of the summed rows (hand-worked)', () => {
    // "a b c d" vs itself: 4/4 3/3 2/2 1/1, ref 4. "a b x" vs "a b y z": 2/3 1/2 0/1 0/0, ref 4.
    // Sums 6/7 4/5 2/3 1/1, hyp 7 < ref 8: exp(log(6/7 · 4/5 · 2/3 · 1)/4 + 1 − 8/7).
    const moses = new MosesBleu();
    const rows = moses.segmentStats(['a b c d', 'a b x'], moses.prepareReferences([['a b c d', 'a b y z']]));
    expect(Array.from(rows)).toEqual([4, 4, 3, 3, 2, 2, 1, 1, 4, 2, 3, 1, 2, 0, 1, 0, 0, 4]);
    const score = moses.corpusScoreFromRows(rows).score;
    relClose(score, Math.exp(Math.log(((6 / 7) * (4 / 5) * (2 / 3)) / 1) / 4 + 1 - 8 / 7), 1e-6);
    expect(score).toBe(mosesBleu([6, 7, 4, 5, 2, 3, 1, 1, 8]));
    expect(score).toBe(Math.fround(score));
    expect(moses.scoreFromStats(sumRows(rows, moses.statsWidth)).score).toBe(score);
    // No match of some order: 0 (the second segment alone has no trigram match).
    expect(moses.scoreFromStats(rows.slice(9)).score).toBe(0);
  });

  it('sums the rows in single precision, in corpus order, as StatisticsBasedScorer::score does', () => {
    // Unigram matches 2^24 then a thousand more of 1: in float each + 1 is a tie that rounds back to 2^24.
    const moses = new MosesBleu();
    const rows = new Float64Array(9 * 1001);
    rows.set([2 ** 24, 2 ** 25, 1, 1, 1, 1, 1, 1, 0]);
    for (let i = 1; i <= 1000; i++) rows[9 * i] = 1;
    const fromRows = moses.corpusScoreFromRows(rows).score;
    expect(fromRows).toBe(mosesBleu([2 ** 24, 2 ** 25, 1, 1, 1, 1, 1, 1, 0]));
    relClose(fromRows, 0.5 ** 0.25, 1e-6);
    // Column sums made in double precision hold 2^24 + 1000: below 2^24 both agree, here they do not.
    expect(moses.scoreFromStats(sumRows(rows, 9)).score).not.toBe(fromRows);
  });

  it('scores sentences with smoothedSentenceBleu (BLEU+1), optionally smoothing the reference length', () => {
    const row = Float64Array.of(6, 14, 1, 13, 0, 12, 0, 11, 18);
    const plus1 = new MosesBleu().sentenceScoreFromStats(row);
    expect(plus1.score).toBe(mosesSmoothedSentenceBleu(row));
    const logs = Math.log(7 / 15) + Math.log(2 / 14) + Math.log(1 / 13) + Math.log(1 / 12);
    relClose(plus1.score, Math.exp(logs / 4 + 1 - 18 / 14), 1e-6);
    const bp = new MosesBleu({ smoothing: 1, smoothBP: true }).sentenceScoreFromStats(row);
    relClose(bp.score, Math.exp(logs / 4 + 1 - 19 / 14), 1e-6);
    const half = new MosesBleu({ smoothing: 0.5 }).sentenceScoreFromStats(row).score;
    expect(half).toBe(mosesSmoothedSentenceBleu(row, 0.5));
    // An empty hypothesis: brevity 1 − 3/0 = −∞, BLEU 0; empty against empty: 0/0 leaves no penalty, BLEU+1 = 1.
    expect(new MosesBleu().sentenceScoreFromStats(Float64Array.of(0, 0, 0, 0, 0, 0, 0, 0, 3)).score).toBe(0);
    expect(new MosesBleu().sentenceScoreFromStats(new Float64Array(9)).score).toBe(1);
  });

  it("prints multi-bleu.perl's numbers beside the score (smoothed counts for sentences)", () => {
    const row = Float64Array.of(6, 14, 1, 13, 0, 12, 0, 11, 18);
    const moses = new MosesBleu();
    // 100·6/14, 100·1/13, 0, 0; BP exp(1 − 18/14); ratio 14/18.
    expect(moses.scoreFromStats(row).verboseScore).toBe(
      '42.9/7.7/0.0/0.0 (BP = 0.751 ratio = 0.778 hyp_len = 14 ref_len = 18)',
    );
    // 100·7/15, 100·2/14, 100·1/13, 100·1/12.
    expect(moses.sentenceScoreFromStats(row).verboseScore).toBe(
      '46.7/14.3/7.7/8.3 (BP = 0.751 ratio = 0.778 hyp_len = 14 ref_len = 18)',
    );
    expect(moses.sentenceScoreFromStats(row).details).toMatchObject({ counts: [7, 2, 1, 1], totals: [15, 14, 13, 12] });
  });

  it('splits on spaces only, lowercases ASCII only, or runs a Palette tokenizer first', () => {
    const score = (m: MosesBleu, hyp: string, ref: string) => m.segmentStats([hyp], m.prepareReferences([[ref]]));
    // A tab stays inside a token: "x\ty" matches nothing in "x y".
    expect(Array.from(score(new MosesBleu(), 'x\ty z', 'x y z')).slice(0, 2)).toEqual([1, 2]);
    const lower = new MosesBleu({ lowercase: true });
    expect(Array.from(score(lower, 'The ÄRGER', 'the ärger')).slice(0, 2)).toEqual([1, 2]);
    // 13a splits "Hello, world." into Hello , world . before Moses sees it.
    const tok = new MosesBleu({ tokenize: '13a' });
    expect(Array.from(score(tok, 'Hello, world.', 'Hello , world .'))).toEqual([4, 4, 3, 3, 2, 2, 1, 1, 4]);
    const pre = hyps17.map((h) => h.replace(/([.,!?])/g, ' $1 ').replace(/ +/g, ' ').trim());
    const preRefs = refs17.map((h) => h.replace(/([.,!?])/g, ' $1 ').replace(/ +/g, ' ').trim());
    const plain = new MosesBleu();
    expect(corpusScore(new MosesBleu({ tokenize: 'none' }), pre, [preRefs]).score).toBe(
      corpusScore(plain, pre, [preRefs]).score,
    );
  });

  it('signatures: corpus unsmoothed, sentences add[k]', () => {
    expect(new MosesBleu().signature(1)).toBe(
      `nrefs:1|flavor:moses|case:mixed|tok:space|reflen:closest|n:4|smooth:none|version:${VERSION}`,
    );
    expect(new MosesBleu({ tokenize: '13a', lowercase: true, refLength: 'average' }).signature(3, true)).toBe(
      `#:3|f:moses|c:lc|tok:13a|rl:average|n:4|s:none|v:${VERSION}`,
    );
    expect(new MosesBleu().sentenceSignature(1)).toBe(
      `nrefs:1|flavor:moses|case:mixed|tok:space|reflen:closest|n:4|smooth:add[1.00]|version:${VERSION}`,
    );
    expect(new MosesBleu({ smoothing: 0.1, smoothBP: true, maxNgramOrder: 3 }).sentenceSignature(1, true)).toBe(
      `#:1|f:moses|c:mixed|tok:space|rl:closest|n:3|s:add[0.10]+bp|v:${VERSION}`,
    );
  });

  it('all paths agree: one segment at a time, shared references, order N', () => {
    const moses = new MosesBleu({ tokenize: '13a' });
    const prepared = moses.prepareReferences(refs21);
    const all = sentenceScores(moses, hyps21, prepared);
    hyps21.forEach((h, i) => expect(sentenceScore(moses, h, refs21.map((s) => s[i]))).toEqual(all[i]));
    const m3 = new MosesBleu({ tokenize: '13a', maxNgramOrder: 3 });
    const r3 = m3.segmentStats(hyps21, m3.prepareReferences(refs21));
    const r4 = moses.segmentStats(hyps21, prepared);
    for (let i = 0; i < hyps21.length; i++) {
      expect(Array.from(r3.subarray(7 * i, 7 * i + 6))).toEqual(Array.from(r4.subarray(9 * i, 9 * i + 6)));
    }
    expect(m3.scoreFromStats(sumRows(r3, 7)).score).toBe(mosesBleu(sumRows(r3, 7), 3));
  });

  it('rejects bad options and mismatched inputs', () => {
    for (const bad of [{ maxNgramOrder: 0 }, { smoothing: -1 }, { refLength: 'longest' }] as const) {
      expect(() => new MosesBleu(bad as never)).toThrow(InputError);
    }
    expect(() => new MosesBleu({ tokenize: 'moses' as never })).toThrow(/unknown tokenizer/);
    const moses = new MosesBleu();
    expect(() => moses.prepareReferences([])).toThrow(InputError);
    expect(() => moses.prepareReferences([['a'], ['a', 'b']])).toThrow(/reference stream 2 has 2 lines/);
    expect(() => moses.segmentStats(['a', 'b'], moses.prepareReferences([['a']]))).toThrow(InputError);
    expect(() => moses.segmentStats(['a'], new MosesBleu({ lowercase: true }).prepareReferences([['a']]))).toThrow(
      TypeError,
    );
    expect(() => moses.scoreFromStats(new Float64Array(8))).toThrow(RangeError);
    expect(() => moses.corpusScoreFromRows(new Float64Array(10))).toThrow(RangeError);
  });
});

describe('lin-och flavor (BLEUS)', () => {
  it('adds one to matches and totals of every order n > 1 (hand-worked)', () => {
    // "a b c" vs "a b d": 2/3, then (1+1)/(2+1), (0+1)/(1+1), (0+1)/(0+1); lengths equal, BP 1.
    const s = sentenceScore(new LinOchBleu(), 'a b c', ['a b d']);
    relClose(s.score, 100 * ((2 / 3) * (2 / 3) * (1 / 2) * 1) ** 0.25, 1e-12);
    expect(s.details).toMatchObject({ counts: [2, 2, 1, 1], totals: [3, 3, 2, 1] });
    // BLEUS1 is unigram precision with BLEU's brevity penalty: 2/3 · exp(1 − 4/3) for "a b x" vs "a b c d".
    const bleus1 = sentenceScore(new LinOchBleu({ maxNgramOrder: 1 }), 'a b x', ['a b c d']).score;
    relClose(bleus1, 100 * (2 / 3) * Math.exp(1 - 4 / 3), 1e-12);
  });

  it('equals linOchBleuFromStats on the rows of sacrebleu BLEU, at corpus and sentence level', () => {
    for (const maxNgramOrder of [1, 4, 9]) {
      const lo = new LinOchBleu({ maxNgramOrder, tokenize: 'intl' });
      const bleu = new Bleu({ maxNgramOrder, tokenize: 'intl' });
      const prepared = bleu.prepareReferences(refs21);
      const rows = lo.segmentStats(hyps21, prepared);
      expect(Array.from(rows)).toEqual(Array.from(bleu.segmentStats(hyps21, prepared)));
      const w = lo.statsWidth;
      const totals = sumRows(rows, w);
      expect(lo.scoreFromStats(totals).score).toBe(linOchBleuFromStats(totals, maxNgramOrder).score);
      const sentences = sentenceScores(lo, hyps21, prepared);
      sentences.forEach((s, i) => expect(s.score).toBe(linOchBleuFromStats(rows, maxNgramOrder, i * w).score));
      // The same numbers as the plain Bleu of the flavor, only the signature differs.
      const plain = linOchBleu({ maxNgramOrder, tokenize: 'intl' });
      expect(corpusScore(lo, hyps21, prepared)).toEqual(corpusScore(plain, hyps21, prepared));
    }
  });

  it('names the flavor and the order in its signature', () => {
    expect(new LinOchBleu().signature(1)).toBe(
      `nrefs:1|flavor:lin-och|case:mixed|tok:13a|reflen:closest|n:4|version:${VERSION}`,
    );
    expect(new LinOchBleu({ maxNgramOrder: 9, lowercase: true, refLength: 'shortest' }).signature(2, true)).toBe(
      `#:2|f:lin-och|c:lc|tok:13a|rl:shortest|n:9|v:${VERSION}`,
    );
  });

  it('rejects bad options and wrong widths', () => {
    expect(() => new LinOchBleu({ maxNgramOrder: 0 })).toThrow(InputError);
    expect(() => new LinOchBleu().scoreFromStats(new Float64Array(3))).toThrow(RangeError);
  });
});
