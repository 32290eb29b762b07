/**
 * sacreBLEU TER behaviour: signatures, degenerate segments, several references, sacreBLEU's double preprocessing
 * of references, the detailed alignment, all paths agreeing, and invalid input. Expected values were computed
 * with sacreBLEU 2.6.0 (`TER(...).sentence_score` / `corpus_score` / `get_signature().format(...)`) or worked by
 * hand where stated.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { corpusScore, sentenceScore, sentenceScores, sumRows } from '../src/metrics/metric.js';
import { Ter } from '../src/metrics/ter/ter.js';
import { TerOp } from '../src/metrics/ter/alignment.js';
import { terScore, terSegmentStats } from '../src/metrics/ter/statistics.js';

describe('signature', () => {
  it('default: sacreBLEU layout with Palette version', () => {
    expect(new Ter().signature(1)).toBe('nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:0.1.0');
    expect(new Ter().signature(1, true)).toBe('#:1|c:lc|t:tercom|nr:no|pn:yes|as:no|v:0.1.0');
  });
  it('every option (sacreBLEU: nrefs:2|case:mixed|tok:tercom|norm:no|punct:no|asian:yes)', () => {
    const t = new Ter({ caseSensitive: true, noPunct: true, asianSupport: true });
    expect(t.signature(2)).toBe('nrefs:2|case:mixed|tok:tercom|norm:no|punct:no|asian:yes|version:0.1.0');
    expect(t.signature(2, true)).toBe('#:2|c:mixed|t:tercom|nr:no|pn:no|as:yes|v:0.1.0');
    expect(new Ter({ normalized: true }).signature(-1)).toBe(
      'nrefs:var|case:lc|tok:tercom|norm:yes|punct:yes|asian:no|version:0.1.0',
    );
  });
});

describe('scores (values from sacreBLEU 2.6.0 sentence_score)', () => {
  const ter = new Ter();
  it.each([
    ['d e f g h a b c', ['a b c d e f g h'], 12.5, 1, 8],
    ['a b c', ['a b c d', 'x a b c', 'q'], 33.33333333333333, 1, 3],
    ['', ['a b'], 100, 2, 2],
    ['a b', [''], 100, 2, 0],
    ['', [''], 0, 0, 0],
    ['The cat sat', ['the cat sat  '], 0, 0, 3],
  ] as const)('%j vs %j = %d', (hyp, refs, score, edits, refLength) => {
    const s = sentenceScore(ter, hyp, [...refs]);
    expect([s.name, s.score, s.verboseScore, s.details]).toEqual([
      'TER',
      score,
      '',
      { num_edits: edits, ref_length: refLength },
    ]);
  });
  it('corpus: Σ fewest edits / Σ average reference lengths (sacreBLEU: 25.00)', () => {
    const s = corpusScore(ter, ['a b', 'c'], [
      ['a b c', 'c'],
      ['a', 'd e f'],
    ]);
    expect(s.score).toBe(25);
  });
  it('terScore: 100 with edits and no reference words, 0 with neither', () => {
    expect([terScore(3, 0), terScore(0, 0), terScore(1, 4)]).toEqual([100, 0, 25]);
  });
  it('terSegmentStats: the first reference with the fewest edits, average length by one division', () => {
    expect(terSegmentStats([{ edits: 2, refLength: 4 }, { edits: 1, refLength: 1 }, { edits: 1, refLength: 2 }])).toEqual({
      edits: 1,
      refLength: 7 / 3,
      bestRef: 1,
    });
  });
});

describe("references are preprocessed twice, as sacreBLEU's _cache_references + _extract_reference_info do", () => {
  it("normalized: `James's,` splits `'s` only on the second pass (sacreBLEU: 50.0, 2 edits, 4 words)", () => {
    const t = new Ter({ normalized: true });
    expect(t.preprocess("James's, friend")).toBe("james's , friend");
    expect(t.preprocess(t.preprocess("James's, friend"))).toBe("james 's , friend");
    const s = sentenceScore(t, "James's, friend", ["James's, friend"]);
    expect([s.score, s.details]).toEqual([50, { num_edits: 2, ref_length: 4 }]);
  });
});

describe('alignment for --detail', () => {
  const ter = new Ter();
  it('one shift moves "a b c" to the front (hand-worked: 1 edit, all words then match)', () => {
    const refs = ter.prepareReferences([['a b c d e f g h']]);
    const d = ter.alignSegment('d e f g h a b c', refs, 0);
    expect(d.hypWords).toEqual(['d', 'e', 'f', 'g', 'h', 'a', 'b', 'c']);
    expect(d.refWords).toEqual([['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']]);
    const r = d.perReference[0];
    expect([r.edits, r.shifts, r.ins, r.del, r.sub]).toEqual([1, 1, 0, 0, 0]);
    expect(r.alignment?.shifts).toEqual([{ start: 5, length: 3, target: 0 }]);
    expect(Array.from(r.alignment!.hypOrder)).toEqual([5, 6, 7, 0, 1, 2, 3, 4]);
    expect(Array.from(r.alignment!.ops)).toEqual(new Array(8).fill(TerOp.Match));
    expect(Array.from(d.stats)).toEqual([1, 8]);
  });
  it('insertions, deletions and substitutions in tercom naming (an insertion is an extra hypothesis word)', () => {
    const refs = ter.prepareReferences([['a b c d']]);
    const r = ter.alignSegment('a x c d e', refs, 0).perReference[0];
    expect([r.ins, r.del, r.sub, r.shifts, r.edits]).toEqual([1, 0, 1, 0, 2]);
    expect(Array.from(r.alignment!.ops)).toEqual([TerOp.Match, TerOp.Sub, TerOp.Match, TerOp.Match, TerOp.Ins]);
    const short = ter.alignSegment('a d', refs, 0).perReference[0];
    expect([short.ins, short.del, short.sub]).toEqual([0, 2, 0]);
  });
  it('with several references: per reference, and the best one', () => {
    const refs = ter.prepareReferences([['x y z'], ['a b c']]);
    const d = ter.alignSegment('a b c', refs, 0);
    expect(d.perReference.map((r) => r.edits)).toEqual([3, 0]);
    expect(d.bestRef).toBe(1);
    expect(Array.from(d.stats)).toEqual([0, 3]);
  });
  it('stats equal segmentStats for every segment', () => {
    const hyps = ['d e f g h a b c', 'the cat sat on the mat', '', 'a a a b b b'];
    const refStreams = [['a b c d e f g h', 'on the mat the cat sat', 'x', 'b b b a a a'], ['h', 'cat', '', 'a b']];
    const refs = ter.prepareReferences(refStreams);
    const rows = ter.segmentStats(hyps, refs);
    hyps.forEach((h, i) => expect(Array.from(ter.alignSegment(h, refs, i).stats)).toEqual(Array.from(rows.subarray(2 * i, 2 * i + 2))));
  });
});

describe('all paths agree', () => {
  const hyps = ['d e f g h a b c', 'The cat sat on the mat .', 'x', '', 'a b a b a b a b'];
  const refs = [['a b c d e f g h', 'On the mat the cat sat.', '', 'y', 'b a b a b a b a']];
  it('corpus = sum of sentence rows; sentence scores = scores of the rows; batch of 1 = batch of N', () => {
    const ter = new Ter({ normalized: true });
    const prepared = ter.prepareReferences(refs);
    const rows = ter.segmentStats(hyps, prepared);
    expect(corpusScore(ter, hyps, prepared).score).toBe(ter.scoreFromStats(sumRows(rows, 2)).score);
    const sentences = sentenceScores(ter, hyps, refs).map((s) => s.score);
    expect(sentences).toEqual(hyps.map((_, i) => ter.sentenceScoreFromStats(rows.subarray(2 * i, 2 * i + 2)).score));
    hyps.forEach((h, i) => expect(sentenceScore(ter, h, [refs[0][i]]).score).toBe(sentences[i]));
  });
  it('prepared references are reusable across systems', () => {
    const ter = new Ter();
    const prepared = ter.prepareReferences(refs);
    const first = Array.from(ter.segmentStats(hyps, prepared));
    ter.segmentStats(hyps.slice().reverse(), prepared);
    expect(Array.from(ter.segmentStats(hyps, prepared))).toEqual(first);
  });
});

describe('invalid input', () => {
  const ter = new Ter();
  it('no reference streams: E_EMPTY_INPUT', () => {
    expect(() => ter.prepareReferences([])).toThrow(InputError);
    expect(() => ter.prepareReferences([])).toThrow(/TER needs at least one reference stream/);
  });
  it('streams of different lengths or a hypothesis count mismatch: E_LINE_COUNT_MISMATCH', () => {
    expect(() => ter.prepareReferences([['a'], ['a', 'b']])).toThrow(/reference stream 2 has 2 lines/);
    const refs = ter.prepareReferences([['a', 'b']]);
    try {
      ter.segmentStats(['a'], refs);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).code).toBe('E_LINE_COUNT_MISMATCH');
    }
  });
  it('references prepared with other options: TypeError', () => {
    const refs = new Ter({ normalized: true }).prepareReferences([['a']]);
    expect(() => ter.segmentStats(['a'], refs)).toThrow(TypeError);
  });
  it('statistics of the wrong width and a bad segment index: RangeError', () => {
    expect(() => ter.scoreFromStats(new Float64Array(3))).toThrow(RangeError);
    expect(() => ter.alignSegment('a', ter.prepareReferences([['a']]), 1)).toThrow(RangeError);
  });
});
