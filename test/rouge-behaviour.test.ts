/**
 * ROUGE metrics and `rouge155Unit`, hand-derived behaviour: type ids and names, signatures, options and their
 * errors (class, code, message), degenerate inputs (empty hypotheses/references, no segments), the flavors'
 * differences (ROUGE-1.5.5's SU without the last unigram, rounding, pooled averages), the paper's Case/NoCase/Stem
 * sets as tokenizer options, ROUGE-1.5.5's `-f B` ties, `-U`/`-x`/`-M`, Basic Elements, warnings, and Perl's
 * number formats. Every expected number is derived in the test's comments from the definitions.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { sentenceScore, sumRows } from '../src/metrics/metric.js';
import { parseRougeType, Rouge, rougeTypeId, rougeTypeName, type RougeOptions } from '../src/metrics/rouge/rouge.js';
import { perlFixed5, perlNumber } from '../src/metrics/rouge155/perl-format.js';
import { rouge155Unit, type Rouge155UnitOptions } from '../src/metrics/rouge155/unit.js';
import { VERSION } from '../src/version.js';

/** [P, R, F] of one hypothesis against its references. */
function prf(options: RougeOptions, hyp: string, refs: string[]): number[] {
  const d = sentenceScore(new Rouge(options), hyp, refs).details!;
  return [d.precision as number, d.recall as number, d.fmeasure as number];
}

const UNIT: Rouge155UnitOptions = {
  maxN: 1,
  su: false,
  stem: false,
  stopwords: false,
  formula: 'A',
  alpha: 0.5,
  countMode: 0,
};

describe('ROUGE types', () => {
  it.each([
    ['rouge-1', { kind: 'n', n: 1 }, 'ROUGE-1'],
    ['rouge12', { kind: 'n', n: 12 }, 'ROUGE-12'],
    ['rougeL', { kind: 'l' }, 'ROUGE-L'],
    ['ROUGE-Lsum', { kind: 'lsum' }, 'ROUGE-Lsum'],
    ['rouge-w', { kind: 'w', weight: 1.2 }, 'ROUGE-W-1.2'],
    ['rouge-w-1.5', { kind: 'w', weight: 1.5 }, 'ROUGE-W-1.5'],
    ['rouge-s4', { kind: 's', maxGap: 4, unigrams: false }, 'ROUGE-S4'],
    ['rouge-su0', { kind: 's', maxGap: 0, unigrams: true }, 'ROUGE-SU0'],
    ['rouge-s*', { kind: 's', maxGap: -1, unigrams: false }, 'ROUGE-S*'],
    ['rouge-su*', { kind: 's', maxGap: -1, unigrams: true }, 'ROUGE-SU*'],
  ])('%s', (id, type, name) => {
    expect(parseRougeType(id)).toEqual(type);
    expect(rougeTypeName(parseRougeType(id))).toBe(name);
    expect(parseRougeType(rougeTypeId(parseRougeType(id)))).toEqual(type);
  });

  it('the default ROUGE-W weight can be set (--rouge-w-weight)', () => {
    expect(new Rouge({ type: 'rouge-w', wWeight: 1.5 }).name).toBe('ROUGE-W-1.5');
  });
});

describe('ROUGE options: errors', () => {
  it.each<[string, RougeOptions, RegExp]>([
    ['unknown type', { type: 'rouge-x' }, /^ROUGE type must be rouge-N/],
    ['order 0', { type: 'rouge-0' }, /^ROUGE type must be/],
    ['hand-built order 0', { type: { kind: 'n', n: 0 } }, /^ROUGE-N order must be an integer ≥ 1 \(got 0\)$/],
    ['weight 0', { type: 'rouge-w-0' }, /^ROUGE-W weight must be a number greater than 0 \(got 0\)$/],
    [
      'unknown flavor',
      { type: 'rouge-1', flavor: 'sumeval' as never },
      /^flavor must be one of rouge155, rouge-score, paper/,
    ],
    ['ROUGE-W in rouge-score', { type: 'rouge-w', flavor: 'rouge-score' }, /^type must be rouge1\.\.rouge9, rougeL/],
    ['rouge10 in rouge-score', { type: 'rouge10', flavor: 'rouge-score' }, /^type must be rouge1\.\.rouge9/],
    ['alpha in rouge-score', { type: 'rouge1', flavor: 'rouge-score', alpha: 0.5 }, /F1 only/],
    ['alpha and beta', { type: 'rouge-1', flavor: 'rouge155', alpha: 0.5, beta: 1 }, /^alpha and beta must be not both set/],
    ['alpha 2', { type: 'rouge-1', flavor: 'rouge155', alpha: 2 }, /^alpha must be a number from 0 to 1 \(got 2\)$/],
    [
      'limit outside rouge155',
      { type: 'rouge-1', flavor: 'paper', limit: { words: 10 } },
      /^limit must be unset outside/,
    ],
    ['two limits', { type: 'rouge-1', limit: { words: 10, bytes: 5 } }, /^limit must be words or bytes, not both/],
    ['negative limit', { type: 'rouge-1', limit: { words: -1 } }, /^limit\.words must be a non-negative integer/],
    [
      'best-f in rouge155',
      { type: 'rouge-1', flavor: 'rouge155', multiReference: 'best-f' },
      /^multiReference must be one of pool, best-recall/,
    ],
    [
      'pooled jackknife',
      { type: 'rouge-1', flavor: 'rouge155', average: 'pooled', jackknife: true },
      /^average must be "segment" with jackknife/,
    ],
    [
      'lowercase with a ROUGE tokenizer',
      { type: 'rouge-1', flavor: 'rouge155', lowercase: true },
      /^lowercase must be unset with the rouge155/,
    ],
    ['unknown tokenizer', { type: 'rouge-1', flavor: 'rouge155', tokenizer: 'moses' as never }, /^tokenizer must be one of rouge155/],
    ['unknown split', { type: 'rouge-lsum', flavor: 'rouge155', split: 'lines' }, /^sentence split must be one of none/],
  ])('%s', (_, options, message) => {
    let error: unknown;
    try {
      new Rouge(options);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).code).toBe('E_BAD_OPTION');
    expect((error as InputError).message).toMatch(message);
  });

  it('references and statistics: empty input, mismatched lengths, foreign references, wrong row width', () => {
    const m = new Rouge({ type: 'rouge-1', flavor: 'rouge155' });
    expect(() => m.prepareReferences([])).toThrow(expect.objectContaining({ code: 'E_EMPTY_INPUT' }));
    expect(() => m.prepareReferences([['a'], ['a', 'b']])).toThrow(
      expect.objectContaining({
        code: 'E_LINE_COUNT_MISMATCH',
        message: 'reference stream 2 has 2 lines, reference stream 1 has 1',
      }),
    );
    const refs = m.prepareReferences([['a b']]);
    expect(() => m.segmentStats(['a', 'b'], refs)).toThrow(
      expect.objectContaining({ code: 'E_LINE_COUNT_MISMATCH', message: '2 hypotheses but 1 reference segments' }),
    );
    expect(() => new Rouge({ type: 'rouge-1', flavor: 'rouge155', stem: true }).segmentStats(['a'], refs)).toThrow(TypeError);
    expect(() => m.scoreFromStats(new Float64Array(3))).toThrow(
      new RangeError('ROUGE-1 statistics must have 7 columns (got 3)'),
    );
  });
});

describe('ROUGE signatures', () => {
  it('list every setting that changes the number', () => {
    expect(new Rouge({ type: 'rouge-l', flavor: 'rouge155' }).signature(1)).toBe(
      `nrefs:1|type:ROUGE-L|flavor:rouge155|tok:rouge155|stem:no|stop:no|split:none|mref:pool|alpha:0.5|avg:segment|jk:no|version:${VERSION}`,
    );
    expect(new Rouge({ type: 'rougeLsum', flavor: 'rouge-score', stem: true }).signature(4, true)).toBe(
      `#:4|r:ROUGE-Lsum|fl:rouge-score|tok:rouge-score|st:yes|sw:no|sp:newline|mr:best-f|avg:segment|jk:no|v:${VERSION}`,
    );
    expect(
      new Rouge({
        type: 'rouge-su*',
        flavor: 'paper',
        tokenizer: '13a',
        lowercase: true,
        jackknife: true,
        beta: 2,
      }).signature(-1),
    ).toBe(
      `nrefs:var|type:ROUGE-SU*|flavor:paper|tok:13a|case:lc|stem:no|stop:no|split:none|mref:max|beta:2|avg:segment|jk:yes|version:${VERSION}`,
    );
    expect(new Rouge({ type: 'rouge-2', flavor: 'rouge155', limit: { bytes: 665 }, removeStopwords: true }).signature(11)).toContain(
      '|stop:yes|split:none|limit:665b|mref:pool|',
    );
  });
});

describe('ROUGE flavors, hand-derived', () => {
  it('ROUGE-1.5.5 never counts the last token as a unigram in SU ("x y z" vs "a b z": ROUGE-1 0.333, SU4 0)', () => {
    expect(prf({ type: 'rouge-1', flavor: 'rouge155' }, 'x y z', ['a b z'])).toEqual([0.33333, 0.33333, 0.33333]);
    expect(prf({ type: 'rouge-su4' }, 'x y z', ['a b z'])).toEqual([0, 0, 0]);
    // The paper's SU counts every unigram: 3 pairs + 3 unigrams a side, 1 hit ("z").
    expect(prf({ type: 'rouge-su4', flavor: 'paper' }, 'x y z', ['a b z'])).toEqual([1 / 6, 1 / 6, 1 / 6]);
  });

  it('rouge155 rounds R and P to 5 decimals and F from the rounded values (1 of 3, 1 of 7)', () => {
    // R = 1/7 → 0.14286, P = 1/3 → 0.33333; F = P·R / (P/2 + R/2) of the rounded values → 0.20000.
    expect(prf({ type: 'rouge-1', flavor: 'rouge155' }, 'a b c', ['a d e f g h i'])).toEqual([0.33333, 0.14286, 0.2]);
    expect(prf({ type: 'rouge-1', flavor: 'paper' }, 'a b c', ['a d e f g h i'])).toEqual([1 / 3, 1 / 7, 0.2]);
  });

  it('Case, NoCase and Stem sets are tokenizer options (paper §5)', () => {
    const hyp = 'The Cats sat';
    const ref = 'the cat sat';
    // Case: sacrebleu's `none` tokenizer keeps case: only "sat" matches.
    expect(prf({ type: 'rouge-1', flavor: 'paper', tokenizer: 'none' }, hyp, [ref])).toEqual([1 / 3, 1 / 3, 1 / 3]);
    // NoCase: "the", "sat".
    expect(prf({ type: 'rouge-1', flavor: 'paper', tokenizer: 'none', lowercase: true }, hyp, [ref])[0]).toBe(2 / 3);
    expect(prf({ type: 'rouge-1', flavor: 'paper' }, hyp, [ref])[0]).toBe(2 / 3);
    // Stem: cats → cat.
    expect(prf({ type: 'rouge-1', flavor: 'paper', stem: true }, hyp, [ref])[0]).toBe(1);
    expect(
      prf({ type: 'rouge-1', flavor: 'paper', tokenizer: 'none', lowercase: true, stem: true }, hyp, [ref])[0],
    ).toBe(1);
    // Other scripts: ROUGE-1.5.5's tokenizer blanks non-ASCII bytes; rouge-unicode keeps letters of any script;
    // sacrebleu's char tokenizer makes every character a token.
    expect(prf({ type: 'rouge-1', flavor: 'paper' }, '日本語 テスト', ['日本語'])).toEqual([0, 0, 0]);
    expect(prf({ type: 'rouge-1', flavor: 'paper', tokenizer: 'rouge-unicode' }, '日本語 テスト', ['日本語'])).toEqual([
      0.5,
      1,
      2 / 3,
    ]);
    expect(prf({ type: 'rouge-1', flavor: 'paper', tokenizer: 'char' }, '日本語', ['日本人'])[0]).toBe(2 / 3);
    // Stopwords (-s): "the" leaves both sides.
    expect(prf({ type: 'rouge-1', flavor: 'rouge155', removeStopwords: true }, 'the cat', ['a cat'])).toEqual([1, 1, 1]);
  });

  it('ROUGE-L sentence level vs summary level: one LCS vs the clipped union over sentences', () => {
    // Reference sentences "a b" / "c d"; hypothesis "c d a b": the whole-text LCS is 2, the union LCS 4.
    const ref = 'a b\nc d';
    expect(prf({ type: 'rougeL', flavor: 'rouge-score' }, 'c d a b', [ref])).toEqual([0.5, 0.5, 0.5]);
    expect(prf({ type: 'rougeLsum', flavor: 'rouge-score' }, 'c d a b', [ref])).toEqual([1, 1, 1]);
    expect(prf({ type: 'rouge-lsum', flavor: 'rouge155', split: 'newline' }, 'c d a b', [ref])).toEqual([1, 1, 1]);
    // Clipping: hypothesis "a" once, reference "a a" in two sentences: both reference tokens are on a union LCS,
    // but only one "a" is there to match (rouge-score and ROUGE-1.5.5); the paper's union LCS does not clip.
    expect(prf({ type: 'rougeLsum', flavor: 'rouge-score' }, 'a', ['a\na'])).toEqual([1, 0.5, 2 / 3]);
    expect(prf({ type: 'rouge-lsum', flavor: 'paper', split: 'newline' }, 'a', ['a\na'])).toEqual([2, 1, 4 / 3]);
  });

  it('multi-reference: pool (-f A) counts the hypothesis once per reference; best-recall keeps the first on ties', () => {
    // Hypothesis "a c"; references "a b" (1 hit of 2) and "a c d e" (2 hits of 4): both recalls are 0.5.
    const refs = ['a b', 'a c d e'];
    const rowOf = (options: RougeOptions): number[] => {
      const m = new Rouge(options);
      return Array.from(m.segmentStats(['a c'], m.prepareReferences(refs.map((r) => [r]))));
    };
    // pool: hits 3, hypothesis 2 + 2, reference 6 → R 0.5, P 0.75, F 0.6.
    expect(rowOf({ type: 'rouge-1', flavor: 'rouge155' })).toEqual([3, 4, 6, 0.75, 0.5, 0.6, 1]);
    // best-recall: the tie goes to the first reference: P 0.5 (not 1).
    expect(rowOf({ type: 'rouge-1', flavor: 'rouge155', multiReference: 'best-recall' })).toEqual([1, 2, 2, 0.5, 0.5, 0.5, 1]);
    // paper max: R = max(0.5, 0.5), P = max(0.5, 1).
    expect(rowOf({ type: 'rouge-1', flavor: 'paper' }).slice(3, 6)).toEqual([1, 0.5, 2 / 3]);
  });

  it('pooled averages: P/R/F of the summed counts (ROUGE-W in the rouge155 flavor without f⁻¹, as ROUGE -t 1)', () => {
    const hyps = ['a b c', 'a'];
    const refs = [['a b d e', 'a f']];
    const m = new Rouge({ type: 'rouge-1', flavor: 'rouge155', average: 'pooled' });
    const totals = sumRows(m.segmentStats(hyps, m.prepareReferences(refs)), 7);
    // hits 2 + 1, hypothesis 3 + 1, reference 4 + 2: R = 3/6, P = 3/4, F = P·R / (P/2 + R/2), not rounded.
    const d = m.scoreFromStats(totals).details!;
    expect([d.recall, d.precision, d.fmeasure]).toEqual([0.5, 0.75, (0.75 * 0.5) / (0.5 * 0.75 + 0.5 * 0.5)]);
    const w = new Rouge({ type: 'rouge-w', average: 'pooled' });
    const wt = sumRows(w.segmentStats(hyps, w.prepareReferences(refs)), 7);
    expect(w.scoreFromStats(wt).details!.recall).toBe(wt[0] / wt[2]);
    const pw = new Rouge({ type: 'rouge-w', flavor: 'paper', multiReference: 'pool', average: 'pooled' });
    const pt = sumRows(pw.segmentStats(hyps, pw.prepareReferences(refs)), 7);
    expect(pw.scoreFromStats(pt).details!.recall).toBeCloseTo(Math.pow(pt[0] / pt[2], 1 / 1.2), 15);
  });

  it('degenerate input: empty hypotheses, empty references, no segments give 0, never NaN', () => {
    const cases: RougeOptions[] = [
      { type: 'rouge-1', flavor: 'rouge155' },
      { type: 'rouge-l', flavor: 'rouge155' },
      { type: 'rouge-w' },
      { type: 'rouge-su4' },
      { type: 'rouge-lsum', flavor: 'rouge155', split: 'punct' },
      { type: 'rougeL', flavor: 'rouge-score' },
      { type: 'rougeLsum', flavor: 'rouge-score' },
      { type: 'rouge-w', flavor: 'paper' },
      { type: 'rouge-s*', flavor: 'paper', jackknife: true },
    ];
    for (const options of cases) {
      const m = new Rouge(options);
      const rows = m.segmentStats(
        ['', 'a b', '', ' . '],
        m.prepareReferences([
          ['a b', '', '', '...'],
          ['', '', '', ''],
        ]),
      );
      expect(
        Array.from(rows).every((x) => Number.isFinite(x)),
        JSON.stringify(options),
      ).toBe(true);
      for (let i = 0; i < 4; i++) expect(Array.from(rows.subarray(7 * i + 3, 7 * i + 6))).toEqual([0, 0, 0]);
      expect(m.segmentStats([], m.prepareReferences([[]]))).toEqual(new Float64Array(0));
      const none = m.scoreFromStats(new Float64Array(7));
      expect([none.score, none.details!.precision, none.details!.recall]).toEqual([0, 0, 0]);
    }
  });

  it('a score: name, F as the score, ROUGE-style verbose text, details', () => {
    const s = sentenceScore(new Rouge({ type: 'rouge-2', flavor: 'rouge155' }), 'a b c', ['a b d']);
    expect(s).toEqual({
      name: 'ROUGE-2',
      score: 0.5,
      verboseScore: 'R: 0.50000 P: 0.50000 F: 0.50000',
      details: { precision: 0.5, recall: 0.5, fmeasure: 0.5, hit: 1, hyp: 2, ref: 2, segments: 1 },
    });
  });
});

describe('rouge155Unit, hand-derived', () => {
  it('-f B keeps the first model on a recall tie; -f A pools', () => {
    // Peer "a c"; models "a b" (ROUGE-1 recall 1/2) and "a c d e" (2/4). LCS likewise.
    const b = rouge155Unit(['a c'], [['a b'], ['a c d e']], { ...UNIT, formula: 'B' });
    expect(b.map((t) => [t.type, t.hitCount, t.modelCount, t.peerCount, t.precision])).toEqual([
      ['ROUGE-1', 1, 2, 2, 0.5],
      ['ROUGE-L', 1, 2, 2, 0.5],
    ]);
    const a = rouge155Unit(['a c'], [['a b'], ['a c d e']], UNIT);
    expect(a.map((t) => [t.type, t.hitCount, t.modelCount, t.peerCount, t.recall, t.precision])).toEqual([
      ['ROUGE-1', 3, 6, 4, 0.5, 0.75],
      ['ROUGE-L', 3, 6, 4, 0.5, 0.75],
    ]);
  });

  it('types in ROUGE order; -U adds SU after S; -u alone gives SU; -x drops L; labels as given', () => {
    const types = (o: Partial<Rouge155UnitOptions>): string[] =>
      rouge155Unit(['a b'], [['a b']], { ...UNIT, ...o }).map((t) => t.type);
    expect(types({ maxN: 2, wWeight: 1.2, skipDistance: 4, suAlso: true })).toEqual([
      'ROUGE-1',
      'ROUGE-2',
      'ROUGE-L',
      'ROUGE-W-1.2',
      'ROUGE-S4',
      'ROUGE-SU4',
    ]);
    expect(types({ skipDistance: -1, su: true, suAlso: true })).toEqual(['ROUGE-1', 'ROUGE-L', 'ROUGE-SU*']);
    expect(types({ maxN: 0, noLcs: true, wWeight: 1.5, wLabel: '1.50', skipDistance: 9, skipLabel: '09' })).toEqual([
      'ROUGE-W-1.50',
      'ROUGE-S09',
    ]);
  });

  it('-t 1/-t 2 print counts in Perl number format; -t 0 the 5-decimal strings', () => {
    const [t0] = rouge155Unit(['a b c'], [['a d e f g h i']], UNIT);
    expect(t0.printed).toEqual(['0.14286', '0.33333', '0.20000']);
    const [t2] = rouge155Unit(['a b c'], [['a d e f g h i']], { ...UNIT, countMode: 2 });
    expect(t2.printed).toEqual(['7', '3', '1']);
  });

  it('a model without tokens under -w: 0 and a warning (ROUGE-1.5.5 dies)', () => {
    const warnings: string[] = [];
    const out = rouge155Unit(['a b'], [['a b'], ['...']], { ...UNIT, maxN: 0, noLcs: true, wWeight: 1.2 }, warnings);
    expect(warnings).toEqual([
      'ROUGE-W-1.2: model 2 has no tokens; scored as 0 (ROUGE-1.5.5 dies here: Illegal division by zero)',
    ]);
    // Model 1 alone: hit f(2), model count f(f(2)), peer count f(2) counted twice (once per model).
    expect(out[0].hitCount).toBe(Math.pow(2, 1.2));
    expect(out[0].peerCount).toBe(2 * Math.pow(2, 1.2));
  });

  it('-M stems the models only, where ROUGE-1.5.5 does (not ROUGE-N, not ROUGE-W hit masks)', () => {
    const o = { ...UNIT, wWeight: 1.2, skipDistance: 4, stemModelsOnly: true };
    const got = new Map(rouge155Unit(['run fast'], [['running fast']], o).map((t) => [t.type, t.hitCount]));
    // ROUGE-1: "run" ≠ "running" (no stemming) → 1; S4: model pair "run fast" → 1; L: stemmed model → 2;
    // W: unstemmed model masks ("fast" only) → f(1) = 1.
    expect(Object.fromEntries(got)).toEqual({ 'ROUGE-1': 1, 'ROUGE-L': 2, 'ROUGE-W-1.2': 1, 'ROUGE-S4': 1 });
    const plain = new Map(
      rouge155Unit(['run fast'], [['running fast']], { ...o, stemModelsOnly: false }).map((t) => [t.type, t.hitCount]),
    );
    expect(Object.fromEntries(plain)).toEqual({ 'ROUGE-1': 1, 'ROUGE-L': 1, 'ROUGE-W-1.2': 1, 'ROUGE-S4': 0 });
  });

  it('Basic Elements (-3): the six modes on SIMPLE HEAD|MODIFIER|RELATION lines, -m stems heads and modifiers', () => {
    const peer = ['Cat|sat|subj', 'mat|NIL|NIL', 'dog|big|mod'];
    const model = ['cat|sat|subj', 'mat|nil|nil', 'dog|NIL|NIL'];
    const be = (mode: 'H' | 'HM' | 'HMR' | 'HM1' | 'HMR1' | 'HMR2', p = peer, m = model, stem = false): number[] => {
      const [t] = rouge155Unit(p, [m], { ...UNIT, maxN: 0, stem, basicElements: mode });
      expect(t.type).toBe(`ROUGE-BE-${mode}`);
      return [t.hitCount, t.modelCount, t.peerCount];
    };
    expect(be('H')).toEqual([1, 2, 1]); // heads with a NIL modifier: peer {mat}, model {mat, dog}
    expect(be('HM')).toEqual([1, 1, 2]); // pairs with a modifier: peer {cat|sat, dog|big}, model {cat|sat}
    expect(be('HMR')).toEqual([1, 1, 2]);
    expect(be('HM1')).toEqual([2, 3, 3]); // every head|modifier
    expect(be('HMR1')).toEqual([1, 1, 2]);
    expect(be('HMR2')).toEqual([2, 3, 3]);
    expect(be('HM', ['running|dogs|mod'], ['run|dog|mod'], true)).toEqual([1, 1, 1]);
    expect(be('HM', ['running|dogs|mod'], ['run|dog|mod'], false)).toEqual([0, 1, 1]);
    expect(() => be('H', ['a|b'])).toThrow(expect.objectContaining({ code: 'E_BAD_INPUT' }));
  });

  it.each<[string, Partial<Rouge155UnitOptions>, RegExp]>([
    ['-n -1', { maxN: -1 }, /^maxN \(-n\) must be a non-negative integer/],
    ['-w 0', { wWeight: 0 }, /^wWeight \(-w\) must be a number greater than 0/],
    ['-2 1.5', { skipDistance: 1.5 }, /^skipDistance \(-2\) must be an integer/],
    ['-f C', { formula: 'C' as never }, /^formula \(-f\) must be "A" or "B"/],
    ['-p 2', { alpha: 2 }, /^alpha \(-p\) must be a number from 0 to 1/],
    ['-t 3', { countMode: 3 as never }, /^countMode \(-t\) must be 0, 1 or 2/],
    ['-l and -b', { limitWords: 10, limitBytes: 10 }, /must be not both set/],
    ['-3 X', { basicElements: 'X' as never }, /^basicElements \(-3\) must be one of H, HM/],
  ])('option error %s', (_, o, message) => {
    expect(() => rouge155Unit(['a'], [['a']], { ...UNIT, ...o })).toThrow(message);
    expect(() => rouge155Unit(['a'], [['a']], { ...UNIT, ...o })).toThrow(InputError);
  });
});

describe("Perl's number formats", () => {
  it('%7.5f rounds exact binary ties to even, as C does (toFixed would round 1/64 up)', () => {
    expect(perlFixed5(1 / 64)).toBe('0.01562');
    expect((1 / 64).toFixed(5)).toBe('0.01563');
    expect(perlFixed5(3 / 64)).toBe('0.04688');
    expect(perlFixed5(1 / 3)).toBe('0.33333');
    expect(perlFixed5(1)).toBe('1.00000');
    expect(perlFixed5(0)).toBe('0.00000');
  });

  it('%.15g: integers bare, 15 significant digits, exponent below 1e-4 and from 1e15', () => {
    expect(perlNumber(516)).toBe('516');
    expect(perlNumber(2234.0336471207264)).toBe('2234.03364712073');
    expect(perlNumber(0.1 + 0.2)).toBe('0.3');
    expect(perlNumber(0.0001)).toBe('0.0001');
    expect(perlNumber(0.00001234)).toBe('1.234e-05');
    expect(perlNumber(1e15)).toBe('1e+15');
    expect(perlNumber(123456789012345680)).toBe('1.23456789012346e+17');
    expect(perlNumber(0)).toBe('0');
  });
});
