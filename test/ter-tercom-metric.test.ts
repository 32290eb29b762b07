/**
 * The tercom flavor as a Metric: options and their errors, signatures, statistics layout, tercom's rules for empty
 * segments (TerScorer.TERnullstr) and several references (TER.score_all_refs: fewest edits, first on ties, mean
 * length), corpus vs sentence scores (tercom's Java division vs Alignment.score()), the paths that must agree
 * (corpusScore / sentenceScores / alignSegment / reused references), input errors, and where it parts from the
 * sacreBLEU flavor on real lines (values from golden/README.md; texts from the clone-only fixture).
 * Hand-worked values; exact comparisons.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { corpusScore, sentenceScore, sentenceScores, sumRows } from '../src/metrics/metric.js';
import { Ter } from '../src/metrics/ter/ter.js';
import { countOps } from '../src/metrics/ter/alignment.js';
import { TercomTer, TERCOM_STATS_COLUMNS } from '../src/metrics/ter/tercom-ter.js';
import { VERSION } from '../src/version.js';

/** The statistics row of one hypothesis against its references. */
function row(metric: TercomTer, hyp: string, refs: string[]): number[] {
  return Array.from(metric.segmentStats([hyp], metric.prepareReferences(refs.map((r) => [r]))));
}

describe('options', () => {
  it('defaults to tercom 0.10.0: case-insensitive, no -N/-P/-A, beam 20, shift distance 50', () => {
    const m = new TercomTer();
    expect([m.caseSensitive, m.normalized, m.noPunct, m.asianSupport, m.beamWidth, m.maxShiftDistance]).toEqual([
      false,
      false,
      false,
      false,
      20,
      50,
    ]);
  });

  it.each([
    ['beamWidth', -1],
    ['beamWidth', 2.5],
    ['beamWidth', Number.NaN],
    ['maxShiftDistance', -3],
    ['maxShiftDistance', Infinity],
    ['beamWidth', 2 ** 31],
  ])('rejects %s = %s', (name, value) => {
    const make = () => new TercomTer({ [name]: value });
    expect(make).toThrow(InputError);
    expect(make).toThrow(`${name} must be an integer from 0 to 2147483647 (got ${JSON.stringify(value)})`);
  });

  it('takes the largest Java int as a beam (no overflow in the pruning limit)', () => {
    const m = new TercomTer({ beamWidth: 2 ** 31 - 1 });
    expect(row(m, 'c d a b x', ['a b c d'])).toEqual(row(new TercomTer({ beamWidth: 1000 }), 'c d a b x', ['a b c d']));
  });

  it('accepts beam 0 and shift distance 0 (no shifts)', () => {
    const m = new TercomTer({ maxShiftDistance: 0 });
    expect(row(m, 'c d a b', ['a b c d'])).toEqual([4, 4, 0, 0, 4, 0, 0]);
    expect(row(new TercomTer(), 'c d a b', ['a b c d'])).toEqual([1, 4, 0, 0, 0, 1, 2]);
    expect(row(new TercomTer({ beamWidth: 0 }), 'a b c', ['a b c'])).toEqual([0, 3, 0, 0, 0, 0, 0]);
  });
});

describe('signature and layout', () => {
  it('names the flavor, sacreBLEU TER fields and the search limits', () => {
    expect(new TercomTer().signature(1)).toBe(
      `nrefs:1|flavor:tercom|case:lc|tok:tercom|norm:no|punct:yes|asian:no|beam:20|dist:50|version:${VERSION}`,
    );
    const m = new TercomTer({
      caseSensitive: true,
      normalized: true,
      noPunct: true,
      asianSupport: true,
      beamWidth: 5,
      maxShiftDistance: 7,
    });
    expect(m.signature(3, true)).toBe(`#:3|f:tercom|c:mixed|t:tercom|nr:yes|pn:no|as:yes|b:5|d:7|v:${VERSION}`);
    expect(m.signature(-1)).toContain('nrefs:var|');
  });

  it('rows are [num_edits, ref_length, ins, del, sub, shifts, words_shifted]', () => {
    const m = new TercomTer();
    expect(m.statsWidth).toBe(7);
    expect(m.statsColumns).toEqual(TERCOM_STATS_COLUMNS);
    expect(m.statsColumns.slice(0, 2)).toEqual(['num_edits', 'ref_length']);
    // "b a c" → "a b c x": shift one word (1), then one missing reference word (1).
    expect(row(m, 'b a c', ['a b c x'])).toEqual([2, 4, 0, 1, 0, 1, 1]);
  });
});

describe('empty segments (tercom does not align them)', () => {
  const m = new TercomTer();

  it('empty hypothesis: every reference word deleted', () => {
    expect(row(m, '', ['a b c'])).toEqual([3, 3, 0, 3, 0, 0, 0]);
    expect(m.sentenceScoreFromStats(Float64Array.from(row(m, '', ['a b c']))).score).toBe(100);
  });

  it('empty reference: every hypothesis word inserted, length 0, sentence TER 1 (100)', () => {
    const r = row(m, 'a b', ['']);
    expect(r).toEqual([2, 0, 2, 0, 0, 0, 0]);
    expect(m.sentenceScoreFromStats(Float64Array.from(r)).details!.ter).toBe(1);
  });

  it('both empty: 0 edits over 0 words, sentence TER 0; blanks and controls count as empty', () => {
    const r = row(m, ' \t', ['\u0001 ']);
    expect(r).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(m.sentenceScoreFromStats(Float64Array.from(r)).score).toBe(0);
  });

  it('a line that tokenizes to nothing is not empty: it is aligned (-P on ". ." gives no words)', () => {
    const p = new TercomTer({ noPunct: true });
    expect(row(p, '. .', ['a b'])).toEqual([2, 2, 0, 2, 0, 0, 0]);
    // "." leaves one empty word, substituted for "x".
    expect(row(p, '.', ['x'])).toEqual([1, 1, 0, 0, 1, 0, 0]);
  });
});

describe('several references', () => {
  const m = new TercomTer();

  it('takes the counts of the reference with the fewest edits and the mean length of all', () => {
    const refs = m.prepareReferences([['a b c d'], ['a x c'], ['a b c']]);
    const stats = m.segmentStats(['a b c'], refs);
    expect(Array.from(stats)).toEqual([0, (4 + 3 + 3) / 3, 0, 0, 0, 0, 0]);
    expect(m.alignSegment('a b c', refs, 0).bestRef).toBe(2);
  });

  it('keeps the first reference on ties', () => {
    const refs = m.prepareReferences([['a b x'], ['a y c'], ['a b c']]);
    const seg = m.alignSegment('a b c', refs, 0);
    expect(seg.perReference.map((r) => r.edits)).toEqual([1, 1, 0]);
    expect(seg.bestRef).toBe(2);
    const tie = m.alignSegment('a b z', m.prepareReferences([['a b x'], ['a b y']]), 0);
    expect(tie.bestRef).toBe(0);
  });

  it('an empty reference counts 0 words in the mean', () => {
    expect(row(m, 'a b', ['', 'a b'])).toEqual([0, 1, 0, 0, 0, 0, 0]);
    expect(row(m, '', ['', 'a b'])).toEqual([0, 1, 0, 0, 0, 0, 0]);
  });

  it("sums the lengths in reference order before dividing (tercom's double arithmetic)", () => {
    const refs = ['a', 'a b', 'a b c d e f g'];
    expect(row(m, 'a', refs)[1]).toBe((1 + 2 + 7) / 3);
  });
});

describe('corpus and sentence scores', () => {
  const m = new TercomTer();
  const hyps = ['a b c', 'b a', ''];
  const refs = [['a b c d', 'a b', 'x y']];

  it('corpus TER = Σ edits / Σ lengths, on the 0–100 scale, with the totals as details', () => {
    const s = corpusScore(m, hyps, refs);
    // 1 deletion, 1 shift, 2 deletions over 4 + 2 + 2 words.
    expect(s.details).toMatchObject({ ter: 4 / 8, num_edits: 4, ref_length: 8, del: 3, shifts: 1, words_shifted: 1 });
    expect(s.score).toBe(100 * (4 / 8));
    expect(s.name).toBe('TER');
    expect(s.verboseScore).toBe('');
  });

  it("corpus TER with no reference words is tercom's Java division: NaN for 0/0, Infinity for n/0", () => {
    expect(corpusScore(m, [''], [['']]).details!.ter).toBeNaN();
    expect(corpusScore(m, ['a'], [['']]).details!.ter).toBe(Infinity);
  });

  it('the paths agree: sentenceScores = sentenceScore = rows, prepared references reused across systems', () => {
    const prepared = m.prepareReferences(refs);
    const rows = m.segmentStats(hyps, prepared);
    const each = sentenceScores(m, hyps, prepared);
    hyps.forEach((h, i) => {
      expect(sentenceScore(m, h, [refs[0][i]])).toEqual(each[i]);
      expect(each[i]).toEqual(m.sentenceScoreFromStats(rows.subarray(7 * i, 7 * i + 7)));
    });
    expect(corpusScore(m, hyps, prepared)).toEqual(m.scoreFromStats(sumRows(rows, 7)));
    const other = ['a b c d', 'a b', 'x y'];
    expect(corpusScore(m, other, prepared).score).toBe(0);
    expect(corpusScore(m, hyps, prepared)).toEqual(corpusScore(m, hyps, refs));
  });

  it('rejects statistics of another width', () => {
    expect(() => m.scoreFromStats(new Float64Array(2))).toThrow(RangeError);
  });
});

describe('alignSegment', () => {
  const m = new TercomTer({ normalized: true });

  it('gives the words, per-reference results and the same row as segmentStats', () => {
    const refLines = [['Der Hund, der bellt.'], ['Ein Hund bellt.']];
    const refs = m.prepareReferences(refLines);
    const hyp = 'bellt der Hund.';
    const seg = m.alignSegment(hyp, refs, 0);
    expect(seg.hypWords).toEqual(['bellt', 'der', 'hund', '.']);
    expect(seg.refWords).toEqual([
      ['der', 'hund', ',', 'der', 'bellt', '.'],
      ['ein', 'hund', 'bellt', '.'],
    ]);
    expect(Array.from(seg.stats)).toEqual(Array.from(m.segmentStats([hyp], refs)));
    for (const r of seg.perReference) {
      const ops = countOps(r.alignment!.ops);
      expect([ops.ins, ops.del, ops.sub]).toEqual([r.ins, r.del, r.sub]);
      expect(r.edits).toBe(r.ins + r.del + r.sub + r.shifts);
      expect(r.alignment!.shifts).toHaveLength(r.shifts);
    }
  });

  it('shows empty segments without words and with only insertions or deletions', () => {
    const refs = m.prepareReferences([['a b'], ['']]);
    const seg = m.alignSegment('  ', refs, 0);
    expect(seg.hypWords).toEqual([]);
    expect(seg.perReference.map((r) => Array.from(r.alignment!.ops).length)).toEqual([2, 0]);
    expect(() => m.alignSegment('a', refs, 1)).toThrow(RangeError);
  });
});

describe('input errors', () => {
  const m = new TercomTer();

  it('line-count mismatches and missing streams are InputErrors', () => {
    expect(() => m.prepareReferences([])).toThrow(InputError);
    expect(() => m.prepareReferences([['a'], ['a', 'b']])).toThrow(InputError);
    expect(() => m.segmentStats(['a', 'b'], m.prepareReferences([['a']]))).toThrow(InputError);
  });

  it('references prepared with other text options are refused', () => {
    const refs = new TercomTer({ normalized: true }).prepareReferences([['a']]);
    expect(() => m.segmentStats(['a'], refs)).toThrow(TypeError);
    // The search limits do not change the references.
    expect(() => new TercomTer({ beamWidth: 3 }).segmentStats(['a'], m.prepareReferences([['a']]))).not.toThrow();
  });
});

describe('where tercom and sacreBLEU part (golden/README.md)', () => {
  const fixture = JSON.parse(readFileSync(new URL('./fixtures/ter-tercom/tercom-lines.json', import.meta.url), 'utf8'));
  const line = (path: string, n: number): string => fixture.texts[path].lines[String(n)];
  const lium = 'sacrebleu-tests/wmt17-en-de/systems/LIUM-NMT.4900.de';
  const ref = 'sacrebleu-tests/wmt17-en-de/ref.de';

  it('WMT17 LIUM-NMT.4900 line 2384: tercom finds 51 edits, sacreBLEU 52', () => {
    const hyp = line(lium, 2384);
    const refs = [line(ref, 2384)];
    expect(sentenceScore(new TercomTer(), hyp, refs).details!.num_edits).toBe(51);
    expect(sentenceScore(new Ter(), hyp, refs).details!.num_edits).toBe(52);
  });

  it('WMT21 line 13: a U+00A0 in reference A makes it 31 words for tercom, 32 for sacreBLEU', () => {
    const refA = line('wmt21-news-en-de/en-de/ref.A.de', 13);
    expect(row(new TercomTer(), 'x', [refA])[1]).toBe(31);
    expect(sentenceScore(new Ter(), 'x', [refA]).details!.ref_length).toBe(32);
  });
});
